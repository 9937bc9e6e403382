// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// riceStream is one RiceDeltaEncoded32Bit, 64Bit, 128Bit or 256Bit message
// as read from the wire, not yet decoded.
type riceStream struct {
	first u256   // first_value (the 128- and 256-bit parts joined)
	k     int64  // rice_parameter
	count int64  // entries_count
	data  []byte // encoded_data
}

// check validates the header of a stream of values of width w bytes
// before anything is decoded or allocated: entries_count must not be
// negative; when it is positive, k must lie in the width's range
// ([riceRange]), and the data must hold at least k+1 bits per entry (one
// unary stop bit and k remainder bits), so that a huge entries_count over a
// few bytes fails at once. The first value must fit the width. It returns
// why the stream is corrupt, or nil.
func (s *riceStream) check(w int) error {
	if s.count < 0 {
		return fmt.Errorf("entries_count %d is negative", s.count)
	}
	if s.first.bitLen() > 8*w {
		return fmt.Errorf("first value overflows %d bits", 8*w)
	}
	lo, hi := riceRange(w)
	return s.checkCount(lo, hi, &v5Fields)
}

// riceFields names the fields of a Rice message, for errors: v5's
// RiceDeltaEncoded messages and Web Risk's RiceDeltaEncoding name them
// apart.
type riceFields struct{ k, count, data string }

var v5Fields = riceFields{"rice_parameter", "entries_count", "encoded_data"}

// checkCount is the part of [riceStream.check] that the big- and
// little-endian streams share: when the count is positive, k must lie
// in lo–hi and the data must hold at least k+1 bits per entry.
func (s *riceStream) checkCount(lo, hi int, f *riceFields) error {
	if s.count == 0 {
		return nil // k is ignored: the stream is its first value alone
	}
	if s.k < int64(lo) || s.k > int64(hi) {
		return fmt.Errorf("%s %d outside %d–%d", f.k, s.k, lo, hi)
	}
	if need := uint64(s.count) * uint64(s.k+1); need > 8*uint64(len(s.data)) {
		return fmt.Errorf("%s %d needs at least %d bits; %s holds %d", f.count, s.count, need, f.data, 8*len(s.data))
	}
	return nil
}

// Why a stream is corrupt, found while decoding. They are the reasons in
// an [ErrCorrupt] message, after the field's name, not sentinels: a
// caller sees only ErrCorrupt.
var (
	errShort    = errors.New("stream ends early")
	errOverflow = errors.New("value overflows the width")
	errRepeat   = errors.New("zero delta (a repeated value)")
)

// bitReader reads a Rice stream least significant bit first within each
// byte, 64 bits at a time (the Local.Database page: "Rice-Golomb
// encoding").
type bitReader struct {
	data []byte
	i    int    // the next byte of data to load
	buf  uint64 // the unread bits, the next one lowest; bits above n may hold the next bytes' bits
	n    uint   // how many bits of buf are loaded and unread
}

// refill loads whole bytes until buf holds at least 57 bits or data ends.
func (r *bitReader) refill() {
	if r.i+8 <= len(r.data) {
		// Load 8 bytes and count only the whole bytes that fit; the bits of
		// the next byte that landed above n are the ones the next refill
		// writes again at the same places.
		r.buf |= binary.LittleEndian.Uint64(r.data[r.i:]) << r.n
		r.i += int((63 - r.n) >> 3)
		r.n |= 56
		return
	}
	for r.n <= 56 && r.i < len(r.data) {
		r.buf |= uint64(r.data[r.i]) << r.n
		r.i++
		r.n += 8
	}
}

// unary reads a quotient: the count of 1 bits before a 0 bit. A quotient
// above max is an overflow and stops the read.
func (r *bitReader) unary(max uint64) (uint64, error) {
	var q uint64
	for {
		if r.n < 57 {
			r.refill()
		}
		ones := uint(bits.TrailingZeros64(^r.buf))
		if ones < r.n {
			q += uint64(ones)
			r.buf >>= ones + 1
			r.n -= ones + 1
			if q > max {
				return 0, errOverflow
			}
			return q, nil
		}
		if r.n == 0 {
			return 0, errShort
		}
		q += uint64(r.n)
		r.buf >>= r.n // r.n < 64: it is < 64 after any refill
		r.n = 0
		if q > max {
			return 0, errOverflow
		}
	}
}

// bits reads a k-bit remainder, k ≤ 32, its first bit the least
// significant.
func (r *bitReader) bits(k uint) (uint64, bool) {
	if r.n < k {
		r.refill()
		if r.n < k {
			return 0, false
		}
	}
	v := r.buf & (1<<k - 1)
	r.buf >>= k
	r.n -= k
	return v, true
}

// rice32 decodes a RiceDeltaEncoded32Bit stream (additions of a 4-byte
// list, or removal indices): the first value, then each previous value
// plus (q << k) + r. [rice32.fill] decodes many values in one tight loop;
// [rice32.next] hands them out one at a time.
type rice32 struct {
	r     bitReader
	k     uint
	qmax  uint64 // the largest quotient whose delta fits 32 bits
	left  int64  // values not yet decoded
	v     uint32 // the value last decoded
	first bool   // the first value is not yet decoded
	err   error  // why the stream is corrupt, once found
	i, n  int    // buf[i:n] is decoded and not yet returned by next
	buf   [128]uint32
}

// newRice32 returns a decoder of s, which check has validated.
func newRice32(s *riceStream) *rice32 {
	d := &rice32{r: bitReader{data: s.data}, left: s.count + 1, v: uint32(s.first[3]), first: true}
	if s.count > 0 {
		d.k = uint(s.k)
		d.qmax = math.MaxUint32 >> d.k
	}
	return d
}

// next returns the next value, or false at the end of the stream or on an
// error (d.err).
func (d *rice32) next() (uint32, bool) {
	if d.i == d.n {
		d.i, d.n = 0, d.fill(d.buf[:])
		if d.n == 0 {
			return 0, false
		}
	}
	v := d.buf[d.i]
	d.i++
	return v, true
}

// fill decodes up to len(out) values into out and returns how many: fewer
// at the end of the stream, and none after an error (d.err). Most values
// come from [rice32.fast]; the careful loop here takes the rest: the
// entries fast leaves (a long quotient, the last bytes of the stream),
// and any run in which fast saw a defect, so that the defect reported is
// the first one, as an entry-by-entry decoder finds it.
func (d *rice32) fill(out []uint32) int {
	j := 0
	if d.first && d.left > 0 && len(out) > 0 {
		d.first = false
		d.left--
		out[0] = d.v
		j = 1
	}
	m := min(len(out)-j, int(d.left))
	d.left -= int64(m)
	out = out[:j+m]
	var e error
	v := uint64(d.v)
	for j < len(out) {
		j, v = d.fast(out, j, v)
		if j == len(out) {
			break
		}
		var delta uint64
		if delta, e = d.slowDelta(); e != nil {
			break
		}
		v += delta
		if v > math.MaxUint32 {
			e = errOverflow
			break
		}
		out[j] = uint32(v)
		j++
	}
	d.v = uint32(v)
	if e != nil {
		d.err = e
		d.left = 0
		return 0
	}
	return j
}

// fast decodes values into out[j:], after v, and returns the new j and
// v. It hands the work to [decodeRun] in runs of at most maxRun values,
// and leaves the reader after the last whole entry decoded.
func (d *rice32) fast(out []uint32, j int, v uint64) (int, uint64) {
	r := &d.r
	data := r.data
	pos := uint(8*r.i) - r.n // the position of the next unread bit
	for j < len(out) {
		m := min(len(out)-j, maxRun)
		n, end, last := decodeRun(out[j:j+m], data, pos, v, d.k)
		j, pos, v = j+n, end, last
		if n < m {
			break
		}
	}
	// Leave the reader at pos: the whole bytes before it consumed, and
	// the unread bits of a byte partly read in buf.
	r.i, r.buf, r.n = int(pos>>3), 0, 0
	if pos&7 != 0 {
		r.buf = uint64(data[r.i]) >> (pos & 7)
		r.n = 8 - pos&7
		r.i++
	}
	return j, v
}

// maxRun bounds the values of one [decodeRun], so that its sum, which it
// checks for an overflow only at the end, cannot wrap around 64 bits: a
// delta it takes is under 2^37, and the value it starts from under 2^32.
const maxRun = 1 << 16

// runGroup returns how many entries [decodeRun] takes from each refill of
// its buffer, which then holds at least 56 bits, for the Rice parameter
// k: as many entries of k+3 bits (a quotient of 2) as 56 bits hold, so
// that the branch that finds an entry past the bits loaded is rarely
// taken (under 3% of entries for deltas of 2^k to 2^(k+1) on average).
func runGroup(k uint) uint {
	return max(1, 56/(k+3))
}

// decodeRun decodes whole entries of a 32-bit Rice stream with
// parameter k (taken mod 32) from bit pos of data into out, each the value
// before plus its delta, starting after v, a 32-bit value. It returns how
// many it decoded, the position after them and the last value. It stops
// at the end of out, before an entry longer than 56 bits, and 8 to 15
// bytes before the end of data, and reads no byte past it. If a delta is
// zero or a value overflows 32 bits, it returns 0, pos and v, having
// decoded nothing: the careful loop of [rice32.fill] finds the defect.
//
// Decoding is a chain of dependent operations (where an entry starts
// depends on where the one before ended), so it keeps the chain short:
// a 64-bit buffer x holds the stream's next bits, inverted, so that one
// trailing-zeros count gives a quotient and one shift by the entry's
// length consumes it. The buffer is refilled after every runGroup(k)
// entries without a branch on how many bits it holds: 8 bytes are loaded
// at p, the first byte not yet in it, and only the whole bytes that fit
// are counted, so that it then holds 56 to 63 bits; the load's address
// is known a refill before, so the load waits for no entry. It checks
// for a zero delta and an overflow once, at the end, not with a branch
// an entry.
func decodeRun(out []uint32, data []byte, pos uint, v uint64, k uint) (int, uint, uint64) {
	p := pos >> 3
	if p+8 > uint(len(data)) {
		return 0, pos, v
	}
	v0 := v
	k &= 31
	k1 := k + 1
	mask := uint64(1)<<k - 1
	group := int(runGroup(k))
	// x holds cnt bits, the next one lowest, inverted; the bits above
	// cnt are 0 or the stream's own, so that a refill can OR more in.
	x := ^load64(data, p) >> (pos & 7)
	cnt := 56 - pos&7
	p += 7
	var bad uint64 // bit 63 is set once a delta is zero
	j := 0
	for {
		// A group: up to group entries, until one is past the bits loaded.
		end := min(j+group, len(out))
		for j < end {
			q := uint(bits.TrailingZeros64(x)) // 64 when x is 0
			n := q + k1
			if n > cnt {
				break
			}
			d := uint64(q)<<k + (^(x >> 1 >> (q & 63)) & mask)
			v += d
			bad |= d - 1
			out[j] = uint32(v)
			j++
			cnt -= n
			x >>= n & 63
		}
		// cnt ≥ 56 here only when the next entry is longer than the bits
		// loaded, which a refill cannot add to (a whole group takes more
		// than 7 bits, so cnt < 56 after one): a long quotient.
		if j == len(out) || cnt >= 56 || p+8 > uint(len(data)) {
			break
		}
		x |= ^load64(data, p) << cnt
		p += (63 - cnt) >> 3
		cnt |= 56
	}
	if bad>>63 != 0 || v > math.MaxUint32 {
		return 0, pos, v0
	}
	return j, 8*p - cnt, v
}

// load64 returns the 8 bytes of b from i, little-endian.
func load64(b []byte, i uint) uint64 {
	return binary.LittleEndian.Uint64(b[i : i+8 : i+8])
}

// slowDelta reads one delta with the bit reader's methods.
func (d *rice32) slowDelta() (uint64, error) {
	q, e := d.r.unary(d.qmax)
	if e != nil {
		return 0, e
	}
	rem, ok := d.r.bits(d.k)
	if !ok {
		return 0, errShort
	}
	delta := q<<d.k | rem
	if delta == 0 {
		return 0, errRepeat
	}
	return delta, nil
}

// decodeWide decodes a stream of values of width w (8, 16 or 32) bytes,
// which check has validated, and appends them to dst, big-endian, or
// returns why the stream is corrupt.
func decodeWide(dst []byte, s *riceStream, w int) ([]byte, error) {
	r := bitReader{data: s.data}
	v := s.first
	var buf [32]byte
	v.put(buf[:w])
	dst = append(dst, buf[:w]...)
	if s.count == 0 {
		return dst, nil
	}
	k := uint(s.k)
	qbits := uint(8*w) - k // a quotient must be < 2^qbits (2 to 29 bits)
	for range s.count {
		q, e := r.unary(1<<qbits - 1)
		if e != nil {
			return dst, e
		}
		delta := u256{3: q}.shl(k)
		for off := uint(0); off < k; off += 32 {
			c := min(32, k-off)
			x, ok := r.bits(c)
			if !ok {
				return dst, errShort
			}
			delta = orU256(delta, u256{3: x}.shl(off))
		}
		if delta.isZero() {
			return dst, errRepeat
		}
		var carry uint64
		v, carry = v.add(delta)
		if carry != 0 || v.bitLen() > 8*w {
			return dst, errOverflow
		}
		v.put(buf[:w])
		dst = append(dst, buf[:w]...)
	}
	return dst, nil
}

func orU256(a, b u256) u256 { return u256{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }

// bitWriter writes a Rice stream, least significant bit first within each
// byte.
type bitWriter struct {
	b   []byte
	acc uint64 // bits not yet written, the first lowest
	n   uint   // how many bits acc holds (< 8 between calls)
}

// bits writes the low k bits of v, k ≤ 32.
func (w *bitWriter) bits(v uint64, k uint) {
	w.acc |= (v & (1<<k - 1)) << w.n
	w.n += k
	for w.n >= 8 {
		w.b = append(w.b, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
}

// unary writes q 1 bits and a 0 bit.
func (w *bitWriter) unary(q uint64) {
	for q >= 32 {
		w.bits(math.MaxUint32, 32)
		q -= 32
	}
	w.bits(1<<q-1, uint(q)+1)
}

// flush writes the last bits, padded with 0 bits to a whole byte.
func (w *bitWriter) flush() []byte {
	if w.n > 0 {
		w.b = append(w.b, byte(w.acc))
		w.acc, w.n = 0, 0
	}
	return w.b
}

// chooseK returns the Rice parameter for n sorted values of width w bytes
// spanning span (last minus first): log2 of the mean delta, the parameter
// that minimises the length of a Rice code of geometrically distributed
// deltas to within a bit per entry, clamped to the width's range.
func chooseK(span u256, n, w int) int {
	lo, hi := riceRange(w)
	k := span.bitLen() - bits.Len(uint(n-1))
	return min(max(k, lo), hi)
}

// encodeRice encodes vals, n sorted, distinct values of width w bytes
// concatenated, with parameter k (unused when n == 1), and returns the
// first value and the encoded data. The quotients of a stream sum to at
// most the span of its values shifted right by k, under 2^(8w-k) ≤ 2^29
// bits: so even a parameter far too small for the data costs at most
// 64 MiB.
func encodeRice(vals []byte, w, k int) (u256, []byte) {
	n := len(vals) / w
	first := load(vals[:w])
	if n == 1 {
		return first, nil
	}
	last := load(vals[len(vals)-w:])
	size := last.sub(first).shr(uint(k))[3] + uint64(n-1)*uint64(k+1)
	bw := bitWriter{b: make([]byte, 0, (size+7)/8)}
	prev := first
	for i := w; i < len(vals); i += w {
		v := load(vals[i : i+w])
		d := v.sub(prev)
		bw.unary(d.shr(uint(k))[3])
		for off := 0; off < k; off += 32 {
			c := min(32, k-off)
			bw.bits(d.shr(uint(off))[3], uint(c))
		}
		prev = v
	}
	return first, bw.flush()
}
