// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// The benchmark list: a million distinct random 4-byte prefixes, as a full
// update with the chosen k (12), and the same values as a sorted []uint32
// and their 4 MB sorted concatenation, for the floors.
var bench struct {
	once   sync.Once
	msg    []byte
	vals   []uint32
	sorted []byte
}

const benchN = 1_000_000

func benchList(tb testing.TB) {
	bench.once.Do(func() {
		r := rand.New(rand.NewPCG(42, 42))
		hashes := randomHashes(r, benchN, 4, 0)
		bench.sorted = sortHashes(hashes, 4)
		bench.vals = make([]uint32, benchN)
		for i := range bench.vals {
			bench.vals[i] = binary.BigEndian.Uint32(bench.sorted[4*i:])
		}
		sum := sha256.Sum256(bench.sorted)
		m := Message{Name: "se-4b", Version: []byte("v1"), Additions: hashes, Checksum: sum[:]}
		var err error
		if bench.msg, err = m.MarshalBinary(); err != nil {
			panic(err)
		}
	})
}

// probes is how many varied probes BenchmarkContains loops over: a
// million, so that each probe lands in another part of the list, as the
// prefixes of the URLs a server checks do, and the caches hold what they
// would hold.
const probes = 1 << 20

// benchProbes returns the probes: half prefixes of the list, half random
// (almost all absent), in random order.
func benchProbes() []uint32 {
	r := rand.New(rand.NewPCG(43, 43))
	q := make([]uint32, probes)
	for i := range q {
		q[i] = r.Uint32()
		if i%2 == 0 {
			q[i] = bench.vals[r.IntN(benchN)]
		}
	}
	return q
}

// BenchmarkContains compares Contains on the 1M list with its floor, a
// binary search (slices.BinarySearch) over a []uint32 of the same values,
// on the same varied probes, interleaved in blocks of 1,024 within one run
// so that a busy machine slows both alike. An op is one probe of each;
// it reports each one's ns and their ratio, "x-search".
func BenchmarkContains(b *testing.B) {
	benchList(b)
	l, _ := New("se-4b")
	if err := l.Apply(bench.msg); err != nil {
		b.Fatal(err)
	}
	q := benchProbes()
	qb := make([][4]byte, len(q))
	for i, v := range q {
		binary.BigEndian.PutUint32(qb[i][:], v)
	}
	vals := bench.vals
	var tl, ts time.Duration
	found, next := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; {
		m := min(1024, b.N-n, len(q)-next)
		start := time.Now()
		for _, h := range qb[next : next+m] {
			if l.Contains(h[:]) {
				found++
			}
		}
		mid := time.Now()
		for _, v := range q[next : next+m] {
			if _, ok := slices.BinarySearch(vals, v); ok {
				found--
			}
		}
		tl += mid.Sub(start)
		ts += time.Since(mid)
		n += m
		next = (next + m) % len(q)
	}
	if found != 0 && b.N%len(q) == 0 {
		b.Fatalf("Contains and the binary search disagree %d times", found)
	}
	b.ReportMetric(float64(tl.Nanoseconds())/float64(b.N), "contains-ns")
	b.ReportMetric(float64(ts.Nanoseconds())/float64(b.N), "search-ns")
	b.ReportMetric(float64(tl)/float64(ts), "x-search")
}

var sinkInt int

// loop runs f b.N times (b.Loop) and reports, besides the wall time, the
// process's CPU time per op ("cpu-ns/op"), steadier on a shared machine.
func loop(b *testing.B, f func()) {
	b.ReportAllocs()
	start, ok := processCPU()
	for b.Loop() {
		f()
	}
	if end, ok2 := processCPU(); ok && ok2 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkApplyFull compares a full update of the 1M list (decode, build,
// checksum) with its floor, SHA-256 over the 4 MB sorted concatenation,
// which every correct client computes. An op is one of each, interleaved,
// so that a busy machine slows both alike; it reports each one's ns and
// their ratio, "x-sha256".
func BenchmarkApplyFull(b *testing.B) {
	benchList(b)
	var ta, ts time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		l, _ := New("se-4b")
		if err := l.Apply(bench.msg); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		sinkSum = sha256.Sum256(bench.sorted)
		ta += mid.Sub(start)
		ts += time.Since(mid)
	}
	b.ReportMetric(float64(ta.Nanoseconds())/float64(b.N), "apply-ns")
	b.ReportMetric(float64(ts.Nanoseconds())/float64(b.N), "sha256-ns")
	b.ReportMetric(float64(ta)/float64(ts), "x-sha256")
}

var sinkSum [32]byte

// BenchmarkDecode measures the Rice decoder alone on the 1M list, in ns
// per entry.
func BenchmarkDecode(b *testing.B) {
	benchList(b)
	m, err := parseList(bench.msg)
	if err != nil {
		b.Fatal(err)
	}
	var sum uint32
	var chunk [1024]uint32
	loop(b, func() {
		d := newRice32(&m.add)
		for n := d.fill(chunk[:]); n > 0; n = d.fill(chunk[:]) {
			sum += chunk[n-1]
		}
		if d.err != nil {
			b.Fatal(d.err)
		}
	})
	sinkInt = int(sum)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchN, "ns/entry")
}

// BenchmarkMemory reports the heap a 1M list holds, in bytes per prefix.
func BenchmarkMemory(b *testing.B) {
	benchList(b)
	var per float64
	for b.Loop() {
		per = bytesPerPrefix(b)
	}
	b.ReportMetric(per, "B/prefix")
}

// bytesPerPrefix returns the heap growth, after GC, of holding the 1M list.
func bytesPerPrefix(tb testing.TB) float64 {
	benchList(tb)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, _ := New("se-4b")
	if err := l.Apply(bench.msg); err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(l)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / benchN
}

// TestMemoryPerPrefix: a 1M 4-byte list holds at most 2.0 bytes a prefix
// (their entropy is 1.69).
func TestMemoryPerPrefix(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("builds a 1M list")
	}
	if per := bytesPerPrefix(t); per > 2.0 {
		t.Errorf("%.3f bytes a prefix; want ≤ 2.0", per)
	} else {
		t.Logf("%.3f bytes a prefix", per)
	}
}

// BenchmarkApplyPartial measures a partial update of the 1M list: 1,000
// removals and 1,000 additions, merged with the old list in one pass.
func BenchmarkApplyPartial(b *testing.B) {
	benchList(b)
	l, _ := New("se-4b")
	if err := l.Apply(bench.msg); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	var rem []uint32
	seen := map[uint32]bool{}
	for len(rem) < 1000 {
		if x := uint32(r.IntN(benchN)); !seen[x] {
			seen[x] = true
			rem = append(rem, x)
		}
	}
	var adds, kept []byte
	for len(adds) < 4000 {
		v := r.Uint32()
		if _, found := slices.BinarySearch(bench.vals, v); !found && !seen[v] {
			seen[v] = true
			adds = binary.BigEndian.AppendUint32(adds, v)
		}
	}
	for i, v := range bench.vals {
		if !seen[uint32(i)] {
			kept = binary.BigEndian.AppendUint32(kept, v)
		}
	}
	sum := Checksum(append(kept, adds...), 4)
	msg, err := (&Message{Partial: true, Width: 4, Removals: rem, Additions: adds, Checksum: sum[:]}).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	old := l.st.Load()
	loop(b, func() {
		l.st.Store(old)
		if err := l.Apply(msg); err != nil {
			b.Fatal(err)
		}
	})
}
