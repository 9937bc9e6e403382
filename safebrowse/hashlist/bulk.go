// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/binary"
	"slices"
)

// AppendHashes appends the hashes of the list to dst, in ascending byte
// order, concatenated, as they are when it is called, and returns the
// extended slice: what [List.All] yields, in one call, decoded from the
// index a chunk at a time (about 1 ns a hash, where All takes several).
// It is the input of [RiceHashes] for a 4-byte list, and of [Checksum].
func (l *List) AppendHashes(dst []byte) []byte {
	return l.load().appendHashes(dst)
}

// appendHashes appends the hashes of st to dst.
func (st *state) appendHashes(dst []byte) []byte {
	if st.idx == nil {
		return append(dst, st.flat...)
	}
	dst = slices.Grow(dst, 4*st.n)
	c := cursor{x: st.idx}
	var buf [512]uint32
	for done := 0; done < st.n; {
		k := c.fill(buf[:min(len(buf), st.n-done)])
		for _, v := range buf[:k] {
			dst = binary.BigEndian.AppendUint32(dst, v)
		}
		done += k
	}
	return dst
}

// AppendEntries appends the entries of the set that are size bytes long
// to dst, in byte order, concatenated, as they are when it is called,
// and returns the extended slice: with size 4, the input of
// [RiceHashes]; with a longer size, a RawHashes group. The 4-byte ones
// are decoded from the index a chunk at a time, as [List.AppendHashes]
// decodes them. A size outside 4 to 32 appends nothing.
func (s *PrefixSet) AppendEntries(dst []byte, size int) []byte {
	st := s.load()
	if size == 4 {
		return st.four.appendHashes(dst)
	}
	for i := range st.ends {
		if e := st.entry(i); len(e) == size {
			dst = append(dst, e...)
		}
	}
	return dst
}
