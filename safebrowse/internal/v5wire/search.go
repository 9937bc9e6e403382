// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// SearchHashesResponse is the reply of hashes:search.
type SearchHashesResponse struct {
	FullHashes []FullHash
	// CacheDuration is cache_duration; HasCacheDuration tells whether it
	// was present (a reply without one caches nothing).
	CacheDuration    time.Duration
	HasCacheDuration bool
}

// FullHash is a full hash and the details the server gives for it.
type FullHash struct {
	Hash    [32]byte
	Details []FullHashDetail
}

// FullHashDetail is one threat type of a full hash, with its attributes.
// Read, it is kept whatever its values: [FullHashDetail.Known] tells
// whether a client may use it.
type FullHashDetail struct {
	ThreatType ThreatType
	Attributes []ThreatAttribute
}

// Known reports whether the threat type and every attribute of d are
// values the package knows: a detail with another value is to be ignored
// whole.
func (d *FullHashDetail) Known() bool {
	if !d.ThreatType.Valid() {
		return false
	}
	for _, a := range d.Attributes {
		if !a.Valid() {
			return false
		}
	}
	return true
}

// ParseSearchHashesResponse reads a binary SearchHashesResponse
// { 1 full_hashes; 2 cache_duration }. A full hash that is not 32 bytes,
// or a FullHash without one, is corrupt.
func ParseSearchHashesResponse(b []byte) (SearchHashesResponse, error) {
	var m SearchHashesResponse
	if n := count(b, searchFullHashes); n > 0 {
		m.FullHashes = make([]FullHash, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case searchFullHashes:
			if err := f.want(protowire.BytesType); err != nil {
				return m, err
			}
			h, err := parseFullHash(f.b)
			if err != nil {
				return m, err
			}
			m.FullHashes = append(m.FullHashes, h)
		case searchCacheDuration:
			d, err := readCacheDuration(&f, &seen)
			if err != nil {
				return m, err
			}
			m.CacheDuration, m.HasCacheDuration = d, true
		}
	}
	return m, r.err
}

// parseFullHash reads FullHash { 1 full_hash; 2 full_hash_details }.
func parseFullHash(b []byte) (FullHash, error) {
	var h FullHash
	if n := count(b, fullHashDetails); n > 0 {
		h.Details = make([]FullHashDetail, 0, n)
	}
	has := false
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case fullHashHash:
			if err := f.want(protowire.BytesType); err != nil {
				return h, err
			}
			if len(f.b) != len(h.Hash) {
				return h, fmt.Errorf("full hash of %d bytes, want 32", len(f.b))
			}
			copy(h.Hash[:], f.b)
			has = true
		case fullHashDetails:
			if err := f.want(protowire.BytesType); err != nil {
				return h, err
			}
			d, err := parseDetail(f.b)
			if err != nil {
				return h, err
			}
			h.Details = append(h.Details, d)
		}
	}
	if r.err != nil {
		return h, r.err
	}
	if !has {
		return h, errNoHash
	}
	return h, nil
}

// parseDetail reads FullHashDetail { 1 threat_type; 2 attributes }.
func parseDetail(b []byte) (FullHashDetail, error) {
	var d FullHashDetail
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case detailThreatType:
			v, err := f.int32()
			if err != nil {
				return d, err
			}
			d.ThreatType = ThreatType(v)
		case detailAttributes:
			var err error
			if d.Attributes, err = enums(d.Attributes, &f); err != nil {
				return d, err
			}
		}
	}
	return d, r.err
}

// AppendSearchHashesResponse appends m as a binary SearchHashesResponse.
// cache_duration is written when HasCacheDuration is set or
// CacheDuration is not zero.
func AppendSearchHashesResponse(b []byte, m *SearchHashesResponse) []byte {
	for i := range m.FullHashes {
		b = protowire.AppendTag(b, searchFullHashes, protowire.BytesType)
		b = protowire.AppendBytes(b, appendFullHash(nil, &m.FullHashes[i]))
	}
	return appendCacheDuration(b, searchCacheDuration, m.CacheDuration, m.HasCacheDuration)
}

func appendFullHash(b []byte, h *FullHash) []byte {
	b = protowire.AppendTag(b, fullHashHash, protowire.BytesType)
	b = protowire.AppendBytes(b, h.Hash[:])
	for _, d := range h.Details {
		var m []byte
		if d.ThreatType != 0 {
			m = protowire.AppendTag(m, detailThreatType, protowire.VarintType)
			m = protowire.AppendVarint(m, uint64(int64(d.ThreatType)))
		}
		m = appendEnums(m, detailAttributes, d.Attributes)
		b = protowire.AppendTag(b, fullHashDetails, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	return b
}

// SearchUrlsResponse is the reply of urls:search, the method that Google's
// discovery document has and safebrowsing.proto does not show yet. Its
// field numbers are not published: the binary form numbers the fields in
// the order of the discovery document (threats 1, cacheDuration 2; url 1,
// threatTypes 2), and the JSON form, which the generated clients use, is
// the one that matters.
type SearchUrlsResponse struct {
	Threats          []ThreatURL
	CacheDuration    time.Duration
	HasCacheDuration bool
}

// ThreatURL is one URL found unsafe by urls:search, with its threat types.
type ThreatURL struct {
	URL         string
	ThreatTypes []ThreatType
}

// ParseSearchUrlsResponse reads a binary SearchUrlsResponse.
func ParseSearchUrlsResponse(b []byte) (SearchUrlsResponse, error) {
	var m SearchUrlsResponse
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case urlsThreats:
			if err := f.want(protowire.BytesType); err != nil {
				return m, err
			}
			var t ThreatURL
			tr := reader{b: f.b}
			var tf field
			for tr.next(&tf) {
				var err error
				switch tf.num {
				case threatURLURL:
					if err = tf.want(protowire.BytesType); err == nil {
						t.URL = string(tf.b)
					}
				case threatURLTypes:
					t.ThreatTypes, err = enums(t.ThreatTypes, &tf)
				}
				if err != nil {
					return m, err
				}
			}
			if tr.err != nil {
				return m, tr.err
			}
			m.Threats = append(m.Threats, t)
		case urlsCacheDuration:
			d, err := readCacheDuration(&f, &seen)
			if err != nil {
				return m, err
			}
			m.CacheDuration, m.HasCacheDuration = d, true
		}
	}
	return m, r.err
}

// AppendSearchUrlsResponse appends m as a binary SearchUrlsResponse.
func AppendSearchUrlsResponse(b []byte, m *SearchUrlsResponse) []byte {
	for _, t := range m.Threats {
		var tm []byte
		if t.URL != "" {
			tm = protowire.AppendTag(tm, threatURLURL, protowire.BytesType)
			tm = protowire.AppendString(tm, t.URL)
		}
		tm = appendEnums(tm, threatURLTypes, t.ThreatTypes)
		b = protowire.AppendTag(b, urlsThreats, protowire.BytesType)
		b = protowire.AppendBytes(b, tm)
	}
	return appendCacheDuration(b, urlsCacheDuration, m.CacheDuration, m.HasCacheDuration)
}

// readCacheDuration reads f, the singular cache_duration of a search
// reply: a Duration, given at most once.
func readCacheDuration(f *field, seen *once) (time.Duration, error) {
	if err := f.want(protowire.BytesType); err != nil {
		return 0, err
	}
	if err := seen.see(f.num); err != nil {
		return 0, err
	}
	d, err := ParseDuration(f.b)
	if err != nil {
		return 0, fmt.Errorf("cache_duration: %w", err)
	}
	return d, nil
}

// appendCacheDuration appends d as field num, the cache_duration of a
// search reply, when has is set or d is not zero.
func appendCacheDuration(b []byte, num protowire.Number, d time.Duration, has bool) []byte {
	if !has && d == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, AppendDuration(nil, d))
}
