// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"crypto/sha256"
)

// This file holds the states of a Web Risk list and the updates between
// them: entries of 4 to 32 bytes, mixed, in byte order, the order of
// Web Risk's checksum and of its removal indices (webrisk.proto,
// ComputeThreatListDiffResponse; cloud.google.com/web-risk/docs/local-databases).

// entries are a Web Risk list's entries in byte order: hashes holds them
// concatenated and lengths the length of each, as
// [lookup.ListSnapshot] gives them.
type entries struct {
	hashes  []byte
	lengths []uint8
}

// n returns the number of entries.
func (e entries) n() int { return len(e.lengths) }

// size returns the bytes e holds: its entries and one byte an entry for
// its length.
func (e entries) size() int { return len(e.hashes) + len(e.lengths) }

// head returns the first k entries of e, sharing its storage.
func (e entries) head(k int) entries {
	n := 0
	for _, l := range e.lengths[:k] {
		n += int(l)
	}
	return entries{hashes: e.hashes[:n:n], lengths: e.lengths[:k:k]}
}

// tail returns the entries of e from the k-th on, sharing its storage.
func (e entries) tail(k int) entries {
	n := 0
	for _, l := range e.lengths[:k] {
		n += int(l)
	}
	return entries{hashes: e.hashes[n:], lengths: e.lengths[k:]}
}

// cursor walks entries in order.
type cursor struct {
	e   entries
	i   int // the entry at hand
	off int // its offset in e.hashes
}

func (c *cursor) done() bool { return c.i >= len(c.e.lengths) }

// at returns the entry at hand.
func (c *cursor) at() []byte { return c.e.hashes[c.off : c.off+int(c.e.lengths[c.i])] }

func (c *cursor) next() {
	c.off += int(c.e.lengths[c.i])
	c.i++
}

// diffEntries returns what turns old into cur, both in byte order: the
// indices into old of the entries cur does not hold, ascending, and the
// entries of cur that old does not hold, in byte order. It is one merge
// walk.
func diffEntries(old, cur entries) (removals []uint32, additions entries) {
	a, b := cursor{e: old}, cursor{e: cur}
	for !a.done() || !b.done() {
		switch {
		case b.done() || (!a.done() && bytes.Compare(a.at(), b.at()) < 0):
			removals = append(removals, uint32(a.i))
			a.next()
		case a.done() || bytes.Compare(b.at(), a.at()) < 0:
			additions.hashes = append(additions.hashes, b.at()...)
			additions.lengths = append(additions.lengths, cur.lengths[b.i])
			b.next()
		default:
			a.next()
			b.next()
		}
	}
	return removals, additions
}

// mergeEntries walks the state that old becomes once the entries at
// removals (ascending indices into old) are taken out and additions (in
// byte order, none in old) merged in, calling put for each entry in byte
// order.
func mergeEntries(old entries, removals []uint32, additions entries, put func([]byte)) {
	a, b := cursor{e: old}, cursor{e: additions}
	r := 0
	for ; !a.done(); a.next() {
		if r < len(removals) && int(removals[r]) == a.i {
			r++
			continue
		}
		for ; !b.done() && bytes.Compare(b.at(), a.at()) < 0; b.next() {
			put(b.at())
		}
		put(a.at())
	}
	for ; !b.done(); b.next() {
		put(b.at())
	}
}

// applyEntries returns the state mergeEntries walks, in storage of its
// own.
func applyEntries(old entries, removals []uint32, additions entries) entries {
	n := old.n() - len(removals) + additions.n()
	out := entries{hashes: make([]byte, 0, len(old.hashes)+len(additions.hashes)), lengths: make([]uint8, 0, n)}
	mergeEntries(old, removals, additions, func(e []byte) {
		out.hashes = append(out.hashes, e...)
		out.lengths = append(out.lengths, uint8(len(e)))
	})
	return out
}

// appliedEntriesSum returns the SHA-256 of the state mergeEntries walks, the
// checksum.sha256 of that state, without building it.
func appliedEntriesSum(old entries, removals []uint32, additions entries) [32]byte {
	h := sha256.New()
	if old.n() == 0 {
		h.Write(additions.hashes)
		return [32]byte(h.Sum(nil))
	}
	buf := make([]byte, 0, 32<<10)
	mergeEntries(old, removals, additions, func(e []byte) {
		if len(buf)+len(e) > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(buf, e...)
	})
	h.Write(buf)
	return [32]byte(h.Sum(nil))
}

// limitUpdate cuts an update to at most max entries, removals and
// additions counted alike, max 0 meaning no limit: the removals first,
// then the smallest additions, so that the chunk it leaves is an update
// of its own, whose state holds no entry that is a prefix of another
// (it is a part of the old list, or of the new one). It reports whether
// it cut.
func limitUpdate(removals []uint32, additions entries, max int) ([]uint32, entries, bool) {
	if max <= 0 || len(removals)+additions.n() <= max {
		return removals, additions, false
	}
	if len(removals) > max {
		removals = removals[:max]
	}
	return removals, additions.head(max - len(removals)), true
}
