// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"crypto/sha256"
	"runtime"
	"sync"
	"testing"
	"time"
)

// The Web Risk benchmark list: the million prefixes of the v5 benchmark
// list, as a RESET whose 4-byte additions are Rice-coded little-endian,
// with the k the encoder chooses (12).
var benchWR struct {
	once sync.Once
	diff Diff
}

func benchWebRisk(tb testing.TB) *Diff {
	benchList(tb)
	benchWR.once.Do(func() {
		r, err := RiceHashes(bench.sorted, 0)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(bench.sorted)
		benchWR.diff = Diff{Reset: true, Rice: &r, Version: []byte("v1"), Checksum: sum[:]}
	})
	return &benchWR.diff
}

// BenchmarkApplyWebRisk compares a full update of the 1M list in Web
// Risk's form (decode, byte-swap, sort, build, verify) with v5's
// (BenchmarkApplyFull without its floor), interleaved in one run, an op
// being one of each, so that a busy machine slows both alike. It reports
// each one's ns and their ratio, "x-v5".
func BenchmarkApplyWebRisk(b *testing.B) {
	d := benchWebRisk(b)
	var tw, tv time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		s, _ := NewPrefixSet("MALWARE")
		if err := s.Apply(d, 0); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		l, _ := New("se-4b")
		if err := l.Apply(bench.msg); err != nil {
			b.Fatal(err)
		}
		tw += mid.Sub(start)
		tv += time.Since(mid)
	}
	b.ReportMetric(float64(tw.Nanoseconds())/float64(b.N), "webrisk-ns")
	b.ReportMetric(float64(tv.Nanoseconds())/float64(b.N), "v5-ns")
	b.ReportMetric(float64(tw)/float64(tv), "x-v5")
}

// BenchmarkEncodeV4Full compares building a full v4 (or Web Risk) update
// of the 1M list from its prefixes in byte order, as [PrefixSet.All]
// and [List.All] give them (swap, sort, Rice-code, and the checksum of
// the list) with its floor, SHA-256 over the 4 MB list, interleaved in
// one run. It reports each one's ns and their ratio, "x-sha256".
func BenchmarkEncodeV4Full(b *testing.B) {
	benchList(b)
	var te, ts time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		r, err := RiceHashes(bench.sorted, 0)
		if err != nil {
			b.Fatal(err)
		}
		sinkSum = sha256.Sum256(bench.sorted)
		sinkInt = len(r.Data)
		mid := time.Now()
		sinkSum = sha256.Sum256(bench.sorted)
		te += mid.Sub(start)
		ts += time.Since(mid)
	}
	b.ReportMetric(float64(te.Nanoseconds())/float64(b.N), "encode-ns")
	b.ReportMetric(float64(ts.Nanoseconds())/float64(b.N), "sha256-ns")
	b.ReportMetric(float64(te)/float64(ts), "x-sha256")
}

// BenchmarkSwapSort measures the byte-swapping sort of the 1M list alone,
// in ns per value.
func BenchmarkSwapSort(b *testing.B) {
	benchList(b)
	src := make([]uint32, benchN)
	dst := make([]uint32, benchN)
	loop(b, func() {
		copy(src, bench.vals)
		swapSort(dst, src)
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchN, "ns/value")
}

// BenchmarkMemoryWebRisk reports the heap a 1M Web Risk set holds, in
// bytes per prefix.
func BenchmarkMemoryWebRisk(b *testing.B) {
	var per float64
	for b.Loop() {
		per = setBytesPerPrefix(b)
	}
	b.ReportMetric(per, "B/prefix")
}

// setBytesPerPrefix returns the heap growth, after GC, of holding the 1M
// list as a PrefixSet.
func setBytesPerPrefix(tb testing.TB) float64 {
	d := benchWebRisk(tb)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, _ := NewPrefixSet("MALWARE")
	if err := s.Apply(d, 0); err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / benchN
}

// TestPrefixSetMemoryPerPrefix: a 1M Web Risk set of 4-byte prefixes
// holds at most 2.0 bytes a prefix, as a v5 List does.
func TestPrefixSetMemoryPerPrefix(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("builds a 1M set")
	}
	if per := setBytesPerPrefix(t); per > 2.0 {
		t.Errorf("%.3f bytes a prefix; want ≤ 2.0", per)
	} else {
		t.Logf("%.3f bytes a prefix", per)
	}
}
