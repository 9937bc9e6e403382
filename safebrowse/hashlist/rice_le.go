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
)

// Rice is one RiceDeltaEncoding message of the Web Risk API and of the
// Safe Browsing v4 Update API: ascending, distinct 32-bit values, the
// first given whole and each next one as its Rice-coded difference from
// the one before (cloud.google.com/web-risk/docs/compression). It
// carries either removal indices or 4-byte hash prefixes, the prefixes
// read as little-endian integers, which is the opposite of v5's
// big-endian streams (see the package documentation). The bit stream and
// its decoder are v5's: only the parameter's range and the byte order of
// the prefixes differ.
//
// [RiceHashes] and [RiceIndices] encode one; [Rice.Hashes] and
// [Rice.Indices] decode one, and [PrefixSet.Apply] decodes those of a
// [Diff]. The zero Rice is the one value 0.
type Rice struct {
	// First is firstValue: the first value, the only one when Count is 0.
	// It must lie in 0 to 2^32-1.
	First int64
	// K is riceParameter, the Rice parameter: 2 to 28 when Count > 0,
	// ignored when Count is 0.
	K int32
	// Count is entryCount (numEntries in v4): how many values Data
	// holds after the first.
	Count int32
	// Data is encodedData: for each value after the first, its
	// difference from the one before, q<<K + r, as q 1 bits, a 0 bit and
	// the K bits of r, least significant bit first within each byte.
	Data []byte
}

// Bounds of riceParameter in Web Risk's and v4's RiceDeltaEncoding
// messages: "a number between 2 and 28" (webrisk.proto, and v4's
// safebrowsing.proto), as Chromium's v4 decoder also asserts.
const (
	riceMinKLE = 2
	riceMaxKLE = 28
)

// stream returns r as a stream for the decoder, or why its header is
// corrupt, checked before anything is decoded or allocated: First in
// 0 to 2^32-1, Count not negative and, when positive, K in 2–28 and
// Data long enough to hold Count entries of at least K+1 bits
// (decision c).
func (r *Rice) stream() (riceStream, error) {
	s := riceStream{k: int64(r.K), count: int64(r.Count), data: r.Data}
	if r.First < 0 || r.First > math.MaxUint32 {
		return s, fmt.Errorf("firstValue %d outside 0–%d", r.First, uint32(math.MaxUint32))
	}
	if s.count < 0 {
		return s, fmt.Errorf("entryCount %d is negative", s.count)
	}
	s.first = u256{3: uint64(r.First)}
	return s, s.checkCount(riceMinKLE, riceMaxKLE, &leFields)
}

var leFields = riceFields{"riceParameter", "entryCount", "encodedData"}

// decodeValues decodes the values of s, a checked stream, ascending,
// into a new slice, or returns why s is corrupt.
func decodeValues(s *riceStream) ([]uint32, error) {
	out := make([]uint32, s.count+1)
	d := newRice32(s)
	for n := 0; n < len(out); {
		c := d.fill(out[n:])
		if c == 0 {
			break
		}
		n += c
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// decodePrefixes decodes s, a checked stream of 4-byte prefixes read as
// little-endian integers, and returns the prefixes read as big-endian
// integers, ascending: the prefixes in byte order.
func decodePrefixes(s *riceStream) ([]uint32, error) {
	le, err := decodeValues(s)
	if err != nil {
		return nil, err
	}
	be := make([]uint32, len(le))
	swapSort(be, le)
	return be, nil
}

// Hashes decodes r as Web Risk's and v4's riceHashes: it returns the
// 4-byte prefixes, each value written little-endian, in byte order (the
// order of the list and of its checksum), concatenated. An error wraps
// [ErrCorrupt]: a header out of range (First past 32 bits, a negative
// Count, K outside 2–28, Data too short for Count), a zero difference,
// a value past 32 bits, or Data that ends early. Bits after the last
// entry are ignored (decision a).
func (r *Rice) Hashes() ([]byte, error) {
	s, err := r.stream()
	var vals []uint32
	if err == nil {
		vals, err = decodePrefixes(&s)
	}
	if err != nil {
		return nil, wrapError(ErrCorrupt, "", fmt.Errorf("riceHashes: %w", err))
	}
	out := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out, nil
}

// Indices decodes r as Web Risk's and v4's riceIndices: it returns the
// removal indices, ascending, under the rules of [Rice.Hashes].
func (r *Rice) Indices() ([]uint32, error) {
	s, err := r.stream()
	var vals []uint32
	if err == nil {
		vals, err = decodeValues(&s)
	}
	if err != nil {
		return nil, wrapError(ErrCorrupt, "", fmt.Errorf("riceIndices: %w", err))
	}
	return vals, nil
}

// RiceHashes encodes 4-byte prefixes as Web Risk's and v4's riceHashes:
// prefixes holds them concatenated, in any order (most often in byte
// order, as [PrefixSet.All] and [List.All] give them); they are read as
// little-endian integers, sorted and Rice-coded with parameter k, or,
// when k is 0, the one v5's encoder chooses ([Message]): the base-2
// logarithm of the mean difference, within 2–28. Data holds no byte
// after the last entry's, since google/safebrowsing and google/webrisk
// refuse one. An error wraps [ErrMessage]: no prefixes, a length that is
// not a multiple of 4, a duplicate, or k outside 2–28.
func RiceHashes(prefixes []byte, k int) (Rice, error) {
	if len(prefixes)%4 != 0 || len(prefixes) == 0 {
		return Rice{}, newError(ErrMessage, "", fmt.Sprintf("%d bytes are not one or more 4-byte prefixes", len(prefixes)))
	}
	if n := len(prefixes) / 4; n-1 > math.MaxInt32 {
		return Rice{}, newError(ErrMessage, "", fmt.Sprintf("%d prefixes: entryCount is an int32", n))
	}
	if r, ok, err := riceHashesSorted(prefixes, k); ok || err != nil {
		return r, err
	}
	be := make([]uint32, len(prefixes)/4)
	for i := range be {
		be[i] = binary.BigEndian.Uint32(prefixes[4*i:])
	}
	if !slices.IsSorted(be) {
		slices.Sort(be)
	}
	for i := 1; i < len(be); i++ {
		if be[i] == be[i-1] {
			return Rice{}, newError(ErrMessage, "", fmt.Sprintf("duplicate prefix %08x", be[i]))
		}
	}
	le := make([]uint32, len(be))
	swapSort(le, be)
	return riceOf(le, k)
}

// riceHashesSorted is RiceHashes in one pass for prefixes in byte order,
// as a list gives them: each prefix is checked and goes to its bucket of
// a [slackSorter], and each of its sorted runs is coded while in cache. ok is false, and nothing is done, when the
// prefixes are not in byte order or too unevenly spread for the sorter:
// RiceHashes then sorts them whole.
func riceHashesSorted(prefixes []byte, k int) (r Rice, ok bool, err error) {
	if k != 0 && (k < riceMinKLE || k > riceMaxKLE) {
		return Rice{}, false, nil // RiceHashes says why
	}
	n := len(prefixes) / 4
	w := newSlackSorter(n)
	defer w.release()
	if ok, err := w.addPrefixes(prefixes); !ok || err != nil {
		return Rice{}, false, err
	}
	lo, hi := w.bounds()
	r.First = int64(lo)
	if n == 1 {
		return r, true, nil
	}
	if k == 0 {
		k = chooseKLE(hi-lo, n)
	}
	r.K, r.Count = int32(k), int32(n-1)
	rw := newRiceWriter(hi-lo, n, uint(k))
	last, first := lo, true
	w.sort(func(run []uint32) {
		if first {
			run, first = run[1:], false
		}
		last = rw.run(last, run)
	})
	r.Data = rw.bytes()
	return r, true, nil
}

// RiceIndices encodes removal indices, in any order, as Web Risk's and
// v4's riceIndices, with parameter k chosen as [RiceHashes] chooses it
// when 0. An error wraps [ErrMessage]: no indices, a duplicate, an index
// past 2^31-1 (the indices are int32 in the protos), or k outside 2–28.
func RiceIndices(indices []uint32, k int) (Rice, error) {
	if len(indices) == 0 {
		return Rice{}, newError(ErrMessage, "", "no indices")
	}
	v := slices.Clone(indices)
	slices.Sort(v)
	for i, x := range v {
		if i > 0 && x == v[i-1] {
			return Rice{}, newError(ErrMessage, "", fmt.Sprintf("duplicate index %d", x))
		}
	}
	if last := v[len(v)-1]; last > math.MaxInt32 {
		return Rice{}, newError(ErrMessage, "", fmt.Sprintf("index %d past 2^31-1", last))
	}
	return riceOf(v, k)
}

// riceOf encodes vals, ascending and distinct, with parameter k (0:
// chosen).
func riceOf(vals []uint32, k int) (Rice, error) {
	if k != 0 && (k < riceMinKLE || k > riceMaxKLE) {
		return Rice{}, newError(ErrMessage, "", fmt.Sprintf("Rice parameter %d outside %d–%d", k, riceMinKLE, riceMaxKLE))
	}
	r := Rice{First: int64(vals[0])}
	if len(vals) == 1 {
		return r, nil
	}
	if k == 0 {
		k = chooseKLE(vals[len(vals)-1]-vals[0], len(vals))
	}
	r.K, r.Count = int32(k), int32(len(vals)-1)
	r.Data = encodeRice32(vals, uint(k))
	return r, nil
}

// chooseKLE returns the Rice parameter for n (≥ 2) ascending values
// spanning span, as [chooseK] chooses it for v5: log2 of the mean
// difference, within 2–28.
func chooseKLE(span uint32, n int) int {
	k := bits.Len32(span) - bits.Len(uint(n-1))
	return min(max(k, riceMinKLE), riceMaxKLE)
}

// encodeRice32 returns the Rice coding, with parameter k (1 to 30), of
// the differences between consecutive values of vals, ascending and
// distinct ([riceWriter]). The last byte is padded with 0 bits, and no
// byte follows it.
func encodeRice32(vals []uint32, k uint) []byte {
	w := newRiceWriter(vals[len(vals)-1]-vals[0], len(vals), k)
	w.run(vals[0], vals[1:])
	return w.bytes()
}

// newRiceWriter returns a writer for n values spanning span with
// parameter k (1 to 30), its buffer as long as their codes can be.
func newRiceWriter(span uint32, n int, k uint) *riceWriter {
	k &= 31
	// The quotients sum to at most the span shifted right by k.
	size := (uint64(span)>>k + uint64(n-1)*uint64(k+1) + 7) / 8
	return &riceWriter{out: make([]byte, size+8), k: k, mask: uint64(1)<<k - 1}
}

// run writes the codes of the differences between prev and vals[0] and
// between consecutive values of vals, ascending, and returns the last
// value. The code of an entry (q 1 bits, a 0 bit, the k bits of r) is
// computed apart, three entries' codes are joined when they fit 56 bits,
// and the three are ORed into a 64-bit accumulator above the fewer than
// 8 bits it holds; the accumulator is stored whole, 8 bytes, and only
// its whole bytes are counted. So the chain from one entry to the next,
// through the accumulator, is a few operations every three entries,
// with no branch on how many bits it holds. Entries that do not fit are
// written one by one, a long one (a long quotient) in pieces.
func (w *riceWriter) run(prev uint32, vals []uint32) uint32 {
	k := w.k & 31
	i := 0
	for ; i+2 < len(vals); i += 3 {
		d1, d2, d3 := uint64(vals[i]-prev), uint64(vals[i+1]-vals[i]), uint64(vals[i+2]-vals[i+1])
		prev = vals[i+2]
		q1, q2, q3 := uint(d1>>k), uint(d2>>k), uint(d3>>k)
		n1, n2, n3 := q1+1+k, q2+1+k, q3+1+k
		if n1+n2+n3 > 56 {
			w.entry(d1)
			w.entry(d2)
			w.entry(d3)
			continue
		}
		c1 := uint64(1)<<(q1&63) - 1 | (d1&w.mask)<<((q1+1)&63)
		c2 := uint64(1)<<(q2&63) - 1 | (d2&w.mask)<<((q2+1)&63)
		c3 := uint64(1)<<(q3&63) - 1 | (d3&w.mask)<<((q3+1)&63)
		w.acc |= (c1 | c2<<(n1&63) | c3<<((n1+n2)&63)) << (w.have & 63)
		w.have += n1 + n2 + n3
		w.put()
	}
	for ; i < len(vals); i++ {
		w.entry(uint64(vals[i] - prev))
		prev = vals[i]
	}
	return prev
}

// bytes returns the codes written, the last byte padded with 0 bits.
func (w *riceWriter) bytes() []byte {
	at := w.at
	if w.have > 0 {
		at++
	}
	return w.out[:at:at]
}

// riceWriter writes Rice codes into out, which has 8 bytes of room past
// the last byte of the codes.
type riceWriter struct {
	out  []byte
	k    uint
	mask uint64
	acc  uint64 // the bits not yet counted, the first lowest
	have uint   // how many bits acc holds, < 8 between entries
	at   uint   // the next byte of out to write
}

// put stores acc at out[at:] and counts its whole bytes.
func (w *riceWriter) put() {
	binary.LittleEndian.PutUint64(w.out[w.at:], w.acc)
	whole := w.have >> 3
	w.at += whole
	w.acc >>= (whole * 8) & 63
	w.have &= 7
}

// entry writes the code of the difference d, in pieces when long.
func (w *riceWriter) entry(d uint64) {
	q := uint(d >> w.k)
	for ; q > 48; q -= 48 {
		w.acc |= (1<<48 - 1) << (w.have & 63)
		w.have += 48
		w.put()
	}
	w.acc |= (uint64(1)<<q - 1) << (w.have & 63)
	w.have += q + 1
	w.put()
	w.acc |= (d & w.mask) << (w.have & 63)
	w.have += w.k
	w.put()
}
