// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import "math"

// indexMin is the size from which a 4-byte list is held in an index rather
// than a flat sorted array: the index's 128 KiB of offsets cost less than
// the 2 bytes a prefix it saves from here on. A variable, so that the
// tests run both forms on small lists.
var indexMin = 1 << 16

// index holds a set of 4-byte prefixes in two levels. The high 16 bits of
// a prefix choose one of 65,536 buckets; the low 16 bits are stored in lo,
// sorted, bucket after bucket. Bucket b is lo[start(b):start(b+1)], where
// start(b) is base[b>>8] + off[b]: a uint32 every 256 buckets and a uint16
// for each. A distribution in which 256 consecutive buckets hold more than
// 65,535 prefixes (never the case for hashes, but possible for hostile
// data) keeps every start as a uint32 in wide instead. At a million random
// prefixes it takes 2 bytes a prefix plus 130 KiB: 2.13 bytes a prefix.
type index struct {
	base *[257]uint32
	off  *[65537]uint16 // nil when wide is used
	wide *[65537]uint32
	lo   []uint16
}

// bounds returns the range of lo that holds bucket b.
func (x *index) bounds(b uint32) (uint32, uint32) {
	if x.off != nil {
		return x.base[b>>8] + uint32(x.off[b]), x.base[(b+1)>>8] + uint32(x.off[b+1])
	}
	return x.wide[b], x.wide[b+1]
}

// contains reports whether the index holds the prefix h.
func (x *index) contains(h uint32) bool {
	s, e := x.bounds(h >> 16)
	lo := x.lo[s:e]
	t := uint16(h)
	// A binary search over the bucket (15 prefixes on average at a million).
	i, j := 0, len(lo)
	for i < j {
		m := int(uint(i+j) >> 1)
		if lo[m] < t {
			i = m + 1
		} else {
			j = m
		}
	}
	return i < len(lo) && lo[i] == t
}

// indexBuilder builds an index from prefixes given in ascending order.
type indexBuilder struct {
	starts *[65537]uint32
	next   uint32 // the first bucket whose start is not yet written
	lo     []uint16
}

// newIndexBuilder returns a builder for at most n prefixes.
func newIndexBuilder(n int) *indexBuilder {
	return &indexBuilder{starts: new([65537]uint32), lo: make([]uint16, 0, n)}
}

// add appends v, which is greater than every prefix added before.
func (ib *indexBuilder) add(v uint32) {
	b := v >> 16
	for ib.next <= b {
		ib.starts[ib.next] = uint32(len(ib.lo))
		ib.next++
	}
	ib.lo = append(ib.lo, uint16(v))
}

// finish returns the index.
func (ib *indexBuilder) finish() *index {
	n := uint32(len(ib.lo))
	for ib.next <= 65536 {
		ib.starts[ib.next] = n
		ib.next++
	}
	lo := ib.lo
	if cap(lo)-len(lo) > len(lo)/16 {
		lo = append([]uint16(nil), lo...) // do not keep the room left by duplicates
	}
	x := &index{base: new([257]uint32), lo: lo}
	for g := range 257 {
		x.base[g] = ib.starts[min(g<<8, 65536)]
	}
	off := new([65537]uint16)
	for b, s := range ib.starts {
		d := s - x.base[b>>8]
		if d > math.MaxUint16 {
			x.wide = ib.starts
			return x
		}
		off[b] = uint16(d)
	}
	x.off = off
	return x
}

// at returns the i-th prefix of the index, for iterating in order: the
// caller walks b, the bucket of i, forward.
func (x *index) at(i uint32, b *uint32) uint32 {
	for {
		_, e := x.bounds(*b)
		if i < e {
			return *b<<16 | uint32(x.lo[i])
		}
		*b++
	}
}
