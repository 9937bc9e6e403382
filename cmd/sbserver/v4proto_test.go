// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is a v4 Update API client for the tests, in binary protobuf,
// written from the v4 protos (safebrowsing.proto of
// github.com/google/safebrowsing, the v4 reference's messages) with
// protowire, not with the module's v4 wire (safebrowse/internal/v4wire,
// which a command cannot import): the requests that google/safebrowsing
// and Chromium send, the replies they read, a list kept as the v4
// reference's "Local databases" says, and a bit-at-a-time Rice decoder
// written from its "Compressed data" page.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// The v4 enums' numbers.
const (
	v4Malware     = 1 // ThreatType
	v4SocialEng   = 2
	v4Unwanted    = 3
	v4PHA         = 4
	v4Windows     = 1 // PlatformType
	v4AnyPlatform = 6
	v4Chrome      = 8
	v4URL         = 1 // ThreatEntryType
	v4Executable  = 2
	v4Raw         = 1 // CompressionType
	v4Rice        = 2
	v4Partial     = 1 // ResponseType
	v4Full        = 2
)

// A v4Desc names a v4 list: threat type, platform type, threat entry type.
type v4Desc struct{ threat, platform, entry int }

// v4FetchRequest is a FetchThreatListUpdatesRequest of lists, each from
// its state (nil for none), with compressions as
// constraints.supportedCompressions.
func v4FetchRequest(lists []v4Desc, states [][]byte, compressions ...int) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType) // client
	b = protowire.AppendBytes(b, protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "sbserver-test"))
	for i, l := range lists {
		var lr []byte
		lr = protowire.AppendTag(lr, 1, protowire.VarintType)
		lr = protowire.AppendVarint(lr, uint64(l.threat))
		lr = protowire.AppendTag(lr, 2, protowire.VarintType)
		lr = protowire.AppendVarint(lr, uint64(l.platform))
		if len(states[i]) > 0 {
			lr = protowire.AppendTag(lr, 3, protowire.BytesType)
			lr = protowire.AppendBytes(lr, states[i])
		}
		var c []byte
		for _, comp := range compressions {
			c = protowire.AppendTag(c, 4, protowire.VarintType)
			c = protowire.AppendVarint(c, uint64(comp))
		}
		lr = protowire.AppendTag(lr, 4, protowire.BytesType)
		lr = protowire.AppendBytes(lr, c)
		lr = protowire.AppendTag(lr, 5, protowire.VarintType)
		lr = protowire.AppendVarint(lr, uint64(l.entry))
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, lr)
	}
	return b
}

// v4FindRequest is a FindFullHashesRequest of prefixes, on threat types
// and platforms, of entry type URL.
func v4FindRequest(threats, platforms []int, prefixes ...[]byte) []byte {
	var ti []byte
	for _, t := range threats {
		ti = protowire.AppendTag(ti, 1, protowire.VarintType)
		ti = protowire.AppendVarint(ti, uint64(t))
	}
	for _, p := range platforms {
		ti = protowire.AppendTag(ti, 2, protowire.VarintType)
		ti = protowire.AppendVarint(ti, uint64(p))
	}
	for _, p := range prefixes {
		ti = protowire.AppendTag(ti, 3, protowire.BytesType)
		ti = protowire.AppendBytes(ti, protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), p))
	}
	ti = protowire.AppendTag(ti, 4, protowire.VarintType)
	ti = protowire.AppendVarint(ti, v4URL)
	b := protowire.AppendTag(nil, 3, protowire.BytesType)
	return protowire.AppendBytes(b, ti)
}

// A v4Update is a ListUpdateResponse.
type v4Update struct {
	desc                v4Desc
	responseType        int
	additions, removals []v4Set
	state, checksum     []byte
}

// A v4Set is a ThreatEntrySet.
type v4Set struct {
	compression int
	prefixSize  int
	raw         []byte  // raw_hashes.raw_hashes
	indices     []int64 // raw_indices.indices
	rice        *v4RiceDelta
	riceIndices bool // rice is rice_indices, not rice_hashes
}

// A v4RiceDelta is a RiceDeltaEncoding.
type v4RiceDelta struct {
	first    int64
	k, count int64
	data     []byte
}

// A v4Match is a ThreatMatch of a FindFullHashesResponse.
type v4Match struct {
	threat, platform, entry int
	hash                    []byte
	cacheDuration           bool
}

// fields calls f for each field of the message b.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v uint64
		var bs []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			bs, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := f(num, typ, v, bs); err != nil {
			return err
		}
	}
	return nil
}

// parseV4Fetch reads a FetchThreatListUpdatesResponse: its list updates,
// and whether it has a minimum_wait_duration.
func parseV4Fetch(b []byte) ([]v4Update, bool, error) {
	var us []v4Update
	wait := false
	err := fields(b, func(num protowire.Number, _ protowire.Type, _ uint64, bs []byte) error {
		switch num {
		case 1:
			u, err := parseV4Update(bs)
			us = append(us, u)
			return err
		case 2:
			wait = true
		}
		return nil
	})
	return us, wait, err
}

func parseV4Update(b []byte) (v4Update, error) {
	var u v4Update
	err := fields(b, func(num protowire.Number, _ protowire.Type, v uint64, bs []byte) error {
		switch num {
		case 1:
			u.desc.threat = int(v)
		case 2:
			u.desc.entry = int(v)
		case 3:
			u.desc.platform = int(v)
		case 4:
			u.responseType = int(v)
		case 5, 6:
			s, err := parseV4Set(bs)
			if num == 5 {
				u.additions = append(u.additions, s)
			} else {
				u.removals = append(u.removals, s)
			}
			return err
		case 7:
			u.state = slices.Clone(bs)
		case 8:
			return fields(bs, func(num protowire.Number, _ protowire.Type, _ uint64, bs []byte) error {
				if num == 1 {
					u.checksum = slices.Clone(bs)
				}
				return nil
			})
		}
		return nil
	})
	return u, err
}

func parseV4Set(b []byte) (v4Set, error) {
	var s v4Set
	err := fields(b, func(num protowire.Number, _ protowire.Type, v uint64, bs []byte) error {
		switch num {
		case 1:
			s.compression = int(v)
		case 2: // RawHashes
			return fields(bs, func(num protowire.Number, _ protowire.Type, v uint64, bs []byte) error {
				switch num {
				case 1:
					s.prefixSize = int(v)
				case 2:
					s.raw = slices.Clone(bs)
				}
				return nil
			})
		case 3: // RawIndices, packed or not
			return fields(bs, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error {
				if num != 1 {
					return nil
				}
				if typ == protowire.VarintType {
					s.indices = append(s.indices, int64(int32(v)))
					return nil
				}
				for len(bs) > 0 {
					x, n := protowire.ConsumeVarint(bs)
					if n < 0 {
						return protowire.ParseError(n)
					}
					s.indices, bs = append(s.indices, int64(int32(x))), bs[n:]
				}
				return nil
			})
		case 4, 5:
			r := &v4RiceDelta{}
			s.rice, s.riceIndices = r, num == 5
			return fields(bs, func(num protowire.Number, _ protowire.Type, v uint64, bs []byte) error {
				switch num {
				case 1:
					r.first = int64(v)
				case 2:
					r.k = int64(int32(v))
				case 3:
					r.count = int64(int32(v))
				case 4:
					r.data = slices.Clone(bs)
				}
				return nil
			})
		}
		return nil
	})
	return s, err
}

// parseV4Find reads the matches of a FindFullHashesResponse, and whether
// it has a negative_cache_duration.
func parseV4Find(b []byte) ([]v4Match, bool, error) {
	var ms []v4Match
	negative := false
	err := fields(b, func(num protowire.Number, _ protowire.Type, _ uint64, bs []byte) error {
		switch num {
		case 1:
			var m v4Match
			ms = append(ms, m)
			mp := &ms[len(ms)-1]
			return fields(bs, func(num protowire.Number, _ protowire.Type, v uint64, bs []byte) error {
				switch num {
				case 1:
					mp.threat = int(v)
				case 2:
					mp.platform = int(v)
				case 6:
					mp.entry = int(v)
				case 5:
					mp.cacheDuration = true
				case 3:
					return fields(bs, func(num protowire.Number, _ protowire.Type, _ uint64, bs []byte) error {
						if num == 1 {
							mp.hash = slices.Clone(bs)
						}
						return nil
					})
				}
				return nil
			})
		case 3:
			negative = true
		}
		return nil
	})
	return ms, negative, err
}

// v4RiceDecode decodes a RiceDeltaEncoding as the v4 reference's
// "Compressed data" page says, one bit at a time: first, then count
// deltas, each q<<k + r, q in unary (q one bits, then a zero bit), r in
// k bits, least significant first; the bits of each byte of data are
// taken least significant first; each value is the one before it plus
// its delta, within 32 bits.
func v4RiceDecode(r *v4RiceDelta) ([]uint32, error) {
	if r.first < 0 || r.first > 1<<32-1 {
		return nil, fmt.Errorf("first_value %d outside 32 bits", r.first)
	}
	values := []uint32{uint32(r.first)}
	if r.count == 0 {
		return values, nil
	}
	if r.k < 2 || r.k > 28 {
		return nil, fmt.Errorf("rice_parameter %d outside 2 to 28", r.k)
	}
	pos := 0
	bit := func() (uint64, error) {
		if pos >= 8*len(r.data) {
			return 0, errors.New("encoded_data ends early")
		}
		v := uint64(r.data[pos/8]>>(pos%8)) & 1
		pos++
		return v, nil
	}
	v := uint64(r.first)
	for range r.count {
		var q uint64
		for {
			x, err := bit()
			if err != nil {
				return nil, err
			}
			if x == 0 {
				break
			}
			q++
		}
		var rem uint64
		for i := range r.k {
			x, err := bit()
			if err != nil {
				return nil, err
			}
			rem |= x << i
		}
		if v += q<<r.k | rem; v > 1<<32-1 {
			return nil, errors.New("a value past 32 bits")
		}
		values = append(values, uint32(v))
	}
	return values, nil
}

// A v4Local is a v4 list as a client keeps it: its entries in byte
// order, and the state of its last update.
type v4Local struct {
	entries []string
	state   []byte
}

// apply applies u as the v4 reference's "Local databases" says: a full
// update replaces the list and holds no removals; a partial one removes
// the entries at the removal indices, into the list in byte order; then
// the additions are added, Rice-coded 4-byte ones as little-endian
// uint32s; the SHA-256 of the entries, sorted and concatenated, must be
// the checksum.
func (l *v4Local) apply(u v4Update) error {
	var entries []string
	switch u.responseType {
	case v4Full:
		if len(u.removals) > 0 {
			return errors.New("removals in a FULL_UPDATE")
		}
	case v4Partial:
		entries = slices.Clone(l.entries)
	default:
		return fmt.Errorf("response_type %d", u.responseType)
	}
	gone := map[int64]bool{}
	for _, s := range u.removals {
		idx := s.indices
		switch {
		case s.compression == v4Rice && s.rice != nil && s.riceIndices:
			vs, err := v4RiceDecode(s.rice)
			if err != nil {
				return err
			}
			for _, v := range vs {
				idx = append(idx, int64(v))
			}
		case s.compression != v4Raw:
			return fmt.Errorf("removals of compression %d", s.compression)
		}
		for _, i := range idx {
			if i < 0 || i >= int64(len(entries)) || gone[i] {
				return fmt.Errorf("removal index %d of %d entries", i, len(entries))
			}
			gone[i] = true
		}
	}
	kept := entries[:0]
	for i, e := range entries {
		if !gone[int64(i)] {
			kept = append(kept, e)
		}
	}
	entries = kept
	for _, s := range u.additions {
		switch {
		case s.compression == v4Raw:
			if s.prefixSize < 4 || s.prefixSize > 32 || len(s.raw)%s.prefixSize != 0 {
				return fmt.Errorf("raw_hashes of size %d: %d bytes", s.prefixSize, len(s.raw))
			}
			for i := 0; i < len(s.raw); i += s.prefixSize {
				entries = append(entries, string(s.raw[i:i+s.prefixSize]))
			}
		case s.compression == v4Rice && s.rice != nil && !s.riceIndices:
			vs, err := v4RiceDecode(s.rice)
			if err != nil {
				return err
			}
			for _, v := range vs {
				entries = append(entries, string([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})) // little-endian
			}
		default:
			return fmt.Errorf("additions of compression %d", s.compression)
		}
	}
	slices.Sort(entries)
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	if !bytes.Equal(u.checksum, sum[:]) {
		return fmt.Errorf("checksum %x, want %x", u.checksum, sum)
	}
	l.entries, l.state = entries, u.state
	return nil
}
