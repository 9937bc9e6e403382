// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// ExampleConfig bounds the search cache by count and by bytes; the
// source bounds the upstream searches in flight, and coalesces them: ten
// clients asking one prefix at once cost one upstream search.
func ExampleConfig() {
	up := sbtest.NewServer()
	defer up.Close()
	up.Add("mw-4b", "evil.example/")
	src, err := lookup.NewMirrorSource(lookup.Config{
		APIKey: up.APIKey, BaseURL: up.URL,
		MaxSearchesInFlight: 4, // upstream, for the mirror and the source's lookups
	})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	m, err := mirror.New(src, mirror.Config{
		CacheSize:  100_000,  // prefixes
		CacheBytes: 16 << 20, // full hashes counted, as replies carry them
	})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()
	h := sha256.Sum256([]byte("evil.example/"))
	q := srv.URL + "/v5/hashes:search?alt=proto&hashPrefixes=" + base64.URLEncoding.EncodeToString(h[:4])
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			resp, err := http.Get(q)
			if err != nil {
				panic(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	wg.Wait()
	st := m.Stats()
	fmt.Println(up.Requests("hashes:search"), st.CacheEntries, st.CacheBytes > 0)
	// Output: 1 1 true
}
