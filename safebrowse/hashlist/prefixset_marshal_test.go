// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// filledSet returns a set named name holding n random entries (most of
// 4 bytes) at version v, and the entries.
func filledSet(t testing.TB, name string, n int, v string) (*PrefixSet, []string) {
	t.Helper()
	s, err := NewPrefixSet(name)
	if err != nil {
		t.Fatal(err)
	}
	entries := randomEntries(rand.New(rand.NewPCG(uint64(n), 5)), n, nil)
	var adds [][]byte
	for _, e := range entries {
		adds = append(adds, []byte(e))
	}
	d, err := NewDiff(adds, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	d.Reset, d.Version, d.Checksum = true, []byte(v), sum[:]
	if err := s.Apply(&d, 0); err != nil {
		t.Fatal(err)
	}
	return s, entries
}

// TestPrefixSetMarshalRoundTrip: a saved set loads back with its name,
// version and entries, through MarshalBinary, AppendBinary and WriteTo
// alike, in both forms of its 4-byte part.
func TestPrefixSetMarshalRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		// An empty set.
		{"MALWARE", 0},
		// A few entries, flat.
		{"MALWARE", 50},
		// An indexed 4-byte part, and longer entries.
		{"SOCIAL_ENGINEERING", 80000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, entries := filledSet(t, tt.name, tt.n, "v9")
			blob, err := s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var w bytes.Buffer
			if n, err := s.WriteTo(&w); err != nil || n != int64(len(blob)) || !bytes.Equal(w.Bytes(), blob) {
				t.Fatalf("WriteTo wrote %d bytes, %v; not MarshalBinary's %d", n, err, len(blob))
			}
			if app, _ := s.AppendBinary([]byte("x")); !bytes.Equal(app, append([]byte("x"), blob...)) {
				t.Fatal("AppendBinary does not append MarshalBinary's blob")
			}
			back, _ := NewPrefixSet(tt.name)
			if err := back.UnmarshalBinary(blob); err != nil {
				t.Fatal(err)
			}
			checkSet(t, back, entries, "v9")
			var zero PrefixSet
			if err := zero.UnmarshalBinary(blob); err != nil || zero.Name() != tt.name {
				t.Fatalf("the zero set loads as %q, %v", zero.Name(), err)
			}
		})
	}
}

// TestPrefixSetUnmarshalCorrupt: a damaged blob, another set's, or a
// List's, is refused and leaves the set unchanged.
func TestPrefixSetUnmarshalCorrupt(t *testing.T) {
	s, _ := filledSet(t, "MALWARE", 300, "v1")
	blob, _ := s.MarshalBinary()
	list := filled(t, "se-4b", 10, "v")
	listBlob, _ := list.MarshalBinary()
	other, _ := filledSet(t, "UNWANTED_SOFTWARE", 3, "v1")
	otherBlob, _ := other.MarshalBinary()
	flip := func(i int) []byte {
		b := bytes.Clone(blob)
		b[i] ^= 1
		return b
	}
	// swapped is a blob whose 4- and 5-byte entries exchange bytes, so
	// that their concatenation in byte order, and so the set's checksum,
	// stay the same: "aaaa" and "bbbbb" against "aaaab" and "bbbb".
	a, _ := NewPrefixSet("MALWARE")
	d := diffOf(t, true, []string{"61616161", "6262626262"}, nil, false)
	sum := sha256.Sum256([]byte("aaaabbbbb"))
	d.Checksum = sum[:]
	if err := a.Apply(&d, 0); err != nil {
		t.Fatal(err)
	}
	ab, _ := a.MarshalBinary()
	swapped := bytes.Replace(ab, []byte("aaaabbbbb"), []byte("bbbbaaaab"), 1)
	if bytes.Equal(swapped, ab) {
		t.Fatal("the entries are not where the test expects them")
	}
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		// Empty, truncated, a byte flipped in the header (the version),
		// in the 4-byte entries, in the trailer.
		{"empty", nil, ErrCorrupt},
		{"truncated", blob[:len(blob)-1], ErrCorrupt},
		{"flipped version", flip(len(setMagic) + 1 + 1 + len("MALWARE") + 1), ErrCorrupt},
		{"flipped entry", flip(len(blob) / 2), ErrCorrupt},
		{"flipped trailer", flip(len(blob) - 1), ErrCorrupt},
		// An unknown format version.
		{"format 2", flip(len(setMagic)), ErrCorrupt},
		// A v5 List's blob.
		{"list", listBlob, ErrCorrupt},
		// Another set's blob.
		{"other set", otherBlob, ErrName},
		// Entries changed in a way the set's checksum cannot see.
		{"swapped", swapped, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := entriesOf(s)
			if err := s.UnmarshalBinary(tt.in); !errors.Is(err, tt.wantErr) {
				t.Fatalf("UnmarshalBinary = %v; want %v", err, tt.wantErr)
			}
			checkSet(t, s, before, "v1")
		})
	}
	// And a List does not load a set's blob.
	if err := list.UnmarshalBinary(blob); !errors.Is(err, ErrCorrupt) {
		t.Errorf("List.UnmarshalBinary of a set = %v; want ErrCorrupt", err)
	}
}

// FuzzPrefixSetUnmarshal loads a blob into the zero set. Properties: no
// panic; on an error the set is unchanged; after a success the set
// holds sorted entries, none a prefix of the next, of the right
// checksum, and saves back to the same blob.
func FuzzPrefixSetUnmarshal(f *testing.F) {
	for _, n := range []int{0, 3, 40} {
		s, _ := filledSet(f, "MALWARE", n, "v")
		blob, err := s.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(blob)
	}
	f.Add([]byte("prefixset\x01"))
	f.Fuzz(func(t *testing.T, blob []byte) {
		var s PrefixSet
		if err := s.UnmarshalBinary(blob); err != nil {
			if s.Name() != "" || s.Len() != 0 {
				t.Fatalf("the set changed on %v", err)
			}
			return
		}
		entries := entriesOf(&s)
		for i := 1; i < len(entries); i++ {
			if entries[i] <= entries[i-1] || strings.HasPrefix(entries[i], entries[i-1]) {
				t.Fatalf("entries %x and %x", entries[i-1], entries[i])
			}
		}
		if sum := sha256.Sum256([]byte(strings.Join(entries, ""))); sum != s.Checksum() {
			t.Fatal("the checksum is not the entries'")
		}
		again, err := s.MarshalBinary()
		if err != nil || !bytes.Equal(again, blob) {
			t.Fatalf("a loaded set saves to another blob (%v)", err)
		}
	})
}
