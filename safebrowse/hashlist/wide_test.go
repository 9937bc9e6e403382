// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// riceWideMsg hand-builds a RiceDeltaEncoded64Bit, 128Bit or 256Bit
// message: parts of the first value (the first a varint, the rest
// fixed64), then rice_parameter, entries_count and encoded_data.
func riceWideMsg(parts []uint64, k, count int64, data []byte) []byte {
	var b []byte
	for i, p := range parts {
		if i == 0 {
			b = protowire.AppendTag(b, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, p)
		} else {
			b = protowire.AppendTag(b, protowire.Number(i+1), protowire.Fixed64Type)
			b = protowire.AppendFixed64(b, p)
		}
	}
	n := protowire.Number(len(parts))
	b = protowire.AppendTag(b, n+1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(k))
	b = protowire.AppendTag(b, n+2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(count))
	b = protowire.AppendTag(b, n+3, protowire.BytesType)
	b = protowire.AppendBytes(b, data)
	return b
}

// bitsOf returns the k bits of v, least significant first, as lsb reads.
func bitsOf(v uint64, k int) string {
	var s strings.Builder
	for i := range k {
		s.WriteByte('0' + byte(v>>i&1))
	}
	return s.String()
}

// TestApplyWide checks the 64-, 128- and 256-bit streams: the parts of the
// first value in their fields, k ranges, the remainder across words, and
// overflow of the width.
func TestApplyWide(t *testing.T) {
	h := func(s string) []byte { return mustHex(strings.ReplaceAll(s, " ", "")) }
	tests := []struct {
		name    string
		list    string
		field   protowire.Number
		add     []byte
		want    []byte
		wantErr error
	}{
		// 64-bit: first value, then delta (1 << 35) + 5 with k 35: q 1, r 5.
		{"64-bit k 35", "x-8b", 9, riceWideMsg([]uint64{0x0102030405060708}, 35, 1, lsb("10"+bitsOf(5, 35))),
			h("0102030405060708 0102030C0506070D"), nil},
		// 64-bit: k 62, the top of the range: delta 2^62 - 1 (q 0).
		{"64-bit k 62", "x-8b", 9, riceWideMsg([]uint64{1}, 62, 1, lsb("0"+bitsOf(1<<62-1, 62))),
			h("0000000000000001 4000000000000000"), nil},
		// 64-bit: k 34 is below the range.
		{"64-bit k 34", "x-8b", 9, riceWideMsg([]uint64{1}, 34, 1, lsb("0"+bitsOf(1, 34))), nil, ErrCorrupt},
		// 64-bit: a value past 2^64-1 overflows.
		{"64-bit overflow", "x-8b", 9, riceWideMsg([]uint64{1<<64 - 2}, 35, 1, lsb("0"+bitsOf(2, 35))), nil, ErrCorrupt},
		// 64-bit: the largest value fits.
		{"64-bit largest", "x-8b", 9, riceWideMsg([]uint64{1<<64 - 2}, 35, 1, lsb("0"+bitsOf(1, 35))),
			h("fffffffffffffffe ffffffffffffffff"), nil},
		// 64-bit: a quotient too long for 64 bits (q 4 with k 62).
		{"64-bit quotient overflow", "x-8b", 9, riceWideMsg([]uint64{0}, 62, 1, lsb("11110"+bitsOf(0, 62))), nil, ErrCorrupt},
		// 64-bit: a zero delta.
		{"64-bit zero delta", "x-8b", 9, riceWideMsg([]uint64{7}, 35, 1, lsb("0"+bitsOf(0, 35))), nil, ErrCorrupt},
		// 128-bit: first_value_hi is the high half, first_value_lo the low;
		// delta 2^99 + 3 with k 99 (a remainder over four 32-bit reads).
		{"128-bit hi and lo", "x-16b", 10, riceWideMsg([]uint64{0x1112131415161718, 0x2122232425262728}, 99, 1, lsb("10"+bitsOf(3, 64)+bitsOf(0, 35))),
			h("1112131415161718 2122232425262728 1112131C15161718 212223242526272B"), nil},
		// 128-bit: k 98 is below the range.
		{"128-bit k 98", "x-16b", 10, riceWideMsg([]uint64{0, 1}, 98, 1, lsb("0"+bitsOf(1, 64)+bitsOf(0, 34))), nil, ErrCorrupt},
		// 256-bit: four parts, most significant first; no entries.
		{"256-bit parts", "gc-32b", 11, riceWideMsg([]uint64{1, 2, 3, 4}, 0, 0, nil),
			h("0000000000000001 0000000000000002 0000000000000003 0000000000000004"), nil},
		// 256-bit: delta 1 with k 227.
		{"256-bit k 227", "gc-32b", 11, riceWideMsg([]uint64{1, 2, 3, 4}, 227, 1, lsb("0"+bitsOf(1, 64)+bitsOf(0, 163))),
			h("0000000000000001 0000000000000002 0000000000000003 0000000000000004 0000000000000001 0000000000000002 0000000000000003 0000000000000005"), nil},
		// 256-bit: overflow past 2^256-1.
		{"256-bit overflow", "gc-32b", 11, riceWideMsg([]uint64{1<<64 - 1, 1<<64 - 1, 1<<64 - 1, 1<<64 - 1}, 227, 1, lsb("0"+bitsOf(1, 64)+bitsOf(0, 163))), nil, ErrCorrupt},
		// 256-bit: the stream ends inside a long remainder (q 8, then 222 of
		// the 227 remainder bits).
		{"256-bit ends early", "gc-32b", 11, riceWideMsg([]uint64{1, 2, 3, 4}, 227, 1, lsb("111111110"+bitsOf(1, 64)+bitsOf(0, 158))), nil, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New(tt.list)
			if err != nil {
				t.Fatal(err)
			}
			var sum []byte
			if tt.want != nil {
				s := sha256.Sum256(tt.want)
				sum = s[:]
			} else {
				sum = make([]byte, 32)
			}
			err = l.Apply(hashListMsg{addField: tt.field, add: tt.add, checksum: sum}.bytes())
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Apply = %v; want %v", err, tt.wantErr)
			}
			if err != nil {
				if l.Len() != 0 {
					t.Errorf("Len = %d after an error", l.Len())
				}
				return
			}
			if got := collect(l); !bytes.Equal(got, tt.want) {
				t.Errorf("All = %x; want %x", got, tt.want)
			}
		})
	}
}
