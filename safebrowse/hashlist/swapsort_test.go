// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSwapSort checks swapSort, by its radix sort and by slices.Sort,
// against swapping and sorting, on inputs of many sizes and spreads:
// random, all in one bucket, all in one bucket's run of the second
// byte, and few buckets; and that the runs it hands out are dst in
// order.
func TestSwapSort(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 34))
	gens := []struct {
		name string
		gen  func() uint32
	}{
		// Random values: buckets of all sizes.
		{"random", r.Uint32},
		// One low byte: one bucket of every value.
		{"one bucket", func() uint32 { return r.Uint32()&^0xff | 0x5a }},
		// Two low bytes fixed: one bucket, one run of its second byte.
		{"one run", func() uint32 { return r.Uint32()&^0xffff | 0x1234 }},
		// Few distinct low bytes, dense high bytes.
		{"narrow", func() uint32 { return r.Uint32()&0x00ff0003 | 0x40000000 }},
	}
	for _, lo := range []int{1 << 12, 1} {
		for _, g := range gens {
			for _, n := range []int{0, 1, 2, 63, 64, 65, 500, 5000, 70000} {
				t.Run(fmt.Sprintf("min %d %s %d", lo, g.name, n), func(t *testing.T) {
					swapSortMin = lo
					defer func() { swapSortMin = 1 << 12 }()
					// n values, sorted; fewer where they repeat.
					src := make([]uint32, n)
					for i := range src {
						src[i] = g.gen()
					}
					slices.Sort(src)
					src = slices.Compact(src)
					in := slices.Clone(src)
					want := make([]uint32, len(src))
					for i, x := range src {
						want[i] = bits.ReverseBytes32(x)
					}
					slices.Sort(want)
					dst := make([]uint32, len(src))
					swapSort(dst, slices.Clone(src))
					if !slices.Equal(dst, want) {
						t.Fatalf("swapSort: dst is not the values swapped and sorted")
					}
					// The slack sorter, in chunks of 1,000.
					w := newSlackSorter(len(src))
					fits := true
					for i := 0; i < len(src) && fits; i += 1000 {
						fits = w.add(src[i:min(len(src), i+1000)])
					}
					if fits {
						var runs []uint32
						w.sort(func(run []uint32) { runs = append(runs, run...) })
						if !slices.Equal(runs, want) && len(want) > 0 {
							t.Fatalf("slackSorter: the runs are not the values swapped and sorted")
						}
						if len(want) > 0 {
							if lo, hi := w.bounds(); lo != want[0] || hi != want[len(want)-1] {
								t.Fatalf("bounds = %#x, %#x; want %#x, %#x", lo, hi, want[0], want[len(want)-1])
							}
						}
					} else if g.name == "random" {
						t.Fatalf("slackSorter: random values fill a bucket")
					}
					// And back: swapping the sorted values again gives
					// the input.
					back := make([]uint32, len(dst))
					swapSort(back, slices.Clone(dst))
					if !slices.Equal(back, in) {
						t.Fatalf("swapping back does not give the input")
					}
				})
			}
		}
	}
}
