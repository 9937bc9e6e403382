// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file counts the requests sbserver sends upstream, by method, for
// sbserver_upstream_requests_total: what Google bills (Web Risk's
// hashes:search) and what its quotas count.

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// The upstream methods counted, and "other" for any request that is none
// of them (an OHTTP key fetch).
var upstreamMethodNames = []string{"hashList", "hashLists:batchGet", "hashLists", "hashes:search", "threatLists:computeDiff", "other"}

// upstreamMethods are the methods each API's series show from the start,
// at 0 until a request is sent: those its client sends.
var upstreamMethods = map[lookup.API][]string{
	lookup.SafeBrowsing: {"hashList", "hashLists:batchGet", "hashLists", "hashes:search"},
	lookup.WebRisk:      {"threatLists:computeDiff", "hashes:search"},
}

// An upstreamCounter is an http.RoundTripper that counts each request it
// sends by method, then sends it with base.
type upstreamCounter struct {
	base   http.RoundTripper
	counts map[string]*atomic.Uint64 // by upstreamMethodNames, made at start and only read
}

func newUpstreamCounter(base http.RoundTripper) *upstreamCounter {
	u := &upstreamCounter{base: base, counts: make(map[string]*atomic.Uint64, len(upstreamMethodNames))}
	for _, m := range upstreamMethodNames {
		u.counts[m] = new(atomic.Uint64)
	}
	return u
}

// upstreamClient returns the HTTP client of sbserver's lookup clients:
// the timeouts of lookup's own (10 s for TLS, 30 s for a reply's headers,
// 2 min in all), its requests counted by c.
func upstreamClient(c *upstreamCounter) *http.Client {
	return &http.Client{Transport: c, Timeout: 2 * time.Minute}
}

// defaultTransport is lookup's default transport: http.DefaultTransport
// with its TLS and reply-header timeouts.
func defaultTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSHandshakeTimeout = 10 * time.Second
	t.ResponseHeaderTimeout = 30 * time.Second
	return t
}

func (u *upstreamCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	u.counts[upstreamMethod(r)].Add(1)
	return u.base.RoundTrip(r)
}

// upstreamMethod names the method of an upstream request by its path,
// {BaseURL}/v5/{method} or /v1/{method}, hashList/{name} being hashList;
// an Oblivious HTTP request to the relay is a hashes:search, the only
// method sent that way; anything else is "other".
func upstreamMethod(r *http.Request) string {
	if r.Method == http.MethodPost && r.Header.Get("Content-Type") == "message/ohttp-req" {
		return "hashes:search"
	}
	p := r.URL.Path
	i := max(strings.LastIndex(p, "/v5/"), strings.LastIndex(p, "/v1/"))
	if i < 0 {
		return "other"
	}
	m := p[i+len("/v5/"):]
	if strings.HasPrefix(m, "hashList/") {
		return "hashList"
	}
	if slices.Contains(upstreamMethodNames, m) {
		return m // "other" is no path of the APIs
	}
	return "other"
}

var upstreamDesc = prometheus.NewDesc("sbserver_upstream_requests_total",
	"Requests sent upstream, by method (hashList, hashLists:batchGet, hashLists, hashes:search; under -api webrisk threatLists:computeDiff, not billed, and hashes:search, billed by the call; other: an OHTTP key fetch), whatever their answer.",
	[]string{"method"}, nil)

// upstreamCollector reads an upstreamCounter at each scrape: the methods
// of the API always, the others once counted.
type upstreamCollector struct {
	u   *upstreamCounter
	api lookup.API
}

func (c upstreamCollector) Describe(ch chan<- *prometheus.Desc) { ch <- upstreamDesc }

func (c upstreamCollector) Collect(ch chan<- prometheus.Metric) {
	shown := upstreamMethods[c.api]
	for _, m := range upstreamMethodNames {
		n := c.u.counts[m].Load()
		if n == 0 && !slices.Contains(shown, m) {
			continue
		}
		ch <- prometheus.MustNewConstMetric(upstreamDesc, prometheus.CounterValue, float64(n), m)
	}
}
