// Command ampcors is a small publisher API server whose CORS is answered by
// the ampcache middleware: its AMP pages may call it from the publisher's
// own origins and from every AMP Cache.
//
// Usage:
//
//	go run ./examples/ampcors -addr 127.0.0.1:8080 -origins https://example.com,https://www.example.com
//
// It serves GET /api/items, the JSON of an amp-list, and POST
// /api/subscribe, the answer of an amp-form. Try it with curl:
//
//	curl -i -H 'Origin: https://www-example-com.cdn.ampproject.org' http://127.0.0.1:8080/api/items
//	curl -i -H 'Origin: https://evil-com.cdn.ampproject.org' http://127.0.0.1:8080/api/items
//	curl -i -X OPTIONS -H 'Origin: https://www-example-com.cdn.ampproject.org' \
//		-H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: content-type' \
//		http://127.0.0.1:8080/api/subscribe
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/urlspec/urlspec/ampcache"
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

// newHandler returns the publisher's API, behind the CORS middleware.
func newHandler(origins []string) (http.Handler, error) {
	cors, err := ampcache.NewCORS(ampcache.CORSConfig{Origins: origins})
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
	return cors.Handler(mux), nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
