// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// The sort of byte-reversed values: the step between the two orders of a
// 4-byte list. Read as big-endian integers, its prefixes are in byte
// order (v5, the index, the checksum); read as little-endian ones, in
// the order of Web Risk's and v4's Rice streams. Either way, the values
// in one order, byte-reversed (bits.ReverseBytes32), are the values in
// the other, so one sort turns each into the other.
//
// It costs one pass over the values and two over each bucket, not the
// four of a radix sort of 32-bit keys, because its input is sorted: with
// y the reversed value of x, the x are sorted by y's low byte first,
// then its second, third and high byte. The values go, reversed, into
// 512 buckets by y's top 9 bits, stably, so that each bucket is still
// sorted by y's low byte, then its second, then the low 7 bits of its
// third. Within a bucket (2,000 values, 8 KB, at a million, in the first
// level cache) a least-significant-digit radix sort of those needs no
// pass for the low byte, by which the bucket is already sorted: one pass
// by the second byte into scratch, one by the 7 bits back. (512 buckets
// take 12% less time than 256 at a million, whose buckets and scratch
// fill the first level cache; 1,024 take more, for the scatter.)
//
// [slackSorter] takes the values in chunks, as a decoder or encoder hands
// them over, straight into buckets with room to spare; [swapSort]
// counts them first, for an input whose spread is not known to be even.

// bucketOf returns the bucket of x, an input value: the top 9 bits of
// its reversal.
func bucketOf(x uint32) uint32 { return bits.ReverseBytes32(x) >> 23 }

// swapSortMin is the length from which the sorts use buckets; shorter
// inputs are swapped and sorted by slices.Sort. A variable, so that the
// tests run the buckets on short inputs too.
var swapSortMin = 1 << 12

// swapSort writes into dst the values of src with their bytes reversed,
// in ascending order. src must be ascending; it is used as scratch and
// left in no particular order. len(dst) must be len(src).
func swapSort(dst, src []uint32) {
	n := len(src)
	dst = dst[:n]
	if n < swapSortMin {
		for i, x := range src {
			dst[i] = bits.ReverseBytes32(x)
		}
		slices.Sort(dst)
		return
	}
	var start [513]int
	for _, x := range src {
		start[bucketOf(x)+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	pos := [512]int(start[:512])
	for _, x := range src {
		y := bits.ReverseBytes32(x)
		b := y >> 23
		dst[pos[b]] = y
		pos[b]++
	}
	for b := range 512 {
		sortBucket(dst[start[b]:start[b+1]], src)
	}
}

// sortBucket sorts seg, whose values share their top 9 bits and are
// sorted by their low byte, then their second, then the other 7 bits of
// their third, into ascending order, with scratch (at least len(seg)
// long).
func sortBucket(seg, scratch []uint32) {
	m := len(seg)
	if m < 64 {
		slices.Sort(seg)
		return
	}
	tmp := scratch[:m]
	var c1 [256]uint32
	var c2 [128]uint32
	for _, y := range seg {
		c1[byte(y>>8)]++
		c2[y>>16&127]++
	}
	var s1, s2 uint32
	for i := range c1 {
		s1, c1[i] = s1+c1[i], s1
	}
	for i := range c2 {
		s2, c2[i] = s2+c2[i], s2
	}
	for _, y := range seg {
		d := byte(y >> 8)
		tmp[c1[d]] = y
		c1[d]++
	}
	for _, y := range tmp {
		d := y >> 16 & 127
		seg[c2[d]] = y
		c2[d]++
	}
}

// slackSorter is the sort for an input of a known length n that comes
// as a decoder or encoder hands it over: it needs no count beforehand,
// so each value goes straight to its bucket, and no array of the whole
// input is made. Each of the 512 buckets has room for n/512 values, the
// mean, plus 8 standard deviations and 16: random prefixes, such as the
// SHA-256 prefixes of a list, never fill one (a chance under 10^-14 a
// bucket), and an input that does (a hostile one) makes
// [slackSorter.add] report it, for the caller to take [swapSort]
// instead. The room costs 18% over the values at a million. The buffer
// is handed on through a sync.Pool ([slackSorter.release]), so that a
// round of updates, one list after another, allocates it once; the
// garbage collector empties the pool within two cycles.
type slackSorter struct {
	per   int      // room of each bucket
	pos   [512]int // where the next value of each bucket goes in buf
	end   [512]int // where each bucket's room ends in buf
	buf   []uint32 // bucket b is buf[b*per:pos[b]]
	small []uint32 // the values, swapped, when n < swapSortMin
}

// newSlackSorter returns a sorter for n values.
func newSlackSorter(n int) *slackSorter {
	if n < swapSortMin {
		return &slackSorter{small: make([]uint32, 0, n)}
	}
	mean := (n + 511) / 512
	per := mean + 8*int(math.Sqrt(float64(mean))) + 16
	var buf []uint32
	if p, _ := slackPool.Get().(*[]uint32); p != nil && cap(*p) >= 512*per {
		buf = (*p)[:512*per]
	} else {
		buf = make([]uint32, 512*per)
	}
	w := &slackSorter{per: per, buf: buf}
	for b := range w.pos {
		w.pos[b], w.end[b] = b*per, (b+1)*per
	}
	return w
}

// add adds vals, the next values of the input, which is ascending, and
// reports whether they fit: false when a bucket is full, after which
// the sorter is of no use.
func (w *slackSorter) add(vals []uint32) bool {
	if w.buf == nil {
		for _, x := range vals {
			w.small = append(w.small, bits.ReverseBytes32(x))
		}
		return true
	}
	pos, end, buf := w.pos, &w.end, w.buf
	for _, x := range vals {
		y := bits.ReverseBytes32(x)
		b := y >> 23
		p := pos[b]
		if p == end[b] {
			return false
		}
		buf[p] = y
		pos[b] = p + 1
	}
	w.pos = pos
	return true
}

// addPrefixes adds 4-byte prefixes, concatenated, read as big-endian
// integers (each value's reversal is the prefix read little-endian), and
// reports whether they were ascending and fit. A prefix equal to the one
// before is an error wrapping [ErrMessage]; one less than it, or a full
// bucket, makes it return false, after which the sorter is of no use.
func (w *slackSorter) addPrefixes(prefixes []byte) (bool, error) {
	n := len(prefixes) / 4
	if w.buf == nil {
		for i := range n {
			w.small = append(w.small, binary.LittleEndian.Uint32(prefixes[4*i:]))
		}
		return ascending(prefixes)
	}
	pos, end, buf := w.pos, &w.end, w.buf
	var prev uint32
	for i := range n {
		p4 := prefixes[4*i : 4*i+4 : 4*i+4]
		x := binary.BigEndian.Uint32(p4)
		if x <= prev && i > 0 {
			return ascending(prefixes[:4*i+4])
		}
		prev = x
		y := bits.ReverseBytes32(x)
		b := y >> 23
		p := pos[b]
		if p == end[b] {
			return false, nil
		}
		buf[p] = y
		pos[b] = p + 1
	}
	w.pos = pos
	return true, nil
}

// ascending reports whether prefixes, 4-byte prefixes concatenated, are
// in ascending byte order; two equal ones are an error wrapping
// [ErrMessage].
func ascending(prefixes []byte) (bool, error) {
	for i := 4; i+4 <= len(prefixes); i += 4 {
		a, x := binary.BigEndian.Uint32(prefixes[i-4:]), binary.BigEndian.Uint32(prefixes[i:])
		if x == a {
			return false, newError(ErrMessage, "", fmt.Sprintf("duplicate prefix %08x", x))
		}
		if x < a {
			return false, nil
		}
	}
	return true, nil
}

// release hands the sorter's buffer to the next sorter. The sorter is of
// no use after.
func (w *slackSorter) release() {
	if w.buf != nil {
		b := w.buf
		w.buf = nil
		slackPool.Put(&b)
	}
}

// slackPool keeps the buffer of a sorter for the next one, as long as the
// garbage collector lets it: a round of updates allocates it once.
var slackPool sync.Pool

// bucket returns bucket b.
func (w *slackSorter) bucket(b int) []uint32 {
	return w.buf[b*w.per : w.pos[b]]
}

// bounds returns the least and the greatest value added, swapped; there
// must be one.
func (w *slackSorter) bounds() (lo, hi uint32) {
	if w.buf == nil {
		return slices.Min(w.small), slices.Max(w.small)
	}
	first, last := -1, 0
	for b := range w.pos {
		if w.pos[b] > b*w.per {
			if first < 0 {
				first = b
			}
			last = b
		}
	}
	return slices.Min(w.bucket(first)), slices.Max(w.bucket(last))
}

// sort sorts the values added, swapped, and calls each with each sorted
// run of them in turn, while the run is in cache.
func (w *slackSorter) sort(each func([]uint32)) {
	if w.buf == nil {
		slices.Sort(w.small)
		if len(w.small) > 0 {
			each(w.small)
		}
		return
	}
	scratch := make([]uint32, w.per)
	for b := range 512 {
		seg := w.bucket(b)
		sortBucket(seg, scratch)
		if len(seg) > 0 {
			each(seg)
		}
	}
}
