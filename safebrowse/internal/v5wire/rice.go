// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Rice is one of the four RiceDeltaEncoded messages, for values of 4, 8,
// 16 or 32 bytes, its data not decoded. The 32- and 64-bit forms number
// their fields first_value, rice_parameter, entries_count, encoded_data;
// the 128-bit form splits the first value into first_value_hi (uint64) and
// first_value_lo (fixed64); the 256-bit form into four parts, the first a
// uint64, the others fixed64, most significant first.
type Rice struct {
	// First is the first value, most significant limb first: a value of w
	// bytes is in the low max(w/8, 1) limbs.
	First [4]uint64
	// K is rice_parameter; Count is entries_count, the number of encoded
	// deltas (the values less one).
	K, Count int32
	// Data is encoded_data; it aliases the message read.
	Data []byte
}

// parts returns how many fields hold the first value of w-byte values.
func parts(w int) int { return max(w/8, 1) }

// ParseRice reads a RiceDeltaEncoded message for values of width w bytes.
// It checks the encoding only: the caller checks K and Count against the
// data.
func ParseRice(b []byte, w int) (Rice, error) {
	var s Rice
	p := parts(w)
	r := reader{b: b}
	var f field
	for r.next(&f) {
		n := int(f.num)
		switch {
		case n == 1:
			if err := f.want(protowire.VarintType); err != nil {
				return s, err
			}
			if w == 4 && f.v > math.MaxUint32 {
				return s, fmt.Errorf("first_value overflows 32 bits")
			}
			s.First[4-p] = f.v
		case n >= 2 && n <= p:
			if err := f.want(protowire.Fixed64Type); err != nil {
				return s, err
			}
			s.First[4-p+n-1] = f.v
		case n == p+1 || n == p+2:
			v, err := f.int32()
			if err != nil {
				return s, err
			}
			if n == p+1 {
				s.K = v
			} else {
				s.Count = v
			}
		case n == p+3:
			if err := f.want(protowire.BytesType); err != nil {
				return s, err
			}
			s.Data = f.b
		}
	}
	return s, r.err
}

// AppendRice appends s as a RiceDeltaEncoded message for values of width w
// bytes (its fields only, untagged), leaving out the fields at zero.
func AppendRice(b []byte, w int, s *Rice) []byte {
	p := parts(w)
	for i := range p {
		v := s.First[4-p+i]
		if v == 0 {
			continue
		}
		if i == 0 {
			b = protowire.AppendTag(b, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, v)
		} else {
			b = protowire.AppendTag(b, protowire.Number(i+1), protowire.Fixed64Type)
			b = protowire.AppendFixed64(b, v)
		}
	}
	if s.K != 0 {
		b = protowire.AppendTag(b, protowire.Number(p+1), protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(s.K)))
	}
	if s.Count != 0 {
		b = protowire.AppendTag(b, protowire.Number(p+2), protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(s.Count)))
	}
	if len(s.Data) > 0 {
		b = protowire.AppendTag(b, protowire.Number(p+3), protowire.BytesType)
		b = protowire.AppendBytes(b, s.Data)
	}
	return b
}
