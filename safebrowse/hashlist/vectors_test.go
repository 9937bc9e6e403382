// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// rice32Msg hand-builds a RiceDeltaEncoded32Bit (or 64Bit) message with
// protowire, field by field, independently of the package's encoder.
func rice32Msg(first uint64, k, count int64, data []byte) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, first)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(k))
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(count))
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendBytes(b, data)
	return b
}

// hashListMsg hand-builds a HashList message with protowire.
type hashListMsg struct {
	name     string
	version  string
	partial  bool
	addField protowire.Number
	add      []byte // an encoded Rice message
	rem      []byte // an encoded Rice message
	checksum []byte
}

func (h hashListMsg) bytes() []byte {
	var b []byte
	if h.name != "" {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, h.name)
	}
	if h.version != "" {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, h.version)
	}
	if h.partial {
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	if h.add != nil {
		f := h.addField
		if f == 0 {
			f = 4
		}
		b = protowire.AppendTag(b, f, protowire.BytesType)
		b = protowire.AppendBytes(b, h.add)
	}
	if h.rem != nil {
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, h.rem)
	}
	if h.checksum != nil {
		b = protowire.AppendTag(b, 7, protowire.BytesType)
		b = protowire.AppendBytes(b, h.checksum)
	}
	return b
}

func prefix4(expr string) []byte {
	h := sha256.Sum256([]byte(expr))
	return h[:4]
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestWorkedExample decodes the example of the Local.Database page (spec
// digest, "Rice-delta decoding"): first value 0x1d32c508, k = 30, two
// entries, data 74 00 d2 97 1b ed 49 74 00, which hold the 4-byte
// prefixes of b.example.com/, a.example.com/ and y.example.com/
// (sha256sum: 1d32c508, 291bc542, f7a502e5).
func TestWorkedExample(t *testing.T) {
	want := bytes.Join([][]byte{
		prefix4("b.example.com/"), prefix4("a.example.com/"), prefix4("y.example.com/"),
	}, nil)
	if got := hex.EncodeToString(want); got != "1d32c508291bc542f7a502e5" {
		t.Fatalf("prefixes = %s", got)
	}
	sum := sha256.Sum256(want)
	msg := hashListMsg{
		name:     "se-4b",
		version:  "v1",
		add:      rice32Msg(0x1d32c508, 30, 2, mustHex("7400d2971bed497400")),
		checksum: sum[:],
	}.bytes()
	for _, min := range []int{1 << 16, 0} {
		indexMin = min
		l, _ := New("se-4b")
		if err := l.Apply(msg); err != nil {
			t.Fatalf("indexMin %d: Apply: %v", min, err)
		}
		if got := collect(l); !bytes.Equal(got, want) {
			t.Errorf("indexMin %d: All = %x; want %x", min, got, want)
		}
		for _, e := range []string{"a.example.com/", "b.example.com/", "y.example.com/"} {
			if !l.Contains(prefix4(e)) {
				t.Errorf("indexMin %d: Contains(%s) = false", min, e)
			}
		}
		if l.Contains(prefix4("c.example.com/")) {
			t.Errorf("indexMin %d: Contains(c.example.com/) = true", min)
		}
	}
	indexMin = 1 << 16
}

// TestChromiumVector decodes Chromium's v5_rice unit test vector: first
// value 10, k 3, one entry, data 02, giving 10 and 11.
func TestChromiumVector(t *testing.T) {
	var m Message
	msg := hashListMsg{name: "x-4b", add: rice32Msg(10, 3, 1, []byte{0x02})}.bytes()
	if err := m.UnmarshalBinary(msg); err != nil {
		t.Fatal(err)
	}
	if want := []byte{0, 0, 0, 10, 0, 0, 0, 11}; !bytes.Equal(m.Additions, want) {
		t.Errorf("Additions = %x; want %x", m.Additions, want)
	}
}

// collect returns the hashes of l, concatenated.
func collect(l *List) []byte {
	var b []byte
	for h := range l.All() {
		b = append(b, h...)
	}
	return b
}
