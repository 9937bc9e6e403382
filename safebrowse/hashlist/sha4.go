// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/binary"
	"math/bits"
)

// sha4 is the SHA-256 of a 4-byte list fed its prefixes as uint32s. The
// message is the prefixes, big-endian, concatenated, and SHA-256 reads its
// message as big-endian 32-bit words: so the words are the prefixes
// themselves, and a block of 16 prefixes goes to the rounds as it is, with
// no bytes to write or swap.
//
// Where the CPU has the SHA extensions (fastSHA4), build gives the index
// builder its prefixes in the same loop: the rounds are a chain of
// dependent instructions that leaves most of the core idle, and the
// builder's stores fill it, at almost no cost. Elsewhere a sink hashes
// with crypto/sha256 and builds with addAll.
type sha4 struct {
	h    [8]uint32
	n    uint64     // prefixes hashed or pending
	tail [16]uint32 // tail[:n%16], the prefixes of a block not yet whole
}

// sha256IV is SHA-256's initial hash value (FIPS 180-4, 5.3.3).
var sha256IV = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}

// sha256K holds SHA-256's round constants (FIPS 180-4, 4.2.2).
var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// init makes s the hash of an empty list.
func (s *sha4) init() {
	*s = sha4{h: sha256IV}
}

// build hashes vs and, if ib is not nil, adds them to ib, as addAll does:
// each value greater than every prefix added before. hb is addAll's
// scratch, at least 64 bytes.
func (s *sha4) build(vs []uint32, ib *indexBuilder, hb []byte) {
	// First the block left open, if any, a value at a time.
	if t := int(s.n % 16); t > 0 {
		k := min(16-t, len(vs))
		s.addTail(vs[:k], ib, hb)
		vs = vs[k:]
	}
	if m := len(vs) &^ 15; m > 0 {
		if ib == nil {
			shaBlocks(&s.h, vs[:m])
		} else {
			shaBuild(&s.h, vs[:m], ib, hb)
		}
		s.n += uint64(m)
		vs = vs[m:]
	}
	s.addTail(vs, ib, hb)
}

// addTail adds vs, no more than fill the open block, to it.
func (s *sha4) addTail(vs []uint32, ib *indexBuilder, hb []byte) {
	if len(vs) == 0 {
		return
	}
	if ib != nil {
		ib.addAll(vs, hb)
	}
	t := int(s.n % 16)
	copy(s.tail[t:], vs)
	s.n += uint64(len(vs))
	if t+len(vs) == 16 {
		shaBlocks(&s.h, s.tail[:])
	}
}

// sum returns the SHA-256 of the prefixes given: the open block with the
// padding, a 1 bit, 0 bits, and the message's length in bits (FIPS
// 180-4, 5.1.1), in one block or two.
func (s *sha4) sum() [32]byte {
	var b [32]uint32
	t := copy(b[:], s.tail[:s.n%16])
	b[t] = 0x80000000
	nb := 16
	if t+3 > 16 {
		nb = 32
	}
	b[nb-2] = uint32(s.n >> 27) // 32 bits a prefix
	b[nb-1] = uint32(s.n << 5)
	h := s.h
	shaBlocks(&h, b[:nb])
	var out [32]byte
	for i, x := range h {
		binary.BigEndian.PutUint32(out[4*i:], x)
	}
	return out
}

// shaBlocksGo runs SHA-256's compression function (FIPS 180-4, 6.2.2) on
// h for each block of ws, 16 words a block. It is shaBlocks where the CPU
// has no SHA extensions, and the reference for the assembly.
func shaBlocksGo(h *[8]uint32, ws []uint32) {
	var w [64]uint32
	for ; len(ws) >= 16; ws = ws[16:] {
		copy(w[:], ws[:16])
		for t := 16; t < 64; t++ {
			s0 := bits.RotateLeft32(w[t-15], -7) ^ bits.RotateLeft32(w[t-15], -18) ^ w[t-15]>>3
			s1 := bits.RotateLeft32(w[t-2], -17) ^ bits.RotateLeft32(w[t-2], -19) ^ w[t-2]>>10
			w[t] = w[t-16] + s0 + w[t-7] + s1
		}
		a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
		for t := range 64 {
			t1 := hh + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) +
				(e&f ^ ^e&g) + sha256K[t] + w[t]
			t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) +
				(a&b ^ a&c ^ b&c)
			hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
		}
		h[0] += a
		h[1] += b
		h[2] += c
		h[3] += d
		h[4] += e
		h[5] += f
		h[6] += g
		h[7] += hh
	}
}

// shaBuildGo is shaBuild in Go: ib.addAll then shaBlocksGo. len(vs) is
// a multiple of 16.
func shaBuildGo(h *[8]uint32, vs []uint32, ib *indexBuilder, hb []byte) {
	for c := vs; len(c) > 0; {
		k := min(len(c), len(hb)/4)
		ib.addAll(c[:k], hb)
		c = c[k:]
	}
	shaBlocksGo(h, vs)
}
