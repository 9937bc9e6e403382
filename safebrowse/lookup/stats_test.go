// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestStats checks each counter exactly, and Searches and Updates against
// the requests sbtest received.
func TestStats(t *testing.T) {
	ctx := context.Background()
	lookupN := func(c *lookup.Client, n int, u string) {
		for range n {
			c.Lookup(ctx, u)
		}
	}
	tests := []struct {
		name   string
		mode   lookup.Mode
		faults []sbtest.Fault
		run    func(c *lookup.Client) // after New, with no update made
		want   lookup.Stats
	}{
		// Nothing done, nothing counted.
		{name: "new", run: func(c *lookup.Client) {},
			want: lookup.Stats{}},
		// An update fetches the five lists in one request.
		{name: "update", run: func(c *lookup.Client) { c.Update(ctx) },
			want: lookup.Stats{Updates: 1}},
		// A URL the lists rule out: a local miss, no request.
		{name: "local miss", run: func(c *lookup.Client) { c.Update(ctx); lookupN(c, 1, "http://good.example/") },
			want: lookup.Stats{Updates: 1, Lookups: 1, LocalMisses: 1}},
		// A listed URL: one search, unsafe; the second time the cache
		// answers its one prefix.
		{name: "search then cache", run: func(c *lookup.Client) { c.Update(ctx); lookupN(c, 2, "http://evil.example/") },
			want: lookup.Stats{Updates: 1, Lookups: 2, Unsafe: 2, Searches: 1, CacheHits: 1}},
		// A canary hit is cached, but not unsafe.
		{name: "canary", run: func(c *lookup.Client) { c.Update(ctx); lookupN(c, 1, "http://canary.example/") },
			want: lookup.Stats{Updates: 1, Lookups: 1, Searches: 1}},
		// A bad URL is a lookup and an error.
		{name: "bad URL", run: func(c *lookup.Client) { c.Update(ctx); lookupN(c, 1, "") },
			want: lookup.Stats{Updates: 1, Lookups: 1, Errors: 1}},
		// Before the lists load every lookup is an error.
		{name: "not ready", run: func(c *lookup.Client) {
			lookupN(c, 1, "http://evil.example/")
			c.LookupAll(ctx, []string{"http://a.example/", "http://b.example/"})
		}, want: lookup.Stats{Lookups: 3, Errors: 3}},
		// A failed search is a search error and the URL's error.
		{name: "failed search", faults: []sbtest.Fault{{Endpoint: "hashes:search", Status: 503}},
			run:  func(c *lookup.Client) { c.Update(ctx); lookupN(c, 1, "http://evil.example/") },
			want: lookup.Stats{Updates: 1, Lookups: 1, Errors: 1, Searches: 1, SearchErrors: 1}},
		// Three failures start the back-off: the fourth lookup sends nothing.
		{name: "back-off", faults: []sbtest.Fault{{Endpoint: "hashes:search", Status: 503}},
			run:  func(c *lookup.Client) { c.Update(ctx); lookupN(c, 4, "http://evil.example/") },
			want: lookup.Stats{Updates: 1, Lookups: 4, Errors: 4, Searches: 3, SearchErrors: 3}},
		// A refused update; then the updates back off and send nothing.
		{name: "failed update", faults: []sbtest.Fault{{Endpoint: "hashLists:batchGet", Status: 403}},
			run:  func(c *lookup.Client) { c.Update(ctx); c.Update(ctx) },
			want: lookup.Stats{Updates: 1, UpdateErrors: 1}},
		// A garbage list reply is a failed update.
		{name: "garbage update", faults: []sbtest.Fault{{Endpoint: "hashLists:batchGet", Garbage: true}},
			run:  func(c *lookup.Client) { c.Update(ctx) },
			want: lookup.Stats{Updates: 1, UpdateErrors: 1}},
		// A checksum mismatch is not a failed request.
		{name: "bad checksum", faults: []sbtest.Fault{{Endpoint: "hashLists:batchGet", BadChecksum: true}},
			run:  func(c *lookup.Client) { c.Update(ctx) },
			want: lookup.Stats{Updates: 1}},
		// LookupAll: one search for the URLs that need it, one bad URL.
		{name: "LookupAll", run: func(c *lookup.Client) {
			c.Update(ctx)
			c.LookupAll(ctx, []string{"http://evil.example/", "http://good.example/", "", "http://evil.example/x"})
		}, want: lookup.Stats{Updates: 1, Lookups: 4, Unsafe: 2, Errors: 1, LocalMisses: 1, Searches: 1}},
		// NoStorage: no lists, every URL searched.
		{name: "NoStorage", mode: lookup.NoStorage, run: func(c *lookup.Client) { lookupN(c, 2, "http://good.example/") },
			want: lookup.Stats{Lookups: 2, Searches: 1, CacheHits: 1}},
		// RealTime: a URL in the Global Cache is left to the local lists.
		{name: "RealTime global cache", mode: lookup.RealTime, run: func(c *lookup.Client) {
			c.Update(ctx)
			lookupN(c, 1, "http://www.google.com/")
		}, want: lookup.Stats{Updates: 1, Lookups: 1, LocalMisses: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer()
			defer s.Close()
			s.Add("se-4b", "evil.example/")
			s.Add("mw-4b", "canary.example/", sbtest.Canary)
			s.Add("gc-32b", "www.google.com/")
			for _, f := range tt.faults {
				s.Inject(f)
			}
			c := newClient(t, s, lookup.Config{Mode: tt.mode})
			tt.run(c)
			got := c.Stats()
			if got != tt.want {
				t.Errorf("Stats() =\n%+v, want\n%+v", got, tt.want)
			}
			if n := uint64(s.Requests("hashes:search")); got.Searches != n {
				t.Errorf("Searches = %d, sbtest received %d", got.Searches, n)
			}
			if n := uint64(s.Requests("hashList") + s.Requests("hashLists:batchGet")); got.Updates != n {
				t.Errorf("Updates = %d, sbtest received %d", got.Updates, n)
			}
		})
	}
}
