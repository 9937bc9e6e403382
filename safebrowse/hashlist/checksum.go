// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"
)

// Checksum returns the sha256_checksum of a list holding hashes, hashes of
// width bytes concatenated in any order: the SHA-256 of the hashes sorted,
// then concatenated (the Local.Database page). It sorts a copy. A
// duplicate is hashed as often as it is given. It returns the zero array
// when width is not 4, 8, 16 or 32 or len(hashes) is not a multiple of it.
func Checksum(hashes []byte, width int) [32]byte {
	if !validWidth(width) || len(hashes)%width != 0 {
		return [32]byte{}
	}
	return sha256.Sum256(sortHashes(hashes, width))
}

// sortHashes returns a sorted copy of hashes, of width w bytes
// concatenated.
func sortHashes(hashes []byte, w int) []byte {
	out := make([]byte, len(hashes))
	n := len(hashes) / w
	if w == 4 {
		v := make([]uint32, n)
		for i := range v {
			v[i] = binary.BigEndian.Uint32(hashes[4*i:])
		}
		slices.Sort(v)
		for i, x := range v {
			binary.BigEndian.PutUint32(out[4*i:], x)
		}
		return out
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return bytes.Compare(hashes[a*w:a*w+w], hashes[b*w:b*w+w]) })
	for i, j := range idx {
		copy(out[i*w:], hashes[j*w:j*w+w])
	}
	return out
}

// firstDup returns the offset of the first hash of sorted (width w) equal
// to the one before it, or -1.
func firstDup(sorted []byte, w int) int {
	for i := w; i < len(sorted); i += w {
		if bytes.Equal(sorted[i-w:i], sorted[i:i+w]) {
			return i
		}
	}
	return -1
}
