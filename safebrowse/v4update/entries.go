// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/urlspec/urlspec/safebrowse/internal/listdiff"
)

// This file holds a v4 list's entries in the order v4 gives them meaning:
// byte order, the order of the checksum and of removal indices. A v5
// source's lists hold 4-byte prefixes alone; a Web Risk source's hold
// prefixes of 4 to 32 bytes, none a prefix of another, so that byte order
// is strict among them too. The 4-byte case goes through package listdiff;
// the mixed one walks the entries one by one.

// entries are the entries of one state of a list, in byte order,
// concatenated in b. lens gives each one's length; nil when every entry
// is 4 bytes, as it is for every list of a v5 source.
type entries struct {
	b    []byte
	lens []uint8
}

// mixed returns entries holding b with the lengths lens, lens nil when
// every one is 4 bytes.
func mixed(b []byte, lens []uint8) entries {
	for _, n := range lens {
		if n != 4 {
			return entries{b: b, lens: lens}
		}
	}
	return entries{b: b}
}

// n returns the number of entries.
func (e entries) n() int {
	if e.lens == nil {
		return len(e.b) / 4
	}
	return len(e.lens)
}

// bytes returns what e holds, as allocated.
func (e entries) bytes() int64 { return int64(cap(e.b) + cap(e.lens)) }

// cut returns the first k entries of e and the others.
func (e entries) cut(k int) (entries, entries) {
	if e.lens == nil {
		return entries{b: e.b[:4*k]}, entries{b: e.b[4*k:]}
	}
	off := 0
	for _, n := range e.lens[:k] {
		off += int(n)
	}
	return mixed(e.b[:off], e.lens[:k]), mixed(e.b[off:], e.lens[k:])
}

// walker steps through entries.
type walker struct {
	e      entries
	i, off int
}

// cur returns the entry at the walker, nil past the last.
func (w *walker) cur() []byte {
	if w.off >= len(w.e.b) {
		return nil
	}
	n := 4
	if w.e.lens != nil {
		n = int(w.e.lens[w.i])
	}
	return w.e.b[w.off : w.off+n : w.off+n]
}

// next moves the walker past the entry it is at.
func (w *walker) next() {
	if w.e.lens != nil {
		w.off += int(w.e.lens[w.i])
	} else {
		w.off += 4
	}
	w.i++
}

// builder builds entries one at a time.
type builder struct {
	b    []byte
	lens []uint8
	four bool // every entry so far is 4 bytes
}

func newBuilder(n, size int) *builder {
	return &builder{b: make([]byte, 0, size), lens: make([]uint8, 0, n), four: true}
}

func (b *builder) add(e []byte) {
	b.b = append(b.b, e...)
	b.lens = append(b.lens, uint8(len(e)))
	b.four = b.four && len(e) == 4
}

func (b *builder) entries() entries {
	if b.four {
		return entries{b: b.b}
	}
	return entries{b: b.b, lens: b.lens}
}

// diff returns what turns old into cur: the indices into old of the
// entries to remove, and the entries to add, in byte order. It is one
// merge walk; from an empty old, the additions are cur itself.
func diff(old, cur entries) ([]uint32, entries) {
	if old.n() == 0 {
		return nil, cur
	}
	if old.lens == nil && cur.lens == nil {
		rem, add := listdiff.Diff(old.b, cur.b, 4)
		return rem, entries{b: add}
	}
	var rem []uint32
	add := newBuilder(0, 0)
	o, c := walker{e: old}, walker{e: cur}
	for o.cur() != nil && c.cur() != nil {
		switch x := bytes.Compare(o.cur(), c.cur()); {
		case x < 0:
			rem = append(rem, uint32(o.i))
			o.next()
		case x > 0:
			add.add(c.cur())
			c.next()
		default:
			o.next()
			c.next()
		}
	}
	for ; o.cur() != nil; o.next() {
		rem = append(rem, uint32(o.i))
	}
	for ; c.cur() != nil; c.next() {
		add.add(c.cur())
	}
	return rem, add.entries()
}

// merge calls put with each entry of old but those at the indices
// removals, and of additions, in byte order: the list the update leads
// to.
func merge(old entries, removals []uint32, additions entries, put func([]byte)) {
	o, a := walker{e: old}, walker{e: additions}
	r := 0
	for ; o.cur() != nil; o.next() {
		if r < len(removals) && int(removals[r]) == o.i {
			r++
			continue
		}
		for a.cur() != nil && bytes.Compare(a.cur(), o.cur()) < 0 {
			put(a.cur())
			a.next()
		}
		put(o.cur())
	}
	for ; a.cur() != nil; a.next() {
		put(a.cur())
	}
}

// apply returns old with the entries at the indices removals taken out
// and additions merged in, as [diff] gives them: a new list.
func apply(old entries, removals []uint32, additions entries) entries {
	if old.lens == nil && additions.lens == nil {
		return entries{b: listdiff.Apply(old.b, removals, additions.b, 4)}
	}
	out := newBuilder(old.n()-len(removals)+additions.n(), len(old.b)+len(additions.b))
	merge(old, removals, additions, out.add)
	return out.entries()
}

// sum returns the SHA-256 of [apply] of old, removals and additions: the
// checksum of the list an update leads to, without building it.
func sum(old entries, removals []uint32, additions entries) [32]byte {
	if old.lens == nil && additions.lens == nil {
		return listdiff.Sum(old.b, removals, additions.b, 4)
	}
	h := sha256.New()
	buf := make([]byte, 0, 32<<10)
	merge(old, removals, additions, func(e []byte) {
		if len(buf)+len(e) > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(buf, e...)
	})
	h.Write(buf)
	return [32]byte(h.Sum(nil))
}

// limit cuts an update to at most max entries, removals and additions
// counted alike, max 0 meaning no limit: the removals first, then the
// smallest additions, so that the chunk it leaves is an update of its
// own, as [listdiff.Limit] cuts a v5 update. It reports whether it cut.
func limit(removals []uint32, additions entries, max int) ([]uint32, entries, bool) {
	if max <= 0 || len(removals)+additions.n() <= max {
		return removals, additions, false
	}
	if len(removals) > max {
		removals = removals[:max]
	}
	head, _ := additions.cut(max - len(removals))
	return removals, head, true
}

// union returns the entries of a and b, each once, in byte order: the
// list of a v4 threat type that two source lists make (UNWANTED_SOFTWARE
// from uws-4b and uwsa-4b).
func union(a, b entries) entries {
	switch {
	case a.n() == 0:
		return b
	case b.n() == 0:
		return a
	}
	if a.lens == nil && b.lens == nil {
		out := make([]byte, 0, len(a.b)+len(b.b))
		i, j := 0, 0
		for i < len(a.b) && j < len(b.b) {
			x, y := binary.BigEndian.Uint32(a.b[i:]), binary.BigEndian.Uint32(b.b[j:])
			switch {
			case x < y:
				out = append(out, a.b[i:i+4]...)
				i += 4
			case x > y:
				out = append(out, b.b[j:j+4]...)
				j += 4
			default:
				out = append(out, a.b[i:i+4]...)
				i += 4
				j += 4
			}
		}
		out = append(out, a.b[i:]...)
		return entries{b: slices.Clip(append(out, b.b[j:]...))}
	}
	out := newBuilder(a.n()+b.n(), len(a.b)+len(b.b))
	x, y := walker{e: a}, walker{e: b}
	for x.cur() != nil && y.cur() != nil {
		switch c := bytes.Compare(x.cur(), y.cur()); {
		case c < 0:
			out.add(x.cur())
			x.next()
		case c > 0:
			out.add(y.cur())
			y.next()
		default:
			out.add(x.cur())
			x.next()
			y.next()
		}
	}
	for ; x.cur() != nil; x.next() {
		out.add(x.cur())
	}
	for ; y.cur() != nil; y.next() {
		out.add(y.cur())
	}
	return out.entries()
}

// A group is entries of one length, concatenated in byte order.
type group struct {
	size int
	b    []byte
}

// bySize returns the entries of e grouped by length, each group in byte
// order: the 4-byte ones, which v4 Rice-codes, and the longer ones, by
// length ascending, which go raw.
func (e entries) bySize() (four []byte, longer []group) {
	if e.lens == nil {
		return e.b, nil
	}
	var groups [33][]byte
	for w := (walker{e: e}); w.cur() != nil; w.next() {
		groups[len(w.cur())] = append(groups[len(w.cur())], w.cur()...)
	}
	for n := 5; n <= 32; n++ {
		if len(groups[n]) > 0 {
			longer = append(longer, group{n, groups[n]})
		}
	}
	return groups[4], longer
}
