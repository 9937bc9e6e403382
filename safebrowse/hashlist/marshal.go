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

// The saved form of a List (format 1):
//
//	"hashlist" 0x01                      magic and format version
//	uvarint len(name), name
//	uvarint len(version), version
//	uvarint n                            how many hashes
//	n hashes of the name's width         sorted, distinct
//	SHA-256(header || SHA-256(hashes))   32 bytes; header is all before the hashes
//
// The trailer covers every byte, and costs one pass over the hashes, the
// pass that computes the list's checksum anyway.
const (
	magic         = "hashlist"
	formatVersion = 1
)

// MarshalBinary returns the list saved in a versioned format with its own
// checksum, holding the name, the version and the hashes, for
// [List.UnmarshalBinary] to load back (encoding.BinaryMarshaler). It is
// about 4 bytes a prefix for a 4-byte list.
func (l *List) MarshalBinary() ([]byte, error) {
	return l.AppendBinary(nil)
}

// AppendBinary appends the list to b in the form of [List.MarshalBinary].
func (l *List) AppendBinary(b []byte) ([]byte, error) {
	st := l.load()
	if st.width == 0 {
		return b, newError(ErrName, "", "the zero List has no name; use New")
	}
	start := len(b)
	b = append(b, magic...)
	b = append(b, formatVersion)
	b = binary.AppendUvarint(b, uint64(len(st.name)))
	b = append(b, st.name...)
	b = binary.AppendUvarint(b, uint64(len(st.version)))
	b = append(b, st.version...)
	b = binary.AppendUvarint(b, uint64(st.n))
	hdr := len(b)
	b = slices.Grow(b, st.n*st.width+32)
	for h := range st.all {
		b = append(b, h...)
	}
	t := sha256.New()
	t.Write(b[start:hdr])
	t.Write(st.sum[:])
	return t.Sum(b), nil
}

// WriteTo writes the list to w in the form of [List.MarshalBinary]
// (io.WriterTo), a few KiB at a time, so that saving a list costs no copy
// of it in memory.
func (l *List) WriteTo(w io.Writer) (int64, error) {
	st := l.load()
	if st.width == 0 {
		return 0, newError(ErrName, "", "the zero List has no name; use New")
	}
	hdr := append([]byte(magic), formatVersion)
	hdr = binary.AppendUvarint(hdr, uint64(len(st.name)))
	hdr = append(hdr, st.name...)
	hdr = binary.AppendUvarint(hdr, uint64(len(st.version)))
	hdr = append(hdr, st.version...)
	hdr = binary.AppendUvarint(hdr, uint64(st.n))
	t := sha256.New()
	t.Write(hdr)
	t.Write(st.sum[:])
	buf := make([]byte, 0, 4096)
	buf = append(buf, hdr...)
	var total int64
	flush := func() error {
		n, err := w.Write(buf)
		total += int64(n)
		buf = buf[:0]
		return err
	}
	for h := range st.all {
		if len(buf)+len(h) > cap(buf) {
			if err := flush(); err != nil {
				return total, err
			}
		}
		buf = append(buf, h...)
	}
	buf = t.Sum(buf)
	return total, flush()
}

// UnmarshalBinary loads a list saved by [List.MarshalBinary]
// (encoding.BinaryUnmarshaler). A blob of another list than [List.Name] is
// an error wrapping [ErrName]; a corrupt or truncated blob, or one of an
// unknown format, an error wrapping [ErrCorrupt]. On an error the list is
// unchanged. The zero List takes the name of the blob.
func (l *List) UnmarshalBinary(data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.load()
	next, err := loadBlob(data, old.name)
	if err != nil {
		return err
	}
	l.st.Store(next)
	return nil
}

// loadBlob reads a saved list; want is the name it must have ("" for any).
func loadBlob(data []byte, want string) (*state, error) {
	corrupt := func(detail string) error { return newError(ErrCorrupt, want, "saved list: "+detail) }
	b := data
	if len(b) < len(magic)+1 || string(b[:len(magic)]) != magic {
		return nil, corrupt("no magic")
	}
	if b[len(magic)] != formatVersion {
		return nil, corrupt("unknown format " + strconv.Itoa(int(b[len(magic)])))
	}
	b = b[len(magic)+1:]
	field := func() ([]byte, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, false
		}
		v := b[k : k+int(n)]
		b = b[k+int(n):]
		return v, true
	}
	name, ok := field()
	if !ok {
		return nil, corrupt("bad name")
	}
	version, ok := field()
	if !ok {
		return nil, corrupt("bad version")
	}
	w, err := widthOf(string(name))
	if err != nil {
		return nil, corrupt("bad name")
	}
	if want != "" && string(name) != want {
		return nil, newError(ErrName, want, "saved list is "+quote(string(name)))
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || len(b)-k < 32 || n != uint64(len(b)-k-32)/uint64(w) || (len(b)-k-32)%w != 0 {
		return nil, corrupt("bad length")
	}
	b = b[k:]
	hdr := data[:len(data)-len(b)]
	hashes, trailer := b[:len(b)-32], b[len(b)-32:]
	st := &state{name: string(name), width: w, n: int(n)}
	if len(version) > 0 {
		st.version = bytes.Clone(version)
	}
	for i := w; i < len(hashes); i += w {
		if bytes.Compare(hashes[i-w:i], hashes[i:i+w]) >= 0 {
			return nil, corrupt(fmt.Sprintf("hash %d out of order", i/w))
		}
	}
	if w == 4 {
		var out sink4
		out.init(int(n))
		for i := 0; i < len(hashes); i += 4 {
			out.add(binary.BigEndian.Uint32(hashes[i:]))
		}
		out.finish(st)
	} else {
		if len(hashes) > 0 {
			st.flat = bytes.Clone(hashes)
		}
		st.sum = sha256.Sum256(hashes)
	}
	t := sha256.New()
	t.Write(hdr)
	t.Write(st.sum[:])
	if !bytes.Equal(t.Sum(nil), trailer) {
		return nil, corrupt("checksum mismatch")
	}
	return st, nil
}
