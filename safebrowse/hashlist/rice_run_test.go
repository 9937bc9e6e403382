// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// modelRun decodes up to count entries of a 32-bit Rice stream with
// parameter k from bit pos of data, after v, a bit at a time as the
// Local.Database page describes them. It returns the values and the
// position after each; it stops before the first entry that ends past
// the data, has a zero delta or overflows 32 bits.
func modelRun(data []byte, pos uint, v uint64, k uint, count int) (vals []uint32, ends []uint) {
	bit := func() (uint64, bool) {
		if pos >= 8*uint(len(data)) {
			return 0, false
		}
		b := uint64(data[pos/8]>>(pos%8)) & 1
		pos++
		return b, true
	}
	for range count {
		var q uint64
		for {
			b, ok := bit()
			if !ok {
				return
			}
			if b == 0 {
				break
			}
			if q++; q<<k > 1<<32 {
				return
			}
		}
		var r uint64
		for i := range k {
			b, ok := bit()
			if !ok {
				return
			}
			r |= b << i
		}
		d := q<<k | r
		if v += d; d == 0 || v > 1<<32-1 {
			return
		}
		vals = append(vals, uint32(v))
		ends = append(ends, pos)
	}
	return vals, ends
}

// checkRun runs decodeRun on the input, and fails unless what it
// decodes is what modelRun decodes: whole entries, each well formed, the
// position after the last and the last value; or, when it decodes
// nothing, the position and value it was given. It returns how many
// values it decoded, and the position after them.
func checkRun(t *testing.T, n int, data []byte, pos uint, v uint64, k uint) (int, uint) {
	t.Helper()
	got := make([]uint32, n)
	gn, gend, gv := decodeRun(got, data, pos, v, k)
	if gn == 0 {
		if gend != pos || gv != v {
			t.Fatalf("len(out) %d, %d bytes, pos %d, v %#x, k %d: no value, but end %d, last %#x", n, len(data), pos, v, k, gend, gv)
		}
		return 0, pos
	}
	vals, ends := modelRun(data, pos, v, k&31, gn)
	if len(vals) < gn || !slices.Equal(got[:gn], vals[:gn]) || gend != ends[gn-1] || gv != uint64(vals[gn-1]) {
		t.Fatalf("len(out) %d, %d bytes, pos %d, v %#x, k %d: decoded %d values, end %d, last %#x; the model decodes %d: %v",
			n, len(data), pos, v, k, gn, gend, gv, len(vals), vals[:min(len(vals), gn)])
	}
	return gn, gend
}

// TestDecodeRun checks decodeRun on hostile streams, and on random
// well-formed ones that it must decode nearly to the end.
func TestDecodeRun(t *testing.T) {
	ones := func(n int) []byte { return slices.Repeat([]byte{0xff}, n) }
	zeros := func(n int) []byte { return make([]byte, n) }
	for _, tc := range []struct {
		name string
		n    int
		data []byte
		pos  uint
		v    uint64
		k    uint
	}{
		{"empty", 8, nil, 0, 0, 12},
		{"7 bytes", 8, ones(7), 0, 0, 3},
		{"8 bytes", 8, zeros(8), 0, 0, 3},                 // zero deltas
		{"pos past the data", 8, zeros(40), 8 * 40, 0, 3}, // nothing to read
		{"pos far past the data", 8, zeros(40), ^uint(0), 0, 3},
		{"no room in out", 0, zeros(40), 0, 0, 3},
		{"zero deltas", 100, zeros(40), 5, 0, 3},
		{"zero delta, k 0", 100, zeros(40), 0, 7, 0},
		{"all ones: one long quotient", 100, ones(40), 3, 0, 3},
		{"ones then an entry", 100, append(ones(6), zeros(40)...), 0, 0, 30},
		{"overflow", 100, append([]byte{0x01}, zeros(40)...), 0, 1<<32 - 1, 3},
		{"k 31", 100, ones(40), 0, 0, 31},
		{"k 40 is k 8", 100, ones(40), 0, 0, 40},
	} {
		t.Run(tc.name, func(t *testing.T) { checkRun(t, tc.n, tc.data, tc.pos, tc.v, tc.k) })
	}

	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		k := uint(r.IntN(32))
		n := 1 + r.IntN(600)
		// Deltas of about 2^k, some much longer (long quotients); a zero
		// delta in one stream in eight, and an overflow in about as many.
		var bw bitWriter
		long := false
		for range n {
			d := uint64(1) + r.Uint64N(1<<k*2)
			if r.IntN(40) == 0 {
				d += r.Uint64N(1 << k * 70)
			}
			if r.IntN(8*n) == 0 {
				d = 0
			}
			long = long || d>>k+uint64(k)+1 > 56
			bw.unary(d >> k)
			bw.bits(d, k)
		}
		bw.bits(r.Uint64(), uint(r.IntN(33))) // padding, or a part of an entry
		data := bw.flush()
		pos := uint(r.IntN(16)) // start within the stream
		m := max(0, n-r.IntN(4))
		v := r.Uint64N(1 << 32)
		if r.IntN(8) == 0 {
			v = 1<<32 - 1 - r.Uint64N(min(uint64(n)<<k, 1<<32)) // an overflow, likely
		}
		got, end := checkRun(t, m, data, pos, v, k)
		// A run of short, well-formed entries ends with out full, or
		// within 120 bits of the end: 7 bytes not loaded, and at most 63
		// bits in the buffer.
		if !long && got > 0 && got < m && 8*uint(len(data))-end >= 120 {
			t.Fatalf("k %d: stopped after %d of %d values, %d bits before the end", k, got, m, 8*uint(len(data))-end)
		}
	}
}

// FuzzDecodeRun runs decodeRun on arbitrary bytes and checks it against
// the bit-at-a-time model (checkRun).
func FuzzDecodeRun(f *testing.F) {
	var bw bitWriter
	for i := range 100 {
		bw.unary(uint64(i % 3))
		bw.bits(uint64(i*7919), 12)
	}
	f.Add(bw.flush(), uint8(12), uint32(7), uint16(0), uint16(100))
	f.Add(make([]byte, 20), uint8(3), uint32(0), uint16(3), uint16(10))
	f.Add(slices.Repeat([]byte{0xff}, 20), uint8(30), uint32(1), uint16(1), uint16(10))
	f.Add([]byte{0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(3), uint32(1<<32-1), uint16(0), uint16(4))
	f.Fuzz(func(t *testing.T, data []byte, k uint8, first uint32, pos, n uint16) {
		checkRun(t, int(n%2048), data, uint(pos), uint64(first), uint(k))
	})
}

// TestDecodeRunEnds runs decodeRun on streams of 0 to 79 bytes that end
// at the end of their slice's capacity, so that a load past the data
// panics rather than read the bytes after it, from every bit of the first
// two bytes.
func TestDecodeRunEnds(t *testing.T) {
	mem := make([]byte, 80)
	r := rand.New(rand.NewPCG(5, 6))
	for size := range 80 {
		data := mem[80-size : 80 : 80]
		for _, k := range []uint{0, 3, 12, 30} {
			for fill := range 3 {
				for i := range data {
					switch fill {
					case 0:
						data[i] = 0xaa // short entries when k is 0
					case 1:
						data[i] = byte(r.Uint32())
					case 2:
						data[i] = 0 // zero deltas, read to the end all the same
					}
				}
				for pos := range uint(16) {
					checkRun(t, 1000, data, pos, 0, k)
				}
			}
		}
	}
}
