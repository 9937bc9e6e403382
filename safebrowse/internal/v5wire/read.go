// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// field is one field of a message as read: its number and wire type, and
// its value when it is a varint, a fixed64 or length-delimited.
type field struct {
	num protowire.Number
	typ protowire.Type
	v   uint64 // a varint's or fixed64's value
	b   []byte // a length-delimited value, aliasing the message
}

// reader reads the fields of one message in turn.
type reader struct {
	b   []byte
	err error
}

// next reads the next field into f, reporting false at the end of the
// message or on an error, which r.err then holds.
func (r *reader) next(f *field) bool {
	if len(r.b) == 0 || r.err != nil {
		return false
	}
	num, typ, n := protowire.ConsumeTag(r.b)
	if n < 0 {
		r.err = fmt.Errorf("bad field tag: %v", protowire.ParseError(n))
		return false
	}
	r.b = r.b[n:]
	*f = field{num: num, typ: typ}
	switch typ {
	case protowire.VarintType:
		f.v, n = protowire.ConsumeVarint(r.b)
	case protowire.Fixed64Type:
		f.v, n = protowire.ConsumeFixed64(r.b)
	case protowire.BytesType:
		f.b, n = protowire.ConsumeBytes(r.b)
	default:
		n = protowire.ConsumeFieldValue(num, typ, r.b)
	}
	if n < 0 {
		r.err = fmt.Errorf("bad value of field %d: %v", num, protowire.ParseError(n))
		return false
	}
	r.b = r.b[n:]
	return true
}

// want checks that f has the wire type typ.
func (f *field) want(typ protowire.Type) error {
	if f.typ != typ {
		return fmt.Errorf("field %d has wire type %d, want %d", f.num, f.typ, typ)
	}
	return nil
}

// int32 returns f's value as an int32, which protobuf sends sign-extended
// to 64 bits.
func (f *field) int32() (int32, error) {
	if err := f.want(protowire.VarintType); err != nil {
		return 0, err
	}
	x := int64(f.v)
	if x != int64(int32(x)) {
		return 0, fmt.Errorf("field %d overflows int32", f.num)
	}
	return int32(x), nil
}

// enums appends the values of a repeated enum field, packed or not.
func enums[E ~int32](dst []E, f *field) ([]E, error) {
	switch f.typ {
	case protowire.VarintType:
		v, err := f.int32()
		return append(dst, E(v)), err
	case protowire.BytesType:
		// One value ends at each byte under 0x80: room for them all at
		// once, so that a long packed field costs its values and no
		// regrowth.
		n := 0
		for _, c := range f.b {
			if c < 0x80 {
				n++
			}
		}
		dst = slices.Grow(dst, n)
		for p := f.b; len(p) > 0; {
			v, n := protowire.ConsumeVarint(p)
			if n < 0 {
				return dst, fmt.Errorf("field %d: %v", f.num, protowire.ParseError(n))
			}
			p = p[n:]
			x := int64(v)
			if x != int64(int32(x)) {
				return dst, fmt.Errorf("field %d overflows int32", f.num)
			}
			dst = append(dst, E(x))
		}
		return dst, nil
	}
	return dst, f.want(protowire.VarintType)
}

// count returns how many times field num occurs in the message b, as far
// as b reads: room for a repeated field's values, allocated once.
func count(b []byte, num protowire.Number) int {
	n := 0
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num == num {
			n++
		}
	}
	return n
}

// once tracks the singular message fields seen, to refuse one given twice.
type once uint64

func (o *once) see(num protowire.Number) error {
	bit := once(1) << (num & 63)
	if *o&bit != 0 {
		return fmt.Errorf("field %d given twice", num)
	}
	*o |= bit
	return nil
}

// errNoHash reports a FullHash without its full_hash.
var errNoHash = errors.New("FullHash without full_hash")
