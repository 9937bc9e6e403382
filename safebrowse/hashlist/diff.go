// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Diff is one update of a Web Risk threat list, the list part of a
// ComputeThreatListDiffResponse (webrisk.proto), or of a v4 list, in
// hashlist's own terms: the caller fills it from the message its wire
// package decoded, field for field, with no check of its own;
// [PrefixSet.Apply] checks everything. [NewDiff] builds one, for fake
// servers, mirrors and tests.
type Diff struct {
	// Reset is responseType RESET: the additions are the whole list.
	// False is DIFF: the removals, then the additions, apply to the
	// set.
	Reset bool
	// Raw is additions.rawHashes: entries of 4 to 32 bytes, raw, each
	// group of one size.
	Raw []RawHashes
	// Rice is additions.riceHashes, 4-byte entries Rice-coded as
	// little-endian integers; nil when absent.
	Rice *Rice
	// RawRemovals is removals.rawIndices.indices: indices into the set's
	// entries in byte order, of every length, in any order.
	RawRemovals []int32
	// RiceRemovals is removals.riceIndices, the same indices Rice-coded;
	// nil when absent.
	RiceRemovals *Rice
	// Version is newVersionToken, the set's version once applied.
	Version []byte
	// Checksum is checksum.sha256: the SHA-256 of the set's entries
	// after the update, in byte order, concatenated; nil when absent.
	Checksum []byte
}

// RawHashes is one RawHashes message: entries of PrefixSize bytes (4 to
// 32), concatenated.
type RawHashes struct {
	PrefixSize int32
	Hashes     []byte
}

// Apply applies a Diff to the set, following Web Risk's Update API and
// google/webrisk's client where the documentation is silent:
//
//   - RESET replaces the set with the additions. DIFF first removes the
//     entries at the removal indices, raw and Rice-coded, which point
//     into the old set's entries of every length in byte order, then
//     adds the additions.
//   - The 4-byte additions may come Rice-coded (as little-endian
//     integers) and raw; the longer ones come raw.
//   - After the update no entry may equal, or be a prefix of, another.
//   - When Checksum is present it must be the SHA-256 of the set after
//     the update, its entries in byte order, concatenated; otherwise the
//     error wraps [ErrChecksum]. An absent checksum means nothing
//     changed: a Diff without one that would change the entries is
//     corrupt.
//   - The version becomes Version.
//
// maxLen, when positive, is the most entries the set may hold, as
// lookup's Config.MaxDatabaseEntries: a Diff whose counts would take
// the set past it is refused before anything is decoded, and one whose
// result is past it is refused too. 0 or less sets no bound.
//
// Any other defect wraps [ErrCorrupt]. On any error the set is
// unchanged. See "Web Risk" in the package documentation for the rules
// and decisions.
func (s *PrefixSet) Apply(d *Diff, maxLen int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.load()
	if old.name == "" {
		return newError(ErrName, "", "the zero PrefixSet has no name; use NewPrefixSet")
	}
	next, err := old.apply(d, maxLen)
	if err != nil {
		return err
	}
	s.st.Store(next)
	return nil
}

// apply returns the state after d, or the error.
func (old *setState) apply(d *Diff, maxLen int) (*setState, error) {
	corrupt := func(format string, a ...any) error {
		return newError(ErrCorrupt, old.name, fmt.Sprintf(format, a...))
	}
	if d.Reset && (len(d.RawRemovals) > 0 || d.RiceRemovals != nil) {
		return nil, corrupt("removals in a RESET: there is no old list to index")
	}
	// The headers, checked before anything is decoded or allocated.
	var nAdd, nRem int64
	for i, g := range d.Raw {
		if g.PrefixSize < 4 || g.PrefixSize > 32 {
			return nil, corrupt("rawHashes[%d]: prefixSize %d outside 4–32", i, g.PrefixSize)
		}
		if len(g.Hashes)%int(g.PrefixSize) != 0 {
			return nil, corrupt("rawHashes[%d]: %d bytes are not whole %d-byte entries", i, len(g.Hashes), g.PrefixSize)
		}
		nAdd += int64(len(g.Hashes) / int(g.PrefixSize))
	}
	var addS, remS riceStream
	if d.Rice != nil {
		var err error
		if addS, err = d.Rice.stream(); err != nil {
			return nil, corrupt("riceHashes: %v", err)
		}
		nAdd += addS.count + 1
	}
	nRem = int64(len(d.RawRemovals))
	if d.RiceRemovals != nil {
		var err error
		if remS, err = d.RiceRemovals.stream(); err != nil {
			return nil, corrupt("riceIndices: %v", err)
		}
		nRem += remS.count + 1
	}
	oldN := 0
	if !d.Reset {
		oldN = old.n()
	}
	if maxLen > 0 && int64(oldN)+nAdd-nRem > int64(maxLen) {
		return nil, corrupt("%d entries, over the maximum of %d", int64(oldN)+nAdd-nRem, maxLen)
	}

	next := &setState{name: old.name}
	if len(d.Version) > 0 {
		next.version = bytes.Clone(d.Version)
	}
	done := false
	if !d.Reset && nAdd == 0 && nRem == 0 {
		// A version-only diff: the entries stay as they are.
		next.sum, next.four, next.long, next.ends = old.sum, old.four, old.long, old.ends
		done = true
	} else if d.Reset && d.Rice != nil && !hasRaw4(d) {
		var err error
		if done, err = next.resetRice(d, &addS); err != nil {
			return nil, newError(ErrCorrupt, old.name, err.Error())
		}
	}
	if !done {
		rem, err := removals(d, &remS, oldN)
		if err != nil {
			return nil, newError(ErrCorrupt, old.name, err.Error())
		}
		add, err := additions(d, &addS)
		if err != nil {
			return nil, newError(ErrCorrupt, old.name, err.Error())
		}
		keep := old
		if d.Reset {
			keep = &zeroSet
		}
		if err := next.build(keep, rem, add); err != nil {
			return nil, newError(ErrCorrupt, old.name, err.Error())
		}
	}
	if maxLen > 0 && next.n() > maxLen {
		return nil, corrupt("%d entries, over the maximum of %d", next.n(), maxLen)
	}
	if d.Checksum != nil {
		if !bytes.Equal(d.Checksum, next.sum[:]) {
			return nil, newError(ErrChecksum, old.name, fmt.Sprintf("set of %d entries has SHA-256 %x; diff says %s", next.n(), next.sum[:], quoteHex(d.Checksum)))
		}
	} else if next.sum != old.sum {
		return nil, corrupt("diff changes the set but carries no checksum")
	}
	return next, nil
}

// removals returns the removal indices of d, ascending and distinct:
// those of RiceRemovals (s, checked) and RawRemovals, each below oldN. A
// repeated raw index, or one that is also Rice-coded, removes one entry
// (decision w4).
func removals(d *Diff, s *riceStream, oldN int) ([]uint32, error) {
	var rice []uint32
	if d.RiceRemovals != nil {
		var err error
		if rice, err = decodeValues(s); err != nil {
			return nil, fmt.Errorf("riceIndices: %w", err)
		}
		if last := rice[len(rice)-1]; int64(last) >= int64(oldN) {
			return nil, fmt.Errorf("riceIndices: index %d in a list of %d", last, oldN)
		}
	}
	if len(d.RawRemovals) == 0 {
		return rice, nil
	}
	all := make([]uint32, 0, len(d.RawRemovals)+len(rice))
	for _, x := range d.RawRemovals {
		if x < 0 || int(x) >= oldN {
			return nil, fmt.Errorf("rawIndices: index %d in a list of %d", x, oldN)
		}
		all = append(all, uint32(x))
	}
	all = append(all, rice...)
	slices.Sort(all)
	return slices.Compact(all), nil
}

// addSet is the additions of a Diff, decoded.
type addSet struct {
	le   []uint32 // riceHashes' values, little-endian, ascending
	raw4 []uint32 // the raw 4-byte additions, big-endian, ascending
	long [][]byte // the longer additions, in byte order
}

// additions returns the additions of d, the longer ones aliasing d. s is
// the checked Rice stream of d.Rice. A longer addition given twice is
// corrupt (decision w3).
func additions(d *Diff, s *riceStream) (*addSet, error) {
	a := new(addSet)
	if d.Rice != nil {
		var err error
		if a.le, err = decodeValues(s); err != nil {
			return nil, fmt.Errorf("riceHashes: %w", err)
		}
	}
	for _, g := range d.Raw {
		if g.PrefixSize == 4 {
			for i := 0; i < len(g.Hashes); i += 4 {
				a.raw4 = append(a.raw4, binary.BigEndian.Uint32(g.Hashes[i:]))
			}
		}
	}
	if !slices.IsSorted(a.raw4) {
		slices.Sort(a.raw4)
	}
	var err error
	if a.long, err = longAdditions(d); err != nil {
		return nil, err
	}
	return a, nil
}

// hasRaw4 reports whether d has raw 4-byte additions.
func hasRaw4(d *Diff) bool {
	for _, g := range d.Raw {
		if g.PrefixSize == 4 && len(g.Hashes) > 0 {
			return true
		}
	}
	return false
}

// longAdditions returns the raw additions of d longer than 4 bytes, in
// byte order, aliasing d. One given twice is corrupt (decision w3).
func longAdditions(d *Diff) ([][]byte, error) {
	var long [][]byte
	for _, g := range d.Raw {
		if w := int(g.PrefixSize); w > 4 {
			for i := 0; i < len(g.Hashes); i += w {
				long = append(long, g.Hashes[i:i+w:i+w])
			}
		}
	}
	if !slices.IsSortedFunc(long, bytes.Compare) {
		slices.SortFunc(long, bytes.Compare)
	}
	for i := 1; i < len(long); i++ {
		if bytes.Equal(long[i], long[i-1]) {
			return nil, fmt.Errorf("addition %x given twice", long[i])
		}
	}
	return long, nil
}

// fours returns the 4-byte additions, big-endian, ascending: those of
// riceHashes, sorted into byte order, and the raw ones. An addition
// given twice is corrupt (decision w3).
func (a *addSet) fours() ([]uint32, error) {
	four := a.raw4
	if a.le != nil {
		be := make([]uint32, len(a.le))
		swapSort(be, a.le)
		four = be
		if len(a.raw4) > 0 {
			four = mergeValues(be, a.raw4)
		}
	}
	for i := 1; i < len(four); i++ {
		if four[i] == four[i-1] {
			return nil, fmt.Errorf("addition %08x given twice", four[i])
		}
	}
	return four, nil
}

// mergeValues returns the ascending values of a and b, merged.
func mergeValues(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] <= b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// entryLess reports whether entry a sorts before entry x in byte order.
// An entry is v, its first 4 bytes big-endian, and long, the whole entry
// when longer than 4 bytes (nil for a 4-byte entry).
func entryLess(av uint32, al []byte, xv uint32, xl []byte) bool {
	if av != xv {
		return av < xv
	}
	if al == nil || xl == nil {
		return al == nil && xl != nil // a 4-byte entry before a longer one it starts
	}
	return bytes.Compare(al, xl) < 0
}

// adds reads the additions in byte order.
type adds struct {
	four []uint32
	long [][]byte
	p, q int // the next of four and of long
}

// head returns the next addition, as [walker.next] does, without taking
// it; ok is false when there is none.
func (a *adds) head() (v uint32, long []byte, ok bool) {
	has4 := a.p < len(a.four)
	if a.q < len(a.long) {
		e := a.long[a.q]
		if k := binary.BigEndian.Uint32(e); !has4 || k < a.four[a.p] {
			return k, e, true
		}
	}
	if has4 {
		return a.four[a.p], nil, true
	}
	return 0, nil, false
}

// take takes the addition head returned, long or not.
func (a *adds) take(long []byte) {
	if long != nil {
		a.q++
	} else {
		a.p++
	}
}

// build fills next with the entries of keep less those at the indices
// rem, merged with the additions, in one pass in byte
// order that feeds the index (or flat array) of the 4-byte entries, the
// array of the longer ones and SHA-256 together. It returns why the
// result is corrupt: an addition equal to an entry kept, or an entry
// that is a prefix of the next.
func (next *setState) build(keep *setState, rem []uint32, add *addSet) error {
	var out setSink
	add4, err := add.fours()
	if err != nil {
		return err
	}
	addL := add.long
	longBytes := len(keep.long)
	for _, e := range addL {
		longBytes += len(e)
	}
	out.init(keep.four.n+len(add4), len(keep.ends)+len(addL), longBytes)
	a := adds{four: add4, long: addL}
	if keep.n() > 0 {
		w := newWalker(keep)
		ri := 0
		for i := 0; ; i++ {
			v, long, ok := w.next()
			if !ok {
				break
			}
			if ri < len(rem) && int(rem[ri]) == i {
				ri++
				continue
			}
			for {
				av, al, ok := a.head()
				if !ok || !entryLess(av, al, v, long) {
					if ok && av == v && (al == nil) == (long == nil) && (al == nil || bytes.Equal(al, long)) {
						return fmt.Errorf("addition %s is already in the list", entryHex(av, al))
					}
					break
				}
				if !out.add(av, al) {
					return out.bad
				}
				a.take(al)
			}
			if !out.add(v, long) {
				return out.bad
			}
		}
	}
	// The additions after the last entry kept: the 4-byte ones in runs,
	// up to the next longer one.
	for a.q < len(a.long) {
		e := a.long[a.q]
		k := binary.BigEndian.Uint32(e)
		j := a.p + sort.Search(len(a.four)-a.p, func(i int) bool { return a.four[a.p+i] > k })
		out.addRun(a.four[a.p:j])
		a.p = j
		if !out.addLong(e) {
			return out.bad
		}
		a.q++
	}
	out.addRun(a.four[a.p:])
	out.finish(next)
	return nil
}

// resetRice fills next with the entries of a RESET whose 4-byte
// additions are Rice-coded (s, checked) and its longer ones raw, as Web
// Risk sends most lists, in one pass: the decoder stores each prefix in
// its bucket of a [slackSorter] as it decodes it, and each bucket, once
// sorted, goes to the index and the hash while in cache, the longer
// entries where they fall among them. It returns false, having changed
// nothing, when the list is short or its prefixes too unevenly spread
// for the sorter (a hostile list): build then takes them through the
// exact sort.
func (next *setState) resetRice(d *Diff, s *riceStream) (bool, error) {
	n := int(s.count) + 1
	w := newSlackSorter(n)
	if w.buf == nil {
		return false, nil // build's sort is as good
	}
	defer w.release()
	long, err := longAdditions(d)
	if err != nil {
		return false, err
	}
	switch err := newRice32(s).scatterAll(w); err {
	case nil:
	case errFull:
		return false, nil
	default:
		return false, fmt.Errorf("riceHashes: %w", err)
	}
	longBytes := 0
	for _, e := range long {
		longBytes += len(e)
	}
	var out setSink
	out.init(n, len(long), longBytes)
	q, ok := 0, true
	w.sort(func(run []uint32) {
		// The longer entries that fall in or before this run: each after
		// the 4-byte ones up to its first 4 bytes.
		for ok && q < len(long) {
			k := binary.BigEndian.Uint32(long[q])
			j := sort.Search(len(run), func(i int) bool { return run[i] > k })
			if j == len(run) {
				break
			}
			out.addRun(run[:j])
			run = run[j:]
			ok = out.addLong(long[q])
			q++
		}
		if ok {
			out.addRun(run)
		}
	})
	for ; ok && q < len(long); q++ {
		ok = out.addLong(long[q])
	}
	if !ok {
		return false, out.bad
	}
	out.finish(next)
	return true, nil
}

// entryHex returns an entry in hex, for an error.
func entryHex(v uint32, long []byte) string {
	if long != nil {
		return fmt.Sprintf("%x", long)
	}
	return fmt.Sprintf("%08x", v)
}

// setSink receives the entries of a set in byte order and builds its
// state: the 4-byte ones go to a [sink4], the longer ones to an array,
// and all of them, in order, to the sink's SHA-256. It checks that no
// entry is a prefix of the next, which, the entries being in order, is
// enough for none to be a prefix of another: the entries between an
// entry and one it starts all start with it too.
type setSink struct {
	s4    sink4
	long  []byte
	ends  []uint32
	prev4 uint32 // the last entry, when 4 bytes long
	prevL []byte // the last entry, when longer; nil when 4 bytes long
	any   bool   // an entry was added
	bad   error  // why the entries are corrupt
}

func (o *setSink) init(bound4, nLong, longBytes int) {
	o.s4.init(bound4)
	if nLong > 0 {
		o.long = make([]byte, 0, longBytes)
		o.ends = make([]uint32, 0, nLong)
	}
}

// add adds one entry, as [walker.next] gives it, and reports whether it
// is valid.
func (o *setSink) add(v uint32, long []byte) bool {
	if long != nil {
		return o.addLong(long)
	}
	o.s4.add(v)
	o.prev4, o.prevL, o.any = v, nil, true
	return true
}

// addRun adds 4-byte entries, ascending, each greater than every entry
// added before.
func (o *setSink) addRun(vs []uint32) {
	if len(vs) == 0 {
		return
	}
	o.s4.addRun(vs)
	o.prev4, o.prevL, o.any = vs[len(vs)-1], nil, true
}

// addLong adds an entry longer than 4 bytes, and reports whether it is
// valid: the last entry is not a prefix of it.
func (o *setSink) addLong(e []byte) bool {
	if o.any {
		if o.prevL == nil && binary.BigEndian.Uint32(e) == o.prev4 {
			o.bad = fmt.Errorf("entry %08x is a prefix of entry %x", o.prev4, e)
			return false
		}
		if o.prevL != nil && bytes.HasPrefix(e, o.prevL) {
			o.bad = fmt.Errorf("entry %x is a prefix of entry %x", o.prevL, e)
			return false
		}
	}
	if len(o.long)+len(e) > math.MaxUint32 {
		o.bad = fmt.Errorf("longer entries past %d bytes", uint32(math.MaxUint32))
		return false
	}
	o.s4.sync()
	o.s4.h.Write(e)
	start := len(o.long)
	o.long = append(o.long, e...)
	o.ends = append(o.ends, uint32(len(o.long)))
	o.prevL, o.any = o.long[start:], true
	return true
}

// finish completes st.
func (o *setSink) finish(st *setState) {
	four := &state{width: 4}
	o.s4.finish(four)
	st.sum = four.sum
	st.four = four
	if len(o.ends) > 0 {
		// Do not keep the room left by removals.
		st.long, st.ends = o.long, o.ends
		if cap(o.long)-len(o.long) > len(o.long)/4 {
			st.long = slices.Clone(o.long)
		}
		if cap(o.ends)-len(o.ends) > len(o.ends)/4 {
			st.ends = slices.Clone(o.ends)
		}
	}
}

// addRun adds vs, ascending, each greater than every prefix added
// before: whole chunks straight from vs into the index and the hash,
// the rest through buf.
func (s *sink4) addRun(vs []uint32) {
	for len(vs) > 0 {
		if s.n == 0 && s.ib != nil && len(vs) >= len(s.buf) {
			s.ib.addAll(vs[:len(s.buf)], s.hb[:])
			s.h.Write(s.hb[:])
			vs = vs[len(s.buf):]
			continue
		}
		c := copy(s.buf[s.n:], vs)
		vs = vs[c:]
		if s.n += c; s.n == len(s.buf) {
			s.flush()
		}
	}
}

// sync adds the prefixes in buf and hashes every prefix added so far,
// so that what is written to h next follows them.
func (s *sink4) sync() {
	s.flush()
	if s.ib == nil {
		s.h.Write(s.flat[s.hashed:])
		s.hashed = len(s.flat)
	}
}

// NewDiff returns a Diff that adds additions, entries of 4 to 32 bytes in
// any order, and removes the entries at the indices removals, in any
// order, as Web Risk sends them: with rice, the 4-byte additions as
// riceHashes ([RiceHashes]) and the removals as riceIndices
// ([RiceIndices]); without, both raw. The longer additions are raw in
// either case, one RawHashes a size, in byte order. Reset, Version and
// Checksum are left for the caller to set. An error wraps [ErrMessage]:
// an entry of another length, an entry or index given twice, or an
// index past 2^31-1.
func NewDiff(additions [][]byte, removals []uint32, rice bool) (Diff, error) {
	var d Diff
	bySize := make(map[int][][]byte)
	for _, e := range additions {
		if len(e) < 4 || len(e) > 32 {
			return Diff{}, newError(ErrMessage, "", fmt.Sprintf("entry of %d bytes; want 4 to 32", len(e)))
		}
		bySize[len(e)] = append(bySize[len(e)], e)
	}
	for size := 4; size <= 32; size++ {
		g := bySize[size]
		if len(g) == 0 {
			continue
		}
		slices.SortFunc(g, bytes.Compare)
		flat := make([]byte, 0, size*len(g))
		for i, e := range g {
			if i > 0 && bytes.Equal(e, g[i-1]) {
				return Diff{}, newError(ErrMessage, "", fmt.Sprintf("duplicate entry %x", e))
			}
			flat = append(flat, e...)
		}
		if size == 4 && rice {
			r, err := RiceHashes(flat, 0)
			if err != nil {
				return Diff{}, err
			}
			d.Rice = &r
			continue
		}
		d.Raw = append(d.Raw, RawHashes{PrefixSize: int32(size), Hashes: flat})
	}
	if len(removals) == 0 {
		return d, nil
	}
	if rice {
		r, err := RiceIndices(removals, 0)
		if err != nil {
			return Diff{}, err
		}
		d.RiceRemovals = &r
		return d, nil
	}
	idx := slices.Clone(removals)
	slices.Sort(idx)
	d.RawRemovals = make([]int32, len(idx))
	for i, x := range idx {
		if i > 0 && x == idx[i-1] {
			return Diff{}, newError(ErrMessage, "", fmt.Sprintf("duplicate index %d", x))
		}
		if x > math.MaxInt32 {
			return Diff{}, newError(ErrMessage, "", fmt.Sprintf("index %d past 2^31-1", x))
		}
		d.RawRemovals[i] = int32(x)
	}
	return d, nil
}
