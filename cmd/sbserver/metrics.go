// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/urlspec/urlspec/safebrowse/mirror"
)

// requestMetrics count the requests by endpoint, a route name or "other",
// so that hostile paths cannot multiply the series.
type requestMetrics struct {
	requests *prometheus.CounterVec   // sbserver_requests_total{endpoint,code}
	duration *prometheus.HistogramVec // sbserver_request_duration_seconds{endpoint}
	other    *endpointMetrics         // the requests of no route
}

// endpointMetrics are one endpoint's series. Its duration and its count
// of 200s are looked up once, at their first use, which is when
// WithLabelValues would have made them: a request costs no lookup by
// label unless its status is not 200.
type endpointMetrics struct {
	m        *requestMetrics
	name     string
	ok       func() prometheus.Counter  // requests{name, "200"}
	duration func() prometheus.Observer // duration{name}
}

// endpoint returns the series of the endpoint name.
func (m *requestMetrics) endpoint(name string) *endpointMetrics {
	return &endpointMetrics{
		m:        m,
		name:     name,
		ok:       sync.OnceValue(func() prometheus.Counter { return m.requests.WithLabelValues(name, "200") }),
		duration: sync.OnceValue(func() prometheus.Observer { return m.duration.WithLabelValues(name) }),
	}
}

// observe counts one request, answered with code after d.
func (e *endpointMetrics) observe(code int, d time.Duration) {
	if code == http.StatusOK {
		e.ok().Inc()
	} else {
		e.m.requests.WithLabelValues(e.name, strconv.Itoa(code)).Inc()
	}
	e.duration().Observe(d.Seconds())
}

// newRegistry returns the registry of s's metrics: the requests, the
// client's counters and lists (read at each scrape), and the Go runtime's
// and the process's, as node_exporter exposes them.
func newRegistry(s *server) (*prometheus.Registry, *requestMetrics) {
	reg := prometheus.NewRegistry()
	m := &requestMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sbserver_requests_total",
			Help: "Requests served, by endpoint (a route name or other) and HTTP status.",
		}, []string{"endpoint", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sbserver_request_duration_seconds",
			Help:    "Time to serve a request, by endpoint (a route name or other).",
			Buckets: prometheus.DefBuckets,
		}, []string{"endpoint"}),
	}
	m.other = m.endpoint("other")
	reg.MustRegister(m.requests, m.duration,
		&clientCollector{stats: func() statsSnapshot { return s.snapshot() }, s: s},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	var ms mirrorStats
	var methods []string
	switch {
	case s.o.Mirror != nil:
		ms, methods = s.o.Mirror, mirror.Methods()
	case s.o.WebRisk != nil:
		ms, methods = s.o.WebRisk, mirror.WebRiskMethods()
	}
	if ms != nil {
		reg.MustRegister(mirrorCollector{ms, methods}, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sbserver_mirror_cache_bytes",
			Help: "Bytes in the mirror's search cache, as -cache-bytes counts them.",
		}, func() float64 { return float64(ms.Stats().CacheBytes) }))
		registerListCache(reg, ms)
	}
	if s.o.V4 != nil {
		reg.MustRegister(v4Collector{s.o.V4})
	}
	if s.o.Upstream != nil {
		reg.MustRegister(upstreamCollector{s.o.Upstream, s.o.API})
	}
	return reg, m
}

// metricsHandler serves GET /metrics in the Prometheus text format.
func (s *server) metricsHandler() http.HandlerFunc {
	h := promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return h.ServeHTTP
}

// The client's series.
var (
	statsDescs = []struct {
		desc *prometheus.Desc
		get  func(statsSnapshot) uint64
	}{
		{counter("lookups", "URLs checked."), func(s statsSnapshot) uint64 { return s.Lookups }},
		{counter("unsafe", "URLs found unsafe."), func(s statsSnapshot) uint64 { return s.Unsafe }},
		{counter("errors", "URLs that could not be checked."), func(s statsSnapshot) uint64 { return s.Errors }},
		{counter("cache_hits", "Hash prefixes answered by the cache."), func(s statsSnapshot) uint64 { return s.CacheHits }},
		{counter("local_misses", "URLs that the local lists ruled out, with no request."), func(s statsSnapshot) uint64 { return s.LocalMisses }},
		{counter("searches", "hashes:search requests sent."), func(s statsSnapshot) uint64 { return s.Searches }},
		{counter("search_errors", "hashes:search requests that failed."), func(s statsSnapshot) uint64 { return s.SearchErrors }},
		{counter("coalesced", "Hash prefixes that joined a hashes:search already in flight rather than ask again, for any endpoint or the mirror."), func(s statsSnapshot) uint64 { return s.Coalesced }},
		{counter("search_waits", "hashes:search requests that waited for a slot because -upstream-searches were in flight."), func(s statsSnapshot) uint64 { return s.SearchWaits }},
		{counter("searches_over_budget", "hashes:search requests not sent because -max-searches-per-minute had gone in the last minute."), func(s statsSnapshot) uint64 { return s.SearchesOverBudget }},
		{counter("updates", "List update requests sent."), func(s statsSnapshot) uint64 { return s.Updates }},
		{counter("update_errors", "List update requests that failed."), func(s statsSnapshot) uint64 { return s.UpdateErrors }},
		{counter("ohttp_searches", "hashes:search requests sent through the Oblivious HTTP relay (-ohttp-relay)."), func(s statsSnapshot) uint64 {
			if s.OHTTP {
				return s.Searches
			}
			return 0
		}},
		{counter("ohttp_key_fetches", "Fetches of the OHTTP gateway's key configuration."), func(s statsSnapshot) uint64 { return s.OHTTPKeyFetches }},
		{counter("ohttp_key_errors", "OHTTP key fetches that failed, and keys the gateway refused."), func(s statsSnapshot) uint64 { return s.OHTTPKeyErrors }},
	}
	backoffDesc = prometheus.NewDesc("sbserver_backoff_until_timestamp_seconds",
		"When the client's back-off after failed requests ends, by method (hashes:search or update); 0: not backing off.",
		[]string{"method"}, nil)
	readyDesc = prometheus.NewDesc("sbserver_ready",
		"1 once every list has loaded, 0 before.", nil, nil)
	entriesDesc = prometheus.NewDesc("sbserver_list_entries",
		"Hashes held, by list.", []string{"list"}, nil)
	updatedDesc = prometheus.NewDesc("sbserver_list_last_update_timestamp_seconds",
		"When the list was last updated successfully; absent before the first update.", []string{"list"}, nil)
	successDesc = prometheus.NewDesc("sbserver_list_update_success",
		"1 when the list is loaded and its last update succeeded, 0 otherwise.", []string{"list"}, nil)
)

// counter describes sbserver_<name>_total.
func counter(name, help string) *prometheus.Desc {
	return prometheus.NewDesc("sbserver_"+name+"_total", help, nil, nil)
}

// clientCollector reads the client's counters and lists at each scrape.
type clientCollector struct {
	stats func() statsSnapshot
	s     *server
}

func (cc *clientCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range statsDescs {
		ch <- d.desc
	}
	ch <- backoffDesc
	ch <- readyDesc
	ch <- entriesDesc
	ch <- updatedDesc
	ch <- successDesc
}

func (cc *clientCollector) Collect(ch chan<- prometheus.Metric) {
	snap := cc.stats()
	for _, d := range statsDescs {
		ch <- prometheus.MustNewConstMetric(d.desc, prometheus.CounterValue, float64(d.get(snap)))
	}
	ch <- prometheus.MustNewConstMetric(backoffDesc, prometheus.GaugeValue, unixSeconds(snap.SearchBackoffUntil), "hashes:search")
	ch <- prometheus.MustNewConstMetric(backoffDesc, prometheus.GaugeValue, unixSeconds(snap.UpdateBackoffUntil), "update")
	ready := 0.0
	if notReady(cc.s.c) == nil {
		ready = 1
	}
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, ready)
	for _, l := range cc.s.c.Lists() {
		ch <- prometheus.MustNewConstMetric(entriesDesc, prometheus.GaugeValue, float64(l.Entries), l.Name)
		updated, lastErr := listDetail(l)
		if !updated.IsZero() {
			ch <- prometheus.MustNewConstMetric(updatedDesc, prometheus.GaugeValue, unixSeconds(updated), l.Name)
		}
		ok := 0.0
		if l.Loaded && lastErr == nil {
			ok = 1
		}
		ch <- prometheus.MustNewConstMetric(successDesc, prometheus.GaugeValue, ok, l.Name)
	}
}

// unixSeconds is t in Unix seconds, 0 for the zero time.
func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}
