// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"errors"
	"math"
	"math/bits"
)

// errFull reports that a bucket of a [slackSorter] is full: the values
// are too unevenly spread for it. It is no defect of the stream.
var errFull = errors.New("a bucket is full")

// scatterAll decodes the whole stream of d, 4-byte prefixes read as
// little-endian integers, into sc, as sc.add would take them, but in
// the decoding loop itself ([decodeRunScatter]), where the stores to the
// buckets cost little beside the chain of dependent operations that
// decoding is. The entries the fast loop leaves (long quotients, the
// stream's last bytes) are decoded by rice32's careful path, as
// [rice32.fill] decodes them. It returns why the stream is corrupt,
// errFull when a bucket is full, or nil.
func (d *rice32) scatterAll(sc *slackSorter) error {
	if d.left == 0 {
		return nil
	}
	d.first = false
	d.left--
	if !sc.add1(d.v) {
		return errFull
	}
	v := uint64(d.v)
	r := &d.r
	data := r.data
	for d.left > 0 {
		pos := uint(8*r.i) - r.n
		m := int(min(d.left, maxRun))
		n, end, last, full := decodeRunScatter(m, data, pos, v, d.k, sc)
		if full {
			return errFull
		}
		d.left -= int64(n)
		v = last
		// Leave the reader at end, as rice32.fast does.
		r.i, r.buf, r.n = int(end>>3), 0, 0
		if end&7 != 0 {
			r.buf = uint64(data[r.i]) >> (end & 7)
			r.n = 8 - end&7
			r.i++
		}
		if n == m || d.left == 0 {
			continue
		}
		// One entry the fast loop left, or a defect it saw.
		delta, e := d.slowDelta()
		if e != nil {
			return e
		}
		if v += delta; v > math.MaxUint32 {
			return errOverflow
		}
		if !sc.add1(uint32(v)) {
			return errFull
		}
		d.left--
	}
	return nil
}

// add1 adds one value, as add does; the sorter must have buckets.
func (w *slackSorter) add1(x uint32) bool {
	y := bits.ReverseBytes32(x)
	b := y >> 23
	if w.pos[b] == w.end[b] {
		return false
	}
	w.buf[w.pos[b]] = y
	w.pos[b]++
	return true
}

// decodeRunScatter is [decodeRun] with each value, instead of being
// written to an array, byte-reversed and stored in its bucket of sc, for
// up to m values. full is true when a bucket is full; the stores done
// then are of no use, as the sorter is not. Like decodeRun, it decodes
// nothing when a delta is zero or a value overflows 32 bits, but then
// some of its stores are done: the stream is corrupt, and the caller's
// careful path reports it.
func decodeRunScatter(m int, data []byte, pos uint, v uint64, k uint, sc *slackSorter) (n int, end uint, last uint64, full bool) {
	p := pos >> 3
	if p+8 > uint(len(data)) {
		return 0, pos, v, false
	}
	v0 := v
	k &= 31
	k1 := k + 1
	mask := uint64(1)<<k - 1
	group := int(runGroup(k))
	x := ^load64(data, p) >> (pos & 7)
	cnt := 56 - pos&7
	p += 7
	var bad uint64
	j := 0
	bpos, bend, buf := &sc.pos, &sc.end, sc.buf
	for {
		stop := min(j+group, m)
		for j < stop {
			q := uint(bits.TrailingZeros64(x))
			nb := q + k1
			if nb > cnt {
				break
			}
			dd := uint64(q)<<k + (^(x >> 1 >> (q & 63)) & mask)
			v += dd
			bad |= dd - 1
			y := bits.ReverseBytes32(uint32(v))
			b := y >> 23
			at := bpos[b]
			if at == bend[b] {
				return 0, pos, v0, true
			}
			buf[at] = y
			bpos[b] = at + 1
			j++
			cnt -= nb
			x >>= nb & 63
		}
		if j == m || cnt >= 56 || p+8 > uint(len(data)) {
			break
		}
		x |= ^load64(data, p) << cnt
		p += (63 - cnt) >> 3
		cnt |= 56
	}
	if bad>>63 != 0 || v > math.MaxUint32 {
		return 0, pos, v0, false
	}
	return j, 8*p - cnt, v, false
}
