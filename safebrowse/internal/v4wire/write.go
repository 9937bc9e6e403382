// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import "google.golang.org/protobuf/encoding/protowire"

// The writers leave out the fields at their zero value, as proto3 does,
// pack repeated scalars, and write fields in field-number order. A
// sub-message held by a pointer is written when the pointer is set, even
// empty, since a client may test its presence.

// appendInt32 appends field num holding v, nothing when v is 0. A negative
// v is sign-extended to 64 bits, as protobuf writes an int32.
func appendInt32[E ~int32](b []byte, num protowire.Number, v E) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(int64(v)))
}

// appendInt64 appends field num holding v, nothing when v is 0.
func appendInt64(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

// appendBytes appends field num holding v, nothing when v is empty.
func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// appendString appends field num holding v, nothing when v is empty.
func appendString(b []byte, num protowire.Number, v string) []byte {
	if v == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, v)
}

// appendPacked appends a repeated int32 or enum field, packed, nothing
// when vs is empty.
func appendPacked[E ~int32](b []byte, num protowire.Number, vs []E) []byte {
	if len(vs) == 0 {
		return b
	}
	n := 0
	for _, v := range vs {
		n += protowire.SizeVarint(uint64(int64(v)))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	for _, v := range vs {
		b = protowire.AppendVarint(b, uint64(int64(v)))
	}
	return b
}

// appendMessage appends field num holding the message that body appends,
// in place: a one-byte length is reserved, and the message moved once
// when its length takes more.
func appendMessage(b []byte, num protowire.Number, body func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	at := len(b)
	b = append(b, 0)
	b = body(b)
	n := len(b) - at - 1
	if n < 0x80 {
		b[at] = byte(n)
		return b
	}
	k := protowire.SizeVarint(uint64(n))
	for range k - 1 {
		b = append(b, 0)
	}
	copy(b[at+k:], b[at+1:at+1+n])
	protowire.AppendVarint(b[at:at], uint64(n))
	return b
}

// appendBytesAlways appends field num holding v, even empty: an element of
// a repeated bytes field.
func appendBytesAlways(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}
