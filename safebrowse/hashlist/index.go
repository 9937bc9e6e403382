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
// low l bits, where l is log2(2^32/n) rounded down, from 8 to 14: the lows
// are stored as they are, their low byte in lo8 and their other r = l-8
// bits packed in rem, in sorted order; and the highs as the upper bits of
// Elias–Fano (hi): prefix i sets bit i + high, so that the highs cost 2 to
// 3 bits a prefix whatever their spread (up to 5 below 2^18 prefixes,
// where l stops at 14).
//
// The high bits are further split into a bucket (the first nb) and a
// sub-bucket (the other ns). Bucket b holds the prefixes s(b) to s(b+1)-1,
// where s(b) is base[b>>4] + off[b]: a uint32 every 16 buckets and a
// uint8 for each. In hi, bucket b's code starts at bit b<<ns + s(b): 2^ns
// 0 bits, one after each sub-bucket, and a 1 bit for each prefix, so that
// the i-th prefix of a bucket is in sub-bucket j when bit i+j of the code
// is its i-th 1 bit. nb is chosen so that a bucket holds about 8
// prefixes: at a million random prefixes l = 12, nb = 17 and ns = 3, and
// the index takes 8 + 4 + 2.05 + 1.31 bits a prefix, 1.92 bytes.
//
// Contains compares the low bytes of the first 16 prefixes of the bucket
// with the one sought, eight at once in the bytes of a word, and returns
// false when none matches, as for most probes. Otherwise it checks the one
// that matches against the rest of the low and, with a count of the 1
// bits before it, against the code, with no branch, unless the bucket
// holds more than 16 prefixes (one in 250 at a million) or two of them
// share the low byte sought (one in 30).
type index struct {
	n         uint     // prefixes
	l, ns, nb uint     // bits of the low, the sub-bucket and the bucket
	r         uint     // l-8, the bits of a low past its byte
	short     bool     // ns ≤ 5: a bucket of 16 has its code in 48 bits
	bshift    uint     // 32-nb: a prefix's bucket is h>>bshift
	base      []uint32 // s(b) for every 16th bucket b
	off       []uint8  // s(b) - base[b>>4]; nil when wide is used
	wide      []uint32 // s(b), when an offset does not fit a uint8
	lo8       []byte   // the low byte of each prefix; then 16 bytes for contains
	rem       []byte   // r bits a prefix, the first lowest; then 8 bytes
	hi        []byte   // the Elias–Fano upper bits, the first lowest; then 8 bytes
}

// shape returns the split of a prefix for an index of at most n (≥ 1)
// prefixes: the bits of its low, sub-bucket and bucket.
func shape(n int) (l, ns, nb uint) {
	l = min(max(32-uint(bits.Len(uint(n-1))), 8), 14)
	// nb rounds log2(n/8) to the nearest: buckets of 5.7 to 11.3
	// prefixes.
	nb = uint(max(bits.Len(uint(n)*181/1024)-1, 0))
	nb = min(nb, 32-l)
	return l, 32 - l - nb, nb
}

// newIndex returns an index of the shape of n, with no prefixes yet.
func newIndex(n int) *index {
	l, ns, nb := shape(n)
	return &index{l: l, ns: ns, nb: nb, r: l - 8, bshift: 32 - nb, short: ns <= 5}
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
	return load64(p, i>>3) >> (i & 7)
}

// Byte lanes: the low 7 bits of each byte of a word, and the high bit.
const (
	bytesLo = 0x7f7f7f7f7f7f7f7f
	bytesHi = 0x8080808080808080
)

// zeroBytes returns a bit for each byte of v that is 0: bit i for byte i.
// A byte is nonzero when adding 0x7f to its low 7 bits carries into its
// high bit or its high bit is set, with no carry between bytes; then
// the high bits, at 8i+7, shifted to 8i, are gathered into bits 49 to 56
// by a multiply whose products land on distinct bits.
func zeroBytes(v uint64) uint64 {
	z := ^((v&bytesLo + bytesLo) | v) & bytesHi
	return (z >> 7) * 0x0002040810204081 >> 49 & 0xff
}

// contains reports whether the index holds the prefix h.
func (x *index) contains(h uint32) bool {
	b := uint(uint64(h) >> (x.bshift & 63)) // 0 when nb is 0
	s, e := x.bounds(b)
	c := uint(e - s)
	lo := x.lo8[s : s+16 : s+16]
	pat := uint64(byte(h)) * 0x0101010101010101
	rk := zeroBytes(binary.LittleEndian.Uint64(lo[:8])^pat) | zeroBytes(binary.LittleEndian.Uint64(lo[8:])^pat)<<8
	p := b<<(x.ns&63) + uint(s)
	r := x.r & 7
	if c <= 16 && x.short {
		rk &= 1<<c - 1
		if rk == 0 {
			return false // most probes: no prefix has the low byte
		}
		i := uint(bits.TrailingZeros64(rk)) & 15
		if rk&(rk-1) == 0 && r*i < 57-r {
			// One prefix of the bucket has the low byte sought, its rest
			// is in the word read, and so is the code: check both with
			// no branch.
			code := peek(x.hi, p)
			at := r * uint(s)
			rest := peek(x.rem, at)
			j := uint(h>>(x.l&63)) & (1<<(x.ns&63) - 1)
			q := (i + j) & 63
			same := b2u((rest>>(r*i&63)^uint64(h>>8))&(1<<r-1) == 0)
			return same&(code>>q)&b2u(uint(bits.OnesCount64(code&(1<<q-1))) == i) != 0
		}
	}
	j := uint(h>>(x.l&63)) & (1<<(x.ns&63) - 1)
	for i := range c {
		if x.lo8[uint(s)+i] == byte(h) &&
			(peek(x.rem, r*(uint(s)+i))^uint64(h>>8))&(1<<r-1) == 0 &&
			x.inSub(p, i, j) {
			return true
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

// cursor reads the prefixes of an index in order, decoding them a
// chunk at a time.
type cursor struct {
	x    *index
	i    uint // the prefix to decode next
	pos  uint // the bit of hi after the last prefix decoded
	b, e int  // buf[b:e] is decoded and not yet returned
	buf  [128]uint32
}

// next returns the next prefix; there must be one.
func (c *cursor) next() uint32 {
	if c.b == c.e {
		c.b, c.e = 0, c.fill(c.buf[:min(uint(len(c.buf)), c.x.n-c.i)])
	}
	v := c.buf[c.b]
	c.b++
	return v
}

// fill decodes len(out) prefixes into out, which the index must hold,
// and returns how many. It keeps the word of hi it reads with the bits
// already read cleared, and clears each 1 bit it takes.
func (c *cursor) fill(out []uint32) int {
	x := c.x
	l, r := x.l&63, x.r&7
	rmask := uint64(1)<<r - 1
	i, wi := c.i, c.pos>>6
	w := binary.LittleEndian.Uint64(x.hi[8*wi:]) >> (c.pos & 63) << (c.pos & 63)
	for k := range out {
		for w == 0 {
			wi++
			w = binary.LittleEndian.Uint64(x.hi[8*wi:])
		}
		high := wi<<6 + uint(bits.TrailingZeros64(w)) - i
		w &= w - 1
		low := uint(x.lo8[i]) | uint(peek(x.rem, r*i)&rmask)<<8
		out[k] = uint32(high<<l | low)
		i++
	}
	c.i = i
	c.pos = wi << 6
	if w != 0 {
		c.pos += uint(bits.TrailingZeros64(w))
	} else {
		c.pos += 64
	}
	return len(out)
}

// indexBuilder builds an index from prefixes given in ascending order.
// For each prefix it stores its low byte in lo8, its upper bit in hi, and
// one past its position at ends[bucket+1], with no branch and no load:
// the last prefix of a bucket writes last, so ends[b+1] ends up the end
// of bucket b, or 0 when b is empty, which finish fills from the bucket
// before. Its next byte goes to rest, and its low r bits from there
// into rem, eight prefixes at a time.
type indexBuilder struct {
	x    *index
	ends []uint32
	// rest holds the next byte of the prefixes from packed to n, fewer
	// than 8 between calls: those of x.rem's open group. packed is a
	// multiple of 8.
	rest   []byte
	packed uint
	n      uint
	// The upper bits are ORed into hacc, word hw of x.hi, stored whole
	// when a prefix starts another word and at the end of each addAll.
	hw   uint
	hacc uint64
}

// newIndexBuilder returns a builder for at most n (≥ 1) prefixes.
func newIndexBuilder(n int) *indexBuilder {
	x := newIndex(n)
	x.lo8 = make([]byte, n+16)
	x.rem = make([]byte, (uint(n)*x.r+7)/8+8)
	x.hi = make([]byte, (uint(n)+1<<(x.ns+x.nb)+63)/64*8+8)
	return &indexBuilder{x: x, ends: make([]uint32, 1<<x.nb+1)}
}

// addAll adds vs, ascending, each greater than every prefix added
// before, and writes them to hb, big-endian, for the checksum. len(hb) is
// 4*len(vs).
//
// It takes vs in two loops, each with few enough live values for the
// registers: the first stores, four prefixes an iteration, the bytes of
// hb (two prefixes a store), lo8 and rest and the bucket ends; the second
// sets the upper bits, ORed into hacc, word hw of x.hi, which it stores
// when a prefix starts another word (every 32 prefixes at a million) and
// at the end.
func (ib *indexBuilder) addAll(vs []uint32, hb []byte) {
	x := ib.x
	n := ib.n
	open := n - ib.packed
	if need := open + uint(len(vs)) + 8; need > uint(len(ib.rest)) {
		ib.rest = append(ib.rest[:open:open], make([]byte, need-open)...)
	}
	hb = hb[:4*len(vs)]
	lo8 := x.lo8[n : n+uint(len(vs))]
	rest := ib.rest[open : open+uint(len(vs))]
	ends, bs := ib.ends, x.bshift&63
	k := 0
	for ; k+4 <= len(vs); k += 4 {
		v := vs[k : k+4 : k+4]
		h := hb[4*k : 4*k+16 : 4*k+16]
		binary.BigEndian.PutUint64(h, uint64(v[0])<<32|uint64(v[1]))
		binary.BigEndian.PutUint64(h[8:], uint64(v[2])<<32|uint64(v[3]))
		lo, re := lo8[k:k+4:k+4], rest[k:k+4:k+4]
		lo[0], lo[1], lo[2], lo[3] = byte(v[0]), byte(v[1]), byte(v[2]), byte(v[3])
		re[0], re[1], re[2], re[3] = byte(v[0]>>8), byte(v[1]>>8), byte(v[2]>>8), byte(v[3]>>8)
		e := uint32(n + uint(k))
		ends[uint64(v[0])>>bs+1] = e + 1
		ends[uint64(v[1])>>bs+1] = e + 2
		ends[uint64(v[2])>>bs+1] = e + 3
		ends[uint64(v[3])>>bs+1] = e + 4
	}
	for ; k < len(vs); k++ {
		v := vs[k]
		binary.BigEndian.PutUint32(hb[4*k:], v)
		lo8[k] = byte(v)
		rest[k] = byte(v >> 8)
		ends[uint64(v)>>bs+1] = uint32(n + uint(k) + 1)
	}
	hi, l := x.hi, x.l&63
	hw, hacc := ib.hw, ib.hacc
	for _, v := range vs {
		p := uint(v>>l) + n
		n++
		if p>>6 != hw {
			binary.LittleEndian.PutUint64(hi[8*hw:], hacc)
			hacc = 0
			hw = p >> 6
		}
		hacc |= 1 << (p & 63)
	}
	binary.LittleEndian.PutUint64(hi[8*hw:], hacc)
	ib.n, ib.hw, ib.hacc = n, hw, hacc
	ib.packRests(false)
}

// packRests packs the low r bits of each byte of rest into x.rem, eight
// at a time: a word of eight bytes becomes 8r bits, r whole bytes, in
// three steps, each joining pairs of lanes, and is stored whole at the
// next r bytes of rem, its bytes past them 0 until the next store. It
// packs the rests of whole groups of eight and leaves the others in rest;
// with last, it packs them too, padded with zeros.
func (ib *indexBuilder) packRests(last bool) {
	x := ib.x
	r := x.r & 7
	open := ib.n - ib.packed
	whole := open &^ 7
	if last && whole < open {
		// rest has 8 bytes past the open ones: zero the ones a last
		// group of fewer than 8 packs, which go past the bits used.
		clear(ib.rest[open : whole+8])
		whole += 8
	}
	if r != 0 {
		m8 := (uint64(1)<<r - 1) * 0x0101010101010101
		r2, r4 := 2*r, 4*r
		rest := ib.rest
		rem := x.rem[ib.packed*r/8:]
		// The last store, at r*i/8 ≤ (n*r+7)/8 of rem, fits.
		at := uint(0)
		for i := uint(0); i < whole; i += 8 {
			w := binary.LittleEndian.Uint64(rest[i:i+8]) & m8
			w = w&0x00ff00ff00ff00ff | (w>>8&0x00ff00ff00ff00ff)<<r
			w = w&0x0000ffff0000ffff | (w>>16&0x0000ffff0000ffff)<<r2
			w = uint64(uint32(w)) | w>>32<<r4
			binary.LittleEndian.PutUint64(rem[at:at+8], w)
			at += r
		}
	}
	if whole >= open {
		ib.packed = ib.n
		return
	}
	ib.packed += whole
	copy(ib.rest, ib.rest[whole:open])
}

// finish returns the index, or nil if a bucket holds more than bucketMax
// prefixes; then the caller holds the list flat, reading it from cursor.
func (ib *indexBuilder) finish() (*index, *cursor) {
	x := ib.x
	x.n = ib.n
	ib.packRests(true)
	ib.rest = nil
	starts := ib.ends
	worst := uint32(0)
	for b := 1; b < len(starts); b++ {
		starts[b] = max(starts[b], starts[b-1])
		worst = max(worst, starts[b]-starts[b-1])
	}
	// Do not keep the room left by duplicates and removals.
	if used := ib.n + 16; uint(len(x.lo8))-used > used/16 {
		x.lo8 = append([]byte(nil), x.lo8[:used]...)
	}
	if used := (ib.n*x.r+7)/8 + 8; uint(len(x.rem))-used > used/16 {
		x.rem = append([]byte(nil), x.rem[:used]...)
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
