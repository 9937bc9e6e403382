// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestEncodeWorkedExample: the encoder gives the bytes of the
// Local.Database page's example, the prefixes of b./a./y.example.com/ with
// k = 30: first value 0x1d32c508, 2 entries, data 74 00 d2 97 1b ed 49 74 00.
func TestEncodeWorkedExample(t *testing.T) {
	adds := append(append(prefix4("y.example.com/"), prefix4("a.example.com/")...), prefix4("b.example.com/")...)
	m := Message{Name: "se-4b", Additions: adds, RiceParameter: 30}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := hashListMsg{name: "se-4b", add: rice32Msg(0x1d32c508, 30, 2, mustHex("7400d2971bed497400"))}.bytes()
	if !bytes.Equal(got, want) {
		t.Errorf("MarshalBinary = %x\nwant            %x", got, want)
	}
}

// TestChooseK: with RiceParameter 0 the encoder picks log2 of the mean
// gap, 12 for a million random 4-byte prefixes, and the range's ends for
// data that would want less or more.
func TestChooseK(t *testing.T) {
	tests := []struct {
		name string
		span u256
		n, w int
		want int
	}{
		// A million random prefixes: mean gap 4295, k 12.
		{"1M random 4-byte", u256{3: 1<<32 - 1}, 1_000_000, 4, 12},
		// Dense values want k below 3: clamped.
		{"dense", u256{3: 100}, 100, 4, 3},
		// Two values far apart want k 31: clamped to 30.
		{"two far apart", u256{3: 1<<32 - 1}, 2, 4, 30},
		// gc-32b of 10,000 random hashes: k 242.
		{"10k random 32-byte", u256{1<<64 - 1, 1<<64 - 1, 1<<64 - 1, 1<<64 - 1}, 10_000, 32, 242},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chooseK(tt.span, tt.n, tt.w); got != tt.want {
				t.Errorf("chooseK = %d; want %d", got, tt.want)
			}
		})
	}
}

func TestMessageErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      Message
		wantErr error
	}{
		// Width 0 and a name without a suffix.
		{"no width", Message{Name: "se", Additions: be4(1)}, ErrMessage},
		// A width that is not 4, 8, 16 or 32.
		{"width 5", Message{Width: 5}, ErrMessage},
		// Additions that are not whole hashes.
		{"partial hash", Message{Name: "se-4b", Additions: []byte{1, 2, 3}}, ErrMessage},
		// A duplicate addition.
		{"duplicate addition", Message{Name: "se-4b", Additions: be4(7, 3, 7)}, ErrMessage},
		// A duplicate removal.
		{"duplicate removal", Message{Name: "se-4b", Removals: []uint32{4, 2, 4}}, ErrMessage},
		// RiceParameter below the width's range.
		{"k 2", Message{Name: "se-4b", Additions: be4(1, 2), RiceParameter: 2}, ErrMessage},
		// RiceParameter above the 64-bit range.
		{"k 63 for 8 bytes", Message{Width: 8, Additions: make([]byte, 8), RiceParameter: 63}, ErrMessage},
		// A negative MinimumWait.
		{"negative wait", Message{Name: "se-4b", MinimumWait: -time.Second}, ErrMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.in.AppendBinary([]byte("x"))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("AppendBinary = %v; want %v", err, tt.wantErr)
			}
			if string(b) != "x" {
				t.Errorf("AppendBinary changed b on an error: %q", b)
			}
		})
	}
}

// TestMessageRoundTrip: UnmarshalBinary gives back what MarshalBinary
// encoded, sorted.
func TestMessageRoundTrip(t *testing.T) {
	sum := sha256.Sum256(nil)
	tests := []struct {
		name string
		in   Message
		want Message
	}{
		// Every field.
		{"all fields", Message{
			Name: "se-4b", Version: []byte{1, 2}, Partial: true, Width: 4,
			Additions: be4(9, 3, 5), Removals: []uint32{8, 1}, MinimumWait: 90*time.Second + 5,
			Checksum: sum[:], RiceParameter: 3,
		}, Message{
			Name: "se-4b", Version: []byte{1, 2}, Partial: true, Width: 4,
			Additions: be4(3, 5, 9), Removals: []uint32{1, 8}, MinimumWait: 90*time.Second + 5,
			Checksum: sum[:], RiceParameter: 3,
		}},
		// A wait under a second: nanos only.
		{"wait in nanoseconds", Message{Name: "gc-32b", MinimumWait: 7}, Message{Name: "gc-32b", MinimumWait: 7}},
		// No additions: Width reads back as 0; one addition: no k.
		{"one addition", Message{Width: 16, Additions: bytes.Repeat([]byte{0xab}, 16)},
			Message{Width: 16, Additions: bytes.Repeat([]byte{0xab}, 16)}},
		// The zero Message is an empty message.
		{"zero", Message{Width: 4}, Message{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.in.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var got Message
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestMessageUnmarshalCorrupt: a corrupt message is an error and leaves
// the Message unchanged.
func TestMessageUnmarshalCorrupt(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		// A truncated tag.
		{"truncated", []byte{0x0a}},
		// A repeated value in the additions.
		{"zero delta", hashListMsg{add: rice32Msg(5, 3, 1, lsb("0 000"))}.bytes()},
		// A repeated removal.
		{"removal repeated", hashListMsg{rem: rice32Msg(5, 3, 1, lsb("0 000"))}.bytes()},
		// nanos of 1e9.
		{"nanos too big", protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType),
			protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1e9))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Message{Name: "keep"}
			if err := m.UnmarshalBinary(tt.in); !errors.Is(err, ErrCorrupt) {
				t.Errorf("UnmarshalBinary = %v; want ErrCorrupt", err)
			}
			if m.Name != "keep" {
				t.Errorf("m changed on an error: %+v", m)
			}
		})
	}
}

func TestChecksum(t *testing.T) {
	tests := []struct {
		name  string
		in    []byte
		width int
		want  [32]byte
	}{
		// The empty list: SHA-256 of "".
		{"empty", nil, 4, sha256.Sum256(nil)},
		// The hashes are sorted first.
		{"sorted", be4(3, 1, 2), 4, sha256.Sum256(be4(1, 2, 3))},
		// Byte order, not little-endian order.
		{"byte order", be4(0x0100, 0x0001), 4, sha256.Sum256(be4(0x0001, 0x0100))},
		// 32-byte hashes.
		{"32 bytes", append(bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{1}, 32)...), 32,
			sha256.Sum256(append(bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)...))},
		// A duplicate is hashed twice.
		{"duplicate", be4(1, 1), 4, sha256.Sum256(be4(1, 1))},
		// A bad width: the zero array.
		{"width 5", make([]byte, 10), 5, [32]byte{}},
		// A length that is not whole hashes: the zero array.
		{"partial hash", make([]byte, 6), 4, [32]byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := bytes.Clone(tt.in)
			if got := Checksum(in, tt.width); got != tt.want {
				t.Errorf("Checksum = %x; want %x", got, tt.want)
			}
			if !bytes.Equal(in, tt.in) {
				t.Errorf("Checksum changed its input")
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr error
	}{
		// The lists of the v5 reference, by suffix.
		{"se-4b", 4, nil},
		{"mw-4b", 4, nil},
		{"x-8b", 8, nil},
		{"x-16b", 16, nil},
		{"gc-32b", 32, nil},
		// No suffix.
		{"se", 0, ErrName},
		// A suffix alone.
		{"-4b", 0, ErrName},
		// An unknown width.
		{"se-5b", 0, ErrName},
		// Empty.
		{"", 0, ErrName},
		// Upper case, '_' and more than 64 bytes: no list lookup keeps.
		{"Se-4b", 0, ErrName},
		{"se_new-4b", 0, ErrName},
		{strings.Repeat("a", 62) + "-4b", 0, ErrName},
		// 64 bytes is the most.
		{strings.Repeat("a", 61) + "-4b", 4, nil},
		// The resource prefix is dropped once, not twice.
		{"hashLists/hashLists/se-4b", 0, ErrName},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := New(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("New = %v; want %v", err, tt.wantErr)
			}
			if err == nil && (l.Width() != tt.want || l.Name() != tt.in || l.Len() != 0 || len(l.Version()) != 0) {
				t.Errorf("New(%q): width %d name %q", tt.in, l.Width(), l.Name())
			}
		})
	}
}
