// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowRiceLE decodes a RiceDeltaEncoding message as Web Risk's
// compression page (cloud.google.com/web-risk/docs/compression) and v4's
// describe it, a bit at a time. "The first value is stored in the
// firstValue field", and "the numEntries field contains the number of
// deltas"; each delta n is "q and r where n = (q<<k) + r"; "the quotient
// q is encoded in unary coding followed by a 0" and decoded first; "only
// the least significant k bits of r are written to (and read from) the
// bit stream"; and "bits are set from the least-significant bit to the
// most-significant bit in the first byte", byte after byte. The values
// are the running sums. With hashes, "the 4-byte hash prefixes are
// re-interpreted as little-endian uint32s, sorted in ascending order":
// the prefixes are the values written little-endian, which, sorted in
// lexicographic order, are the list's raw form. The protos give k's
// range, "a number between 2 and 28", when there are deltas. It returns
// the values, or an error at the first defect: a header out of range, a
// stream that ends early, a zero delta (the values are "sorted",
// distinct), or a value past 32 bits.
func slowRiceLE(first int64, k, count int32, data []byte) ([]uint32, error) {
	if first < 0 || first > 1<<32-1 || count < 0 {
		return nil, errors.New("header")
	}
	if count > 0 && (k < 2 || k > 28) {
		return nil, errors.New("k")
	}
	pos := 0
	bit := func() (uint64, bool) {
		if pos >= 8*len(data) {
			return 0, false
		}
		b := uint64(data[pos/8]>>(pos%8)) & 1
		pos++
		return b, true
	}
	vals := []uint32{uint32(first)}
	v := uint64(first)
	for range count {
		var q uint64
		for {
			b, ok := bit()
			if !ok {
				return nil, errShort
			}
			if b == 0 {
				break
			}
			if q++; q<<k > 1<<32 {
				return nil, errOverflow
			}
		}
		var r uint64
		for i := range k {
			b, ok := bit()
			if !ok {
				return nil, errShort
			}
			r |= b << i
		}
		n := q<<k + r
		if n == 0 {
			return nil, errRepeat
		}
		if v += n; v > 1<<32-1 {
			return nil, errOverflow
		}
		vals = append(vals, uint32(v))
	}
	return vals, nil
}

// slowPrefixes returns the values as 4-byte prefixes, each written
// little-endian, sorted lexicographically and concatenated.
func slowPrefixes(vals []uint32) []byte {
	ps := make([][]byte, len(vals))
	for i, v := range vals {
		ps[i] = binary.LittleEndian.AppendUint32(nil, v)
	}
	slices.SortFunc(ps, bytes.Compare)
	return bytes.Join(ps, nil)
}

// TestRiceLEVectors decodes the vectors of Chromium's v4 decoder
// (components/safe_browsing/core/browser/db/v4_rice_unittest.cc) and the
// compression page's example.
func TestRiceLEVectors(t *testing.T) {
	tests := []struct {
		name    string
		in      Rice
		indices []uint32 // want from Indices
		hashes  string   // want from Hashes, in hex; "" with wantErr
		wantErr bool
	}{
		// TestDecoderIntegersWithMultipleValues: 5, then deltas 15 and 9.
		{"integers", Rice{First: 5, K: 2, Count: 2, Data: []byte{0xf7, 0x02}}, []uint32{5, 20, 29}, "05000000140000001d000000", false},
		// TestDecoderIntegersWithOneValue: no deltas, k 2, no data.
		{"one integer", Rice{First: 3, K: 2}, []uint32{3}, "03000000", false},
		// TestDecoderPrefixesWithOneValue: 0x69F67F51 is the prefix
		// 51 7f f6 69.
		{"one prefix", Rice{First: 0x69F67F51, K: 2}, []uint32{0x69F67F51}, "517ff669", false},
		// TestDecoderPrefixesWithMultipleValues: the prefixes are the
		// little-endian bytes of 5, 0xad934c0c, 0x6ff67f56 and 0x81316fce,
		// in byte order.
		{"prefixes", Rice{First: 5, K: 28, Count: 3, Data: []byte("\xbf\xa8\x3f\xfb\x0f\x0f\x5e\x27\xe6\xc3\x1d\xc6\x38")},
			[]uint32{5, 0x6ff67f56, 0x81316fce, 0xad934c0c}, "05000000" + "0c4c93ad" + "567ff66f" + "ce6f3181", false},
		// TestDecoderPrefixesWithOverflowValues: the sum passes 2^32.
		{"overflow", Rice{First: 5, K: 28, Count: 3, Data: []byte("\xbf\xa8\x3f\xfb\xfc\xfb\x5e\x27\xe6\xc3\x1d\xc6\x38")}, nil, "", true},
		// TestDecoderIntegersWithNonPositiveRiceParameter: k 0, then -1.
		{"k 0", Rice{First: 3, K: 0, Count: 1, Data: []byte("a")}, nil, "", true},
		{"k -1", Rice{First: 3, K: -1, Count: 1, Data: []byte("a")}, nil, "", true},
		// TestDecoderIntegersWithNegativeNumEntries.
		{"negative count", Rice{First: 3, K: 5, Count: -1}, nil, "", true},
		// TestDecoderIntegersWithNoData: a delta but no data.
		{"no data", Rice{First: 3, K: 5, Count: 1}, nil, "", true},
		// k past the protos' 28, with data enough.
		{"k 29", Rice{First: 0, K: 29, Count: 1, Data: make([]byte, 8)}, nil, "", true},
		// A first value past 32 bits, and a negative one.
		{"first 2^32", Rice{First: 1 << 32}, nil, "", true},
		{"first -1", Rice{First: -1}, nil, "", true},
		// Decision b: with no deltas, k and the data are ignored.
		{"count 0", Rice{First: 7, K: 99, Data: []byte{0xff}}, []uint32{7}, "07000000", false},
		// Decision a: whole bytes of padding after the last entry are
		// ignored (google/webrisk refuses them; Chromium ignores them).
		{"padding", Rice{First: 5, K: 2, Count: 2, Data: []byte{0xf7, 0x02, 0, 0, 0xff}}, []uint32{5, 20, 29}, "05000000140000001d000000", false},
		// A zero delta: q 0, r 0.
		{"zero delta", Rice{First: 5, K: 2, Count: 1, Data: []byte{0}}, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx, err := tt.in.Indices()
			if (err != nil) != tt.wantErr || !slices.Equal(idx, tt.indices) {
				t.Errorf("Indices() = %#x, %v; want %#x, error %v", idx, err, tt.indices, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("Indices() error %v does not wrap ErrCorrupt", err)
			}
			h, err := tt.in.Hashes()
			if (err != nil) != tt.wantErr || fmt.Sprintf("%x", h) != tt.hashes {
				t.Errorf("Hashes() = %x, %v; want %s, error %v", h, err, tt.hashes, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("Hashes() error %v does not wrap ErrCorrupt", err)
			}
		})
	}
}

// TestRiceLEStreams checks Hashes and Indices against slowRiceLE on
// random streams of every k, well formed or with a defect placed at
// random (a zero delta, an overflow, a short stream), long enough to
// take the fast decoder's runs and its radix sort.
func TestRiceLEStreams(t *testing.T) {
	swapSortMin = 64
	defer func() { swapSortMin = 1 << 12 }()
	r := rand.New(rand.NewPCG(3, 5))
	count := 1500
	if raceEnabled {
		count = 300
	}
	scattered := 0
	for i := range count {
		k := int32(2 + r.IntN(27))
		n := r.IntN(3000)
		if i%3 == 0 {
			n = r.IntN(40)
		}
		var bw bitWriter
		for range n {
			d := uint64(1) + r.Uint64N(1<<k*2)
			if r.IntN(50) == 0 {
				d += r.Uint64N(1 << k * 60)
			}
			bw.unary(d >> k)
			bw.bits(d, uint(k))
		}
		switch r.IntN(6) {
		case 0: // a zero delta
			bw.unary(0)
			bw.bits(0, uint(k))
			n++
		case 2: // a count past the data
			n += 1 + r.IntN(3)
		}
		data := bw.flush()
		first := int64(r.IntN(1 << 20))
		if r.IntN(6) == 1 {
			first = int64(1<<32 - 1 - r.Uint64N(uint64(n+1)<<k))
		}
		in := Rice{First: first, K: k, Count: int32(n), Data: data}
		want, wantErr := slowRiceLE(in.First, in.K, in.Count, in.Data)
		idx, err := in.Indices()
		if (err != nil) != (wantErr != nil) || !slices.Equal(idx, want) && err == nil {
			t.Fatalf("k %d n %d: Indices gave %d values, err %v; want %d, err %v", k, n, len(idx), err, len(want), wantErr)
		}
		h, err := in.Hashes()
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(h, slowPrefixes(want)) {
			t.Fatalf("k %d n %d: Hashes gave %d bytes, err %v; want %d values, err %v", k, n, len(h), err, len(want), wantErr)
		}
		// The decoder that stores each value in its bucket as it goes,
		// as a RESET takes them.
		s, err := in.stream()
		if err != nil {
			continue
		}
		sc := newSlackSorter(n + 1)
		if sc.buf == nil {
			continue
		}
		err = newRice32(&s).scatterAll(sc)
		if err == errFull {
			continue // too uneven for the buckets: the caller sorts exactly
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("k %d n %d: scatterAll err %v; want %v", k, n, err, wantErr)
		}
		scattered++
		if err == nil {
			var got []byte
			sc.sort(func(run []uint32) {
				for _, v := range run {
					got = binary.BigEndian.AppendUint32(got, v)
				}
			})
			if !bytes.Equal(got, slowPrefixes(want)) {
				t.Fatalf("k %d n %d: scatterAll gives other prefixes", k, n)
			}
		}
	}
	if scattered < count/3 {
		t.Errorf("scatterAll ran on %d streams of %d", scattered, count)
	}
}

// TestRiceHashesEncode: RiceHashes and RiceIndices write what the
// bit-at-a-time writer of v5's encoder writes, with k chosen as v5
// chooses it, and slowRiceLE reads back the prefixes and indices given.
func TestRiceHashesEncode(t *testing.T) {
	swapSortMin = 64
	defer func() { swapSortMin = 1 << 12 }()
	r := rand.New(rand.NewPCG(8, 13))
	for _, n := range []int{1, 2, 3, 100, 5000} {
		for _, k := range []int{0, 2, 5, 17, 28} {
			t.Run(fmt.Sprintf("n %d k %d", n, k), func(t *testing.T) {
				prefixes := randomHashes(r, n, 4, 0)
				if k != 0 {
					// Little-endian values with gaps near 2^k, so that the
					// unary parts stay short.
					prefixes = prefixes[:0]
					for _, v := range denseValues(r, n, k) {
						prefixes = binary.LittleEndian.AppendUint32(prefixes, v)
					}
				}
				got, err := RiceHashes(prefixes, k)
				if err != nil {
					t.Fatal(err)
				}
				// The same prefixes in byte order take the one-pass path,
				// and give the same message.
				sorted, err := RiceHashes(sortHashes(prefixes, 4), k)
				if err != nil {
					t.Fatal(err)
				}
				if sorted.First != got.First || sorted.K != got.K || sorted.Count != got.Count || !bytes.Equal(sorted.Data, got.Data) {
					t.Fatalf("prefixes in byte order give another message")
				}
				vals, err := slowRiceLE(got.First, got.K, got.Count, got.Data)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(slowPrefixes(vals), sortHashes(prefixes, 4)) {
					t.Fatal("the prefixes do not decode back")
				}
				// The same stream as v5's writer, a bit at a time.
				le := make([]byte, 0, 4*n)
				for _, v := range vals {
					le = binary.BigEndian.AppendUint32(le, v)
				}
				if n > 1 {
					wantK := k
					if k == 0 {
						wantK = min(max(chooseK(load(le[len(le)-4:]).sub(load(le[:4])), n, 4), 2), 28)
					}
					if int(got.K) != wantK {
						t.Errorf("K = %d; want %d", got.K, wantK)
					}
					_, data := encodeRice(le, 4, wantK)
					if !bytes.Equal(got.Data, data) {
						t.Errorf("Data differs from the bit-at-a-time writer's")
					}
				}
				idx := denseValues(r, n, max(k, 12))
				for i := range idx {
					idx[i] >>= 1 // within int32
				}
				idx = slices.Compact(idx)
				ri, err := RiceIndices(idx, k)
				if err != nil {
					t.Fatal(err)
				}
				back, err := slowRiceLE(ri.First, ri.K, ri.Count, ri.Data)
				if err != nil || !slices.Equal(back, idx) {
					t.Fatalf("indices decode back to %d values, %v", len(back), err)
				}
			})
		}
	}
}

// denseValues returns n ascending, distinct values whose gaps are near
// 2^k, or smaller when n of those would pass 32 bits, so that a Rice
// code with parameter k has short unary parts.
func denseValues(r *rand.Rand, n, k int) []uint32 {
	gap := min(uint64(1)<<k*2, (1<<32-1024)/uint64(n))
	v := uint64(r.IntN(1 << 10))
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(v)
		v += 1 + r.Uint64N(gap)
	}
	return out
}

// TestRiceEncodeErrors: what the encoders refuse.
func TestRiceEncodeErrors(t *testing.T) {
	tests := []struct {
		name     string
		prefixes []byte   // for RiceHashes, when indices is nil
		indices  []uint32 // for RiceIndices
		k        int
	}{
		// No prefixes: a message holds at least its first value.
		{"no prefixes", []byte{}, nil, 0},
		// Not whole 4-byte prefixes.
		{"length", []byte{1, 2, 3, 4, 5}, nil, 0},
		// A duplicate prefix, out of order and in order.
		{"duplicate prefix", []byte{5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}, nil, 0},
		{"duplicate sorted prefix", []byte{1, 2, 3, 4, 1, 2, 3, 4}, nil, 0},
		// k outside 2–28.
		{"k 1", []byte{1, 2, 3, 4}, nil, 1},
		{"k 29", []byte{1, 2, 3, 4}, nil, 29},
		// No indices.
		{"no indices", nil, []uint32{}, 0},
		// A duplicate index.
		{"duplicate index", nil, []uint32{3, 1, 3}, 0},
		// An index past int32, the type of the protos' indices.
		{"index past int32", nil, []uint32{1 << 31}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.indices != nil {
				_, err = RiceIndices(tt.indices, tt.k)
			} else {
				_, err = RiceHashes(tt.prefixes, tt.k)
			}
			if !errors.Is(err, ErrMessage) {
				t.Errorf("error %v; want ErrMessage", err)
			}
		})
	}
}

// TestChooseKLE: the chosen k is log2 of the mean gap, within 2–28: 12
// for a million random prefixes, as v5 chooses.
func TestChooseKLE(t *testing.T) {
	tests := []struct {
		span uint32
		n    int
		want int
	}{
		// A million prefixes over the whole range.
		{1<<32 - 1, 1 << 20, 12},
		// Two values far apart: the cap.
		{1<<32 - 1, 2, 28},
		// Dense values: the floor.
		{100, 100, 2},
	}
	for _, tt := range tests {
		if got := chooseKLE(tt.span, tt.n); got != tt.want {
			t.Errorf("chooseKLE(%d, %d) = %d; want %d", tt.span, tt.n, got, tt.want)
		}
	}
}

// FuzzRiceLE decodes a fuzzed RiceDeltaEncoding. Properties: no panic;
// Indices and Hashes agree with slowRiceLE; a stream that decodes
// encodes back, with its k, to a stream that decodes to the same values.
func FuzzRiceLE(f *testing.F) {
	// Chromium's vectors and the decisions' cases.
	f.Add(int64(5), int32(2), int32(2), []byte{0xf7, 0x02})
	f.Add(int64(5), int32(28), int32(3), []byte("\xbf\xa8\x3f\xfb\x0f\x0f\x5e\x27\xe6\xc3\x1d\xc6\x38"))
	f.Add(int64(5), int32(28), int32(3), []byte("\xbf\xa8\x3f\xfb\xfc\xfb\x5e\x27\xe6\xc3\x1d\xc6\x38"))
	f.Add(int64(0x69F67F51), int32(2), int32(0), []byte{})
	f.Add(int64(1), int32(3), int32(1<<31-1), []byte{1})
	f.Add(int64(5), int32(2), int32(2), []byte{0xf7, 0x02, 0, 0})
	f.Fuzz(func(t *testing.T, first int64, k, count int32, data []byte) {
		if count > 1<<16 {
			count = 1 << 16 // the model is slow; the header check is tested apart
		}
		in := Rice{First: first, K: k, Count: count, Data: data}
		want, wantErr := slowRiceLE(first, k, count, data)
		idx, err := in.Indices()
		if (err != nil) != (wantErr != nil) || err == nil && !slices.Equal(idx, want) {
			t.Fatalf("Indices = %v, %v; model %v, %v", idx, err, want, wantErr)
		}
		h, err := in.Hashes()
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(h, slowPrefixes(want)) {
			t.Fatalf("Hashes = %x, %v; model %v, %v", h, err, want, wantErr)
		}
		if err != nil {
			return
		}
		kk := int(k)
		if count == 0 {
			kk = 0
		}
		again, err := RiceHashes(h, kk)
		if err != nil {
			t.Fatal(err)
		}
		back, err := again.Hashes()
		if err != nil || !bytes.Equal(back, h) {
			t.Fatalf("re-encoded hashes decode to %x, %v", back, err)
		}
	})
}

// TestEncodeRice32 checks encodeRice32 against the bit-at-a-time writer
// of v5's encoder on values whose gaps make codes of every length, long
// quotients included, for every k.
func TestEncodeRice32(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 55))
	for k := uint(1); k <= 30; k++ {
		for _, n := range []int{2, 3, 4, 9, 200} {
			vals := make([]uint32, n)
			v := uint64(r.IntN(1 << 8))
			for i := range vals {
				vals[i] = uint32(v)
				gap := uint64(1) << k * 2
				if r.IntN(4) == 0 {
					gap <<= 6 + r.IntN(10) // quotients of 64 to 2^16
				}
				v += 1 + r.Uint64N(gap)
				if v >= 1<<32 {
					vals = vals[:i+1]
					break
				}
			}
			be := make([]byte, 0, 4*len(vals))
			for _, x := range vals {
				be = binary.BigEndian.AppendUint32(be, x)
			}
			if len(vals) < 2 {
				continue
			}
			_, want := encodeRice(be, 4, int(k))
			if got := encodeRice32(vals, k); !bytes.Equal(got, want) {
				t.Fatalf("k %d, %d values: encodeRice32 gives %x; want %x", k, len(vals), got, want)
			}
		}
	}
}
