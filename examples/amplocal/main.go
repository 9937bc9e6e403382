// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command amplocal runs a publisher's site behind a local AMP Cache, on
// loopback, so its AMP pages, redirects and API can be tried with curl
// under real cache URLs. The site's API answers CORS with the ampcors
// middleware, so the pages the cache serves may call it.
//
//	go run ./examples/amplocal          # serve, and print curl commands
//	go run ./examples/amplocal -demo    # make the requests itself, print them, exit
//
// The cache (package ampcache/cachetest) answers for
// https://<prefix>.cdn.ampproject.org and https://<prefix>.www.bing-amp.com;
// every other host is the publisher's site. curl reaches both through
// --connect-to, and trusts the server with --cacert.
package main

import (
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/urlspec/urlspec/ampcache/ampcors"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

const page = `<!doctype html>
<html ⚡ lang="en">
<head>
<meta charset="utf-8">
<title>%s</title>
<link rel="canonical" href="https://www.example.com%s">
<meta name="viewport" content="width=device-width">
</head>
<body><h1>%s</h1></body>
</html>
`

// publisher is the publisher's site: AMP pages, a moved page, a non-AMP
// page, a failing page, and a JSON API behind the CORS middleware, which
// allows the site's own origin and its origin on every AMP Cache.
func publisher() (http.Handler, error) {
	policy, err := ampcors.New(ampcors.Config{Origins: []string{"https://www.example.com"}})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /article.amp.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, page, "Article", "/article.html", "An AMP article")
	})
	mux.HandleFunc("GET /old-article", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/article.amp.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /article.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><link rel="canonical" href="https://www.example.com/article.html"></head><body>Not AMP</body></html>`)
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "database down", http.StatusInternalServerError)
	})
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"items":[{"title":"first"},{"title":"second"}]}`+"\n")
	})
	mux.Handle("GET /api/items", policy.Handler(api))
	return mux, nil
}

// requests are the demo's requests: one per behaviour of the cache, and
// two of the API, with the Origin a page on a cache sends.
var requests = []struct{ why, url, origin string }{
	{"an AMP page", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/article.amp.html", ""},
	{"a redirect, followed by the cache", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/old-article", ""},
	{"a page that is not AMP: 302 to its canonical", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/article.html", ""},
	{"a missing page: 404", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/missing", ""},
	{"a server error: 404", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/broken", ""},
	{"the wrong subdomain: 301 to the right one", "https://example-com.cdn.ampproject.org/c/s/www.example.com/article.amp.html", ""},
	{"the publisher's API, called by its page on the cache", "https://www.example.com/api/items", "https://www-example-com.cdn.ampproject.org"},
	{"the publisher's API, called by another site's page on the cache: 403", "https://www.example.com/api/items", "https://evil-com.cdn.ampproject.org"},
}

// newServer starts the local AMP Cache in front of the publisher.
func newServer() (*cachetest.Server, error) {
	site, err := publisher()
	if err != nil {
		return nil, err
	}
	return cachetest.NewServer(site)
}

func main() {
	demo := flag.Bool("demo", false, "make the example requests, print them, and exit")
	flag.Parse()
	log.SetFlags(0)

	s, err := newServer()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	if *demo {
		runDemo(os.Stdout, s)
		return
	}
	ca := filepath.Join(os.TempDir(), "amplocal-ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o644); err != nil {
		log.Fatal(err)
	}
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	fmt.Printf("AMP Cache and publisher on %s; CA certificate in %s\n\nTry:\n", s.URL, ca)
	for _, r := range requests {
		origin := ""
		if r.origin != "" {
			origin = " -H 'Origin: " + r.origin + "'"
		}
		fmt.Printf("  # %s\n  curl -si --cacert %s --connect-to ::127.0.0.1:%s%s %s\n", r.why, ca, port, origin, r.url)
	}
	fmt.Println("\nInterrupt to stop.")
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	<-stop
}

// runDemo makes each request with the server's client, without following
// redirects, and prints the status line, the Location and the body's
// first line.
func runDemo(w io.Writer, s *cachetest.Server) {
	c := *s.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, r := range requests {
		req, err := http.NewRequest("GET", r.url, nil)
		if err != nil {
			fmt.Fprintln(w, err)
			continue
		}
		if r.origin != "" {
			req.Header.Set("Origin", r.origin)
		}
		res, err := c.Do(req)
		if err != nil {
			fmt.Fprintln(w, err)
			continue
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Fprintf(w, "# %s\nGET %s\n", r.why, r.url)
		if r.origin != "" {
			fmt.Fprintf(w, "Origin: %s\n", r.origin)
		}
		fmt.Fprintf(w, "%s %s\n", res.Proto, res.Status)
		for _, k := range []string{"Location", "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials"} {
			if v := res.Header.Get(k); v != "" {
				fmt.Fprintf(w, "%s: %s\n", k, v)
			}
		}
		fmt.Fprintf(w, "Content-Type: %s\n%s\n\n", res.Header.Get("Content-Type"), summary(body))
	}
}

// summary returns the h1 of an HTML page, or the first line of any other
// body.
func summary(body []byte) string {
	s := string(body)
	if i := strings.Index(s, "<h1>"); i >= 0 {
		s = s[i:]
		if j := strings.Index(s, "</h1>"); j >= 0 {
			s = s[:j+len("</h1>")]
		}
	}
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
