// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"sync"
)

// A hasher computes the SHA-256 of short messages, such as expressions,
// faster than [sha256.Sum256], with the same compression function.
//
// Sum256 spends more time than the compression of a one-block message in
// copying the message into the digest, copying the digest to pad it, and
// padding it through further writes. A hasher pads the message itself, as
// FIPS 180-4 section 5.1.1 does, and writes whole blocks, which the digest
// compresses in place; the digest's state after the last block is then the
// hash, read from its binary form. Whether that form begins with the state
// is crypto/sha256's own business, so [useHasher] checks it once against
// Sum256 before any hasher is used.
type hasher struct {
	d   hash.Hash
	m   encoding.BinaryAppender
	blk [chunk + sha256.BlockSize]byte // a chunk of the message, or its padded tail
	bin [128]byte                      // the digest's binary form
}

// chunk is how much of a long message a hasher copies and writes at once.
const chunk = 4 * sha256.BlockSize

// stateOffset is where the state begins in the binary form of a SHA-256
// digest: after the 4-byte magic "sha\x03".
const stateOffset = 4

func newHasher() *hasher {
	h := new(hasher)
	h.init()
	return h
}

func (h *hasher) init() {
	h.d = sha256.New()
	h.m, _ = h.d.(encoding.BinaryAppender)
}

// useHasher reports whether a hasher gives the hashes of sha256.Sum256 on
// this build, for every length of padding. If not (another crypto/sha256,
// such as BoringCrypto's), Sum256 is used.
var useHasher = sync.OnceValue(func() bool {
	h := newHasher()
	if h.m == nil {
		return false
	}
	var msg [3 * sha256.BlockSize]byte
	for i := range msg {
		msg[i] = byte(i*7 + 1)
	}
	for n := range len(msg) + 1 {
		var got Hash
		if !sum(h, &got, msg[:n]) || got != sha256.Sum256(msg[:n]) {
			return false
		}
		if !sum(h, &got, string(msg[:n])) || got != sha256.Sum256(msg[:n]) {
			return false
		}
	}
	return true
})

// sum writes the SHA-256 of p to out, using h. It reports false if the
// digest's binary form is not what it expects. It writes to the digest only
// from h.blk: passing p to the digest's Write, through an interface, would
// move the caller's buffer to the heap (and a string cannot be passed).
//
// It is a function, not a method, because methods cannot have type
// parameters.
func sum[T string | []byte](h *hasher, out *Hash, p T) bool {
	h.d.Reset()
	total := uint64(len(p))
	for len(p) >= chunk {
		copy(h.blk[:chunk], p)
		h.d.Write(h.blk[:chunk])
		p = p[chunk:]
	}
	// Pad the rest: a 1 bit, zeros, and the length in bits as a 64-bit
	// big-endian integer, to a whole number of blocks. The zeros lie in
	// the block of the last message byte and perhaps the next: clear both
	// with fixed-size stores, which cost less than clearing the exact range,
	// before the message is copied over the first.
	n := len(p)
	end := (n + 1 + 8 + sha256.BlockSize - 1) &^ (sha256.BlockSize - 1)
	last := n &^ (sha256.BlockSize - 1)
	*(*[sha256.BlockSize]byte)(h.blk[last:]) = [sha256.BlockSize]byte{}
	if end > last+sha256.BlockSize {
		*(*[sha256.BlockSize]byte)(h.blk[last+sha256.BlockSize:]) = [sha256.BlockSize]byte{}
	}
	copy(h.blk[:], p)
	h.blk[n] = 0x80
	binary.BigEndian.PutUint64(h.blk[end-8:end], total<<3)
	h.d.Write(h.blk[:end])

	b, err := h.m.AppendBinary(h.bin[:0])
	if err != nil || len(b) < stateOffset+len(out) {
		return false
	}
	// Copy the state a word at a time, as the digest wrote it: a wider
	// load of bytes still in the store buffer would wait for them to
	// reach the cache.
	b = b[stateOffset : stateOffset+len(out)]
	for i := 0; i < len(out); i += 4 {
		binary.NativeEndian.PutUint32(out[i:], binary.NativeEndian.Uint32(b[i:]))
	}
	return true
}
