// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is the gauge of what sbserver -mirror's lists cache: the
// replies and chunk states it has built, within their byte budget.

import (
	"github.com/prometheus/client_golang/prometheus"
)

var mirrorListCacheDesc = prometheus.NewDesc("sbserver_mirror_list_cache_bytes",
	"Bytes of encoded list replies and chunk states the mirror caches now: at most 3 times each list's bytes, plus 64 KiB.", nil, nil)

// listCacheCollector reads the mirror's Stats.ListCacheBytes at each
// scrape.
type listCacheCollector struct{ m mirrorStats }

func (c listCacheCollector) Describe(ch chan<- *prometheus.Desc) { ch <- mirrorListCacheDesc }

func (c listCacheCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(mirrorListCacheDesc, prometheus.GaugeValue, float64(c.m.Stats().ListCacheBytes))
}

// registerListCache adds the gauge of m, sbserver's mirror, to reg.
func registerListCache(reg *prometheus.Registry, m mirrorStats) {
	reg.MustRegister(listCacheCollector{m})
}
