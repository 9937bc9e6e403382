// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is sbserver -mirror: the client that keeps every list, the
// mirror's routes behind sbserver's access rules, and its metrics.

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
)

// mirrorListsTimeout bounds the request for the upstream's list of lists
// at start.
const mirrorListsTimeout = 30 * time.Second

// mirrorLists asks the upstream which lists it serves, with their
// metadata, so that a mirror keeps every one, gc-32b included. It keeps
// what [lookup.Client.HashLists] returns: the lists whose names lookup
// accepts, each once, the key masked in their descriptions; HashLists
// logs the others, masked, so that no name the upstream gives stops the
// mirror from starting. When the upstream cannot be asked (a frozen
// server, or an upstream down at start) or names no list lookup keeps,
// the lists of the v5 reference are kept and nil metadata returned, for
// the mirror's own.
func mirrorLists(ctx context.Context, cfg lookup.Config, frozen bool, log *slog.Logger) ([]string, []lookup.ListInfo) {
	known := append(append([]string(nil), lookup.DefaultLists...), lookup.GlobalCache)
	if frozen {
		return known, nil
	}
	cfg.Mode, cfg.Dir, cfg.Lists = lookup.NoStorage, "", nil
	probe, err := lookup.New(cfg)
	if err != nil {
		return known, nil
	}
	defer probe.Close()
	ctx, cancel := context.WithTimeout(ctx, mirrorListsTimeout)
	defer cancel()
	infos, err := probe.HashLists(ctx)
	if err != nil {
		log.Warn("sbserver: -mirror: the upstream's hashLists failed; keeping the lists of the v5 reference", "err", err)
		return known, nil
	}
	if len(infos) == 0 {
		log.Warn("sbserver: -mirror: the upstream's hashLists named no list to keep; keeping the lists of the v5 reference")
		return known, nil
	}
	names := make([]string, len(infos))
	for i, l := range infos {
		names[i] = l.Name
	}
	return names, infos
}

// mirrorRoutes adds the mirror's endpoints to s.routes, behind the same
// access rules as the others, with errors in Google's shape.
func (s *server) mirrorRoutes(m http.Handler) {
	for _, name := range mirror.Methods() {
		path := "/v5/" + name
		if name == "hashList" {
			path = "/v5/hashList/" // a prefix: see routeOf
		}
		s.routes[path] = &route{name: name, methods: "GET, HEAD", shape: googleErrors, serve: m.ServeHTTP}
	}
}

// routeOf returns the route of path: its own, or the mirror's hashList
// for /v5/hashList/{name}.
func (s *server) routeOf(path string) *route {
	if rt := s.routes[path]; rt != nil {
		return rt
	}
	if s.o.Mirror != nil && strings.HasPrefix(path, "/v5/hashList/") && len(path) > len("/v5/hashList/") {
		return s.routes["/v5/hashList/"]
	}
	return nil
}

// The mirror's series.
var (
	mirrorRequestsDesc = prometheus.NewDesc("sbserver_mirror_requests_total",
		"Downstream requests to the mirror, by method (hashes:search, hashList, hashLists:batchGet, hashLists; under -api webrisk threatLists:computeDiff, hashes:search).", []string{"method"}, nil)
	mirrorBytesDesc = prometheus.NewDesc("sbserver_mirror_served_bytes_total",
		"Bytes of the mirror's reply bodies.", nil, nil)
	mirrorSavedDesc = prometheus.NewDesc("sbserver_mirror_upstream_requests_saved_total",
		"Downstream requests answered with no upstream request of their own: list requests, and searches answered by the cache or a search in flight.", nil, nil)
	mirrorUpstreamDesc = prometheus.NewDesc("sbserver_mirror_upstream_searches_total",
		"hashes:search requests the mirror sent upstream for its clients.", nil, nil)
	mirrorHitsDesc = prometheus.NewDesc("sbserver_mirror_cache_hits_total",
		"Prefixes the mirror's cache answered.", nil, nil)
	mirrorEntriesDesc = prometheus.NewDesc("sbserver_mirror_cache_entries",
		"Prefixes in the mirror's search cache.", nil, nil)
)

// mirrorStats is what the collectors read of a mirror, v5's or Web
// Risk's.
type mirrorStats interface{ Stats() mirror.Stats }

// mirrorCollector reads the mirror's Stats at each scrape, its requests
// by methods.
type mirrorCollector struct {
	m       mirrorStats
	methods []string
}

func (mc mirrorCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{mirrorRequestsDesc, mirrorBytesDesc, mirrorSavedDesc, mirrorUpstreamDesc, mirrorHitsDesc, mirrorEntriesDesc} {
		ch <- d
	}
}

func (mc mirrorCollector) Collect(ch chan<- prometheus.Metric) {
	st := mc.m.Stats()
	for _, method := range mc.methods {
		ch <- prometheus.MustNewConstMetric(mirrorRequestsDesc, prometheus.CounterValue, float64(st.Requests[method]), method)
	}
	ch <- prometheus.MustNewConstMetric(mirrorBytesDesc, prometheus.CounterValue, float64(st.BytesServed))
	ch <- prometheus.MustNewConstMetric(mirrorSavedDesc, prometheus.CounterValue, float64(st.UpstreamSaved))
	ch <- prometheus.MustNewConstMetric(mirrorUpstreamDesc, prometheus.CounterValue, float64(st.UpstreamSearches))
	ch <- prometheus.MustNewConstMetric(mirrorHitsDesc, prometheus.CounterValue, float64(st.CacheHits))
	ch <- prometheus.MustNewConstMetric(mirrorEntriesDesc, prometheus.GaugeValue, float64(st.CacheEntries))
}
