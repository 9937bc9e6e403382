// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"reflect"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// scrape fetches /metrics from base and parses it with Prometheus' own
// text parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	status, body, h := do(t, "GET", base+"/metrics", "")
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("status %d, Content-Type %q", status, h.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	return mfs
}

// value is the value of the series of mf whose labels include labels
// ("name=value"), and whether there is one.
func value(mf *dto.MetricFamily, labels ...string) (float64, bool) {
	if mf == nil {
		return 0, false
	}
next:
	for _, m := range mf.GetMetric() {
		for _, l := range labels {
			k, v, _ := strings.Cut(l, "=")
			found := false
			for _, lp := range m.GetLabel() {
				if lp.GetName() == k && lp.GetValue() == v {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func TestMetrics(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	lookupJSON(t, p, evil, safe)
	do(t, "GET", p.URL+"/v5/urls:search?urls="+evil, "")
	do(t, "GET", p.URL+"/v5/urls:search", "") // a 400
	do(t, "GET", p.URL+"/hostile/"+strings.Repeat("x", 100), "")
	do(t, "GET", p.URL+"/hostile/2", "")
	mfs := scrape(t, p.URL)
	for _, tt := range []struct {
		name   string
		labels []string
		want   float64
	}{
		// The client's counters.
		{"sbserver_lookups_total", nil, 3},
		// The unsafe ones.
		{"sbserver_unsafe_total", nil, 2},
		// No URL failed.
		{"sbserver_errors_total", nil, 0},
		// Each list's entries.
		{"sbserver_list_entries", []string{"list=mw-4b"}, 1},
		// Each list's state.
		{"sbserver_list_update_success", []string{"list=se-4b"}, 1},
		// Not backing off.
		{"sbserver_backoff_until_timestamp_seconds", []string{"method=hashes:search"}, 0},
		// Ready.
		{"sbserver_ready", nil, 1},
		// Requests by endpoint and code.
		{"sbserver_requests_total", []string{"endpoint=urls:search", "code=200"}, 1},
		// ... a 400 too.
		{"sbserver_requests_total", []string{"endpoint=urls:search", "code=400"}, 1},
		// Hostile paths share one series.
		{"sbserver_requests_total", []string{"endpoint=other", "code=404"}, 2},
		// Durations by endpoint.
		{"sbserver_request_duration_seconds", []string{"endpoint=urls:lookup"}, 1},
	} {
		t.Run(tt.name+strings.Join(tt.labels, ","), func(t *testing.T) {
			got, ok := value(mfs[tt.name], tt.labels...)
			if !ok || got != tt.want {
				t.Errorf("%s%v = %v (found %v), want %v", tt.name, tt.labels, got, ok, tt.want)
			}
		})
	}
	// Every counter of lookup.Stats is exported, by its field's name in
	// snake case: a counter added to Stats fails here until it is.
	st := reflect.TypeFor[lookup.Stats]()
	for i := range st.NumField() {
		name := snakeCase(st.Field(i).Name)
		// (GetType of a missing family is COUNTER, the zero value.)
		if mf := mfs["sbserver_"+name+"_total"]; mf == nil || mf.GetType() != dto.MetricType_COUNTER {
			t.Errorf("lookup.Stats.%s: sbserver_%s_total is not a counter", st.Field(i).Name, name)
		}
	}
	// No label takes raw input.
	for name, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "hostile") {
					t.Errorf("%s has label %s=%q", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// snakeCase turns a Go field name into a metric name: CacheHits is
// cache_hits, OHTTPKeyFetches ohttp_key_fetches.
func snakeCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper := 'A' <= c && c <= 'Z'
		// A word starts at an upper-case letter after a lower-case one, or
		// at the last upper-case letter of a run followed by a lower-case
		// one (the K of OHTTPKey).
		if upper && i > 0 && (!isUpper(s[i-1]) || i+1 < len(s) && !isUpper(s[i+1])) {
			b.WriteByte('_')
		}
		if upper {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"Lookups": "lookups", "CacheHits": "cache_hits", "OHTTPKeyFetches": "ohttp_key_fetches", "SearchErrors": "search_errors"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}
