// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"iter"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/urlspec/urlspec/safebrowse/internal/listname"
)

// List is one Safe Browsing v5 hash list held locally: its name, its
// version and its set of hashes, kept up to date with [List.Apply].
//
// A List is safe for concurrent use. Readers never wait: the state is
// immutable behind an atomic pointer, and Apply builds the next state aside
// and publishes it whole, so a reader sees the old list or the new one,
// never a mix. Apply calls are serialised.
//
// The zero List has no name and width 0: it holds nothing, Apply fails,
// and UnmarshalBinary gives it the saved list's name. Use [New].
type List struct {
	mu sync.Mutex // serialises writers
	st atomic.Pointer[state]
}

// state is one immutable version of a list.
type state struct {
	name    string
	width   int
	version []byte
	sum     [32]byte // SHA-256 of the hashes, sorted, concatenated
	n       int
	flat    []byte // the hashes, sorted, concatenated, when idx is nil
	idx     *index // 4-byte lists of indexMin hashes or more
}

// emptySum is the SHA-256 of "", the checksum of an empty list.
var emptySum = sha256.Sum256(nil)

// New returns an empty list named name, with no version. The width of its
// hashes comes from the suffix of the name ("Available Lists" in the v5
// reference): "se-4b" 4, "x-8b" 8, "x-16b" 16, "gc-32b" 32. The name may
// have the "hashLists/" prefix of the API's resource names, which is
// dropped once: New("hashLists/se-4b") is se-4b. What remains must be 1
// to 64 bytes of a-z, 0-9 and '-', the rule lookup keeps lists by. Any
// other name is an error wrapping [ErrName].
func New(name string) (*List, error) {
	w, err := widthOf(name)
	if err != nil {
		return nil, err
	}
	if !listname.Valid(listname.Trim(name)) {
		return nil, newError(ErrName, "", quote(name)+" is not a list name: 1 to 64 bytes of a-z, 0-9 and '-'")
	}
	name = listname.Trim(name)
	l := new(List)
	l.st.Store(&state{name: name, width: w, sum: emptySum})
	return l, nil
}

// load returns the current state; the zero List's is empty.
func (l *List) load() *state {
	if st := l.st.Load(); st != nil {
		return st
	}
	return &zeroState
}

var zeroState = state{sum: emptySum}

// Name returns the name of the list, such as "se-4b".
func (l *List) Name() string { return l.load().name }

// Width returns the length of the list's hashes in bytes: 4, 8, 16 or 32
// (0 for the zero List).
func (l *List) Width() int { return l.load().width }

// Version returns the version of the list, as the last applied message
// gave it: opaque bytes to send back with the next request. It is empty
// before the first update. It returns a copy.
func (l *List) Version() []byte { return bytes.Clone(l.load().version) }

// Len returns the number of hashes in the list.
func (l *List) Len() int { return l.load().n }

// Contains reports whether the list holds hash[:Width()]. It is false when
// len(hash) < Width(). It does not allocate.
func (l *List) Contains(hash []byte) bool {
	st := l.load()
	w := st.width
	if len(hash) < w || w == 0 {
		return false
	}
	if st.idx != nil {
		return st.idx.contains(binary.BigEndian.Uint32(hash))
	}
	return st.find(hash[:w])
}

// find reports whether the flat array holds h.
func (st *state) find(h []byte) bool {
	w := st.width
	if w == 4 {
		t := binary.BigEndian.Uint32(h)
		i := sort.Search(st.n, func(i int) bool { return binary.BigEndian.Uint32(st.flat[4*i:]) >= t })
		return i < st.n && binary.BigEndian.Uint32(st.flat[4*i:]) == t
	}
	i := sort.Search(st.n, func(i int) bool { return bytes.Compare(st.flat[w*i:w*i+w], h) >= 0 })
	return i < st.n && bytes.Equal(st.flat[w*i:w*i+w], h)
}

// All returns an iterator over the hashes of the list in ascending byte
// order, as they were when All was called. A yielded slice is valid only
// until the next step: copy it to keep it.
func (l *List) All() iter.Seq[[]byte] {
	st := l.load()
	return st.all
}

// all yields the hashes of st in order, through one buffer.
func (st *state) all(yield func([]byte) bool) {
	w := st.width
	buf := make([]byte, w)
	if st.idx != nil {
		c := cursor{x: st.idx}
		for range st.n {
			binary.BigEndian.PutUint32(buf, c.next())
			if !yield(buf) {
				return
			}
		}
		return
	}
	for i := 0; i < len(st.flat); i += w {
		copy(buf, st.flat[i:i+w])
		if !yield(buf) {
			return
		}
	}
}
