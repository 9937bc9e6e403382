// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ampcors is a small publisher API server whose CORS is answered by
// the middleware of package ampcache/ampcors: its AMP pages may call it
// from the publisher's own origins and from every AMP Cache.
//
// Usage:
//
//	go run ./examples/ampcors -addr 127.0.0.1:8080 -origins https://example.com,https://www.example.com
//
// It serves GET /api/items, the JSON of an amp-list, POST /api/subscribe,
// the answer of an amp-form, and an AMP page at /amp.html that calls them.
// Requests for a host on an AMP Cache go to a local AMP Cache
// (ampcache/cachetest) in front of the publisher, so the page can also be
// loaded at its cache URL. Try it with curl:
//
//	curl -s -H 'Host: www-example-com.cdn.ampproject.org' http://127.0.0.1:8080/c/s/www.example.com/amp.html
//	curl -i -H 'Origin: https://www-example-com.cdn.ampproject.org' http://127.0.0.1:8080/api/items
//	curl -i -H 'Origin: https://evil-com.cdn.ampproject.org' http://127.0.0.1:8080/api/items
//	curl -i -H 'Origin: https://www-example-com.cdn.ampproject.org' \
//		'http://127.0.0.1:8080/api/items?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com'
//	curl -i -X OPTIONS -H 'Origin: https://www-example-com.cdn.ampproject.org' \
//		-H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: content-type' \
//		http://127.0.0.1:8080/api/subscribe
package main

import (
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/urlspec/urlspec/ampcache/ampcors"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	origins := flag.String("origins", "https://example.com,https://www.example.com", "the publisher's origins, comma-separated")
	flag.Parse()

	h, err := newHandler(strings.Split(*origins, ","))
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("ampcors: serving %s on http://%s", *origins, *addr)
	log.Fatal(srv.ListenAndServe())
}

// page is the publisher's AMP page: an amp-list of /api/items.
const page = `<!doctype html>
<html ⚡ lang="en">
<head>
<meta charset="utf-8">
<link rel="canonical" href="https://www.example.com/amp.html">
<script async src="https://cdn.ampproject.org/v0.js"></script>
<script async custom-element="amp-list" src="https://cdn.ampproject.org/v0/amp-list-0.1.js"></script>
<title>ampcors</title>
</head>
<body>
<amp-list src="https://www.example.com/api/items" width="auto" height="100" layout="fixed-height"></amp-list>
</body>
</html>
`

// newHandler returns the publisher's site, its API behind the CORS
// middleware, and a local AMP Cache for the cache hosts.
func newHandler(origins []string) (http.Handler, error) {
	policy, err := ampcors.New(ampcors.Config{Origins: origins})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/items", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"items": []map[string]string{{"title": "First"}, {"title": "Second"}}})
	})
	mux.HandleFunc("POST /api/subscribe", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"ok": true})
	})
	mux.HandleFunc("GET /amp.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	})
	site := http.NewServeMux()
	site.Handle("/api/", policy.Handler(mux))
	site.Handle("/", mux)
	cache, err := cachetest.New(site)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cache.IsCacheHost(r.Host) {
			cache.ServeHTTP(w, r)
			return
		}
		site.ServeHTTP(w, r)
	}), nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
