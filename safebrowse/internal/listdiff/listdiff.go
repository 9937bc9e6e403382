// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package listdiff computes and applies the update between two states of
// a Safe Browsing v5 hash list, as a partial update carries it: the
// removals are indices into the old list sorted, the additions are the
// hashes that are new, sorted ("Updating a hash list" in the v5
// reference). A state is its hashes of one width, sorted and
// concatenated. The mirror and sbtest both serve updates with it.
package listdiff

import "bytes"

// Diff returns what turns the sorted hashes old into the sorted hashes
// cur, both of width w: the indices into old of the hashes to remove, and
// the hashes to add, sorted and concatenated. It is one merge walk.
func Diff(old, cur []byte, w int) (removals []uint32, additions []byte) {
	i, j := 0, 0
	for i < len(old) && j < len(cur) {
		switch c := bytes.Compare(old[i:i+w], cur[j:j+w]); {
		case c < 0:
			removals = append(removals, uint32(i/w))
			i += w
		case c > 0:
			additions = append(additions, cur[j:j+w]...)
			j += w
		default:
			i += w
			j += w
		}
	}
	for ; i < len(old); i += w {
		removals = append(removals, uint32(i/w))
	}
	return removals, append(additions, cur[j:]...)
}

// Apply returns the sorted hashes that old becomes once removals (sorted
// indices into old) are taken out and additions (sorted, none in old)
// merged in, as [Diff] gives them. The result is a new slice.
func Apply(old []byte, removals []uint32, additions []byte, w int) []byte {
	out := make([]byte, 0, len(old)-w*len(removals)+len(additions))
	r, a := 0, 0
	for i := 0; i < len(old); i += w {
		if r < len(removals) && int(removals[r]) == i/w {
			r++
			continue
		}
		for a < len(additions) && bytes.Compare(additions[a:a+w], old[i:i+w]) < 0 {
			out = append(out, additions[a:a+w]...)
			a += w
		}
		out = append(out, old[i:i+w]...)
	}
	return append(out, additions[a:]...)
}

// Limit cuts an update of hashes of width w to at most max entries,
// removals and additions counted alike, max 0 meaning no limit: the
// removals first, then the smallest additions, so that the chunk it
// leaves is an update of its own (sizeConstraints.maxUpdateEntries). It
// reports whether it cut.
func Limit(removals []uint32, additions []byte, w, max int) ([]uint32, []byte, bool) {
	if max <= 0 || len(removals)+len(additions)/w <= max {
		return removals, additions, false
	}
	if len(removals) > max {
		removals = removals[:max]
	}
	return removals, additions[:w*(max-len(removals))], true
}
