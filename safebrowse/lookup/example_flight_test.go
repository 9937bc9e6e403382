// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// ExampleConfig_maxSearchesInFlight bounds the searches in flight and the
// bytes of the cache. Concurrent lookups of one URL cost one request: the
// first asks, the others join its search or find its answer cached.
func ExampleConfig_maxSearchesInFlight() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "evil.example/")
	c, err := lookup.New(lookup.Config{
		APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		MaxSearchesInFlight: 4,       // requests in flight at once
		CacheBytes:          8 << 20, // full hashes and details counted
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if v, err := c.Lookup(context.Background(), "http://evil.example/"); err != nil || !v.Unsafe() {
				log.Fatal(v, err)
			}
		})
	}
	wg.Wait()
	st := c.Stats()
	fmt.Println(s.Requests("hashes:search"), st.Searches, st.Coalesced+st.CacheHits)
	// Output: 1 1 15
}
