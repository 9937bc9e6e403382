// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
)

// Persistence: each list lives in Dir as "{name}.sblist" (a Web Risk
// list as "{name}.wrlist", its name in upper case: see fileName), in this
// format:
//
//	magic      "SBLOOKUP" (8 bytes)
//	format     2 (1 byte)
//	name       length (1 byte), then the list's name
//	next       when the list is due, in Unix nanoseconds (8 bytes, big-endian; 0: at once)
//	updated    when the list was fetched, in Unix nanoseconds (8 bytes, big-endian; 0: unknown)
//	list       the list as hashlist.List.MarshalBinary writes it (with its own checksum),
//	           or a Web Risk list as hashlist.PrefixSet.MarshalBinary does
//	checksum   SHA-256 of all the bytes above (32 bytes)
//
// Format 1, which had no updated field, is discarded like any other: its
// list is fetched whole, so that ListStatus.Updated is never made up.
//
// A file is written to a temporary file in Dir, synced, then renamed over
// the old one, as cmd/go writes a module zip: a reader, or another client
// sharing Dir, sees the old file or the new one, never a torn one. A file
// that is truncated, corrupt, of another format or of another list is
// discarded: the list is fetched whole.

const (
	fileMagic    = "SBLOOKUP"
	fileFormat   = 2
	fileSuffix   = ".sblist"
	wrFileSuffix = ".wrlist"
	maxFileSize  = 1 << 30
)

// fileName returns the name of the file of the list name in Dir: a v5
// list's ends in ".sblist", a Web Risk list's in ".wrlist". The two
// APIs' names never meet ([listname.ValidWebRisk] takes upper case only,
// [listname.Valid] lower case only), and neither do their suffixes, so
// that clients of both may share a Dir, on a file system that ignores
// case too.
func fileName(name string) string {
	if listname.ValidWebRisk(name) {
		return name + wrFileSuffix
	}
	return name + fileSuffix
}

// errBadFile is a file in Dir that must be discarded.
var errBadFile = errors.New("lookup: list file discarded")

// encodeFile returns the file for the list name, due at next and fetched
// at updated, whose MarshalBinary form is list.
func encodeFile(name string, next, updated time.Time, list []byte) []byte {
	var b bytes.Buffer
	encodeFileTo(&b, name, next, updated, func(w io.Writer) error {
		_, err := w.Write(list)
		return err
	})
	return b.Bytes()
}

// encodeFileTo writes to w the file encodeFile returns, the list written
// by list (as List.WriteTo writes it), hashing as it goes: a list is saved
// with no copy of it in memory.
func encodeFileTo(w io.Writer, name string, next, updated time.Time, list func(io.Writer) error) error {
	h := sha256.New()
	hdr := make([]byte, 0, len(fileMagic)+2+len(name)+16)
	hdr = append(hdr, fileMagic...)
	hdr = append(hdr, fileFormat, byte(len(name)))
	hdr = append(hdr, name...)
	hdr = binary.BigEndian.AppendUint64(hdr, uint64(unixNano(next)))
	hdr = binary.BigEndian.AppendUint64(hdr, uint64(unixNano(updated)))
	mw := io.MultiWriter(w, h)
	if _, err := mw.Write(hdr); err != nil {
		return err
	}
	if err := list(mw); err != nil {
		return err
	}
	_, err := w.Write(h.Sum(nil))
	return err
}

// unixNano returns t in Unix nanoseconds, 0 for the zero Time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromUnixNano is the inverse of unixNano.
func fromUnixNano(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// decodeFile reads a file written by encodeFile for the list name, and
// returns when the list is due (zero: at once), when it was fetched (zero:
// unknown) and its MarshalBinary form, which shares data.
func decodeFile(name string, data []byte) (next, updated time.Time, list []byte, err error) {
	bad := func(why string) (time.Time, time.Time, []byte, error) {
		return time.Time{}, time.Time{}, nil, fmt.Errorf("%w: %s: %s", errBadFile, fileName(name), why)
	}
	hdr := len(fileMagic) + 2
	if len(data) < hdr+16+sha256.Size || string(data[:len(fileMagic)]) != fileMagic {
		return bad("not a list file")
	}
	if data[len(fileMagic)] != fileFormat {
		return bad(fmt.Sprintf("format %d, want %d", data[len(fileMagic)], fileFormat))
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return bad("checksum mismatch: truncated or corrupt")
	}
	n := int(data[len(fileMagic)+1])
	if len(body) < hdr+n+16 {
		return bad("truncated header")
	}
	if string(body[hdr:hdr+n]) != name {
		return bad(fmt.Sprintf("holds list %s", inputerr.Quote(string(body[hdr:hdr+n]))))
	}
	next = fromUnixNano(int64(binary.BigEndian.Uint64(body[hdr+n:])))
	updated = fromUnixNano(int64(binary.BigEndian.Uint64(body[hdr+n+8:])))
	return next, updated, body[hdr+n+16:], nil
}

// readFile reads the file of the list name in dir; a file that does not
// exist is (nil, nil). Only a regular file is read: it is opened without
// following a symlink and without blocking on a FIFO, and its size is
// checked against maxFileSize before a byte is read, so that a link to
// /dev/zero or a FIFO in Dir is discarded as corrupt (errBadFile).
func readFile(dir, name string) ([]byte, error) {
	f, err := openRegular(filepath.Join(dir, fileName(name)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		// ELOOP: a symlink, which O_NOFOLLOW refuses.
		return nil, fmt.Errorf("%w: %s: %w", errBadFile, fileName(name), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("lookup: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s: not a regular file (%v)", errBadFile, fileName(name), fi.Mode().Type())
	}
	if fi.Size() > maxFileSize {
		return nil, fmt.Errorf("%w: %s: over %d bytes", errBadFile, fileName(name), maxFileSize)
	}
	// One allocation of the size stated; a file that grows or shrinks
	// while it is read is discarded.
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errBadFile, fileName(name), err)
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("%w: %s: changed while read", errBadFile, fileName(name))
	}
	return b, nil
}

// writeFile replaces the file of the list name in dir with data: see
// writeFileFunc.
func writeFile(dir, name string, data []byte) error {
	return writeFileFunc(dir, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFileFunc replaces the file of the list name in dir with what write
// writes: a temporary file in dir, buffered, synced, then renamed.
func writeFileFunc(dir, name string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(dir, "."+fileName(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("lookup: saving %s: %w", name, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("lookup: saving %s: %w", name, err)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, filepath.Join(dir, fileName(name))); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a directory.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
