// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// benchURLs are 20 varied URLs: unsafe and canary ones, hosts with many
// labels, paths, queries, escapes, IP addresses, ports.
var benchURLs = []string{
	evil,
	canary,
	safe,
	"https://www.example.org/a/b/c/d.html?q=1&r=2",
	"http://a.b.c.d.e.f.example.net/path/to/page",
	"HTTP://WWW.EXAMPLE.COM:8080/Index.html",
	"http://192.0.2.7/admin",
	"http://[2001:db8::1]/x",
	"https://example.com/%7Euser/file%20name.pdf",
	"http://evil.example/other/page?id=42",
	"example.co.uk/shop/cart",
	"https://news.example.com/2026/11/26/story.html#comments",
	"http://login.example.com/../account/./settings",
	"https://cdn.example.net/assets/app.js?v=123456789",
	"http://xn--bcher-kva.example/buch",
	"https://docs.example.io/en/latest/api.html",
	"http://shop.example.com/search?q=go+safe+browsing&page=3",
	"ftp://files.example.org/pub/readme.txt",
	"https://example.com/very/deep/path/with/many/segments/index.php",
	"http://sub.evil.example/login",
}

// newBenchProxy is a loaded LocalList proxy on loopback and its client.
func newBenchProxy(tb testing.TB) (*lookup.Client, string) {
	_, c, p := newProxy(tb, lookup.LocalList, true)
	return c, p.URL
}

// BenchmarkSearch measures GET /v5/urls:search with 20 URLs a request over
// a keep-alive loopback connection against LookupAll of the same URLs in
// process, and against a floor: a handler that does nothing, answering the
// same request on the same connection, which is what HTTP itself costs.
// The three alternate in blocks of searchBlock requests within one run, so
// that a machine whose load changes during the run slows each alike. It
// reports ns/url of each, x-inprocess (the server over in-process: goal at
// most 3) and floor-x-inprocess (the floor over in-process: the part of
// x-inprocess that is HTTP's, not sbserver's). ns/op is one HTTP search.
func BenchmarkSearch(b *testing.B) {
	_, c, _ := newProxy(b, lookup.LocalList, true)
	s := newServer(c, options{Mode: lookup.LocalList})
	p := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/noop" {
			return
		}
		s.ServeHTTP(w, r)
	}))
	b.Cleanup(p.Close)
	query := "?" + url.Values{"urls": benchURLs}.Encode()
	search, noop := p.URL+"/v5/urls:search"+query, p.URL+"/noop"+query
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	b.Cleanup(client.CloseIdleConnections)
	get := func(u string) {
		resp, err := client.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	ctx := context.Background()
	inProcess := func() {
		if _, err := c.LookupAll(ctx, benchURLs); err != nil {
			b.Fatal(err)
		}
	}
	// Warm the cache, the connection and each path.
	get(search)
	get(noop)
	inProcess()

	// timed runs f n times and returns the time taken.
	timed := func(n int, f func()) time.Duration {
		start := time.Now()
		for range n {
			f()
		}
		return time.Since(start)
	}
	var httpT, inT, floorT time.Duration
	// others runs the in-process and floor blocks of the k searches just
	// timed.
	others := func(k int) {
		inT += timed(k, inProcess)
		floorT += timed(k, func() { get(noop) })
	}
	n, inBlock := 0, 0
	b.ReportAllocs()
	blockStart := time.Now()
	for b.Loop() {
		get(search)
		n++
		inBlock++
		if inBlock == searchBlock {
			httpT += time.Since(blockStart)
			b.StopTimer() // ns/op and B/op are the searches'
			others(inBlock)
			b.StartTimer()
			inBlock = 0
			blockStart = time.Now()
		}
	}
	if inBlock > 0 { // b.Loop has stopped the timer
		httpT += time.Since(blockStart)
		others(inBlock)
	}
	urls := float64(n * len(benchURLs))
	httpNs := float64(httpT.Nanoseconds()) / urls
	inNs := float64(inT.Nanoseconds()) / urls
	floorNs := float64(floorT.Nanoseconds()) / urls
	b.ReportMetric(httpNs, "ns/url-http")
	b.ReportMetric(inNs, "ns/url-inprocess")
	b.ReportMetric(floorNs, "ns/url-floor")
	b.ReportMetric(httpNs/inNs, "x-inprocess")
	b.ReportMetric(floorNs/inNs, "floor-x-inprocess")
}

// searchBlock is how many requests of each kind BenchmarkSearch runs in a
// row: about 10 ms of searches, long enough that switching costs nothing,
// short enough that the machine's load is the same for the three kinds.
const searchBlock = 100

// TestLoad is a bounded load test on loopback: a few thousand
// urls:search requests of 20 URLs from 8 keep-alive clients, stopping by
// itself. It logs requests per second, p50 and p99 (go test -v -run TestLoad).
func TestLoad(t *testing.T) {
	requests := 4000
	if testing.Short() {
		requests = 400
	}
	_, base := newBenchProxy(t)
	u := base + "/v5/urls:search?" + url.Values{"urls": benchURLs}.Encode()
	const workers = 8
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}, Timeout: 30 * time.Second}
	lat := make([]time.Duration, requests)
	var next sync.Mutex
	i := 0
	take := func() int {
		next.Lock()
		defer next.Unlock()
		i++
		return i - 1
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := take(); j < requests; j = take() {
				t0 := time.Now()
				resp, err := client.Get(u)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[j] = time.Since(t0)
				if resp.StatusCode != 200 {
					t.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	rps := float64(requests) / elapsed.Seconds()
	t.Logf("%d requests of %d URLs, %d clients, in %v: %.0f requests/s (%s URLs/s), p50 %v, p99 %v",
		requests, len(benchURLs), workers, elapsed.Round(time.Millisecond), rps,
		strconv.FormatFloat(rps*float64(len(benchURLs)), 'f', 0, 64),
		lat[requests/2].Round(time.Microsecond), lat[requests*99/100].Round(time.Microsecond))
}
