// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse"
)

// maxSnapshots is how many served versions a list remembers. A client that
// sends an older version, or one this server never served, gets a full
// update, as it would from a server that has forgotten its version.
const maxSnapshots = 32

// list is the state of one list: the full hashes on it, the version, and
// the snapshots of the versions it has served. The Server's mutex guards
// it.
type list struct {
	def *listDef

	// entries holds every full hash on the list, with the attributes it
	// was added with.
	entries map[[32]byte][]ThreatAttribute
	// byPrefix holds, for a 4-byte list, the full hashes sharing each
	// 4-byte prefix: the list's hashes are its keys.
	byPrefix map[[4]byte][][32]byte
	// wrLen holds the length of a hash's Web Risk entry where
	// [Server.AddPrefix] set one other than 4.
	wrLen map[[32]byte]int

	n      uint64 // the version number: one more at each change of the hashes
	cur    []byte // the sorted hashes at version n; nil until built
	chunks uint64 // the number of chunk versions served

	snaps map[string][]byte // served version → the sorted hashes it names
	order []string          // snaps' keys, oldest first
}

func newList(def *listDef) *list {
	return &list{
		def:      def,
		entries:  make(map[[32]byte][]ThreatAttribute),
		byPrefix: make(map[[4]byte][][32]byte),
		wrLen:    make(map[[32]byte]int),
		snaps:    make(map[string][]byte),
	}
}

// version returns the version bytes of the list's current state, its name
// and number: "se-4b:3".
func (l *list) version() string {
	return l.def.name + ":" + strconv.FormatUint(l.n, 10)
}

// add puts the full hash h on the list with attrs, replacing the
// attributes of a hash already there. The version changes when the list's
// hashes do.
func (l *list) add(h [32]byte, attrs []ThreatAttribute) {
	attrs = slices.Clone(attrs)
	if attrs == nil {
		attrs = []ThreatAttribute{}
	}
	if _, ok := l.entries[h]; ok {
		l.entries[h] = attrs
		return
	}
	l.entries[h] = attrs
	if l.def.width == 4 {
		p := [4]byte(h[:4])
		if len(l.byPrefix[p]) > 0 {
			l.byPrefix[p] = append(l.byPrefix[p], h)
			return // another full hash holds the prefix: the list is unchanged
		}
		l.byPrefix[p] = [][32]byte{h}
	}
	l.changed()
}

// remove takes the full hash h off the list, reporting whether it was on
// it. The version changes when the list's hashes do.
func (l *list) remove(h [32]byte) bool {
	if _, ok := l.entries[h]; !ok {
		return false
	}
	delete(l.entries, h)
	delete(l.wrLen, h)
	if l.def.width == 4 {
		p := [4]byte(h[:4])
		hs := slices.DeleteFunc(l.byPrefix[p], func(x [32]byte) bool { return x == h })
		if len(hs) > 0 {
			l.byPrefix[p] = hs
			return true // another full hash holds the prefix
		}
		delete(l.byPrefix, p)
	}
	l.changed()
	return true
}

func (l *list) changed() {
	l.n++
	l.cur = nil
}

// sorted returns the list's hashes, sorted and concatenated. The slice is
// never modified: snapshots share it.
func (l *list) sorted() []byte {
	if l.cur != nil {
		return l.cur
	}
	switch l.def.width {
	case 4:
		vs := make([]uint32, 0, len(l.byPrefix))
		for p := range l.byPrefix {
			vs = append(vs, binary.BigEndian.Uint32(p[:]))
		}
		slices.Sort(vs)
		b := make([]byte, 0, 4*len(vs))
		for _, v := range vs {
			b = binary.BigEndian.AppendUint32(b, v)
		}
		l.cur = b
	default:
		hs := make([][32]byte, 0, len(l.entries))
		for h := range l.entries {
			hs = append(hs, h)
		}
		slices.SortFunc(hs, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
		b := make([]byte, 0, 32*len(hs))
		for _, h := range hs {
			b = append(b, h[:]...)
		}
		l.cur = b
	}
	return l.cur
}

// remember records the state a served version names, so that a later
// request from it gets a partial update. Only the last maxSnapshots are
// kept.
func (l *list) remember(version string, state []byte) {
	if _, ok := l.snaps[version]; ok {
		return
	}
	l.snaps[version] = state
	l.order = append(l.order, version)
	if len(l.order) > maxSnapshots {
		delete(l.snaps, l.order[0])
		l.order = slices.Delete(l.order, 0, 1)
	}
}

// checksum returns the sha256_checksum of a list's sorted hashes.
func checksum(sorted []byte) []byte {
	sum := sha256.Sum256(sorted)
	return sum[:]
}

// checkExpression reports whether expr is an expression as safebrowse
// yields it: a canonical URL without its scheme, such as "evil.example/"
// or "1.2.3.4/a/b.html?x=1".
func checkExpression(expr string) error {
	if expr == "" {
		return newError(ErrExpression, expr, "empty")
	}
	const scheme = "http://"
	c, err := safebrowse.Canonicalize(scheme + expr)
	if err != nil {
		return newError(ErrExpression, expr, "not a host and path")
	}
	if c != scheme+expr {
		return newError(ErrExpression, expr, "not canonical; want "+inputerr.Quote(c[len(scheme):]))
	}
	return nil
}
