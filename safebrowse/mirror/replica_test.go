// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestReplicaMemory measures what one replica holds for a list of a
// million prefixes: the source's list, the mirror's versions and their
// encoded replies, in proto and JSON. The README quotes it.
func TestReplicaMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a million prefixes, and heap sizes: not with -short or -race")
	}
	const n = 1_000_000
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	// held returns the heap a replica holds once it has served versions
	// versions of se-4b, whole, in proto and JSON; the upstream is gone
	// by then, so that its own memory is not counted.
	held := func(versions int) (uint64, func()) {
		base := heap()
		up := sbtest.NewServer(sbtest.WithMinimumWait(time.Nanosecond))
		var b [8]byte
		for i := range uint64(n) {
			binary.BigEndian.PutUint64(b[:], i)
			up.AddHash("se-4b", sha256.Sum256(b[:]))
		}
		src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, Lists: []string{"se-4b"}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(src, Config{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(m)
		for v := range versions {
			if v > 0 {
				for i := range uint64(1000) {
					binary.BigEndian.PutUint64(b[:], n+uint64(v)*1000+i)
					up.AddHash("se-4b", sha256.Sum256(b[:]))
				}
			}
			if err := src.Update(context.Background()); err != nil {
				t.Fatal(err)
			}
			for _, alt := range []string{"proto", "json"} {
				resp, err := http.Get(srv.URL + "/v5/hashList/se-4b?alt=" + alt)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("status %d", resp.StatusCode)
				}
			}
		}
		srv.Close()
		up.Close()
		return heap() - base, func() { runtime.KeepAlive(m); src.Close() }
	}
	one, done := held(1)
	done()
	four, done := held(DefaultVersions)
	done()
	t.Logf("one replica, a list of %d prefixes: %.1f MB with one version (%.1f B a prefix), %.1f MB with %d versions (%.1f B a prefix)",
		n, float64(one)/1e6, float64(one)/n, float64(four)/1e6, DefaultVersions, float64(four)/n)
	if per := float64(four) / n; per > 30 {
		t.Errorf("%.1f bytes a prefix with %d versions: more than 30", per, DefaultVersions)
	}
}
