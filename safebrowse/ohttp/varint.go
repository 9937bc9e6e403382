// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

// Binary HTTP writes every length and number as a QUIC variable-length
// integer (RFC 9000 section 16): the two high bits of the first byte give
// its length, 1, 2, 4 or 8 bytes, and the rest is the value, big-endian,
// up to 2^62-1. A decoder takes encodings longer than needed; the encoder
// writes the shortest.

// maxVarint is the largest value a variable-length integer holds.
const maxVarint = 1<<62 - 1

// varintLen returns the length of the shortest encoding of v ≤ maxVarint.
func varintLen(v uint64) int {
	switch {
	case v < 1<<6:
		return 1
	case v < 1<<14:
		return 2
	case v < 1<<30:
		return 4
	}
	return 8
}

// appendVarint appends the shortest encoding of v ≤ maxVarint.
func appendVarint(b []byte, v uint64) []byte {
	switch varintLen(v) {
	case 1:
		return append(b, byte(v))
	case 2:
		return append(b, 0x40|byte(v>>8), byte(v))
	case 4:
		return append(b, 0x80|byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	return append(b, 0xc0|byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32),
		byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// consumeVarint reads the variable-length integer at the start of b and
// returns it and its length, or a negative length if b ends within it.
func consumeVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, -1
	}
	n := 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, -1
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n
}
