// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowRice32 decodes a 32-bit Rice stream as the Local.Database page
// describes it, a bit at a time: the first value, then count times a
// quotient in unary (1 bits ended by a 0 bit), a k-bit remainder, least
// significant bit first, and the sum of (q << k) + r with the value
// before. It returns the values, and the reason the stream is corrupt at
// the first defect, or nil.
func slowRice32(first uint32, k int, count int, data []byte) ([]uint32, error) {
	pos := 0
	bit := func() (uint64, bool) {
		if pos >= 8*len(data) {
			return 0, false
		}
		b := uint64(data[pos/8]>>(pos%8)) & 1
		pos++
		return b, true
	}
	vals := []uint32{first}
	v := uint64(first)
	for range count {
		var q uint64
		for {
			b, ok := bit()
			if !ok {
				return vals, errShort
			}
			if b == 0 {
				break
			}
			if q++; q<<k > 1<<32 {
				return vals, errOverflow
			}
		}
		var r uint64
		for i := range k {
			b, ok := bit()
			if !ok {
				return vals, errShort
			}
			r |= b << i
		}
		d := q<<k | r
		if d == 0 {
			return vals, errRepeat
		}
		if v += d; v > 1<<32-1 {
			return vals, errOverflow
		}
		vals = append(vals, uint32(v))
	}
	return vals, nil
}

// TestRice32 checks the decoder, its fast path and a full update's sink
// included, against slowRice32 on streams
// of many lengths and parameters: well formed, with long quotients, and
// with a defect (a zero delta, an overflow, a short stream) placed at
// random, so that a defect lands at every place of a fast run.
func TestRice32(t *testing.T) {
	for batch := range 3 {
		t.Run(fmt.Sprintf("streams %d-%d", 1000*batch, 1000*batch+999), func(t *testing.T) {
			if raceEnabled && batch > 0 {
				t.Skip("-race: 1,000 streams take every k and every kind of defect many times over; .ci/run runs all 3,000 without -race")
			}
			rice32Streams(t, rand.New(rand.NewPCG(1, uint64(2+batch))), 1000)
		})
	}
}

// rice32Streams is TestRice32 on count random streams.
func rice32Streams(t *testing.T, r *rand.Rand, count int) {
	// The full update's sink builds an index of the stream's size: with
	// indexMin lowered, a list of any size is one.
	indexMin = 1
	defer func() { indexMin = 1 << 16 }()
	for i := range count {
		k := 3 + r.IntN(28)
		n := 1 + r.IntN(3000)
		if i%3 == 0 {
			n = r.IntN(40)
		}
		// Deltas of about 2^k, some far longer (long quotients).
		var bw bitWriter
		for range n {
			d := uint64(1) + r.Uint64N(1<<k*2)
			if r.IntN(50) == 0 {
				d += r.Uint64N(1 << k * 60)
			}
			bw.unary(d >> k)
			bw.bits(d, uint(k))
		}
		// A defect in one stream in two.
		switch r.IntN(6) {
		case 0: // a zero delta
			bw.unary(0)
			bw.bits(0, uint(k))
			n++
		case 2: // a short stream: a count past the data
			n += 1 + r.IntN(3)
		}
		data := bw.flush()
		first := uint32(r.IntN(1 << 20))
		if r.IntN(6) == 1 {
			// An overflow, somewhere in the stream.
			first = uint32(1<<32 - 1 - r.Uint64N(uint64(n+1)<<k))
		}
		want, wantErr := slowRice32(first, k, n, data)
		s := &riceStream{first: u256{3: uint64(first)}, k: int64(k), count: int64(n), data: data}

		// fill, through next.
		d := newRice32(s)
		var got []uint32
		for v, ok := d.next(); ok; v, ok = d.next() {
			got = append(got, v)
		}
		if d.err != wantErr || (wantErr == nil && !slices.Equal(got, want)) {
			t.Fatalf("k %d n %d: fill gave %d values, err %v; want %d, err %v", k, n, len(got), d.err, len(want), wantErr)
		}

		// The full update's sink, into an index.
		var out sink4
		out.init(n + 1)
		d = newRice32(s)
		out.decodeAll(d)
		if d.err != wantErr {
			t.Fatalf("k %d n %d: decodeAll err %v; want %v", k, n, d.err, wantErr)
		}
		if wantErr == nil {
			var st state
			out.finish(&st)
			st.width = 4
			i := 0
			for h := range st.all {
				if v := binary.BigEndian.Uint32(h); v != want[i] {
					t.Fatalf("k %d n %d: value %d is %#x; want %#x", k, n, i, v, want[i])
				}
				i++
			}
			if st.n != len(want) {
				t.Fatalf("k %d n %d: %d values; want %d", k, n, st.n, len(want))
			}
			be := make([]byte, 4*len(want))
			for i, v := range want {
				binary.BigEndian.PutUint32(be[4*i:], v)
			}
			if st.sum != sha256.Sum256(be) {
				t.Fatalf("k %d n %d: checksum %x; want the SHA-256 of the values", k, n, st.sum)
			}
		}
	}
}
