// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// The Web Risk benchmark lists, RESETs whose 4-byte additions are
// Rice-coded little-endian, with the k the encoder chooses (12): diff
// holds the million prefixes of the v5 benchmark list, and mixed the
// same with one in 200 lengthened to 8 bytes (a raw group of 5,000), as
// a Web Risk list is mostly 4 bytes long.
var benchWR struct {
	once  sync.Once
	diff  Diff
	mixed Diff
}

// benchWebRisk returns the Web Risk benchmark lists.
func benchWebRisk(tb testing.TB) (diff, mixed *Diff) {
	benchList(tb)
	benchWR.once.Do(func() {
		r, err := RiceHashes(bench.sorted, 0)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(bench.sorted)
		benchWR.diff = Diff{Reset: true, Rice: &r, Version: []byte("v1"), Checksum: sum[:]}

		var four, long, all []byte
		for i := 0; i < len(bench.sorted); i += 4 {
			p := bench.sorted[i : i+4]
			if i/4%200 == 0 {
				e := append(bytes.Clone(p), 0xab, 0xcd, 0xef, byte(i))
				long = append(long, e...)
				all = append(all, e...)
				continue
			}
			four = append(four, p...)
			all = append(all, p...)
		}
		rm, err := RiceHashes(four, 0)
		if err != nil {
			panic(err)
		}
		sumAll := sha256.Sum256(all)
		benchWR.mixed = Diff{Reset: true, Rice: &rm, Raw: []RawHashes{{PrefixSize: 8, Hashes: long}}, Version: []byte("v1"), Checksum: sumAll[:]}
	})
	return &benchWR.diff, &benchWR.mixed
}

// alternate runs f and g b.N times each, in pairs, f first in one pair
// and g first in the next, so that a busy machine slows both alike, and
// reports for each its median wall time per op (fname+"-ns",
// gname+"-ns") and the median of the pairs' ratios of f to g (ratio).
// With the goroutine locked to its thread, it also reports the ratio of
// the two's total thread CPU time ("cpu-"+ratio), which other processes
// on the machine do not inflate.
func alternate(b *testing.B, fname, gname, ratio string, f, g func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var tf, tg []float64
	var cf, cg time.Duration
	cpuOK := true
	timed := func(h func()) (time.Duration, time.Duration) {
		c0, ok0 := threadCPU()
		t0 := time.Now()
		h()
		d := time.Since(t0)
		c1, ok1 := threadCPU()
		cpuOK = cpuOK && ok0 && ok1
		return d, c1 - c0
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var df, dg, xf, xg time.Duration
		if i%2 == 0 {
			df, xf = timed(f)
			dg, xg = timed(g)
		} else {
			dg, xg = timed(g)
			df, xf = timed(f)
		}
		i++
		tf, tg = append(tf, float64(df)), append(tg, float64(dg))
		cf, cg = cf+xf, cg+xg
	}
	ratios := make([]float64, len(tf))
	for j := range tf {
		ratios[j] = tf[j] / tg[j]
	}
	b.ReportMetric(median(tf), fname+"-ns")
	b.ReportMetric(median(tg), gname+"-ns")
	b.ReportMetric(median(ratios), ratio)
	if cpuOK && cg > 0 {
		b.ReportMetric(float64(cf)/float64(cg), "cpu-"+ratio)
	}
}

// median returns the median of v, which it sorts.
func median(v []float64) float64 {
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	return v[len(v)/2]
}

// BenchmarkApplyWebRisk compares a full update of the 1M list in Web
// Risk's form, mostly 4-byte prefixes Rice-coded little-endian and 0.5%
// of 8 bytes, raw (decode, byte-swap, sort, build, verify), with v5's
// (BenchmarkApplyFull's apply, 1M 4-byte prefixes), alternated in one
// run. It reports each one's median ns and the median of their ratios,
// "x-v5".
func BenchmarkApplyWebRisk(b *testing.B) {
	_, d := benchWebRisk(b)
	alternate(b, "webrisk", "v5", "x-v5", func() {
		s, _ := NewPrefixSet("MALWARE")
		if err := s.Apply(d, 0); err != nil {
			b.Fatal(err)
		}
	}, func() {
		l, _ := New("se-4b")
		if err := l.Apply(bench.msg); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkEncodeV4Full compares building a full v4 (or Web Risk) update
// of the 1M list as a v4 front builds it from the List a v5 client holds
// (its prefixes read out in byte order with AppendHashes, byte-reversed,
// sorted and Rice-coded by RiceHashes, and their SHA-256 checksum), with
// its floor, SHA-256 over the 4 MB list, alternated in one run. It
// reports each one's median ns and the median of their ratios,
// "x-sha256".
func BenchmarkEncodeV4Full(b *testing.B) {
	benchList(b)
	l, _ := New("se-4b")
	if err := l.Apply(bench.msg); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 4*benchN)
	alternate(b, "encode", "sha256", "x-sha256", func() {
		buf = l.AppendHashes(buf[:0])
		r, err := RiceHashes(buf, 0)
		if err != nil {
			b.Fatal(err)
		}
		sinkSum = sha256.Sum256(buf)
		sinkInt = len(r.Data)
	}, func() {
		sinkSum = sha256.Sum256(bench.sorted)
	})
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
	d, _ := benchWebRisk(tb)
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
