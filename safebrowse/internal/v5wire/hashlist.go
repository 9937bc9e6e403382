// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// HashList is a HashList message, its Rice streams not decoded. Read, its
// byte slices alias the message.
type HashList struct {
	Name    string // name; "" when absent
	Version []byte // version; nil when absent
	Partial bool   // partial_update
	// AddWidth is the width of the additions field present (4, 8, 16 or
	// 32: additions_four_bytes … additions_thirty_two_bytes); 0 when none.
	AddWidth  int
	Additions Rice
	// HasRemovals tells whether compressed_removals is present.
	HasRemovals bool
	Removals    Rice
	// MinimumWait is minimum_wait_duration; 0 when absent. Written, a
	// negative value is sent as it is.
	MinimumWait time.Duration
	// Checksum is sha256_checksum; nil when absent (proto3 leaves out an
	// empty one).
	Checksum []byte
	// Metadata is the list's metadata, as ListHashLists sends it; nil when
	// absent.
	Metadata *Metadata
}

// Metadata is a HashListMetadata.
type Metadata struct {
	ThreatTypes     []ThreatType
	LikelySafeTypes []LikelySafeType
	Description     string
	HashLength      HashLength
}

// ParseHashList reads a binary HashList message, under the package's
// policy.
func ParseHashList(b []byte) (HashList, error) {
	var m HashList
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case hashListPartial:
			if err := f.want(protowire.VarintType); err != nil {
				return m, err
			}
			m.Partial = f.v != 0
			continue
		case hashListName, hashListVersion, hashListAdd4, hashListRemovals, hashListMinWait,
			hashListChecksum, hashListMetadata, hashListAdd8, hashListAdd16, hashListAdd32:
		default:
			continue
		}
		if err := f.want(protowire.BytesType); err != nil {
			return m, err
		}
		switch f.num {
		case hashListName:
			m.Name = string(f.b)
		case hashListVersion:
			m.Version = f.b
		case hashListChecksum:
			m.Checksum = nil
			if len(f.b) > 0 {
				m.Checksum = f.b
			}
		case hashListMetadata:
			if err := seen.see(f.num); err != nil {
				return m, err
			}
			md, err := parseMetadata(f.b)
			if err != nil {
				return m, fmt.Errorf("metadata: %w", err)
			}
			m.Metadata = &md
		case hashListMinWait:
			if err := seen.see(f.num); err != nil {
				return m, err
			}
			d, err := ParseDuration(f.b)
			if err != nil {
				return m, fmt.Errorf("minimum_wait_duration: %w", err)
			}
			m.MinimumWait = d
		case hashListRemovals:
			if err := seen.see(f.num); err != nil {
				return m, err
			}
			s, err := ParseRice(f.b, 4)
			if err != nil {
				return m, fmt.Errorf("compressed_removals: %w", err)
			}
			m.HasRemovals, m.Removals = true, s
		default:
			if m.AddWidth != 0 {
				return m, fmt.Errorf("field %d given with field %d (the additions oneof)", f.num, addField(m.AddWidth))
			}
			w := addWidth(f.num)
			s, err := ParseRice(f.b, w)
			if err != nil {
				return m, fmt.Errorf("additions: %w", err)
			}
			m.AddWidth, m.Additions = w, s
		}
	}
	return m, r.err
}

// parseMetadata reads HashListMetadata { 1 threat_types; 2
// likely_safe_types; 4 description; 6 hash_length }.
func parseMetadata(b []byte) (Metadata, error) {
	var md Metadata
	r := reader{b: b}
	var f field
	var err error
	for r.next(&f) {
		switch f.num {
		case metaThreatTypes:
			md.ThreatTypes, err = enums(md.ThreatTypes, &f)
		case metaLikelySafe:
			md.LikelySafeTypes, err = enums(md.LikelySafeTypes, &f)
		case metaDescription:
			if err = f.want(protowire.BytesType); err == nil {
				md.Description = string(f.b)
			}
		case metaHashLength:
			var v int32
			v, err = f.int32()
			md.HashLength = HashLength(v)
		}
		if err != nil {
			return md, err
		}
	}
	return md, r.err
}

// AppendHashList appends m as a binary HashList message, its fields in
// field-number order, those at their zero value left out.
func AppendHashList(b []byte, m *HashList) []byte {
	if m.Name != "" {
		b = protowire.AppendTag(b, hashListName, protowire.BytesType)
		b = protowire.AppendString(b, m.Name)
	}
	if len(m.Version) > 0 {
		b = protowire.AppendTag(b, hashListVersion, protowire.BytesType)
		b = protowire.AppendBytes(b, m.Version)
	}
	if m.Partial {
		b = protowire.AppendTag(b, hashListPartial, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	if m.AddWidth == 4 {
		b = appendRiceField(b, hashListAdd4, 4, &m.Additions)
	}
	if m.HasRemovals {
		b = appendRiceField(b, hashListRemovals, 4, &m.Removals)
	}
	b = appendDurationField(b, hashListMinWait, m.MinimumWait)
	if len(m.Checksum) > 0 {
		b = protowire.AppendTag(b, hashListChecksum, protowire.BytesType)
		b = protowire.AppendBytes(b, m.Checksum)
	}
	if md := m.Metadata; md != nil {
		b = protowire.AppendTag(b, hashListMetadata, protowire.BytesType)
		b = protowire.AppendBytes(b, appendMetadata(nil, md))
	}
	if m.AddWidth > 4 {
		b = appendRiceField(b, addField(m.AddWidth), m.AddWidth, &m.Additions)
	}
	return b
}

func appendRiceField(b []byte, num protowire.Number, w int, s *Rice) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, AppendRice(nil, w, s))
}

func appendMetadata(b []byte, md *Metadata) []byte {
	b = appendEnums(b, metaThreatTypes, md.ThreatTypes)
	b = appendEnums(b, metaLikelySafe, md.LikelySafeTypes)
	if md.Description != "" {
		b = protowire.AppendTag(b, metaDescription, protowire.BytesType)
		b = protowire.AppendString(b, md.Description)
	}
	if md.HashLength != 0 {
		b = protowire.AppendTag(b, metaHashLength, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(md.HashLength)))
	}
	return b
}

// appendEnums appends a repeated enum field, packed.
func appendEnums[E ~int32](b []byte, num protowire.Number, vs []E) []byte {
	if len(vs) == 0 {
		return b
	}
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(int64(v)))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}
