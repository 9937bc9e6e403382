// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"math/bits"
	"slices"
)

// swapSortMin is the length from which [swapSorter] uses its radix
// sort; shorter inputs are swapped and sorted by slices.Sort. A
// variable, so that the tests run the radix sort on short inputs too.
var swapSortMin = 1 << 12

// swapSort writes into dst the values of src with their bytes reversed
// (bits.ReverseBytes32), in ascending order. src must be ascending; it
// is used as scratch and left in no particular order. len(dst) must be
// len(src). See [swapSorter].
func swapSort(dst, src []uint32) {
	var w swapSorter
	w.count(src)
	w.sort(dst, src, nil)
}

// swapSorter sorts byte-reversed values: the step between the two
// orders of a 4-byte list. Read as big-endian integers, its prefixes are
// in byte order (v5, the index, the checksum); read as little-endian
// ones, in the order of Web Risk's and v4's Rice streams. Either way,
// the values in one order, byte-reversed, are the values in the other,
// so one sort turns each into the other.
//
// It costs three passes over the values and two over each bucket, not
// the four of a radix sort of 32-bit keys, because its input is
// sorted: with y the reversed value of x, the x are sorted by y's low
// byte first, then its second, third and high byte. [swapSorter.count]
// counts the values by y's high byte (x's low byte), as the decoder
// hands them over; [swapSorter.sort] scatters them, reversed, into 256
// buckets by that byte, stably, so that each bucket is still sorted by
// y's low byte, then its second and third. Within a bucket (4,000
// values, 16 KB, at a million, in the first level cache) a
// least-significant-digit radix sort of the three low bytes needs no
// pass for the low byte, by which the bucket is already sorted: one pass
// by the second byte into scratch, one by the third back.
type swapSorter struct {
	start [257]int // start[b+1] counts the values whose low byte is b
	n     int      // values counted
}

// count counts vals, the next values of the input.
func (w *swapSorter) count(vals []uint32) {
	for _, x := range vals {
		w.start[x&0xff+1]++
	}
	w.n += len(vals)
}

// sort writes into dst the values of src (all counted, ascending),
// byte-reversed, in ascending order, using src as scratch. When each is
// not nil, it is called with each sorted run of dst in turn, while the
// run is in cache.
func (w *swapSorter) sort(dst, src []uint32, each func([]uint32)) {
	n := len(src)
	dst = dst[:n]
	if n < swapSortMin {
		for i, x := range src {
			dst[i] = bits.ReverseBytes32(x)
		}
		slices.Sort(dst)
		if each != nil {
			each(dst)
		}
		return
	}
	start := &w.start
	for b := 1; b < 257; b++ {
		start[b] += start[b-1]
	}
	pos := [256]int(start[:256])
	for _, x := range src {
		b := x & 0xff
		dst[pos[b]] = bits.ReverseBytes32(x)
		pos[b]++
	}
	for b := range 256 {
		seg := dst[start[b]:start[b+1]]
		sortBucket(seg, src)
		if each != nil && len(seg) > 0 {
			each(seg)
		}
	}
}

// sortBucket sorts seg, whose values share their high byte and are
// sorted by their low byte, then their second, then their third, into
// ascending order, with scratch (at least len(seg) long).
func sortBucket(seg, scratch []uint32) {
	m := len(seg)
	if m < 64 {
		slices.Sort(seg)
		return
	}
	tmp := scratch[:m]
	var c1, c2 [256]int
	for _, y := range seg {
		c1[y>>8&0xff]++
		c2[y>>16&0xff]++
	}
	s1, s2 := 0, 0
	for i := range 256 {
		s1, c1[i] = s1+c1[i], s1
		s2, c2[i] = s2+c2[i], s2
	}
	for _, y := range seg {
		d := y >> 8 & 0xff
		tmp[c1[d]] = y
		c1[d]++
	}
	for _, y := range tmp {
		d := y >> 16 & 0xff
		seg[c2[d]] = y
		c2[d]++
	}
}
