// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// be4 returns the 4-byte big-endian hashes of vals, concatenated.
func be4(vals ...uint32) []byte {
	b := []byte{}
	for _, v := range vals {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	return b
}

// sum4 returns the checksum of a 4-byte list holding vals, in order.
func sum4(vals ...uint32) []byte {
	s := sha256.Sum256(be4(vals...))
	return s[:]
}

// lsb packs a string of '0' and '1', in the order the bits are read (the
// least significant bit of each byte first), into bytes; spaces are
// ignored. It is the test's own bit writer, independent of the encoder.
func lsb(s string) []byte {
	var b []byte
	n := 0
	for _, c := range s {
		if c == ' ' {
			continue
		}
		if n%8 == 0 {
			b = append(b, 0)
		}
		if c == '1' {
			b[n/8] |= 1 << (n % 8)
		}
		n++
	}
	return b
}

// The list every row of TestApply starts from: four 4-byte hashes, at
// version "v0".
var (
	startVals = []uint32{0x10, 0x20, 0x30, 0x40}
	startMsg  = hashListMsg{
		name: "se-4b", version: "v0",
		// 0x10, then deltas 16, 16, 16 with k 3: q 2, r 0 → "110 000".
		add:      rice32Msg(0x10, 3, 3, lsb("110000 110000 110000")),
		checksum: sum4(startVals...),
	}.bytes()
)

func TestApply(t *testing.T) {
	tests := []struct {
		name        string
		in          []byte
		want        []byte // the hashes after; ignored on an error (the start list)
		wantVersion string
		wantErr     error
	}{
		// Full update: partial_update=false replaces the whole list.
		{"full update replaces the list", hashListMsg{
			name: "se-4b", version: "v1", add: rice32Msg(0x15, 3, 1, lsb("0 100")), checksum: sum4(0x15, 0x16),
		}.bytes(), be4(0x15, 0x16), "v1", nil},
		// Full update with no additions: the list becomes empty, whose
		// checksum is SHA-256 of "".
		{"full update to the empty list", hashListMsg{
			name: "se-4b", version: "v1", checksum: sum4(),
		}.bytes(), be4(), "v1", nil},
		// Partial update: the removals apply first, as indices into the old
		// sorted list (1 and 3: 0x20 and 0x40); then the additions (0x20
		// again, 0x50).
		{"partial update removes first then adds", hashListMsg{
			name: "se-4b", version: "v1", partial: true,
			rem: rice32Msg(1, 3, 1, lsb("0 010")),
			add: rice32Msg(0x20, 3, 1, lsb("1111110 000")), checksum: sum4(0x10, 0x20, 0x30, 0x50),
		}.bytes(), be4(0x10, 0x20, 0x30, 0x50), "v1", nil},
		// Partial update with additions only, before, between and after the
		// old hashes: 0x01, 0x15 (delta 20: q 2, r 4), 0x50 (delta 59: q 7, r 3).
		{"partial update adds", hashListMsg{
			partial: true, version: "v1",
			add: rice32Msg(0x01, 3, 2, lsb("110 001 11111110 110")), checksum: sum4(0x01, 0x10, 0x15, 0x20, 0x30, 0x40, 0x50),
		}.bytes(), be4(0x01, 0x10, 0x15, 0x20, 0x30, 0x40, 0x50), "v1", nil},
		// Partial update with removals only: index 0.
		{"partial update removes", hashListMsg{
			partial: true, version: "v1", rem: rice32Msg(0, 0, 0, nil), checksum: sum4(0x20, 0x30, 0x40),
		}.bytes(), be4(0x20, 0x30, 0x40), "v1", nil},
		// Partial update removing every hash.
		{"partial update removes everything", hashListMsg{
			partial: true, version: "v1", rem: rice32Msg(0, 3, 3, lsb("0100 0100 0100")), checksum: sum4(),
		}.bytes(), be4(), "v1", nil},
		// A removal index past the old list is corrupt.
		{"removal index out of range", hashListMsg{
			partial: true, rem: rice32Msg(4, 0, 0, nil), checksum: sum4(startVals...),
		}.bytes(), nil, "", ErrCorrupt},
		// A removal index given twice (a zero delta) is corrupt.
		{"removal index repeated", hashListMsg{
			partial: true, rem: rice32Msg(1, 3, 1, lsb("0 000")), checksum: sum4(0x10, 0x30, 0x40),
		}.bytes(), nil, "", ErrCorrupt},
		// More removals than the list holds fails before decoding.
		{"more removals than hashes", hashListMsg{
			partial: true, rem: rice32Msg(0, 3, 4, lsb("0100 0100 0100 0100")), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Removals in a full update point into no list: corrupt.
		{"removals in a full update", hashListMsg{
			rem: rice32Msg(0, 0, 0, nil), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Additions field: additions_eight_bytes in a 4-byte list.
		{"additions of another width", hashListMsg{
			addField: 9, add: rice32Msg(1, 0, 0, nil), checksum: sum4(1),
		}.bytes(), nil, "", ErrCorrupt},
		// Additions field: additions_thirty_two_bytes in a 4-byte list.
		{"additions of 32 bytes in a 4-byte list", hashListMsg{
			addField: 11, add: []byte{}, checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Name: a name that differs from the list's is an error.
		{"name of another list", hashListMsg{
			name: "mw-4b", checksum: sum4(),
		}.bytes(), nil, "", ErrName},
		// Name: an absent name is the list's.
		{"name absent", hashListMsg{
			version: "v1", checksum: sum4(),
		}.bytes(), be4(), "v1", nil},
		// Checksum: a mismatch is ErrChecksum.
		{"checksum mismatch", hashListMsg{
			add: rice32Msg(0x15, 0, 0, nil), checksum: sum4(0x16),
		}.bytes(), nil, "", ErrChecksum},
		// Checksum: one of another length is a mismatch.
		{"checksum of 31 bytes", hashListMsg{
			add: rice32Msg(0x15, 0, 0, nil), checksum: sum4(0x15)[:31],
		}.bytes(), nil, "", ErrChecksum},
		// Checksum: the hashes must be sorted before hashing.
		{"checksum of unsorted hashes", hashListMsg{
			add: rice32Msg(0x15, 3, 1, lsb("0 100")), checksum: sum4(0x16, 0x15),
		}.bytes(), nil, "", ErrChecksum},
		// Checksum: an addition equal to a held hash is kept once, and the
		// checksum over the set accepts it.
		{"duplicate addition kept once", hashListMsg{
			partial: true, version: "v1", add: rice32Msg(0x20, 0, 0, nil), checksum: sum4(startVals...),
		}.bytes(), be4(startVals...), "v1", nil},
		// Checksum: a server that counted the duplicate twice disagrees.
		{"duplicate addition counted twice", hashListMsg{
			partial: true, add: rice32Msg(0x20, 0, 0, nil), checksum: sum4(0x10, 0x20, 0x20, 0x30, 0x40),
		}.bytes(), nil, "", ErrChecksum},
		// Checksum: an empty sha256_checksum field is absent (proto3).
		{"empty checksum is absent", hashListMsg{
			partial: true, version: "v1", checksum: []byte{},
		}.bytes(), be4(startVals...), "v1", nil},
		// Checksum: a message that changes the list must carry one.
		{"change without checksum", hashListMsg{
			partial: true, add: rice32Msg(0x15, 0, 0, nil),
		}.bytes(), nil, "", ErrCorrupt},
		// Checksum: a full update without one that leaves the same hashes
		// changes nothing, so it is accepted.
		{"full update of the same hashes without checksum", hashListMsg{
			version: "v1", add: rice32Msg(0x10, 3, 3, lsb("110000 110000 110000")),
		}.bytes(), be4(startVals...), "v1", nil},
		// Checksum: a full update to the empty list without one changes it.
		{"full update to empty without checksum", hashListMsg{
			version: "v1",
		}.bytes(), nil, "", ErrCorrupt},
		// Version-only message: a new version and nothing else changes
		// only the version.
		{"version-only message", hashListMsg{
			partial: true, version: "v2",
		}.bytes(), be4(startVals...), "v2", nil},
		// Version-only message with a checksum that matches.
		{"version-only message with checksum", hashListMsg{
			partial: true, version: "v2", checksum: sum4(startVals...),
		}.bytes(), be4(startVals...), "v2", nil},
		// Version-only message with a checksum that does not match.
		{"version-only message with a wrong checksum", hashListMsg{
			partial: true, version: "v2", checksum: sum4(),
		}.bytes(), nil, "", ErrChecksum},
		// An absent version is the empty version (proto3 bytes).
		{"version absent", hashListMsg{
			partial: true,
		}.bytes(), be4(startVals...), "", nil},
		// Rice: k below the 32-bit range with entries.
		{"k 2 out of range", hashListMsg{
			add: rice32Msg(0x15, 2, 1, lsb("0 10")), checksum: sum4(0x15, 0x16),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: k above the 32-bit range with entries.
		{"k 31 out of range", hashListMsg{
			add: rice32Msg(0x15, 31, 1, lsb("0 1000000000000000000000000000000 0")), checksum: sum4(0x15, 0x16),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: k 30, the top of the 32-bit range (k 3 is in the rows above).
		{"k 30 in range", hashListMsg{
			version: "v1", add: rice32Msg(0x15, 30, 1, lsb("0 100000000000000000000000000000")), checksum: sum4(0x15, 0x16),
		}.bytes(), be4(0x15, 0x16), "v1", nil},
		// Rice: with no entries k is ignored, even out of range.
		{"k ignored without entries", hashListMsg{
			version: "v1", add: rice32Msg(0x15, 99, 0, nil), checksum: sum4(0x15),
		}.bytes(), be4(0x15), "v1", nil},
		// Rice: with no entries the encoded data is ignored too.
		{"data ignored without entries", hashListMsg{
			version: "v1", add: rice32Msg(0x15, 0, 0, []byte{0xff, 0xff}), checksum: sum4(0x15),
		}.bytes(), be4(0x15), "v1", nil},
		// Rice: a value past 2^32-1 overflows the width.
		{"overflow of the width", hashListMsg{
			add: rice32Msg(0xfffffff0, 3, 2, lsb("10 000 10 000")), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: a quotient so long that the delta cannot fit 32 bits.
		{"overflow in the quotient", hashListMsg{
			add: rice32Msg(0, 30, 1, lsb("11110"+strings.Repeat("0", 30))), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: the largest value, 2^32-1, fits.
		{"largest value", hashListMsg{
			version: "v1", add: rice32Msg(0xfffffff0, 3, 1, lsb("10 111")), checksum: sum4(0xfffffff0, 0xffffffff),
		}.bytes(), be4(0xfffffff0, 0xffffffff), "v1", nil},
		// Rice: a zero delta repeats a value.
		{"zero delta", hashListMsg{
			add: rice32Msg(0x15, 3, 1, lsb("0 000")), checksum: sum4(0x15, 0x15),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: a stream that ends inside a remainder.
		{"stream ends early in a remainder", hashListMsg{
			add: rice32Msg(0x15, 3, 2, lsb("10 100 0 10")), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: a stream that ends inside a quotient.
		{"stream ends early in a quotient", hashListMsg{
			add: rice32Msg(0x15, 3, 1, []byte{0xff}), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: a negative entries_count.
		{"negative count", hashListMsg{
			add: rice32Msg(0x15, 3, -1, nil), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: a huge entries_count over a few bytes fails at once.
		{"huge count over a few bytes", hashListMsg{
			add: rice32Msg(0x15, 3, 1<<31-1, []byte{1, 2, 3}), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: padding bits after the last entry are ignored.
		{"padding bits ignored", hashListMsg{
			version: "v1", add: rice32Msg(0x15, 3, 1, lsb("0 100 1111")), checksum: sum4(0x15, 0x16),
		}.bytes(), be4(0x15, 0x16), "v1", nil},
		// Rice: whole padding bytes after the last entry are ignored too.
		{"padding bytes ignored", hashListMsg{
			version: "v1", add: rice32Msg(0x15, 3, 1, lsb("0 100 1111 11111111 11111111")), checksum: sum4(0x15, 0x16),
		}.bytes(), be4(0x15, 0x16), "v1", nil},
		// Rice: first_value past 32 bits.
		{"first value overflows", hashListMsg{
			add: rice32Msg(1<<32, 0, 0, nil), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: entries_count past int32.
		{"count overflows int32", hashListMsg{
			add: rice32Msg(0x15, 3, 1<<31, nil), checksum: sum4(),
		}.bytes(), nil, "", ErrCorrupt},
		// Rice: an empty RiceDeltaEncoded32Bit is one value, 0.
		{"empty additions message is the value 0", hashListMsg{
			version: "v1", add: []byte{}, checksum: sum4(0),
		}.bytes(), be4(0), "v1", nil},
		// Wire: a truncated message.
		{"truncated message", startMsg[:len(startMsg)-1], nil, "", ErrCorrupt},
		// Wire: a known field with the wrong wire type.
		{"wrong wire type", protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1), nil, "", ErrCorrupt},
		// Wire: an additions field given twice is not merged.
		{"additions given twice", append(
			hashListMsg{add: rice32Msg(0x15, 0, 0, nil)}.bytes(),
			hashListMsg{add: rice32Msg(0x16, 0, 0, nil), checksum: sum4(0x16)}.bytes()...,
		), nil, "", ErrCorrupt},
		// Wire: two different additions fields (a oneof) are corrupt.
		{"two additions fields", append(
			hashListMsg{add: rice32Msg(0x15, 0, 0, nil)}.bytes(),
			hashListMsg{addField: 9, add: rice32Msg(0x16, 0, 0, nil), checksum: sum4(0x16)}.bytes()...,
		), nil, "", ErrCorrupt},
		// Wire: unknown fields and metadata are skipped.
		{"unknown fields skipped", append(
			protowire.AppendBytes(protowire.AppendTag(
				protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 7),
				8, protowire.BytesType), []byte{0x08, 0x02}),
			hashListMsg{version: "v1", partial: true}.bytes()...,
		), be4(startVals...), "v1", nil},
		// Wire: a scalar given twice takes the last value (protobuf).
		{"scalar given twice", append(
			hashListMsg{version: "vX", partial: true}.bytes(),
			hashListMsg{version: "v1"}.bytes()...,
		), be4(startVals...), "v1", nil},
		// Wire: a negative minimum_wait_duration.
		{"negative minimum wait", protowire.AppendBytes(protowire.AppendTag(
			hashListMsg{partial: true}.bytes(), 6, protowire.BytesType),
			protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(1<<64-5)),
		), nil, "", ErrCorrupt},
		// Wire: a minimum_wait_duration of 2^62 s, longer than a
		// time.Duration holds, is capped, not corrupt (decision i).
		{"huge minimum wait", protowire.AppendBytes(protowire.AppendTag(
			hashListMsg{version: "v1", partial: true}.bytes(), 6, protowire.BytesType),
			protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1<<62),
		), be4(startVals...), "v1", nil},
	}
	for _, min := range []int{1 << 16, 0} {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				indexMin = min
				defer func() { indexMin = 1 << 16 }()
				l, _ := New("se-4b")
				if err := l.Apply(startMsg); err != nil {
					t.Fatalf("start: %v", err)
				}
				err := l.Apply(tt.in)
				if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
					t.Fatalf("Apply = %v; want %v", err, tt.wantErr)
				}
				if err != nil {
					if !strings.HasPrefix(err.Error(), "hashlist: ") {
						t.Errorf("error %q does not begin with hashlist: ", err)
					}
					checkUnchanged(t, l, be4(startVals...), "v0")
					return
				}
				checkUnchanged(t, l, tt.want, tt.wantVersion)
			})
		}
	}
}

// checkUnchanged checks that l holds want at version.
func checkUnchanged(t *testing.T, l *List, want []byte, version string) {
	t.Helper()
	if got := collect(l); !bytes.Equal(got, want) {
		t.Errorf("All = %x; want %x", got, want)
	}
	if l.Len() != len(want)/l.Width() {
		t.Errorf("Len = %d; want %d", l.Len(), len(want)/l.Width())
	}
	if string(l.Version()) != version {
		t.Errorf("Version = %q; want %q", l.Version(), version)
	}
	for i := 0; i < len(want); i += l.Width() {
		if !l.Contains(want[i : i+l.Width()]) {
			t.Errorf("Contains(%x) = false", want[i:i+l.Width()])
		}
	}
}

// TestApplyZeroList: the zero List has no name, so Apply fails.
func TestApplyZeroList(t *testing.T) {
	var l List
	if err := l.Apply(startMsg); !errors.Is(err, ErrName) {
		t.Errorf("Apply on the zero List = %v; want ErrName", err)
	}
	if l.Len() != 0 || l.Contains([]byte{0, 0, 0, 0x10}) || l.Name() != "" || l.Width() != 0 {
		t.Errorf("the zero List is not empty")
	}
}

// TestChecksumQuoted: a checksum of the wrong length is quoted as every
// input is, at most 100 bytes of it (in hex) and its length, so that a
// hostile one does not make a huge error.
func TestChecksumQuoted(t *testing.T) {
	for _, n := range []int{2, 31, 33, 51, 32 << 20} {
		l, _ := New("se-4b")
		err := l.Apply(hashListMsg{checksum: bytes.Repeat([]byte{0xab}, n)}.bytes())
		if !errors.Is(err, ErrChecksum) {
			t.Fatalf("%d bytes: Apply = %v; want ErrChecksum", n, err)
		}
		if msg := err.Error(); len(msg) > 300 || !strings.Contains(msg, "abab") {
			t.Errorf("%d bytes: error of %d bytes: %.400s", n, len(msg), msg)
		}
	}
}
