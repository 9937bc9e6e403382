// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"sync"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// TestLittleEndian: the 4-byte prefixes are Rice-coded as little-endian
// uint32s, byte-swapped and re-sorted, not passed through as v5 codes
// them big-endian.
func TestLittleEndian(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	// In byte order a < b; as little-endian integers b < a.
	a, b := [32]byte{1, 0, 0, 5}, [32]byte{2, 0, 0, 3}
	h.up.AddHash("mw-4b", a)
	h.up.AddHash("mw-4b", b)
	h.update(t)
	r := h.fetch(t, formProto, client{}.request(goLists[:1], riceOnly))
	rice := r.ListUpdateResponses[0].Additions[0].RiceHashes
	vs, err := riceDecode(rice)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{binary.LittleEndian.Uint32(b[:]), binary.LittleEndian.Uint32(a[:])}; len(vs) != 2 || vs[0] != want[0] || vs[1] != want[1] {
		t.Errorf("Rice values %#x, want %#x", vs, want)
	}
}

// TestUnion: UNWANTED_SOFTWARE is the union of uws-4b and uwsa-4b, an
// entry on both once.
func TestUnion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.up.Add("uws-4b", "a.example/")
	h.up.Add("uws-4b", "both.example/")
	h.up.Add("uwsa-4b", "both.example/")
	h.up.Add("uwsa-4b", "b.example/")
	h.update(t)
	c := client{}
	r := h.fetch(t, formJSON, c.request(goLists[2:3], rawOnly))
	if err := c.apply(goLists[2:3], &r); err != nil {
		t.Fatal(err)
	}
	if got := len(c[goLists[2]].entries); got != 3 {
		t.Errorf("%d entries, want 3", got)
	}
}

// TestBuildOnce: concurrent requests for one update make one build, in
// each encoding, and later ones none.
func TestBuildOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for i := range 5000 {
		h.up.Add("se-4b", "e"+strconv.Itoa(i)+".example/")
	}
	h.update(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			r := h.fetch(t, []int{formProto, formJSON}[i%2], client{}.request(goLists[1:2], riceOnly))
			if n := len(r.ListUpdateResponses); n != 1 {
				t.Errorf("%d lists", n)
			}
		})
	}
	wg.Wait()
	h.fetch(t, formChromium, client{}.request(goLists[1:2], riceOnly))
	if n := h.v4.Stats().Builds; n != 2 {
		t.Errorf("%d builds for one update asked 17 times in two encodings, want 2", n)
	}
}

// TestCacheBound: whatever limits and states clients send, a list's cache
// stays within its budget, four times the list's bytes plus 64 KiB.
func TestCacheBound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	const n = 20000
	for i := range n {
		h.up.AddHash("mw-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
	}
	h.update(t)
	ds := goLists[:1]
	var states [][]byte
	for _, max := range []int32{0, 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14, 3000, 5000, 1 << 20} {
		for _, cons := range []v4wire.Constraints{riceOnly, rawOnly} {
			cons.MaxUpdateEntries = max
			for form := range formNames {
				c := client{}
				for range 3 { // into the chunks
					r := h.fetch(t, form, c.request(ds, cons))
					if err := c.apply(ds, &r); err != nil {
						t.Fatal(err)
					}
					states = append(states, c[ds[0]].state)
				}
			}
		}
	}
	limit := listCacheLimit(4 * n)
	st := h.v4.Stats()
	if st.ListCacheBytes <= 0 || st.ListCacheBytes > limit {
		t.Errorf("ListCacheBytes %d, want within %d", st.ListCacheBytes, limit)
	}
	if st.VersionBytes < 4*n || st.VersionBytes > 4*n+4096 {
		t.Errorf("VersionBytes %d for one version of %d prefixes", st.VersionBytes, n)
	}
	// Every state served still gets an update, partial or whole, that
	// its client can apply.
	for _, s := range states[:10] {
		c := client{ds[0]: {state: s}}
		r := h.fetch(t, formProto, c.request(ds, riceOnly))
		if lr := r.ListUpdateResponses[0]; lr.ResponseType == v4wire.PartialUpdate && len(lr.Checksum) != 32 {
			t.Errorf("from %q: %+v", s, lr)
		}
	}
}
