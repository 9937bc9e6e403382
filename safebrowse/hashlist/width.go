// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"math/bits"

	"github.com/urlspec/urlspec/safebrowse/internal/listname"
)

// widthOf returns the hash width, in bytes, of the list named name, by the
// one rule of the module ([listname.Width], which safebrowse.ListPrefixLen
// also follows): "-4b" 4, "-8b" 8, "-16b" 16, "-32b" 32, the part before
// the dash not empty, with or without the "hashLists/" prefix.
func widthOf(name string) (int, error) {
	if w := listname.Width(name); w != 0 {
		return w, nil
	}
	return 0, newError(ErrName, "", quote(name)+` has no "-4b", "-8b", "-16b" or "-32b" suffix`)
}

// validWidth reports whether w is a width of Safe Browsing v5 hashes.
func validWidth(w int) bool { return w == 4 || w == 8 || w == 16 || w == 32 }

// riceRange returns the range of the Rice parameter for values of width w
// bytes: 3–30 for 32-bit values, 35–62 for 64-bit, 99–126 for 128-bit and
// 227–254 for 256-bit (the RiceDeltaEncoded messages of the v5 proto).
func riceRange(w int) (lo, hi int) { return 8*w - 29, 8*w - 2 }

// u256 is an unsigned 256-bit integer, most significant limb first: the
// values and deltas of the 8-, 16- and 32-byte lists. A value of width w
// bytes uses the low 8w bits.
type u256 [4]uint64

// load returns the big-endian value of b (at most 32 bytes).
func load(b []byte) u256 {
	var v u256
	for _, c := range b {
		v = v.shl(8)
		v[3] |= uint64(c)
	}
	return v
}

// put writes the low len(b) bytes of v into b, big-endian.
func (v u256) put(b []byte) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(v[3])
		v = v.shr(8)
	}
}

// add returns v+x and the carry out of 256 bits.
func (v u256) add(x u256) (u256, uint64) {
	var c uint64
	for i := 3; i >= 0; i-- {
		v[i], c = bits.Add64(v[i], x[i], c)
	}
	return v, c
}

// sub returns v-x modulo 2^256.
func (v u256) sub(x u256) u256 {
	var b uint64
	for i := 3; i >= 0; i-- {
		v[i], b = bits.Sub64(v[i], x[i], b)
	}
	return v
}

// shl returns v<<k, k < 256.
func (v u256) shl(k uint) u256 {
	for k >= 64 {
		v = u256{v[1], v[2], v[3], 0}
		k -= 64
	}
	if k == 0 {
		return v
	}
	return u256{
		v[0]<<k | v[1]>>(64-k),
		v[1]<<k | v[2]>>(64-k),
		v[2]<<k | v[3]>>(64-k),
		v[3] << k,
	}
}

// shr returns v>>k, k < 256.
func (v u256) shr(k uint) u256 {
	for k >= 64 {
		v = u256{0, v[0], v[1], v[2]}
		k -= 64
	}
	if k == 0 {
		return v
	}
	return u256{
		v[0] >> k,
		v[1]>>k | v[0]<<(64-k),
		v[2]>>k | v[1]<<(64-k),
		v[3]>>k | v[2]<<(64-k),
	}
}

// bitLen returns the number of bits needed to write v.
func (v u256) bitLen() int {
	for i, x := range v {
		if x != 0 {
			return 64*(3-i) + bits.Len64(x)
		}
	}
	return 0
}

// isZero reports whether v is 0.
func (v u256) isZero() bool { return v == u256{} }
