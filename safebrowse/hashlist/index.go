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
// It stores, for each prefix, one past its position at ends[bucket+1],
// with no branch and no load: the last prefix of a bucket writes last, so
// ends[b+1] ends up the end of bucket b, or 0 when b is empty, which
// finish fills from the bucket before.
type indexBuilder struct {
	ends *[65537]uint32
	lo   []uint16 // len is the bound given to newIndexBuilder
	n    int
}

// newIndexBuilder returns a builder for at most n prefixes.
func newIndexBuilder(n int) *indexBuilder {
	return &indexBuilder{ends: new([65537]uint32), lo: make([]uint16, n)}
}

// add appends v, which is greater than every prefix added before.
func (ib *indexBuilder) add(v uint32) {
	ib.ends[v>>16+1] = uint32(ib.n + 1)
	ib.lo[ib.n] = uint16(v)
	ib.n++
}

// finish returns the index.
func (ib *indexBuilder) finish() *index {
	starts := ib.ends
	for b := 1; b <= 65536; b++ {
		starts[b] = max(starts[b], starts[b-1])
	}
	lo := ib.lo[:ib.n]
	if len(ib.lo)-ib.n > ib.n/16 {
		lo = append([]uint16(nil), lo...) // do not keep the room left by duplicates and removals
	}
	x := &index{base: new([257]uint32), lo: lo}
	for g := range 257 {
		x.base[g] = starts[min(g<<8, 65536)]
	}
	off := new([65537]uint16)
	for b, s := range starts {
		d := s - x.base[b>>8]
		if d > math.MaxUint16 {
			x.wide = starts
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
