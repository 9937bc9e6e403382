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
	return s, s.checkCount(riceMinKLE, riceMaxKLE)
}

// decodeValues decodes the values of s, a checked stream, ascending,
// into a new slice, or returns why s is corrupt. When w is not nil, it
// counts the values for a [swapSorter], a chunk at a time as they are
// decoded.
func decodeValues(s *riceStream, w *swapSorter) ([]uint32, error) {
	out := make([]uint32, s.count+1)
	d := newRice32(s)
	for n := 0; n < len(out); {
		c := d.fill(out[n:min(n+decodeChunk, len(out))])
		if c == 0 {
			break
		}
		if w != nil {
			w.count(out[n : n+c])
		}
		n += c
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// decodeChunk is how many values decodeValues decodes at a time: few
// enough to be counted while in the first level cache.
const decodeChunk = 4096

// decodePrefixes decodes s, a checked stream of 4-byte prefixes read as
// little-endian integers, and returns the prefixes read as big-endian
// integers, ascending: the prefixes in byte order.
func decodePrefixes(s *riceStream) ([]uint32, error) {
	var w swapSorter
	le, err := decodeValues(s, &w)
	if err != nil {
		return nil, err
	}
	be := make([]uint32, len(le))
	w.sort(be, le, nil)
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
		vals, err = decodeValues(&s, nil)
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
// distinct, 32 bits at a time: each entry is ORed into a 64-bit
// accumulator holding fewer than 32 bits, and every 32 bits are written
// whole. An entry of more than 32 bits (a long quotient) is written in
// pieces. The last byte is padded with 0 bits, and no byte follows it.
func encodeRice32(vals []uint32, k uint) []byte {
	n := len(vals) - 1
	// The quotients sum to at most the span shifted right by k.
	size := uint64(vals[n]-vals[0])>>k + uint64(n)*uint64(k+1)
	out := make([]byte, 0, (size+7)/8+8)
	mask := uint32(1)<<k - 1
	var acc uint64 // the bits not yet written, the first lowest
	var have uint  // how many bits acc holds, < 32 between entries
	prev := vals[0]
	for _, v := range vals[1:] {
		d := v - prev
		prev = v
		q := uint(d >> k)
		if q+1+k <= 32 {
			// q 1 bits, a 0 bit, then r.
			acc |= (uint64(1)<<q - 1 | uint64(d&mask)<<(q+1)) << have
			have += q + 1 + k
		} else {
			for ; q >= 16; q -= 16 {
				acc |= 0xffff << have
				if have += 16; have >= 32 {
					out = binary.LittleEndian.AppendUint32(out, uint32(acc))
					acc >>= 32
					have -= 32
				}
			}
			acc |= (uint64(1)<<q - 1) << have
			have += q + 1
			if have >= 32 {
				out = binary.LittleEndian.AppendUint32(out, uint32(acc))
				acc >>= 32
				have -= 32
			}
			acc |= uint64(d&mask) << have
			have += k
		}
		if have >= 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(acc))
			acc >>= 32
			have -= 32
		}
	}
	for ; have > 0; have -= min(have, 8) {
		out = append(out, byte(acc))
		acc >>= 8
	}
	return out
}
