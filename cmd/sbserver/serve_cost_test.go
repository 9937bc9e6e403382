// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// discardWriter is an http.ResponseWriter that keeps its header map and
// drops the rest: what a handler allocates is its own.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// TestSearchAllocs: beyond what LookupAll allocates, a urls:search of 20
// URLs costs sbserver four allocations: the query's values and their
// strings, the reply and the recorder of its status. The metrics of a
// 200 cost none.
func TestSearchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations differ under -race")
	}
	_, c, _ := newProxy(t, lookup.LocalList, true)
	s := newServer(c, options{Mode: lookup.LocalList})
	r := httptest.NewRequest("GET", "http://127.0.0.1:8080/v5/urls:search?"+url.Values{"urls": benchURLs}.Encode(), nil)
	w := &discardWriter{h: http.Header{}}
	s.ServeHTTP(w, r) // caches the unsafe URLs' prefixes, makes the series
	lookups := testing.AllocsPerRun(100, func() { c.LookupAll(context.Background(), benchURLs) })
	serve := testing.AllocsPerRun(100, func() { s.ServeHTTP(w, r) })
	if own := serve - lookups; own > 4 {
		t.Errorf("urls:search: %v allocations, %v beyond LookupAll's %v; want at most 4", serve, own, lookups)
	}
}

// TestSeriesMadeWhenCounted: an endpoint's series appear with the first
// request that counts in them, never before, though sbserver looks each
// up once.
func TestSeriesMadeWhenCounted(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	search := p.URL + "/v5/urls:search"
	do(t, "GET", search, "") // a 400
	mfs := scrape(t, p.URL)
	for _, tt := range []struct {
		name   string
		labels []string
		want   float64 // -1: no such series
	}{
		// The 400 is counted.
		{"sbserver_requests_total", []string{"endpoint=urls:search", "code=400"}, 1},
		// No 200 yet.
		{"sbserver_requests_total", []string{"endpoint=urls:search", "code=200"}, -1},
		// No request to urls:lookup yet.
		{"sbserver_request_duration_seconds", []string{"endpoint=urls:lookup"}, -1},
		// The 400's duration.
		{"sbserver_request_duration_seconds", []string{"endpoint=urls:search"}, 1},
	} {
		got, ok := value(mfs[tt.name], tt.labels...)
		if !ok {
			got = -1
		}
		if got != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
	for range 3 {
		do(t, "GET", search+"?urls="+url.QueryEscape(evil), "")
	}
	mfs = scrape(t, p.URL)
	if got, _ := value(mfs["sbserver_requests_total"], "endpoint=urls:search", "code=200"); got != 3 {
		t.Errorf("%v 200s counted, want 3", got)
	}
	if got, _ := value(mfs["sbserver_request_duration_seconds"], "endpoint=urls:search"); got != 4 {
		t.Errorf("%v durations observed, want 4", got)
	}
}
