// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package listdiff

import (
	"bytes"
	"crypto/sha256"
)

// Sum returns the SHA-256 of [Apply] of old, removals and additions, the
// checksum of the state an update leads to, without building that state:
// one merge walk that hashes as it goes, through a buffer of 32 KiB.
func Sum(old []byte, removals []uint32, additions []byte, w int) [32]byte {
	h := sha256.New()
	if len(old) == 0 {
		h.Write(additions)
		return [32]byte(h.Sum(nil))
	}
	buf := make([]byte, 0, 32<<10)
	put := func(b []byte) {
		if len(buf)+len(b) > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(buf, b...)
	}
	r, a := 0, 0
	for i := 0; i < len(old); i += w {
		if r < len(removals) && int(removals[r]) == i/w {
			r++
			continue
		}
		for a < len(additions) && bytes.Compare(additions[a:a+w], old[i:i+w]) < 0 {
			put(additions[a : a+w])
			a += w
		}
		put(old[i : i+w])
	}
	h.Write(buf)
	h.Write(additions[a:])
	return [32]byte(h.Sum(nil))
}
