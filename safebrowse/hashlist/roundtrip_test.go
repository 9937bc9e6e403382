// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomHashes returns n distinct random hashes of width w, concatenated
// in random order. When gap > 0, the values are instead the running sums
// of random deltas of 1 to 2^gap, so that a Rice parameter near gap keeps
// the unary parts short.
func randomHashes(r *rand.Rand, n, w int, gap int) []byte {
	out := make([]byte, 0, n*w)
	h := make([]byte, w)
	if gap > 0 {
		var v u256
		for range n {
			var d u256
			for i := range d {
				d[i] = r.Uint64()
			}
			d = d.shr(uint(256 - gap))
			v, _ = v.add(d.add1())
			v.put(h)
			out = append(out, h...)
		}
		// Shuffle: the encoder sorts.
		for i := n - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			a, b := out[i*w:i*w+w], out[j*w:j*w+w]
			for x := range a {
				a[x], b[x] = b[x], a[x]
			}
		}
		return out
	}
	seen := make(map[string]bool, n)
	for len(seen) < n {
		for i := range h {
			h[i] = byte(r.Uint32())
		}
		if !seen[string(h)] {
			seen[string(h)] = true
			out = append(out, h...)
		}
	}
	return out
}

// add1 returns v+1.
func (v u256) add1() u256 {
	v, _ = v.add(u256{3: 1})
	return v
}

// TestRoundTrip encodes additions with the exported encoder and applies
// them, for every width, k at both ends of its range and chosen, and sizes
// 0, 1, 2 and 1000, in both the index and the flat form.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, w := range []int{4, 8, 16, 32} {
		lo, hi := riceRange(w)
		for _, k := range []int{0, lo, hi} {
			for _, n := range []int{0, 1, 2, 1000} {
				for _, min := range []int{1 << 16, 0} {
					name := fmt.Sprintf("w%d/k%d/n%d/indexMin%d", w, k, n, min)
					t.Run(name, func(t *testing.T) {
						indexMin = min
						defer func() { indexMin = 1 << 16 }()
						// With the smallest k, keep deltas near 2^k, so the
						// unary parts stay short.
						gap := 0
						if k == lo {
							gap = k
						}
						hashes := randomHashes(r, n, w, gap)
						sum := Checksum(hashes, w)
						m := Message{Name: fmt.Sprintf("t-%db", w), Version: []byte("v"), Additions: hashes, Checksum: sum[:], RiceParameter: k}
						msg, err := m.MarshalBinary()
						if err != nil {
							t.Fatal(err)
						}
						l, _ := New(m.Name)
						if err := l.Apply(msg); err != nil {
							t.Fatalf("Apply: %v", err)
						}
						want := sortHashes(hashes, w)
						if got := collect(l); !bytes.Equal(got, want) {
							t.Fatalf("All differs: %d bytes; want %d", len(got), len(want))
						}
						if l.Len() != n {
							t.Errorf("Len = %d; want %d", l.Len(), n)
						}
						for i := 0; i < len(hashes); i += w {
							if !l.Contains(hashes[i : i+w]) {
								t.Fatalf("Contains(%x) = false", hashes[i:i+w])
							}
						}
						var back Message
						if err := back.UnmarshalBinary(msg); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(back.Additions, want) || (n > 1 && k != 0 && back.RiceParameter != k) {
							t.Errorf("UnmarshalBinary: %d bytes, k %d", len(back.Additions), back.RiceParameter)
						}
						// Remove every other hash in a partial update.
						var rem []uint32
						var kept []byte
						for i := range n {
							if i%2 == 0 {
								rem = append(rem, uint32(i))
							} else {
								kept = append(kept, want[i*w:i*w+w]...)
							}
						}
						slices.Reverse(rem)
						sum = Checksum(kept, w)
						m = Message{Partial: true, Width: w, Removals: rem, Checksum: sum[:]}
						msg, err = m.MarshalBinary()
						if err != nil {
							t.Fatal(err)
						}
						if err := l.Apply(msg); err != nil {
							t.Fatalf("Apply removals: %v", err)
						}
						if got := collect(l); !bytes.Equal(got, kept) {
							t.Fatalf("after removals All differs: %d bytes; want %d", len(got), len(kept))
						}
					})
				}
			}
		}
	}
}
