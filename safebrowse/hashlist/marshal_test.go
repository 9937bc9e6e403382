// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// filled returns a list named name holding n random hashes at version v.
func filled(t testing.TB, name string, n int, v string) *List {
	t.Helper()
	l, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	hashes := randomHashes(rand.New(rand.NewPCG(uint64(n), 9)), n, l.Width(), 0)
	sum := Checksum(hashes, l.Width())
	msg, err := (&Message{Name: name, Version: []byte(v), Additions: hashes, Checksum: sum[:]}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Apply(msg); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestMarshalRoundTrip: a saved list loads back with its name, version
// and hashes, in both forms of a 4-byte list and for 32-byte lists.
func TestMarshalRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		// An empty 4-byte list.
		{"se-4b", 0},
		// A flat 4-byte list.
		{"se-4b", 100},
		// An indexed 4-byte list.
		{"se-4b", 70000},
		// An empty Global Cache.
		{"gc-32b", 0},
		// A Global Cache.
		{"gc-32b", 1000},
		// 8- and 16-byte lists.
		{"x-8b", 10},
		{"x-16b", 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := filled(t, tt.name, tt.n, "v7")
			blob, err := l.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, _ := New(tt.name)
			if err := back.UnmarshalBinary(blob); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(collect(back), collect(l)) || string(back.Version()) != "v7" || back.Len() != tt.n {
				t.Errorf("loaded list differs: %d hashes, version %q", back.Len(), back.Version())
			}
			if back.load().sum != l.load().sum {
				t.Errorf("loaded checksum differs")
			}
			var buf bytes.Buffer
			if n, err := l.WriteTo(&buf); err != nil || n != int64(len(blob)) || !bytes.Equal(buf.Bytes(), blob) {
				t.Errorf("WriteTo wrote %d bytes (%v), not MarshalBinary's %d", n, err, len(blob))
			}
			var zero List
			if err := zero.UnmarshalBinary(blob); err != nil || zero.Name() != tt.name || zero.Len() != tt.n {
				t.Errorf("zero List: %v, name %q, %d hashes", err, zero.Name(), zero.Len())
			}
		})
	}
}

// TestUnmarshalCorrupt: every flipped bit, every truncation, and a blob of
// another list are errors, and leave the list unchanged.
func TestUnmarshalCorrupt(t *testing.T) {
	blob, err := filled(t, "se-4b", 20, "v1").MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	l := filled(t, "se-4b", 5, "v0")
	want := collect(l)
	check := func(in []byte, wantErr error) {
		t.Helper()
		if err := l.UnmarshalBinary(in); !errors.Is(err, wantErr) {
			t.Fatalf("UnmarshalBinary = %v; want %v", err, wantErr)
		}
		if !bytes.Equal(collect(l), want) || string(l.Version()) != "v0" {
			t.Fatalf("list changed on an error")
		}
	}
	for i := range 8 * len(blob) {
		b := bytes.Clone(blob)
		b[i/8] ^= 1 << (i % 8)
		err := l.UnmarshalBinary(b)
		if err == nil {
			t.Fatalf("bit %d flipped: no error", i)
		}
		if !bytes.Equal(collect(l), want) {
			t.Fatalf("list changed on an error")
		}
	}
	for n := range len(blob) {
		check(blob[:n], ErrCorrupt)
	}
	check(append(bytes.Clone(blob), 0), ErrCorrupt)
	other, err := filled(t, "mw-4b", 3, "v1").MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	check(other, ErrName)
	var zero List
	if _, err := zero.MarshalBinary(); !errors.Is(err, ErrName) {
		t.Errorf("MarshalBinary of the zero List = %v; want ErrName", err)
	}
}
