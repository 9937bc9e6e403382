// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/binary"
	"math/bits"
)

// indexMin is the size from which a 4-byte list is held in an index rather
// than a flat sorted array: from here on the index takes under 2.6 bytes
// a prefix, against the array's 4. A variable, so that the tests run both
// forms on small lists.
var indexMin = 1 << 16

// bucketMax is the most prefixes one bucket of an index may hold. Random
// prefixes hold about 8 a bucket and never come near it; a list with a
// fuller bucket (a hostile one) is held flat instead, so that Contains
// never reads more than bucketMax lows.
const bucketMax = 255

// index holds a set of n 4-byte prefixes in an Elias–Fano code, cut into
// buckets for lookups. A prefix is split into its high 32-l bits and its
// low l bits, where l is log2(2^32/n) rounded down (at most 14): the lows
// are stored as they are, l bits each in sorted order (lows), and the
// highs as the upper bits of Elias–Fano (hi): prefix i sets bit i + high,
// so that the highs cost 2 to 3 bits a prefix whatever their spread.
//
// The high bits are further split into a bucket (the first nb) and a
// sub-bucket (the other ns). Bucket b holds the prefixes s(b) to s(b+1)-1,
// where s(b) is base[b>>4] + off[b]: a uint32 every 16 buckets and a
// uint8 for each. In hi, bucket b's code starts at bit b<<ns + s(b): 2^ns
// 0 bits, one after each sub-bucket, and a 1 bit for each prefix, so that
// the i-th prefix of a bucket is in sub-bucket j when bit i+j of the code
// is its i-th 1 bit. Its lows start at bit l*s(b) of lows. nb is chosen
// so that a bucket holds about 8 prefixes: at a million random prefixes
// l = 12, nb = 17 and ns = 3, and the index takes 12 + 2.05 + 1.31 bits a
// prefix, 1.92 bytes.
//
// Contains compares the first 12 lows of the prefix's bucket with the one
// sought, four at once in 12-bit lanes (l-bit in general) of a word, and
// checks the sub-bucket of the one that matches with a count of the 1 bits
// of the code before it; it takes no branch unless the bucket holds more
// than 12 prefixes (one in 20 at a million) or two of them have the low
// sought (one in 500 or so).
type index struct {
	l, ns, nb uint     // bits of the low, the sub-bucket and the bucket
	base      []uint32 // s(b) for every 16th bucket b
	off       []uint8  // s(b) - base[b>>4]; nil when wide is used
	wide      []uint32 // s(b), when an offset does not fit a uint8
	lows      []byte   // l bits a prefix, the first lowest; then lowsPad bytes
	hi        []byte   // the Elias–Fano upper bits, the first lowest; then 8 bytes
	ones      uint64   // a 1 in the lowest bit of each of 4 l-bit lanes
	lanesLo   uint64   // the low l-1 bits of each lane
	lanesHi   uint64   // the high bit of each lane
	gather    uint64   // see ranks
	l1, l3    uint     // l-1 and 3(l-1), for ranks
	bshift    uint     // 32-nb: a prefix's bucket is h>>bshift
}

// lowsPad is the room after the lows for contains, which reads three
// words of lanes from a bucket's start, whatever its size.
const lowsPad = 24

// shape returns the split of a prefix for an index of at most n (≥ 1)
// prefixes: the bits of its low, sub-bucket and bucket.
func shape(n int) (l, ns, nb uint) {
	l = min(max(32-uint(bits.Len(uint(n-1))), 5), 14)
	// nb rounds log2(n/8) to the nearest: buckets of 5.7 to 11.3
	// prefixes.
	nb = uint(max(bits.Len(uint(n)*181/1024)-1, 0))
	nb = min(nb, 32-l)
	return l, 32 - l - nb, nb
}

// newIndex returns an index of the shape of n, with no prefixes yet.
func newIndex(n int) *index {
	l, ns, nb := shape(n)
	x := &index{l: l, ns: ns, nb: nb}
	for i := range uint(4) {
		x.ones |= 1 << (i * l)
		x.gather |= 1 << (i * (l - 1))
	}
	x.l1, x.l3, x.bshift = l-1, 3*(l-1), 32-nb
	x.lanesLo = x.ones * (1<<(l-1) - 1)
	x.lanesHi = x.ones << (l - 1)
	return x
}

// bounds returns s(b) and s(b+1): the prefixes of bucket b.
func (x *index) bounds(b uint) (uint32, uint32) {
	if x.off == nil {
		return x.wide[b], x.wide[b+1]
	}
	return x.base[b>>4] + uint32(x.off[b]), x.base[(b+1)>>4] + uint32(x.off[b+1])
}

// peek returns the bits of p from bit i on, at least 57 of them, the
// first lowest. p must have 8 bytes from the byte of bit i.
func peek(p []byte, i uint) uint64 {
	return binary.LittleEndian.Uint64(p[i>>3:]) >> (i & 7)
}

// ranks compares the four lanes of v, lows XOR the low sought, with 0,
// and returns a bit for each that is: bit i for lane i. The lanes that
// are 0 get their high bit set, at l*i + l-1; a multiply by gather moves
// bit l*i to bit 3(l-1) + i, and the other products land on other bits,
// with no carry (for l ≥ 5).
func (x *index) ranks(v uint64) uint64 {
	eq := ^((v&x.lanesLo + x.lanesLo) | v) & x.lanesHi
	return (eq >> (x.l1 & 63)) * x.gather >> (x.l3 & 63) & 15
}

// contains reports whether the index holds the prefix h.
func (x *index) contains(h uint32) bool {
	l := x.l & 63
	b := uint(uint64(h) >> (x.bshift & 63)) // 0 when nb is 0
	s, e := x.bounds(b)
	c := uint(e - s)
	// The bucket's code, read now so that its load overlaps that of the
	// lows.
	p := b<<(x.ns&63) + uint(s)
	code := peek(x.hi, p)
	j := uint(h>>l) & (1<<(x.ns&31) - 1)
	pat := (uint64(h) & (1<<l - 1)) * x.ones
	at := l * uint(s)
	rk := x.ranks(peek(x.lows, at)^pat) | x.ranks(peek(x.lows, at+4*l)^pat)<<4 | x.ranks(peek(x.lows, at+8*l)^pat)<<8
	rk &= 1<<min(c, 12) - 1
	if c <= 12 && rk&(rk-1) == 0 && x.ns <= 5 {
		// At most one of the prefixes has the low sought, and the code
		// is in one word (c + 2^ns ≤ 44 bits).
		i := uint(bits.TrailingZeros64(rk|1<<12)) & 63
		q := (i + j) & 63
		return b2u(rk != 0)&(code>>q)&b2u(uint(bits.OnesCount64(code&(1<<q-1))) == i) != 0
	}
	for r := uint(0); r < c; r += 4 {
		rk := x.ranks(peek(x.lows, at+l*r)^pat) & (1<<min(c-r, 4) - 1)
		for ; rk != 0; rk &= rk - 1 {
			if x.inSub(p, r+uint(bits.TrailingZeros64(rk)), j) {
				return true
			}
		}
	}
	return false
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// inSub reports whether the i-th prefix of the bucket whose code starts
// at bit p of hi is in sub-bucket j: whether bit p+i+j is the i-th 1 bit
// of the code.
func (x *index) inSub(p, i, j uint) bool {
	q := i + j
	ones := uint(0)
	for ; q >= 56; q -= 56 {
		ones += uint(bits.OnesCount64(peek(x.hi, p) & (1<<56 - 1)))
		p += 56
	}
	w := peek(x.hi, p)
	return w>>q&1 != 0 && ones+uint(bits.OnesCount64(w&(1<<q-1))) == i
}

// cursor reads the prefixes of an index in order.
type cursor struct {
	x   *index
	i   uint // the prefix to read next
	pos uint // the bit of hi after the last prefix read
}

// next returns the next prefix; there must be one.
func (c *cursor) next() uint32 {
	x := c.x
	w := binary.LittleEndian.Uint64(x.hi[c.pos>>6<<3:]) >> (c.pos & 63)
	for w == 0 {
		c.pos = (c.pos | 63) + 1
		w = binary.LittleEndian.Uint64(x.hi[c.pos>>6<<3:])
	}
	c.pos += uint(bits.TrailingZeros64(w))
	high := c.pos - c.i
	low := peek(x.lows, x.l*c.i) & (1<<x.l - 1)
	c.pos++
	c.i++
	return uint32(high<<x.l | uint(low))
}

// indexBuilder builds an index from prefixes given in ascending order.
// It stores, for each prefix, one past its position at ends[bucket+1],
// with no branch and no load: the last prefix of a bucket writes last, so
// ends[b+1] ends up the end of bucket b, or 0 when b is empty, which
// finish fills from the bucket before.
type indexBuilder struct {
	x    *index
	ends []uint32
	n    uint
	// The lows are written through acc, whose nacc low bits (< 8 between
	// calls) are not yet whole bytes, at byte at of x.lows.
	at   uint
	acc  uint64
	nacc uint
	// The upper bits are ORed into hacc, word hw of x.hi.
	hw   uint
	hacc uint64
}

// newIndexBuilder returns a builder for at most n (≥ 1) prefixes.
func newIndexBuilder(n int) *indexBuilder {
	x := newIndex(n)
	x.lows = make([]byte, (uint(n)*x.l+7)/8+lowsPad)
	x.hi = make([]byte, (uint(n)+1<<(x.ns+x.nb)+63)/64*8+8)
	return &indexBuilder{x: x, ends: make([]uint32, 1<<x.nb+1)}
}

// add appends v, which is greater than every prefix added before.
func (ib *indexBuilder) add(v uint32) {
	x := ib.x
	l := x.l & 63
	ib.ends[uint64(v)>>(32-x.nb)+1] = uint32(ib.n + 1)
	ib.acc |= (uint64(v) & (1<<l - 1)) << ib.nacc
	binary.LittleEndian.PutUint64(x.lows[ib.at:], ib.acc)
	ib.nacc += l
	ib.at += ib.nacc >> 3
	ib.acc >>= ib.nacc &^ 7
	ib.nacc &= 7
	p := uint(uint64(v)>>l) + ib.n
	if p>>6 != ib.hw {
		binary.LittleEndian.PutUint64(x.hi[8*ib.hw:], ib.hacc)
		ib.hacc, ib.hw = 0, p>>6
	}
	ib.hacc |= 1 << (p & 63)
	ib.n++
}

// addAll adds vs, ascending, each greater than every prefix added
// before, as add does, and writes them to hb, big-endian, for the
// checksum: the loop of a full update, with no call and no branch a
// prefix. len(hb) is 4*len(vs).
func (ib *indexBuilder) addAll(vs []uint32, hb []byte) {
	x := ib.x
	l := x.l & 63
	mask := uint64(1)<<l - 1
	bs := x.bshift & 63
	ends, lows, hi := ib.ends, x.lows, x.hi
	n, at, acc, nacc, hw, hacc := ib.n, ib.at, ib.acc, ib.nacc, ib.hw, ib.hacc
	hb = hb[:4*len(vs)]
	for k, v := range vs {
		ends[uint64(v)>>bs+1] = uint32(n + 1)
		acc |= (uint64(v) & mask) << nacc
		binary.LittleEndian.PutUint64(lows[at:], acc)
		nacc += l
		at += nacc >> 3
		acc >>= nacc &^ 7
		nacc &= 7
		p := uint(v>>l) + n
		w := p >> 6
		if w != hw {
			hacc = 0
		}
		hacc |= 1 << (p & 63)
		binary.LittleEndian.PutUint64(hi[8*w:], hacc)
		hw = w
		binary.BigEndian.PutUint32(hb[4*k:], v)
		n++
	}
	ib.n, ib.at, ib.acc, ib.nacc, ib.hw, ib.hacc = n, at, acc, nacc, hw, hacc
}

// finish returns the index, or nil if a bucket holds more than bucketMax
// prefixes; then the caller holds the list flat, reading it from cursor.
func (ib *indexBuilder) finish() (*index, *cursor) {
	x := ib.x
	binary.LittleEndian.PutUint64(x.hi[8*ib.hw:], ib.hacc)
	starts := ib.ends
	worst := uint32(0)
	for b := 1; b < len(starts); b++ {
		starts[b] = max(starts[b], starts[b-1])
		worst = max(worst, starts[b]-starts[b-1])
	}
	if used := (ib.n*x.l+7)/8 + lowsPad; uint(len(x.lows))-used > used/16 {
		x.lows = append([]byte(nil), x.lows[:used]...) // do not keep the room left by duplicates and removals
	}
	if worst > bucketMax {
		return nil, &cursor{x: x}
	}
	nbk := len(starts) - 1
	x.base = make([]uint32, nbk>>4+2)
	for g := range x.base {
		x.base[g] = starts[min(g<<4, nbk)]
	}
	off := make([]uint8, len(starts))
	for b, s := range starts {
		d := s - x.base[b>>4]
		if d > 255 {
			// 16 buckets of random prefixes hold more than 255 once in
			// millions of lists: keep every s(b) whole.
			x.base, x.wide = nil, starts
			return x, nil
		}
		off[b] = uint8(d)
	}
	x.off = off
	return x, nil
}
