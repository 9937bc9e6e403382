// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is the v4 Update API (package safebrowse/v4update), served
// whenever sbserver keeps lists: its routes behind sbserver's access
// rules, and its metrics.

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

// v4Lists is the v4 method that takes no request.
const v4Lists = "threatLists"

// v4Routes adds the v4 Update API's endpoints to s.routes, behind the
// same access rules as the others, with errors in Google's shape naming
// the Safe Browsing service whatever the upstream's API:
// POST /v4/threatListUpdates:fetch and /v4/fullHashes:find, whose body
// may be binary protobuf too, and which take Chromium's GET with $req;
// GET /v4/threatLists.
func (s *server) v4Routes(v *v4update.Server) {
	for _, name := range v4update.Methods() {
		rt := &route{name: name, methods: "POST, GET", shape: googleErrors, protoBody: true, serve: v.ServeHTTP}
		if name == v4Lists {
			rt.methods, rt.protoBody = "GET, HEAD", false
		}
		s.routes["/v4/"+name] = rt
	}
}

// The v4 Update API's series: one for each field of v4update.Stats, named
// by the field in snake case.
var (
	v4RequestsDesc = prometheus.NewDesc("sbserver_v4_requests_total",
		"Requests to the v4 Update API, by method (threatListUpdates:fetch, fullHashes:find, threatLists), whatever their answer.", []string{"method"}, nil)
	v4Counters = []struct {
		desc *prometheus.Desc
		get  func(v4update.Stats) uint64
	}{
		{counter("v4_bytes_served", "Bytes of the v4 Update API's reply bodies."), func(st v4update.Stats) uint64 { return st.BytesServed }},
		{counter("v4_full_updates", "v4 list updates served as FULL_UPDATE, chunks included, of the lists served."), func(st v4update.Stats) uint64 { return st.FullUpdates }},
		{counter("v4_partial_updates", "v4 list updates served as PARTIAL_UPDATE, chunks included."), func(st v4update.Stats) uint64 { return st.PartialUpdates }},
		{counter("v4_unserved", "Empty full updates of v4 lists asked for that are not served (another threat type, platform or entry type)."), func(st v4update.Stats) uint64 { return st.Unserved }},
		{counter("v4_builds", "v4 updates built and encoded, each once in binary and once in JSON when first asked so; the others were answered from the cache."), func(st v4update.Stats) uint64 { return st.Builds }},
		{counter("v4_searched_prefixes", "Hash prefixes fullHashes:find asked the client about (sbserver_cache_hits_total and sbserver_searches_total tell how they were answered)."), func(st v4update.Stats) uint64 { return st.SearchedPrefixes }},
	}
	v4ListCacheDesc = prometheus.NewDesc("sbserver_v4_list_cache_bytes",
		"Bytes of encoded v4 updates and chunk states cached now: at most 4 times each v4 list's bytes, plus 64 KiB.", nil, nil)
	v4VersionDesc = prometheus.NewDesc("sbserver_v4_version_bytes",
		"Bytes of the v4 list versions kept for partial updates: at most 4 copies of each v4 list, 4 bytes a prefix.", nil, nil)
)

// v4Collector reads the v4 server's Stats at each scrape.
type v4Collector struct{ v *v4update.Server }

func (c v4Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- v4RequestsDesc
	for _, d := range v4Counters {
		ch <- d.desc
	}
	ch <- v4ListCacheDesc
	ch <- v4VersionDesc
}

func (c v4Collector) Collect(ch chan<- prometheus.Metric) {
	st := c.v.Stats()
	for _, method := range v4update.Methods() {
		ch <- prometheus.MustNewConstMetric(v4RequestsDesc, prometheus.CounterValue, float64(st.Requests[method]), method)
	}
	for _, d := range v4Counters {
		ch <- prometheus.MustNewConstMetric(d.desc, prometheus.CounterValue, float64(d.get(st)))
	}
	ch <- prometheus.MustNewConstMetric(v4ListCacheDesc, prometheus.GaugeValue, float64(st.ListCacheBytes))
	ch <- prometheus.MustNewConstMetric(v4VersionDesc, prometheus.GaugeValue, float64(st.VersionBytes))
}
