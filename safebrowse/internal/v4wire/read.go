// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
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

// reader reads the fields of one message in turn. protowire checks every
// length against the bytes left before a value is taken, so nothing is
// allocated for a length the message does not hold.
type reader struct {
	b   []byte
	err error
}

// next reads the next field into f, reporting false at the end of the
// message or on an error, which r.err then holds. A field number of 0, a
// truncated tag, varint or length, and an unbalanced group are errors.
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

// bytes returns f's value as a length-delimited field.
func (f *field) bytes() ([]byte, error) {
	return f.b, f.want(protowire.BytesType)
}

// int32 returns f's value as an int32 (or an enum), which protobuf sends
// sign-extended to 64 bits.
func (f *field) int32() (int32, error) {
	if err := f.want(protowire.VarintType); err != nil {
		return 0, err
	}
	return toInt32(f.num, f.v)
}

// int64 returns f's value as an int64.
func (f *field) int64() (int64, error) {
	return int64(f.v), f.want(protowire.VarintType)
}

func toInt32(num protowire.Number, v uint64) (int32, error) {
	x := int64(v)
	if x != int64(int32(x)) {
		return 0, fmt.Errorf("field %d overflows int32", num)
	}
	return int32(x), nil
}

// int32s appends the values of a repeated int32 or enum field, packed or
// not.
func int32s[E ~int32](dst []E, f *field) ([]E, error) {
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
			x, err := toInt32(f.num, v)
			if err != nil {
				return dst, err
			}
			dst = append(dst, E(x))
		}
		return dst, nil
	}
	return dst, f.want(protowire.VarintType)
}

// count returns how many times field num occurs in the message b, as far
// as b reads: room for a repeated field's values, allocated once. Each
// occurrence takes at least two bytes of b.
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

// Sub-messages cost a reader far more than their bytes: an empty one is
// two bytes of input, and a struct of up to 120 bytes once read. So that
// a reader's memory is a small multiple of its input, a message of n
// bytes may hold at most n/bytesPerMessage + freeMessages sub-messages in
// all (each element of a repeated message field, and each message held by
// a pointer), and a JSON message of n bytes at most
// n/jsonBytesPerMessage + freeMessages objects and strings in arrays. No
// server or client sends messages that dense: a 4-byte prefix to search
// takes 8 bytes, a list's descriptor 8, an update far more.
const (
	bytesPerMessage     = 8
	jsonBytesPerMessage = 16
	freeMessages        = 32
)

// budget is the sub-messages a reader may still allocate.
type budget struct{ left int }

func newBudget(b []byte) *budget { return &budget{left: len(b)/bytesPerMessage + freeMessages} }

var errDense = fmt.Errorf("more sub-messages than one per %d bytes", bytesPerMessage)

// take spends n sub-messages, or reports that the message holds more than
// its budget.
func (d *budget) take(n int) error {
	if n > d.left {
		return errDense
	}
	d.left -= n
	return nil
}

// message returns the value of f, a singular message field held by a
// pointer, given at most once, and spends it.
func (d *budget) message(f *field, seen *once) ([]byte, error) {
	b, err := seen.message(f)
	if err != nil {
		return nil, err
	}
	return b, d.take(1)
}

// count returns how many times field num occurs in b, as count does, and
// spends them.
func (d *budget) count(b []byte, num protowire.Number) (int, error) {
	n := count(b, num)
	return n, d.take(n)
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

// message returns the value of f, a singular message field, given at most
// once.
func (o *once) message(f *field) ([]byte, error) {
	if err := f.want(protowire.BytesType); err != nil {
		return nil, err
	}
	return f.b, o.see(f.num)
}

// nonEmpty returns b, or nil when b is empty: proto3 does not tell an
// empty bytes field from an absent one.
func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
