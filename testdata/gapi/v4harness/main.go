// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command v4harness serves safebrowse/v4update on loopback, with no
// sbserver, for v4 clients run by hand against it, such as
// github.com/google/safebrowsing's SafeBrowser with its ServerURL set to
// the address printed: a fake upstream (sbtest, seeded with
// sbtest.TestURLs), a lookup.Client that fetches from it, and the v4
// Update API served from that client's lists, at /v4/.
//
//	go run ./v4harness -addr 127.0.0.1:8404 [-api webrisk]
//
// Beside /v4/, it serves, to drive the upstream between runs of a client:
//
//   - POST /harness/add?list=mw-4b&expr=evil.example/ (&n=8 for an entry
//     of 8 bytes on Web Risk's list) and /harness/remove?list=…&expr=…, a
//     change upstream;
//   - POST /harness/update, the client's fetch of its due lists, so that
//     the change reaches the v4 lists;
//   - GET /harness/stats, the v4 server's counters and the client's, in
//     JSON.
//
// It logs each v4 request with its status and the updates it served,
// full and partial, and accepts any key.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to serve on")
	many := flag.Int("many", 1000, "entries added to uwsa-4b beside the test URLs, for a Rice stream of some length")
	apiName := flag.String("api", "safebrowsing", "the upstream's API: safebrowsing (v5) or webrisk")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	api, err := lookup.ParseAPI(*apiName)
	if err != nil {
		log.Fatal(err)
	}

	// Lists due again at once (v5), or a second after a fetch (Web Risk's
	// least wait), so that /harness/update fetches a change.
	up := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithMinimumWait(0), sbtest.WithRecommendedNextDiff(time.Millisecond))
	defer up.Close()
	for i := range *many {
		up.Add("uwsa-4b", "many"+strconv.Itoa(i)+".example/")
	}
	src, err := lookup.New(lookup.Config{API: api, BaseURL: up.URL, APIKey: up.APIKey})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := src.Update(ctx); err != nil {
		log.Fatal(err)
	}
	v4, err := v4update.New(src, v4update.Config{})
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/v4/", func(w http.ResponseWriter, r *http.Request) {
		before := v4.Stats()
		rec := &status{ResponseWriter: w, code: http.StatusOK}
		v4.ServeHTTP(rec, r)
		after := v4.Stats()
		log.Printf("%s %s alt=%q $req=%v: %d; full updates %d, partial %d, not served %d",
			r.Method, r.URL.Path, r.URL.Query().Get("alt"), r.URL.Query().Has("$req"), rec.code,
			after.FullUpdates-before.FullUpdates, after.PartialUpdates-before.PartialUpdates, after.Unserved-before.Unserved)
	})
	change := func(add bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			list, expr := r.URL.Query().Get("list"), r.URL.Query().Get("expr")
			err := up.Remove(list, expr)
			if n, _ := strconv.Atoi(r.URL.Query().Get("n")); add && n > 4 {
				err = up.AddPrefix(list, expr, n) // Web Risk's entry of n bytes
			} else if add {
				err = up.Add(list, expr)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			log.Printf("upstream: add %v %s %s", add, list, expr)
		}
	}
	mux.HandleFunc("POST /harness/add", change(true))
	mux.HandleFunc("POST /harness/remove", change(false))
	mux.HandleFunc("POST /harness/update", func(w http.ResponseWriter, r *http.Request) {
		if err := src.Update(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		log.Printf("the client fetched its due lists")
	})
	mux.HandleFunc("GET /harness/stats", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"v4update": v4.Stats(), "lookup": src.Stats()})
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

// status records the status a handler writes.
type status struct {
	http.ResponseWriter
	code int
}

func (s *status) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}
