// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// The saved form of a PrefixSet (format 1):
//
//	"prefixset" 0x01                   magic and format version
//	uvarint len(name), name
//	uvarint len(version), version
//	uvarint n4                         how many 4-byte entries
//	uvarint g                          how many sizes of longer entries
//	g × (uvarint size, uvarint count)  sizes 5 to 32, ascending; counts > 0
//	n4 entries of 4 bytes              in byte order
//	for each size, count entries       in byte order
//	SHA-256(header || sum || long)     32 bytes
//
// where header is all before the 4-byte entries, sum is the set's
// checksum (the SHA-256 of all its entries merged in byte order) and
// long is the bytes of the longer entries as saved. The magic differs
// from a List's ("hashlist"), so that neither loads as the other. The
// trailer covers every byte: the header, sum and long fix the 4-byte
// entries too, since no entry may be a prefix of another. It costs one
// pass over the 4-byte entries, the one that computes the checksum.
const (
	setMagic         = "prefixset"
	setFormatVersion = 1
)

// MarshalBinary returns the set saved in a versioned format with its own
// checksum, holding the name, the version and the entries, for
// [PrefixSet.UnmarshalBinary] to load back (encoding.BinaryMarshaler).
// It is about 4 bytes a 4-byte entry.
func (s *PrefixSet) MarshalBinary() ([]byte, error) {
	return s.AppendBinary(nil)
}

// AppendBinary appends the set to b in the form of
// [PrefixSet.MarshalBinary].
func (s *PrefixSet) AppendBinary(b []byte) ([]byte, error) {
	st := s.load()
	w := appender{slices.Grow(b, 4*st.four.n+len(st.long)+len(st.name)+len(st.version)+64)}
	if _, err := st.writeTo(&w); err != nil {
		return b, err
	}
	return w.b, nil
}

// appender is an io.Writer that appends to b.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// WriteTo writes the set to w in the form of [PrefixSet.MarshalBinary]
// (io.WriterTo), a few KiB at a time, so that saving a set costs no copy
// of it in memory.
func (s *PrefixSet) WriteTo(w io.Writer) (int64, error) {
	return s.load().writeTo(w)
}

// writeTo writes st to w in the saved form.
func (st *setState) writeTo(w io.Writer) (int64, error) {
	if st.name == "" {
		return 0, newError(ErrName, "", "the zero PrefixSet has no name; use NewPrefixSet")
	}
	var counts [33]int
	for i := range st.ends {
		counts[len(st.entry(i))]++
	}
	hdr := append([]byte(setMagic), setFormatVersion)
	hdr = binary.AppendUvarint(hdr, uint64(len(st.name)))
	hdr = append(hdr, st.name...)
	hdr = binary.AppendUvarint(hdr, uint64(len(st.version)))
	hdr = append(hdr, st.version...)
	hdr = binary.AppendUvarint(hdr, uint64(st.four.n))
	g := 0
	for _, c := range counts {
		if c > 0 {
			g++
		}
	}
	hdr = binary.AppendUvarint(hdr, uint64(g))
	for size, c := range counts {
		if c > 0 {
			hdr = binary.AppendUvarint(hdr, uint64(size))
			hdr = binary.AppendUvarint(hdr, uint64(c))
		}
	}
	t := sha256.New()
	t.Write(hdr)
	t.Write(st.sum[:])

	buf := make([]byte, 0, 4096)
	buf = append(buf, hdr...)
	var total int64
	put := func(e []byte) error {
		if len(buf)+len(e) > cap(buf) {
			n, err := w.Write(buf)
			total += int64(n)
			buf = buf[:0]
			if err != nil {
				return err
			}
		}
		buf = append(buf, e...)
		return nil
	}
	var e [4]byte
	for h := range st.four.all {
		copy(e[:], h)
		if err := put(e[:]); err != nil {
			return total, err
		}
	}
	for size, c := range counts {
		if c == 0 {
			continue
		}
		for i := range st.ends {
			if x := st.entry(i); len(x) == size {
				t.Write(x)
				if err := put(x); err != nil {
					return total, err
				}
			}
		}
	}
	if err := put(t.Sum(nil)); err != nil {
		return total, err
	}
	n, err := w.Write(buf)
	return total + int64(n), err
}

// UnmarshalBinary loads a set saved by [PrefixSet.MarshalBinary]
// (encoding.BinaryUnmarshaler). A blob of another set than
// [PrefixSet.Name] is an error wrapping [ErrName]; a corrupt or truncated
// blob, one of an unknown format, or a List's, an error wrapping
// [ErrCorrupt]. On an error the set is unchanged. The zero PrefixSet
// takes the name of the blob.
func (s *PrefixSet) UnmarshalBinary(data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := loadSet(data, s.load().name)
	if err != nil {
		return err
	}
	s.st.Store(next)
	return nil
}

// loadSet reads a saved set; want is the name it must have ("" for any).
func loadSet(data []byte, want string) (*setState, error) {
	corrupt := func(detail string) error { return newError(ErrCorrupt, want, "saved set: "+detail) }
	b := data
	if len(b) < len(setMagic)+1 || string(b[:len(setMagic)]) != setMagic {
		return nil, corrupt("no magic")
	}
	if b[len(setMagic)] != setFormatVersion {
		return nil, corrupt("unknown format " + strconv.Itoa(int(b[len(setMagic)])))
	}
	b = b[len(setMagic)+1:]
	uvarint := func() (uint64, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return n, true
	}
	field := func() ([]byte, bool) {
		n, ok := uvarint()
		if !ok || n > uint64(len(b)) {
			return nil, false
		}
		v := b[:n]
		b = b[n:]
		return v, true
	}
	name, ok := field()
	if !ok || !validSetName(string(name)) {
		return nil, corrupt("bad name")
	}
	if want != "" && string(name) != want {
		return nil, newError(ErrName, want, "saved set is "+quote(string(name)))
	}
	version, ok := field()
	if !ok {
		return nil, corrupt("bad version")
	}
	n4, ok := uvarint()
	if !ok || n4 > uint64(len(b))/4 {
		return nil, corrupt("bad length")
	}
	g, ok := uvarint()
	if !ok || g > 28 {
		return nil, corrupt("bad sizes")
	}
	type group struct{ size, count int }
	groups := make([]group, g)
	need := 4*n4 + 32
	for i := range groups {
		size, ok1 := uvarint()
		count, ok2 := uvarint()
		if !ok1 || !ok2 || size < 5 || size > 32 || (i > 0 && int(size) <= groups[i-1].size) || count == 0 || count > uint64(len(b))/size {
			return nil, corrupt("bad sizes")
		}
		groups[i] = group{int(size), int(count)}
		need += size * count
	}
	if need != uint64(len(b)) {
		return nil, corrupt("bad length")
	}
	hdr := data[:len(data)-len(b)]
	four := make([]uint32, n4)
	for i := range four {
		four[i] = binary.BigEndian.Uint32(b[4*i:])
		if i > 0 && four[i] <= four[i-1] {
			return nil, corrupt(fmt.Sprintf("4-byte entry %d out of order", i))
		}
	}
	b = b[4*n4:]
	longBytes := b[:len(b)-32]
	trailer := b[len(b)-32:]
	var long [][]byte
	for _, gr := range groups {
		for i := range gr.count {
			e := b[:gr.size:gr.size]
			b = b[gr.size:]
			if i > 0 && bytes.Compare(e, long[len(long)-1]) <= 0 {
				return nil, corrupt(fmt.Sprintf("%d-byte entry %d out of order", gr.size, i))
			}
			long = append(long, e)
		}
	}
	slices.SortFunc(long, bytes.Compare)
	st := &setState{name: string(name)}
	if len(version) > 0 {
		st.version = bytes.Clone(version)
	}
	if err := st.build(&zeroSet, nil, &addSet{raw4: four, long: long}); err != nil {
		return nil, corrupt(err.Error())
	}
	t := sha256.New()
	t.Write(hdr)
	t.Write(st.sum[:])
	t.Write(longBytes)
	if !bytes.Equal(t.Sum(nil), trailer) {
		return nil, corrupt("checksum mismatch")
	}
	return st, nil
}
