// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShape checks the split of a prefix at the sizes that matter: the
// low takes log2(2^32/n) bits (8 to 14), a bucket about 8 prefixes, and
// the three parts 32 bits.
func TestShape(t *testing.T) {
	tests := []struct {
		n         int
		l, ns, nb uint
	}{
		{1, 14, 18, 0},         // one prefix: one bucket
		{1 << 16, 14, 5, 13},   // indexMin: the low is capped at 14 bits
		{1_000_000, 12, 3, 17}, // the benchmark list: 1.96 bytes a prefix
		{1 << 20, 12, 3, 17},   // a power of two keeps the larger low
		{1<<20 + 1, 11, 4, 17}, // one more takes a bit from the low
		{1 << 24, 8, 3, 21},    // maxDatabaseEntries
		{1 << 30, 8, 0, 24},    // far past any list: the low is at least 8
	}
	for _, tt := range tests {
		l, ns, nb := shape(tt.n)
		if l != tt.l || ns != tt.ns || nb != tt.nb || l+ns+nb != 32 {
			t.Errorf("shape(%d) = %d, %d, %d; want %d, %d, %d", tt.n, l, ns, nb, tt.l, tt.ns, tt.nb)
		}
	}
}

// buildIndex builds an index of vals, sorted and distinct, through
// addAll in chunks of the given size, and returns it, or nil when it
// holds them flat.
func buildIndex(t *testing.T, vals []uint32, chunk int) *index {
	t.Helper()
	ib := newIndexBuilder(len(vals))
	for v := range slices.Chunk(vals, chunk) {
		ib.addAll(v, make([]byte, 4*len(v)))
	}
	x, c := ib.finish()
	got := make([]uint32, len(vals))
	if c == nil {
		c = &cursor{x: x}
	}
	for i := range got {
		got[i] = c.next()
	}
	if !slices.Equal(got, vals) {
		t.Fatalf("%d prefixes read back in order differ", len(vals))
	}
	return x
}

// TestIndex compares contains with a binary search on sets of many sizes
// and spreads: random (every shape from l = 14 to 5), clustered in a few
// buckets, sharing lows across sub-buckets, and with buckets of more than
// 12 prefixes, which take the careful path. Every prefix is probed, and as
// many neighbours and random values, in the index built in one chunk;
// the builds in chunks of 1, 7 and 1,024 must be that build, array for
// array, and so answer alike.
func TestIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []uint32 {
		m := map[uint32]bool{}
		for len(m) < n {
			m[r.Uint32()] = true
		}
		v := make([]uint32, 0, n)
		for k := range m {
			v = append(v, k)
		}
		slices.Sort(v)
		return v
	}
	tests := []struct {
		name string
		vals func() []uint32
	}{
		{"one", func() []uint32 { return []uint32{0x12345678} }},
		{"zero and max", func() []uint32 { return []uint32{0, 0xffffffff} }},
		{"random 100", func() []uint32 { return random(100) }},
		{"random 5000", func() []uint32 { return random(5000) }},
		{"random 70000", func() []uint32 { return random(70000) }},
		{"random 300000", func() []uint32 { return random(300000) }},
		// 60 prefixes a bucket: beyond the 12 compared at once, and
		// codes longer than a word.
		{"full buckets", func() []uint32 {
			l, ns, _ := shape(100_020)
			var v []uint32
			for b := range uint32(1667) {
				for _, low := range random(60) {
					// One bucket in 16, so that the offsets fit
					// a uint8.
					v = append(v, b<<4<<(l+ns)|low>>(l+ns))
				}
			}
			slices.Sort(v)
			return slices.Compact(v)
		}},
		// Prefixes that differ only in their sub-bucket: equal lows in
		// the first 8 sub-buckets of each bucket.
		{"shared lows", func() []uint32 {
			l, ns, _ := shape(24_000)
			var v []uint32
			for b := range uint32(3000) {
				for j := range uint32(8) {
					v = append(v, b<<(l+ns)|j<<l|0xabc)
				}
			}
			return v
		}},
		// 255 prefixes in one bucket: the most an index holds.
		{"bucket of 255", func() []uint32 {
			_, _, nb := shape(70255)
			v := slices.DeleteFunc(random(70000), func(v uint32) bool { return v>>(32-nb) == 0x40000000>>(32-nb) })
			for i := range 255 {
				v = append(v, 0x40000000|uint32(i))
			}
			slices.Sort(v)
			return slices.Compact(v)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if raceEnabled && tt.name == "random 300000" {
				t.Skip("-race: 1.5M probes; random 70000 and full buckets take the same paths, and .ci/run runs this one without -race")
			}
			vals := tt.vals()
			b := sameInChunks(t, tt.name, vals, len(vals), 1, 7, 1024)
			x := b.x
			if b.c != nil {
				t.Fatalf("%s: held flat", tt.name)
			}
			c := &cursor{x: x}
			for i, want := range vals {
				if got := c.next(); got != want {
					t.Fatalf("%s: prefix %d read back is %#x; want %#x", tt.name, i, got, want)
				}
			}
			probe := func(h uint32) {
				_, want := slices.BinarySearch(vals, h)
				if got := x.contains(h); got != want {
					t.Fatalf("%s: contains(%#08x) = %v; want %v", tt.name, h, got, want)
				}
			}
			for _, v := range vals {
				probe(v)
				probe(v + 1)
				probe(v - 1)
				probe(v ^ 1<<(x.l))
				probe(r.Uint32())
			}
		})
	}
}

// sortedValues returns up to n ascending distinct values from first on,
// with gaps from 1 to 2*gap-1, stopping at 2^32.
func sortedValues(r *rand.Rand, n int, first, gap uint64) []uint32 {
	v := make([]uint32, 0, n)
	x := first
	for range n {
		if x > 1<<32-1 {
			break
		}
		v = append(v, uint32(x))
		x += 1 + r.Uint64N(2*gap-1)
	}
	return v
}

// buildChunks builds vals, ascending, in a builder for size prefixes,
// through addAll in chunks, and fails unless addAll wrote each chunk
// big-endian to its hb, the bytes the checksum hashes.
func buildChunks(t *testing.T, vals []uint32, size, chunk int) *indexBuilder {
	t.Helper()
	ib := newIndexBuilder(size)
	hb := make([]byte, 4*chunk)
	for i, c := range slices.Collect(slices.Chunk(vals, chunk)) {
		ib.addAll(c, hb[:4*len(c)])
		for j, v := range c {
			if got := binary.BigEndian.Uint32(hb[4*j:]); got != v {
				t.Fatalf("chunk %d of %d: hb holds %#x at %d; want %#x", i, chunk, got, j, v)
			}
		}
	}
	return ib
}

// sameBuilder fails unless two builders hold the same prefixes in the
// same state, so that adding more to each would keep them alike.
func sameBuilder(t *testing.T, name string, a, b *indexBuilder) {
	t.Helper()
	switch {
	case a.n != b.n || a.hw != b.hw || a.hacc != b.hacc:
		t.Fatalf("%s: n, hw, hacc %d, %d, %#x; want %d, %d, %#x", name, a.n, a.hw, a.hacc, b.n, b.hw, b.hacc)
	case !slices.Equal(a.ends, b.ends):
		t.Fatalf("%s: ends differ", name)
	case a.packed != b.packed || !bytes.Equal(a.rest[:a.n-a.packed], b.rest[:b.n-b.packed]):
		t.Fatalf("%s: rests packed %d, open %x; want %d, %x", name, a.packed, a.rest[:a.n-a.packed], b.packed, b.rest[:b.n-b.packed])
	case !bytes.Equal(a.x.rem, b.x.rem):
		t.Fatalf("%s: rem differs", name)
	case !bytes.Equal(a.x.lo8, b.x.lo8):
		t.Fatalf("%s: lo8 differs", name)
	case !bytes.Equal(a.x.hi, b.x.hi):
		t.Fatalf("%s: hi differs", name)
	}
}

// built is what finish made of a builder: the index, or the cursor that
// reads it when it is held flat.
type built struct {
	x *index
	c *cursor
}

func finished(ib *indexBuilder) built {
	x, c := ib.finish()
	return built{x, c}
}

// sameIndex fails unless finish made the same of two builders: both held
// flat or neither, and the same arrays, which are all that contains and
// a cursor read.
func sameIndex(t *testing.T, name string, a, b built) {
	t.Helper()
	if (a.c == nil) != (b.c == nil) {
		t.Fatalf("%s: finish held one flat, not the other", name)
	}
	ya, yb := a.x, b.x
	if a.c != nil {
		ya, yb = a.c.x, b.c.x
	}
	if ya.n != yb.n || ya.l != yb.l || ya.ns != yb.ns || ya.nb != yb.nb ||
		!bytes.Equal(ya.hi, yb.hi) || !bytes.Equal(ya.rem, yb.rem) || !bytes.Equal(ya.lo8, yb.lo8) ||
		!slices.Equal(ya.base, yb.base) || !bytes.Equal(ya.off, yb.off) || !slices.Equal(ya.wide, yb.wide) {
		t.Fatalf("%s: the finished indexes differ", name)
	}
}

// sameInChunks fails unless building vals in a builder for size prefixes
// in chunks of each size gives what building them in one chunk gives,
// and returns that.
func sameInChunks(t *testing.T, name string, vals []uint32, size int, chunks ...int) built {
	t.Helper()
	ref := buildChunks(t, vals, size, max(len(vals), 1))
	var ibs []*indexBuilder
	for _, chunk := range chunks {
		ib := buildChunks(t, vals, size, chunk)
		sameBuilder(t, fmt.Sprintf("%s, chunks of %d", name, chunk), ib, ref)
		ibs = append(ibs, ib)
	}
	want := finished(ref)
	for i, ib := range ibs {
		sameIndex(t, fmt.Sprintf("%s, chunks of %d", name, chunks[i]), finished(ib), want)
	}
	return want
}

// TestIndexBuild builds indexes of lists of every index shape, from
// indexMin (a low of 14 bits) to a few million (10 bits), random,
// clustered, at the ends of the range, in builders with room to spare
// (and of the shapes of 8 million prefixes and more), given to addAll in
// chunks that cut its groups of four and eight anywhere. The builds in
// chunks must be the build in one chunk, and the index must hold the
// list: read back in order, it is the list, and contains agrees with a
// binary search over it on every prefix and its neighbours.
func TestIndexBuild(t *testing.T) {
	tests := []struct {
		name string
		vals func(r *rand.Rand) []uint32
		size int // the builder's; len(vals) when 0
	}{
		{"indexMin", func(r *rand.Rand) []uint32 { return randomSorted(r, 1<<16) }, 0},
		{"100k", func(r *rand.Rand) []uint32 { return randomSorted(r, 100_000) }, 0},
		{"100k in a builder for 120k", func(r *rand.Rand) []uint32 { return randomSorted(r, 100_000) }, 120_000},
		{"1M", func(r *rand.Rand) []uint32 { return randomSorted(r, 1<<20) }, 0},
		{"1M+1", func(r *rand.Rand) []uint32 { return randomSorted(r, 1<<20+1) }, 0},
		{"3M", func(r *rand.Rand) []uint32 { return randomSorted(r, 3_000_000) }, 0},
		{"a builder for 2^23: a low of 9 bits", func(r *rand.Rand) []uint32 { return randomSorted(r, 100_000) }, 1 << 23},
		{"a builder for 2^24: a low of 8 bits, no rest", func(r *rand.Rand) []uint32 { return randomSorted(r, 100_000) }, 1 << 24},
		{"dense from 0", func(r *rand.Rand) []uint32 { return sortedValues(r, 70_000, 0, 1) }, 0},
		{"dense to the top", func(r *rand.Rand) []uint32 { return sortedValues(r, 70_000, 1<<32-70_000, 1) }, 0},
		{"clusters", func(r *rand.Rand) []uint32 {
			var v []uint32
			for c := range uint64(40) {
				v = append(v, sortedValues(r, 2000, c<<26, 3)...)
			}
			return v
		}, 0},
		{"one bucket, then spread", func(r *rand.Rand) []uint32 {
			return append(sortedValues(r, 300, 5, 1), sortedValues(r, 80_000, 1<<20, 1<<15)...)
		}, 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals := tt.vals(rand.New(rand.NewPCG(11, uint64(i))))
			size := max(tt.size, len(vals))
			if raceEnabled && size > 200_000 {
				t.Skip("-race: the shapes past 200,000 prefixes take the same paths as the smaller ones, with other constants; .ci/run runs them without -race")
			}
			if testing.Short() && size > 200_000 {
				t.Skip("-short: a large list")
			}
			b := sameInChunks(t, tt.name, vals, size, 512, 16, 1, 37)
			c := b.c
			if c == nil {
				c = &cursor{x: b.x}
			}
			for i, want := range vals {
				if got := c.next(); got != want {
					t.Fatalf("prefix %d read back is %#x; want %#x", i, got, want)
				}
			}
			if b.c != nil {
				return // held flat: a bucket too full
			}
			for _, v := range vals {
				for _, h := range []uint32{v, v + 1, v - 1} {
					if _, want := slices.BinarySearch(vals, h); b.x.contains(h) != want {
						t.Fatalf("contains(%#08x) = %v; want %v", h, !want, want)
					}
				}
			}
		})
	}
}

// randomSorted returns about n ascending distinct values spread evenly
// over the 32 bits, from a random start.
func randomSorted(r *rand.Rand, n int) []uint32 {
	gap := 1 << 32 / uint64(n)
	return sortedValues(r, n, r.Uint64N(gap), gap)
}

// TestIndexFlat: a bucket of more than bucketMax prefixes makes finish
// give up the index for a flat list, read in order from the cursor.
func TestIndexFlat(t *testing.T) {
	var vals []uint32
	for i := range uint32(256) {
		vals = append(vals, 0x80000000|i) // 256 in one bucket
	}
	ib := newIndexBuilder(len(vals))
	ib.addAll(vals, make([]byte, 4*len(vals)))
	x, c := ib.finish()
	if x != nil || c == nil {
		t.Fatalf("%d prefixes: finish kept the index", len(vals))
	}
	for i, want := range vals {
		if got := c.next(); got != want {
			t.Fatalf("prefix %d: %#x; want %#x", i, got, want)
		}
	}
}

// TestIndexWide: 16 buckets whose offsets pass 255 keep their offsets as
// uint32s, and contains reads them.
func TestIndexWide(t *testing.T) {
	l, ns, _ := shape(16 * 18)
	var vals []uint32
	for i := range uint32(16 * 18) {
		vals = append(vals, i/18<<(l+ns)|i%18) // 18 in each of 16 buckets
	}
	x := buildIndex(t, vals, 5)
	if x == nil || x.wide == nil {
		t.Fatalf("index %v; want one with wide offsets", x)
	}
	for _, v := range vals {
		if !x.contains(v) || x.contains(v+1<<l) {
			t.Fatalf("contains(%#x) wrong", v)
		}
	}
}

// TestShrink: a partial update that removes most of a list holds the rest
// as a list of its new size would be held: flat under indexMin, else an
// index of the shape of the new size, not of the old one.
func TestShrink(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a list of 200,000")
	}
	tests := []struct {
		keep     int
		wantFlat bool
	}{
		{0, true},        // all removed
		{10, true},       // under indexMin: flat, 40 bytes
		{100_000, false}, // an index of 100,000's shape
		{199_000, false}, // the same shape as before: kept as built
	}
	// Each case starts from the same list: its state is immutable, so a
	// List of its own holding it is the list as filled made it.
	start := filled(t, "se-4b", 200_000, "v1").load()
	var all []byte
	for h := range start.all {
		all = append(all, h...)
	}
	for _, tt := range tests {
		l := new(List)
		l.st.Store(start)
		n := len(all) / 4
		var rem []uint32
		var kept []byte
		for i := range n {
			if i < n-tt.keep {
				rem = append(rem, uint32(i))
			} else {
				kept = append(kept, all[4*i:4*i+4]...)
			}
		}
		sum := Checksum(kept, 4)
		msg, err := (&Message{Partial: true, Width: 4, Removals: rem, Checksum: sum[:]}).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Apply(msg); err != nil {
			t.Fatalf("keep %d: %v", tt.keep, err)
		}
		st := l.load()
		if st.n != tt.keep || (st.idx == nil) != tt.wantFlat {
			t.Fatalf("keep %d: %d prefixes, index %v; want flat %v", tt.keep, st.n, st.idx != nil, tt.wantFlat)
		}
		if x := st.idx; x != nil {
			if l, ns, nb := shape(tt.keep); x.l != l || x.ns != ns || x.nb != nb {
				t.Errorf("keep %d: index of shape %d/%d/%d; want %d/%d/%d", tt.keep, x.l, x.ns, x.nb, l, ns, nb)
			}
		}
		var got []byte
		for h := range l.All() {
			got = append(got, h...)
		}
		if !slices.Equal(got, kept) {
			t.Fatalf("keep %d: the list differs from what was kept", tt.keep)
		}
		for i := 0; i < len(kept); i += 4 {
			if !l.Contains(kept[i : i+4]) {
				t.Fatalf("keep %d: Contains(%x) = false", tt.keep, kept[i:i+4])
			}
		}
	}
}
