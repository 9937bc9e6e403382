// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"encoding/binary"
	"iter"
	"sort"
	"sync"
	"sync/atomic"
)

// PrefixSet is one Web Risk threat list held locally (or a v4 list): its
// name, its version token and its set of hash prefixes of 4 to 32 bytes,
// none a prefix of another, kept up to date with [PrefixSet.Apply]. Most
// are 4 bytes: those are held as a [List] of a 4-byte list holds them,
// in the compact index from 65,536 of them up (under 2 bytes a prefix at
// a million); the longer ones in a sorted array beside it. See "Web
// Risk" in the package documentation.
//
// A PrefixSet is safe for concurrent use, as a List is: readers never
// wait, and see the old set or the new one, never a mix.
//
// The zero PrefixSet has no name: it holds nothing, Apply fails, and
// UnmarshalBinary gives it the saved set's name. Use [NewPrefixSet].
type PrefixSet struct {
	mu sync.Mutex // serialises writers
	st atomic.Pointer[setState]
}

// setState is one immutable version of a PrefixSet.
type setState struct {
	name    string
	version []byte
	sum     [32]byte // SHA-256 of every entry, in byte order, concatenated
	four    *state   // the 4-byte entries (width 4; its sum is unused)
	long    []byte   // the longer entries, in byte order, concatenated
	ends    []uint32 // ends[i] is where long entry i ends in long
}

// n returns how many entries st holds.
func (st *setState) n() int { return st.four.n + len(st.ends) }

// entry returns long entry i.
func (st *setState) entry(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = st.ends[i-1]
	}
	return st.long[start:st.ends[i]:st.ends[i]]
}

// emptyFour is the 4-byte part of a set with none.
var emptyFour = &state{width: 4, sum: emptySum}

// zeroSet is the state of the zero PrefixSet.
var zeroSet = setState{sum: emptySum, four: emptyFour}

// MaxNameLen is the length in bytes of the longest name [NewPrefixSet]
// takes.
const MaxNameLen = 64

// NewPrefixSet returns an empty set named name, with no version. The
// name is the list's: a Web Risk threat type, such as "MALWARE" or
// "SOCIAL_ENGINEERING_EXTENDED_COVERAGE". It must be 1 to [MaxNameLen]
// bytes of A-Z, a-z, 0-9, '_' and '-', so that it is safe in a file
// name, a log field and a metric label; any other name is an error
// wrapping [ErrName]. The name is kept as given: hashlist gives it no
// meaning, but a saved set loads only into a set of its name.
func NewPrefixSet(name string) (*PrefixSet, error) {
	if !validSetName(name) {
		return nil, newError(ErrName, "", quote(name)+" is not a set name: 1 to 64 bytes of A-Z, a-z, 0-9, '_' and '-'")
	}
	s := new(PrefixSet)
	s.st.Store(&setState{name: name, sum: emptySum, four: emptyFour})
	return s, nil
}

// validSetName reports whether name is a name [NewPrefixSet] takes.
func validSetName(name string) bool {
	if name == "" || len(name) > MaxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// load returns the current state; the zero PrefixSet's is empty.
func (s *PrefixSet) load() *setState {
	if st := s.st.Load(); st != nil {
		return st
	}
	return &zeroSet
}

// Name returns the name of the set, such as "MALWARE".
func (s *PrefixSet) Name() string { return s.load().name }

// Version returns the version token of the set, as the last applied
// [Diff] gave it: opaque bytes to send back with the next request. It is
// empty before the first update. It returns a copy.
func (s *PrefixSet) Version() []byte { return bytes.Clone(s.load().version) }

// Len returns the number of entries in the set, of every length.
func (s *PrefixSet) Len() int { return s.load().n() }

// Checksum returns the SHA-256 of the set's entries in byte order,
// concatenated, whatever their lengths: the checksum of Web Risk's
// computeDiff and of v4's threatListUpdates.fetch. It is the SHA-256 of
// "" for an empty set.
func (s *PrefixSet) Checksum() [32]byte { return s.load().sum }

// Match reports whether an entry of the set is a prefix of hash, a full
// SHA-256 hash or any longer prefix of one, and returns that entry:
// hash[:n] for the entry's length n, which the caller sends whole in a
// hashes:search request and keys its cache by. An entry matches only on
// its whole length: an 8-byte entry does not match a hash that shares
// only its first 4 bytes. Since no entry is a prefix of another, at
// most one matches. It returns nil and false when none does, or when
// len(hash) < 4. It does not allocate.
func (s *PrefixSet) Match(hash []byte) (prefix []byte, ok bool) {
	st := s.load()
	if len(hash) < 4 {
		return nil, false
	}
	if st.four.has(hash) {
		return hash[:4:4], true
	}
	n := len(st.ends)
	if n == 0 {
		return nil, false
	}
	// The one entry that can be a prefix of hash is the last entry not
	// past it: any entry between that prefix and hash would start with
	// it, and so would be another entry with that entry as prefix.
	i := sort.Search(n, func(i int) bool { return bytes.Compare(st.entry(i), hash) > 0 }) - 1
	if i < 0 {
		return nil, false
	}
	if e := st.entry(i); bytes.HasPrefix(hash, e) {
		return hash[:len(e):len(e)], true
	}
	return nil, false
}

// has reports whether st, a state of 4-byte hashes, holds hash[:4].
func (st *state) has(hash []byte) bool {
	if st.idx != nil {
		return st.idx.contains(binary.BigEndian.Uint32(hash))
	}
	return st.n > 0 && st.find(hash[:4])
}

// All returns an iterator over the entries of the set in byte order
// (the order of the checksum and of removal indices), as they were when
// All was called. A yielded slice is valid only until the next step:
// copy it to keep it.
func (s *PrefixSet) All() iter.Seq[[]byte] {
	st := s.load()
	return st.all
}

// all yields the entries of st in order, through one buffer.
func (st *setState) all(yield func([]byte) bool) {
	w := newWalker(st)
	var buf [32]byte
	for {
		v, long, ok := w.next()
		if !ok {
			return
		}
		e := long
		if e == nil {
			binary.BigEndian.PutUint32(buf[:4], v)
			e = buf[:4]
		} else {
			e = buf[:copy(buf[:], long)]
		}
		if !yield(e) {
			return
		}
	}
}

// walker reads the entries of a set state in byte order: its 4-byte
// entries through a cursor (or from the flat array), each longer entry
// where it falls among them.
type walker struct {
	st   *setState
	c    cursor
	i    int    // 4-byte entries taken
	head uint32 // the next 4-byte entry, when i < st.four.n
	j    int    // long entries taken
	key  uint32 // the first 4 bytes of long entry j, big-endian
}

func newWalker(st *setState) *walker {
	w := &walker{st: st, c: cursor{x: st.four.idx}}
	w.loadHead()
	w.loadKey()
	return w
}

func (w *walker) loadHead() {
	if w.i < w.st.four.n {
		if w.c.x != nil {
			w.head = w.c.next()
		} else {
			w.head = binary.BigEndian.Uint32(w.st.four.flat[4*w.i:])
		}
	}
}

func (w *walker) loadKey() {
	if w.j < len(w.st.ends) {
		w.key = binary.BigEndian.Uint32(w.st.entry(w.j))
	}
}

// next returns the next entry: a 4-byte entry as v with long nil, or a
// longer one as long (aliasing the state) with v its first 4 bytes,
// big-endian; ok is false after the last. A longer entry comes before a
// 4-byte one when its first 4 bytes are less: they are never equal,
// since no entry is a prefix of another.
func (w *walker) next() (v uint32, long []byte, ok bool) {
	has4 := w.i < w.st.four.n
	if w.j < len(w.st.ends) && (!has4 || w.key < w.head) {
		v, long = w.key, w.st.entry(w.j)
		w.j++
		w.loadKey()
		return v, long, true
	}
	if !has4 {
		return 0, nil, false
	}
	v = w.head
	w.i++
	w.loadHead()
	return v, nil, true
}
