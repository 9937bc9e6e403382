// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// be returns vals big-endian, concatenated: the message sha4 hashes.
func be(vals []uint32) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.BigEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// TestSHA4 compares sha4 with crypto/sha256 on messages of every length
// up to 80 prefixes and a few longer, given in chunks of several sizes,
// so that the padding takes one block or two and the open block is
// filled a value at a time and in whole blocks.
func TestSHA4(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	lengths := []int{1000, 4096, 100_003}
	for n := range 81 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		vals := make([]uint32, n)
		for i := range vals {
			vals[i] = r.Uint32()
		}
		want := sha256.Sum256(be(vals))
		for _, chunk := range []int{1, 5, 16, 17, 512, n + 1} {
			var s sha4
			s.init()
			for c := range slices.Chunk(vals, chunk) {
				s.build(c, nil, nil)
			}
			if got := s.sum(); got != want {
				t.Fatalf("%d prefixes in chunks of %d: sha4 %x; crypto/sha256 %x", n, chunk, got, want)
			}
		}
	}
}

// TestSHABlocks compares shaBlocks (the assembly, where the CPU has the
// SHA extensions) with shaBlocksGo on random blocks.
func TestSHABlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := range 20 {
		ws := make([]uint32, 16*n)
		for i := range ws {
			ws[i] = r.Uint32()
		}
		h := [8]uint32{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}
		want := h
		shaBlocks(&h, ws)
		shaBlocksGo(&want, ws)
		if h != want {
			t.Fatalf("%d blocks: shaBlocks %x; shaBlocksGo %x", n, h, want)
		}
	}
}

// buildRef builds an index of vals, ascending, in a builder for size
// prefixes, through addAll in chunks, and returns it with the SHA-256 of
// vals by crypto/sha256: the reference.
func buildRef(vals []uint32, size, chunk int) (*indexBuilder, [32]byte) {
	ib := newIndexBuilder(size)
	hb := make([]byte, 4*chunk)
	for c := range slices.Chunk(vals, chunk) {
		ib.addAll(c, hb)
	}
	return ib, sha256.Sum256(be(vals))
}

// buildSHA4 is buildRef through sha4.build: with the assembly that
// builds between the rounds, where the CPU has the SHA extensions.
func buildSHA4(vals []uint32, size, chunk int) (*indexBuilder, [32]byte) {
	ib := newIndexBuilder(size)
	hb := make([]byte, 2048)
	var s sha4
	s.init()
	for c := range slices.Chunk(vals, chunk) {
		s.build(c, ib, hb)
	}
	return ib, s.sum()
}

// sameBuild fails unless two builders and their checksums are alike in
// everything, and so are the indexes finish makes of them.
func sameBuild(t *testing.T, name string, a, b *indexBuilder, sa, sb [32]byte) {
	t.Helper()
	switch {
	case sa != sb:
		t.Fatalf("%s: checksum %x; want %x", name, sa, sb)
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
	xa, ca := a.finish()
	xb, cb := b.finish()
	if (ca == nil) != (cb == nil) {
		t.Fatalf("%s: finish held one flat, not the other", name)
	}
	if ca != nil {
		// Held flat, for a bucket too full: the cursors read the rest.
		xa, xb = ca.x, cb.x
	}
	if !bytes.Equal(xa.rem, xb.rem) || !slices.Equal(xa.base, xb.base) || !bytes.Equal(xa.off, xb.off) ||
		!slices.Equal(xa.wide, xb.wide) || !bytes.Equal(xa.lo8, xb.lo8) {
		t.Fatalf("%s: the finished indexes differ", name)
	}
}

// sortedValues returns n ascending distinct values from first on, with
// gaps from 1 to 2*gap-1.
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

// TestSHA4Build compares building an index through sha4 (between the
// SHA-256 rounds, in assembly where the CPU has the SHA extensions) with
// addAll and crypto/sha256, on lists of every index shape, from indexMin
// (a low of 14 bits) to a few million (10 bits), random, clustered, at
// the ends of the range, in builders with room to spare (and of the
// shapes of 8 million prefixes and more), given in chunks that cut blocks
// anywhere.
func TestSHA4Build(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	random := func(n int) []uint32 { return sortedValues(r, n, r.Uint64N(1<<32/uint64(n)), 1<<32/uint64(n)) }
	tests := []struct {
		name string
		vals []uint32
		size int // the builder's; len(vals) when 0
	}{
		{"indexMin", random(1 << 16), 0},
		{"100k", random(100_000), 0},
		{"100k in a builder for 120k", random(100_000), 120_000},
		{"1M", random(1 << 20), 0},
		{"1M+1", random(1<<20 + 1), 0},
		{"3M", random(3_000_000), 0},
		{"a builder for 2^23: a low of 9 bits", random(100_000), 1 << 23},
		{"a builder for 2^24: a low of 8 bits, no rest", random(100_000), 1 << 24},
		{"dense from 0", sortedValues(r, 70_000, 0, 1), 0},
		{"dense to the top", sortedValues(r, 70_000, 1<<32-70_000, 1), 0},
		{"clusters", func() []uint32 {
			var v []uint32
			for c := range uint64(40) {
				v = append(v, sortedValues(r, 2000, c<<26, 3)...)
			}
			return v
		}(), 0},
		{"one bucket, then spread", append(sortedValues(r, 300, 5, 1), sortedValues(r, 80_000, 1<<20, 1<<15)...), 0},
	}
	for _, tt := range tests {
		size := max(tt.size, len(tt.vals))
		if (testing.Short() || raceEnabled) && size > 200_000 {
			continue
		}
		for _, chunk := range []int{512, 16, 1, 37, len(tt.vals)} {
			a, sa := buildSHA4(tt.vals, size, chunk)
			b, sb := buildRef(tt.vals, size, chunk)
			sameBuild(t, tt.name, a, b, sa, sb)
		}
	}
}

// FuzzSHA4Build builds an index of prefixes made from the fuzzer's bytes,
// two bytes a gap, through sha4 and through addAll and crypto/sha256
// (sameBuild).
func FuzzSHA4Build(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0xff, 0xff}, uint32(5), uint16(0), uint8(16))
	f.Add(bytes.Repeat([]byte{0, 1}, 200), uint32(1<<32-400), uint16(1000), uint8(1))
	f.Add(bytes.Repeat([]byte{0xff, 0xff, 0, 0}, 300), uint32(0), uint16(7), uint8(33))
	f.Fuzz(func(t *testing.T, gaps []byte, first uint32, extra uint16, chunk uint8) {
		vals := []uint32{first}
		for i := 0; i+1 < len(gaps); i += 2 {
			v := uint64(vals[len(vals)-1]) + 1 + uint64(binary.LittleEndian.Uint16(gaps[i:]))<<uint(gaps[i]%17)
			if v > 1<<32-1 {
				break
			}
			vals = append(vals, uint32(v))
		}
		size := len(vals) + int(extra)
		c := 1 + int(chunk)
		a, sa := buildSHA4(vals, size, c)
		b, sb := buildRef(vals, size, c)
		sameBuild(t, "fuzz", a, b, sa, sb)
	})
}

// TestApplySHA4 applies full and partial updates with the checksum and
// index made through sha4 and through crypto/sha256 and addAll: the lists
// must be the same.
func TestApplySHA4(t *testing.T) {
	defer func(f bool) { fastSHA4 = f }(fastSHA4)
	r := rand.New(rand.NewPCG(13, 14))
	hashes := randomHashes(r, 70_001, 4, 0)
	sorted := sortHashes(hashes, 4)
	sum := sha256.Sum256(sorted)
	full, err := (&Message{Name: "se-4b", Version: []byte("v1"), Additions: hashes, Checksum: sum[:]}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	adds := randomHashes(r, 33, 4, 0)
	kept := append(bytes.Clone(sorted[:4*100]), sorted[4*103:]...)
	sum2 := Checksum(append(kept, adds...), 4)
	partial, err := (&Message{Partial: true, Width: 4, Removals: []uint32{100, 101, 102}, Additions: adds, Checksum: sum2[:]}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got [2][]byte
	for i, fast := range []bool{true, false} {
		fastSHA4 = fast
		l, _ := New("se-4b")
		for _, m := range [][]byte{full, partial} {
			if err := l.Apply(m); err != nil {
				t.Fatalf("fastSHA4 %v: %v", fast, err)
			}
		}
		if l.load().idx == nil {
			t.Fatalf("fastSHA4 %v: no index", fast)
		}
		got[i] = collect(l)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("the lists differ")
	}
}
