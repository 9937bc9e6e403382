// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// BenchmarkOHTTPLookup times a Lookup that needs a search, direct to
// sbtest and through a loopback relay to sbtest's gateway, in alternating
// blocks of 20 so that both see the same load on a shared machine. It
// reports each one's time per search and the ratio of the two. sbtest
// sends no cache_duration, so that every Lookup searches.
func BenchmarkOHTTPLookup(b *testing.B) {
	ctx := context.Background()
	s := sbtest.NewServer(sbtest.WithCacheDuration(0))
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	direct, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	oblivious, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{RelayURL: relay.URL, KeyURL: s.OHTTPKeyURL()}})
	if err != nil {
		b.Fatal(err)
	}
	defer oblivious.Close()
	if err := oblivious.Update(ctx); err != nil {
		b.Fatal(err)
	}
	const u = "http://evil.example/"
	block := func(c *lookup.Client) time.Duration {
		t := time.Now()
		for range 20 {
			if v, err := c.Lookup(ctx, u); err != nil || !v.Unsafe() {
				b.Fatal(v, err)
			}
		}
		return time.Since(t)
	}
	var d, o time.Duration
	blocks := 0
	odd := false
	for b.Loop() {
		if odd = !odd; odd {
			d += block(direct)
			o += block(oblivious)
		} else {
			o += block(oblivious)
			d += block(direct)
		}
		blocks++
	}
	searches := float64(20 * blocks)
	b.ReportMetric(float64(d.Nanoseconds())/searches, "direct-ns/search")
	b.ReportMetric(float64(o.Nanoseconds())/searches, "ohttp-ns/search")
	b.ReportMetric(float64(o)/float64(d), "x-direct")
	if d, o := direct.Stats().Searches, oblivious.Stats().Searches; d != uint64(searches) || o != uint64(searches) {
		b.Fatalf("%d and %d searches for %v lookups each", d, o, searches)
	}
	if n := s.Requests("hashes:search"); n != int(searches) {
		b.Fatalf("%d direct searches, want %v", n, searches)
	}
}

// BenchmarkOHTTPPadding times a search through a loopback relay to
// sbtest's gateway with OHTTPConfig.Padding and without, alternating one
// of each, in turn first, so that both see the same load on a shared
// machine, for 1 prefix (padded from about 220 bytes to 512) and 100
// (from about 2,400 to 4 KiB). It reports each one's median time per
// search and the ratio of the two: medians, so that a spike of the
// machine's load, which the mean of a few thousand searches follows,
// does not decide it.
func BenchmarkOHTTPPadding(b *testing.B) {
	ctx := context.Background()
	s := sbtest.NewServer()
	defer s.Close()
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	client := func(padding bool) *lookup.Client {
		c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
			OHTTP: &lookup.OHTTPConfig{RelayURL: relay.URL, KeyURL: s.OHTTPKeyURL(), Padding: padding}})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Update(ctx); err != nil {
			b.Fatal(err)
		}
		return c
	}
	plain, pad := client(false), client(true)
	defer plain.Close()
	defer pad.Close()
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("prefixes=%d", n), func(b *testing.B) {
			prefixes := make([][4]byte, n)
			for i := range prefixes {
				prefixes[i] = [4]byte{0xff, byte(i >> 8), byte(i), 1}
			}
			search := func(c *lookup.Client) time.Duration {
				t := time.Now()
				if _, err := c.SearchPrefixes(ctx, prefixes); err != nil {
					b.Fatal(err)
				}
				return time.Since(t)
			}
			var u, p []time.Duration
			odd := false
			for b.Loop() {
				if odd = !odd; odd {
					u = append(u, search(plain))
					p = append(p, search(pad))
				} else {
					p = append(p, search(pad))
					u = append(u, search(plain))
				}
			}
			mu, mp := median(u), median(p)
			b.ReportMetric(float64(mu.Nanoseconds()), "unpadded-ns/search")
			b.ReportMetric(float64(mp.Nanoseconds()), "padded-ns/search")
			b.ReportMetric(float64(mp)/float64(mu), "x-unpadded")
		})
	}
}

// median returns the median of d, which it sorts.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}
