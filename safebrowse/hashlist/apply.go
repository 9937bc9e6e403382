// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"

	"github.com/urlspec/urlspec/safebrowse/internal/listname"
)

// Apply applies one HashList message, in binary protobuf as the server
// sends it with alt=proto (hashList.get, or one list of
// hashLists.batchGet), following the update rules of the Local.Database
// page:
//
//   - partial_update=false replaces the whole list with the additions;
//     partial_update=true first removes the hashes at the indices of
//     compressed_removals, which point into the old sorted list, then adds
//     the additions.
//   - The additions must be in the field of the list's width
//     (additions_four_bytes … additions_thirty_two_bytes).
//   - A name that is present must be [List.Name], with or without the
//     "hashLists/" prefix of the API's resource names.
//   - When sha256_checksum is present, it must be the SHA-256 of the list
//     after the update, its hashes sorted and concatenated (SHA-256 of ""
//     for an empty list); otherwise the error wraps [ErrChecksum]. An absent
//     checksum means nothing changed: a message without one that would
//     change the hashes is corrupt.
//   - The version becomes the message's version.
//
// Any other defect wraps [ErrCorrupt]; see the package documentation for
// the Rice streams. On any error the list is unchanged. Apply does not read
// minimum_wait_duration or metadata; see [Message.UnmarshalBinary].
func (l *List) Apply(msg []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.load()
	if old.width == 0 {
		return newError(ErrName, "", "the zero List has no name; use New")
	}
	m, err := parseList(msg)
	if err != nil {
		return wrapError(ErrCorrupt, old.name, err)
	}
	if m.name != "" && listname.Trim(m.name) != old.name {
		return newError(ErrName, old.name, "message is for list "+quote(m.name))
	}
	if m.addWidth != 0 && m.addWidth != old.width {
		return newError(ErrCorrupt, old.name, fmt.Sprintf("additions of %d bytes in a list of %d", m.addWidth, old.width))
	}
	if m.hasRem && !m.partial {
		return newError(ErrCorrupt, old.name, "compressed_removals in a full update")
	}
	next, err := old.update(&m)
	if err != nil {
		return wrapError(ErrCorrupt, old.name, err)
	}
	if m.checksum != nil {
		if !bytes.Equal(m.checksum, next.sum[:]) {
			return newError(ErrChecksum, old.name, fmt.Sprintf("list of %d hashes has SHA-256 %x; message says %s", next.n, next.sum[:], quoteHex(m.checksum)))
		}
	} else if next.sum != old.sum {
		return newError(ErrCorrupt, old.name, "message changes the list but carries no sha256_checksum")
	}
	l.st.Store(next)
	return nil
}

// update returns the state after the message m, or why m is corrupt.
func (old *state) update(m *wireList) (*state, error) {
	next := &state{name: old.name, width: old.width}
	if len(m.version) > 0 {
		next.version = bytes.Clone(m.version)
	}
	if m.partial && m.addWidth == 0 && !m.hasRem {
		// A version-only message: the hashes stay as they are.
		next.sum, next.n, next.flat, next.idx = old.sum, old.n, old.flat, old.idx
		return next, nil
	}
	oldN := 0
	if m.partial {
		oldN = old.n
	}
	// The size of the new list is at most oldN plus the additions (the
	// removals are checked while merging).
	bound := oldN
	if m.hasRem && m.rem.count >= int64(oldN) {
		return nil, fmt.Errorf("compressed_removals: %d removals from a list of %d", m.rem.count+1, oldN)
	}
	if m.addWidth != 0 {
		bound += int(m.add.count) + 1
	}
	var err error
	if old.width == 4 {
		err = next.merge4(old, oldN, m, bound)
	} else {
		err = next.mergeWide(old, oldN, m, bound)
	}
	if err != nil {
		return nil, err
	}
	return next, nil
}

// merge4 builds the hashes of a 4-byte list: the first oldN hashes of old
// less the removals, merged with the additions, in one pass that feeds the
// index (or flat array) and SHA-256 together. An addition equal to a hash
// kept is kept once: the checksum judges it. It returns why m is corrupt,
// or nil.
func (next *state) merge4(old *state, oldN int, m *wireList, bound int) error {
	var out sink4
	out.init(bound)
	rem, add := new(rice32), new(rice32)
	if m.hasRem {
		rem = newRice32(&m.rem)
	}
	if m.addWidth != 0 {
		add = newRice32(&m.add)
	}
	if oldN == 0 && !m.hasRem {
		// A full update: decode the additions a chunk at a time straight
		// into the index and the hash.
		out.decodeAll(add)
		if add.err != nil {
			return fmt.Errorf("additions: %w", add.err)
		}
		out.finish(next)
		return nil
	}
	r, hasR := rem.next()
	a, hasA := add.next()
	c := cursor{x: old.idx}
	for i := range oldN {
		var v uint32
		if c.x != nil {
			v = c.next()
		} else {
			v = binary.BigEndian.Uint32(old.flat[4*i:])
		}
		if hasR && int(r) == i {
			r, hasR = rem.next()
			continue
		}
		for hasA && a < v {
			out.add(a)
			a, hasA = add.next()
		}
		if hasA && a == v {
			a, hasA = add.next()
		}
		out.add(v)
	}
	if rem.err != nil {
		return fmt.Errorf("compressed_removals: %w", rem.err)
	}
	if hasR {
		return fmt.Errorf("compressed_removals: index %d in a list of %d", r, oldN)
	}
	for hasA {
		out.add(a)
		a, hasA = add.next()
	}
	if add.err != nil {
		return fmt.Errorf("additions: %w", add.err)
	}
	out.finish(next)
	return nil
}

// sink4 receives the prefixes of a 4-byte list in ascending order and
// builds its index or flat array and its checksum, a chunk at a time: the
// index and the big-endian bytes of the chunk are made in one loop while
// the chunk is in cache, and crypto/sha256 hashes those bytes.
type sink4 struct {
	ib   *indexBuilder
	flat []byte
	h    hash.Hash // crypto/sha256
	n    int       // prefixes in buf, not yet added
	// hashed is how many bytes of flat h has hashed: a flat list is
	// hashed whole by finish, or first in parts by sync.
	hashed int
	buf    [512]uint32
	hb     [2048]byte
}

func (s *sink4) init(bound int) {
	if bound >= indexMin {
		s.ib = newIndexBuilder(bound)
	} else {
		s.flat = make([]byte, 0, 4*bound)
	}
	s.h = sha256.New()
}

func (s *sink4) add(v uint32) {
	s.buf[s.n] = v
	if s.n++; s.n == len(s.buf) {
		s.flush()
	}
}

// flush adds the prefixes in buf.
func (s *sink4) flush() {
	vs := s.buf[:s.n]
	s.n = 0
	if s.ib == nil {
		for _, v := range vs {
			s.flat = binary.BigEndian.AppendUint32(s.flat, v)
		}
		return
	}
	hb := s.hb[:4*len(vs)]
	s.ib.addAll(vs, hb)
	s.h.Write(hb)
}

// decodeAll adds the values of d, a full update's additions, each
// greater than every prefix added before, decoding them straight into
// buf.
func (s *sink4) decodeAll(d *rice32) {
	for {
		c := d.fill(s.buf[s.n:])
		if c == 0 {
			return
		}
		if s.n += c; s.n == len(s.buf) {
			s.flush()
		}
	}
}

func (s *sink4) finish(st *state) {
	s.flush()
	if s.ib == nil {
		st.n = len(s.flat) / 4
		s.h.Write(s.flat[s.hashed:])
		if len(s.flat) > 0 {
			st.flat = s.flat
		}
	} else {
		st.n = int(s.ib.n)
		x, c := s.ib.finish()
		switch l, ns, nb := shape(st.n); {
		case c != nil:
			st.holdFlat(c) // a bucket too full for lookups
		case st.n < indexMin:
			// The removals left too few prefixes for an index.
			st.holdFlat(&cursor{x: x})
		case x.l != l || x.ns != ns || x.nb != nb:
			// The builder was sized for the old list and the additions:
			// an index of the right shape takes less memory.
			st.reindex(&cursor{x: x})
		default:
			st.idx = x
		}
	}
	s.h.Sum(st.sum[:0])
}

// holdFlat holds the st.n prefixes of c as a flat array.
func (st *state) holdFlat(c *cursor) {
	st.idx, st.flat = nil, nil
	if st.n == 0 {
		return
	}
	st.flat = make([]byte, 4*st.n)
	for i := range st.n {
		binary.BigEndian.PutUint32(st.flat[4*i:], c.next())
	}
}

// reindex holds the st.n prefixes of c in an index of their own shape,
// or flat if a bucket of it is too full.
func (st *state) reindex(c *cursor) {
	ib := newIndexBuilder(st.n)
	var buf [512]uint32
	hb := make([]byte, 4*len(buf))
	for done := 0; done < st.n; {
		k := c.fill(buf[:min(len(buf), st.n-done)])
		ib.addAll(buf[:k], hb[:4*k])
		done += k
	}
	x, flat := ib.finish()
	if flat != nil {
		st.holdFlat(flat)
		return
	}
	st.idx = x
}

// mergeWide builds the hashes of an 8-, 16- or 32-byte list as a flat
// sorted array. It returns why m is corrupt, or nil.
func (next *state) mergeWide(old *state, oldN int, m *wireList, bound int) error {
	w := old.width
	var adds []byte
	if m.addWidth != 0 {
		var err error
		adds, err = decodeWide(make([]byte, 0, (m.add.count+1)*int64(w)), &m.add, w)
		if err != nil {
			return fmt.Errorf("additions: %w", err)
		}
	}
	rem := new(rice32)
	if m.hasRem {
		rem = newRice32(&m.rem)
	}
	flat := make([]byte, 0, bound*w)
	r, hasR := rem.next()
	for i := range oldN {
		if hasR && int(r) == i {
			r, hasR = rem.next()
			continue
		}
		v := old.flat[w*i : w*i+w]
		for len(adds) > 0 && bytes.Compare(adds[:w], v) < 0 {
			flat = append(flat, adds[:w]...)
			adds = adds[w:]
		}
		if len(adds) > 0 && bytes.Equal(adds[:w], v) {
			adds = adds[w:]
		}
		flat = append(flat, v...)
	}
	if rem.err != nil {
		return fmt.Errorf("compressed_removals: %w", rem.err)
	}
	if hasR {
		return fmt.Errorf("compressed_removals: index %d in a list of %d", r, oldN)
	}
	flat = append(flat, adds...)
	next.n = len(flat) / w
	if len(flat) > 0 {
		next.flat = flat
	}
	next.sum = sha256.Sum256(flat)
	return nil
}
