// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// benchN is the prefixes of the benchmarks' list, the size of a large
// v5 list.
const benchN = 1_000_000

// benchLists are a list of benchN random prefixes, sorted, and the list
// after a 1% change: benchN/100 of its prefixes removed, benchN/100 new
// ones added.
var benchLists = sync.OnceValues(func() (old, cur []byte) {
	r := rand.New(rand.NewPCG(4, 1))
	random := func(n int) []uint32 {
		vs := make([]uint32, n)
		for i := range vs {
			vs[i] = r.Uint32()
		}
		slices.Sort(vs)
		return slices.Compact(vs)
	}
	bytesOf := func(vs []uint32) []byte {
		b := make([]byte, 0, 4*len(vs))
		for _, v := range vs {
			b = binary.BigEndian.AppendUint32(b, v)
		}
		return b
	}
	vs := random(benchN)
	var nv []uint32
	for i, v := range vs {
		if i%100 != 7 { // one in a hundred removed
			nv = append(nv, v)
		}
	}
	nv = append(nv, random(benchN/100)...)
	slices.Sort(nv)
	return bytesOf(vs), bytesOf(slices.Compact(nv))
})

// alternate runs f and g in turn, each b.N times, and reports each one's
// median time and the median of their ratios, f over g, as ratio: one run
// measures both under the same load of a shared machine.
func alternate(b *testing.B, fname, gname, ratio string, f, g func()) {
	var tf, tg, rs []float64
	timed := func(h func()) float64 {
		t0 := time.Now()
		h()
		return float64(time.Since(t0))
	}
	i := 0
	for b.Loop() {
		var df, dg float64
		if i%2 == 0 {
			df, dg = timed(f), timed(g)
		} else {
			dg, df = timed(g), timed(f)
		}
		i++
		tf, tg, rs = append(tf, df), append(tg, dg), append(rs, df/dg)
	}
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	b.ReportMetric(med(tf), fname+"-ns")
	b.ReportMetric(med(tg), gname+"-ns")
	b.ReportMetric(med(rs), ratio)
}

// BenchmarkFullUpdate builds a full v4 update of a 1M-prefix list, as a
// first request for it does: the checksum of the list, and the update
// (its prefixes byte-swapped, sorted, Rice-coded, and encoded), alternated
// with its floor, SHA-256 over the 4 MB list. "x-sha256" is the median of
// their ratios, which the package doc holds to 5.
func BenchmarkFullUpdate(b *testing.B) {
	old, _ := benchLists()
	l := newList(1, []string{"mw-4b"}, []int{0})
	var size int
	alternate(b, "full", "sha256", "x-sha256", func() {
		v := newVersion(l.name, entries{b: old}, sha256.Sum256(old))
		u, err := l.build(start{target: v}, v, 0, true)
		if err != nil {
			b.Fatal(err)
		}
		size = len(u.body)
	}, func() {
		sha256.Sum256(old)
	})
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkPartialUpdate builds the partial update of a 1M-prefix list
// after a 1% change (10,000 prefixes removed, 10,000 added), RICE and RAW:
// the diff, one merge walk over the two versions, and the change coded.
// "bytes" is the update's size in binary.
func BenchmarkPartialUpdate(b *testing.B) {
	old, cur := benchLists()
	for _, rice := range []bool{true, false} {
		b.Run(map[bool]string{true: "RICE", false: "RAW"}[rice], func(b *testing.B) {
			l := newList(1, []string{"mw-4b"}, []int{0})
			from := newVersion(l.name, entries{b: old}, sha256.Sum256(old))
			to := newVersion(l.name, entries{b: cur}, sha256.Sum256(cur))
			var size int
			alternate(b, "partial", "sha256", "x-sha256", func() {
				u, err := l.build(start{from: from.s, base: from, target: to, partial: true}, to, 0, rice)
				if err != nil {
					b.Fatal(err)
				}
				size = len(u.body)
			}, func() {
				sha256.Sum256(cur)
			})
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

// TestPartialUpdateSize: the partial update of a 1M-prefix list after a
// 1% change holds the change alone, and a client applies it: with RICE,
// about 2.5 bytes an addition (random prefixes 430,000 apart on average,
// a Rice parameter of 18) and 1 a removal (indices 100 apart, 6), some
// 35 KB, where the change raw takes 80 KB and the list 4 MB.
func TestPartialUpdateSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1M-prefix list")
	}
	t.Parallel()
	old, cur := benchLists()
	l := newList(1, []string{"mw-4b"}, []int{0})
	from := newVersion(l.name, entries{b: old}, sha256.Sum256(old))
	to := newVersion(l.name, entries{b: cur}, sha256.Sum256(cur))
	u, err := l.build(start{from: from.s, base: from, target: to, partial: true}, to, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	c := &clientList{entries: make([]string, 0, benchN), state: from.state}
	for i := 0; i < len(old); i += 4 {
		c.entries = append(c.entries, string(old[i:i+4]))
	}
	lr, err := parseBody(u.body)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.apply(&lr); err != nil {
		t.Fatal(err)
	}
	t.Logf("partial update after a 1%% change of %d prefixes: %d bytes", benchN, len(u.body))
	if len(u.body) > 60_000 {
		t.Errorf("%d bytes", len(u.body))
	}
}
