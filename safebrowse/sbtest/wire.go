// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file writes the v5 messages other than HashList (which comes from
// hashlist.Message) with protowire, by their field numbers in
// google/security/safebrowsing/v5/safebrowsing.proto. Fields at their
// zero value are left out, as proto3 does; repeated enums are packed.

// detail is one FullHashDetail: a threat type and its attributes.
type detail struct {
	threat int32
	attrs  []ThreatAttribute
}

// appendFullHash appends a FullHash { 1 full_hash; 2 full_hash_details }
// as field num of the enclosing message.
func appendFullHash(b []byte, num protowire.Number, h [32]byte, details []detail) []byte {
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.BytesType)
	m = protowire.AppendBytes(m, h[:])
	for _, d := range details {
		var dm []byte
		dm = protowire.AppendTag(dm, 1, protowire.VarintType)
		dm = protowire.AppendVarint(dm, uint64(d.threat))
		if len(d.attrs) > 0 {
			var packed []byte
			for _, a := range d.attrs {
				packed = protowire.AppendVarint(packed, uint64(int64(a)))
			}
			dm = protowire.AppendTag(dm, 2, protowire.BytesType)
			dm = protowire.AppendBytes(dm, packed)
		}
		m = protowire.AppendTag(m, 2, protowire.BytesType)
		m = protowire.AppendBytes(m, dm)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

// appendDuration appends a google.protobuf.Duration { 1 seconds; 2 nanos }
// as field num, unless d is zero. A negative d has both parts negative, as
// the Duration type requires.
func appendDuration(b []byte, num protowire.Number, d time.Duration) []byte {
	if d == 0 {
		return b
	}
	var m []byte
	if sec := int64(d / time.Second); sec != 0 {
		m = protowire.AppendTag(m, 1, protowire.VarintType)
		m = protowire.AppendVarint(m, uint64(sec))
	}
	if nanos := int64(d % time.Second); nanos != 0 {
		m = protowire.AppendTag(m, 2, protowire.VarintType)
		m = protowire.AppendVarint(m, uint64(nanos))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

// appendListInfo appends, as field num, a HashList holding only the name
// (1) and the metadata (8) of a list, as ListHashLists sends it:
// HashListMetadata { 1 threat_types; 2 likely_safe_types; 4 description;
// 6 hash_length }.
func appendListInfo(b []byte, num protowire.Number, d *listDef) []byte {
	var md []byte
	if d.threat != 0 {
		md = protowire.AppendTag(md, 1, protowire.BytesType)
		md = protowire.AppendBytes(md, protowire.AppendVarint(nil, uint64(d.threat)))
	}
	if d.likelySafe != 0 {
		md = protowire.AppendTag(md, 2, protowire.BytesType)
		md = protowire.AppendBytes(md, protowire.AppendVarint(nil, uint64(d.likelySafe)))
	}
	md = protowire.AppendTag(md, 4, protowire.BytesType)
	md = protowire.AppendString(md, d.description)
	length := uint64(hashLengthFourBytes)
	if d.width == 32 {
		length = hashLengthThirtyTwoBytes
	}
	md = protowire.AppendTag(md, 6, protowire.VarintType)
	md = protowire.AppendVarint(md, length)

	var m []byte
	m = protowire.AppendTag(m, 1, protowire.BytesType)
	m = protowire.AppendString(m, d.name)
	m = protowire.AppendTag(m, 8, protowire.BytesType)
	m = protowire.AppendBytes(m, md)
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}
