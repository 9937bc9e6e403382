// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"errors"
	"fmt"
	"time"
)

// This file holds the messages of Web Risk's hashes.search and
// uris.search.

// SearchHashesRequest is the request of Web Risk's GET /v1/hashes:search:
// one prefix of 4 to 32 bytes (a whole entry of the client's list) and
// the lists to search, which Web Risk requires.
type SearchHashesRequest struct {
	HashPrefix  []byte
	ThreatTypes []WebRiskThreatType
}

// ParseSearchHashesRequestQuery reads a SearchHashesRequest from its
// query: hashPrefix (in standard or URL-safe base64, padded or not) and
// threatTypes, each also by its proto field name (hash_prefix,
// threat_types). The package does not check the prefix's length.
func ParseSearchHashesRequestQuery(values map[string][]string) (SearchHashesRequest, error) {
	q := query(values)
	var m SearchHashesRequest
	var err error
	if m.HashPrefix, err = q.bytes("hashPrefix", "hash_prefix"); err != nil {
		return m, err
	}
	m.ThreatTypes, err = enums[WebRiskThreatType](q, "threatTypes", "threat_types", webRiskThreatTypeNames)
	return m, err
}

// AppendSearchHashesRequestQuery appends m's query to b:
// hashPrefix=…&threatTypes=MALWARE&threatTypes=…, the prefix in URL-safe
// base64 with padding.
func AppendSearchHashesRequestQuery(b []byte, m *SearchHashesRequest) []byte {
	b = appendBytesParam(b, "hashPrefix", m.HashPrefix)
	return appendEnumParams(b, "threatTypes", webRiskThreatTypeNames, m.ThreatTypes)
}

// SearchHashesResponse is the reply of hashes:search.
type SearchHashesResponse struct {
	Threats []ThreatHash
	// NegativeExpireTime is negative_expire_time, in UTC: until when the
	// prefix's other hashes are safe. The zero time when absent.
	NegativeExpireTime time.Time
}

// ThreatHash is a full hash found on Web Risk's lists.
type ThreatHash struct {
	// ThreatTypes are the hash's lists; read, they are kept whatever their
	// values, for the client to drop those it does not know.
	ThreatTypes []WebRiskThreatType
	Hash        [32]byte
	// ExpireTime is expire_time, in UTC: until when the match may be
	// cached. The zero time when absent.
	ExpireTime time.Time
}

var errNoHash = errors.New("ThreatHash without its 32-byte hash")

// ParseSearchHashesResponse reads a binary SearchHashesResponse
// { 1 threats; 2 negative_expire_time }, under the package's policy. A
// ThreatHash { 1 threat_types; 2 hash; 3 expire_time } without a hash of
// 32 bytes is corrupt.
func ParseSearchHashesResponse(b []byte) (SearchHashesResponse, error) {
	var m SearchHashesResponse
	if n, err := newBudget(b).count(b, hashesThreats); err != nil {
		return m, err
	} else if n > 0 {
		m.Threats = make([]ThreatHash, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case hashesThreats:
			v, err := f.bytes()
			if err != nil {
				return m, err
			}
			th, err := parseThreatHash(v)
			if err != nil {
				return m, fmt.Errorf("threats[%d]: %w", len(m.Threats), err)
			}
			m.Threats = append(m.Threats, th)
		case hashesNegativeExpire:
			t, err := readTimestamp(&f, &seen, "negative_expire_time")
			if err != nil {
				return m, err
			}
			m.NegativeExpireTime = t
		}
	}
	return m, r.err
}

func parseThreatHash(b []byte) (ThreatHash, error) {
	var th ThreatHash
	has := false
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case threatHashThreatTypes:
			th.ThreatTypes, err = int32s(th.ThreatTypes, &f)
		case threatHashHash:
			var v []byte
			if v, err = f.bytes(); err == nil {
				if len(v) != len(th.Hash) {
					return th, fmt.Errorf("hash of %d bytes, want 32", len(v))
				}
				copy(th.Hash[:], v)
				has = true
			}
		case threatHashExpireTime:
			th.ExpireTime, err = readTimestamp(&f, &seen, "expire_time")
		}
		if err != nil {
			return th, err
		}
	}
	if r.err != nil {
		return th, r.err
	}
	if !has {
		return th, errNoHash
	}
	return th, nil
}

// AppendSearchHashesResponse appends m as a binary SearchHashesResponse.
func AppendSearchHashesResponse(b []byte, m *SearchHashesResponse) []byte {
	for i := range m.Threats {
		th := &m.Threats[i]
		b = appendMessage(b, hashesThreats, func(b []byte) []byte {
			b = appendPacked(b, threatHashThreatTypes, th.ThreatTypes)
			b = appendBytesAlways(b, threatHashHash, th.Hash[:])
			return appendTimestampField(b, threatHashExpireTime, th.ExpireTime)
		})
	}
	return appendTimestampField(b, hashesNegativeExpire, m.NegativeExpireTime)
}

type jsonSearchHashes struct {
	Threats            []jsonThreatHash `json:"threats,omitempty"`
	NegativeExpireTime *jtime           `json:"negativeExpireTime,omitempty"`
}

type jsonThreatHash struct {
	ThreatTypes []WebRiskThreatType `json:"threatTypes,omitempty"`
	Hash        jbytes              `json:"hash,omitempty"`
	ExpireTime  *jtime              `json:"expireTime,omitempty"`
}

// AppendSearchHashesResponseJSON appends m in Google's JSON mapping:
// {"threats":[{"threatTypes","hash","expireTime"}],"negativeExpireTime"}.
func AppendSearchHashesResponseJSON(b []byte, m *SearchHashesResponse) []byte {
	j := jsonSearchHashes{NegativeExpireTime: optTime(m.NegativeExpireTime)}
	if len(m.Threats) > 0 {
		j.Threats = make([]jsonThreatHash, len(m.Threats))
		for i := range m.Threats {
			th := &m.Threats[i]
			j.Threats[i] = jsonThreatHash{ThreatTypes: th.ThreatTypes, Hash: th.Hash[:], ExpireTime: optTime(th.ExpireTime)}
		}
	}
	return appendJSON(b, &j)
}

// ParseSearchHashesResponseJSON reads a SearchHashesResponse in Google's
// JSON mapping, under the policy of [ParseSearchHashesResponse].
func ParseSearchHashesResponseJSON(data []byte) (SearchHashesResponse, error) {
	var j jsonSearchHashes
	if err := decodeJSON(data, &j); err != nil {
		return SearchHashesResponse{}, err
	}
	m := SearchHashesResponse{NegativeExpireTime: fromOptTime(j.NegativeExpireTime)}
	if len(j.Threats) > 0 {
		m.Threats = make([]ThreatHash, len(j.Threats))
	}
	for i := range j.Threats {
		jt := &j.Threats[i]
		th := &m.Threats[i]
		switch {
		case len(jt.Hash) == 0:
			return SearchHashesResponse{}, fmt.Errorf("threats[%d]: %w", i, errNoHash)
		case len(jt.Hash) != len(th.Hash):
			return SearchHashesResponse{}, fmt.Errorf("threats[%d]: hash of %d bytes, want 32", i, len(jt.Hash))
		}
		copy(th.Hash[:], jt.Hash)
		th.ThreatTypes = nonEmptySlice(jt.ThreatTypes)
		th.ExpireTime = fromOptTime(jt.ExpireTime)
	}
	return m, nil
}

// SearchUrisRequest is the request of Web Risk's GET /v1/uris:search.
type SearchUrisRequest struct {
	URI         string
	ThreatTypes []WebRiskThreatType
}

// ParseSearchUrisRequestQuery reads a SearchUrisRequest from its query:
// uri and threatTypes (or threat_types).
func ParseSearchUrisRequestQuery(values map[string][]string) (SearchUrisRequest, error) {
	q := query(values)
	var m SearchUrisRequest
	var err error
	if m.URI, _, err = q.one("uri", "uri"); err != nil {
		return m, err
	}
	m.ThreatTypes, err = enums[WebRiskThreatType](q, "threatTypes", "threat_types", webRiskThreatTypeNames)
	return m, err
}

// AppendSearchUrisRequestQuery appends m's query to b:
// uri=…&threatTypes=MALWARE&threatTypes=….
func AppendSearchUrisRequestQuery(b []byte, m *SearchUrisRequest) []byte {
	if m.URI != "" {
		b = appendParam(b, "uri", m.URI)
	}
	return appendEnumParams(b, "threatTypes", webRiskThreatTypeNames, m.ThreatTypes)
}

// SearchUrisResponse is the reply of uris:search: {} when the URI is on no
// list asked.
type SearchUrisResponse struct {
	Threat *ThreatURI
}

// ThreatURI is the lists a URI is on.
type ThreatURI struct {
	ThreatTypes []WebRiskThreatType
	// ExpireTime is expire_time, in UTC; the zero time when absent.
	ExpireTime time.Time
}

// ParseSearchUrisResponse reads a binary SearchUrisResponse { 1 threat }
// and its ThreatUri { 1 threat_types; 2 expire_time }.
func ParseSearchUrisResponse(b []byte) (SearchUrisResponse, error) {
	var m SearchUrisResponse
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num != urisThreat {
			continue
		}
		v, err := seen.message(&f)
		if err != nil {
			return m, err
		}
		t := &ThreatURI{} // one pointer, in a message of at least 2 bytes
		var tseen once
		tr := reader{b: v}
		var tf field
		for tr.next(&tf) {
			switch tf.num {
			case threatURIThreatTypes:
				t.ThreatTypes, err = int32s(t.ThreatTypes, &tf)
			case threatURIExpireTime:
				t.ExpireTime, err = readTimestamp(&tf, &tseen, "expire_time")
			}
			if err != nil {
				return m, fmt.Errorf("threat: %w", err)
			}
		}
		if tr.err != nil {
			return m, fmt.Errorf("threat: %w", tr.err)
		}
		m.Threat = t
	}
	return m, r.err
}

// AppendSearchUrisResponse appends m as a binary SearchUrisResponse.
func AppendSearchUrisResponse(b []byte, m *SearchUrisResponse) []byte {
	t := m.Threat
	if t == nil {
		return b
	}
	return appendMessage(b, urisThreat, func(b []byte) []byte {
		b = appendPacked(b, threatURIThreatTypes, t.ThreatTypes)
		return appendTimestampField(b, threatURIExpireTime, t.ExpireTime)
	})
}

type jsonSearchUris struct {
	Threat *jsonThreatURI `json:"threat,omitempty"`
}

type jsonThreatURI struct {
	ThreatTypes []WebRiskThreatType `json:"threatTypes,omitempty"`
	ExpireTime  *jtime              `json:"expireTime,omitempty"`
}

// AppendSearchUrisResponseJSON appends m in Google's JSON mapping:
// {"threat":{"threatTypes":[…],"expireTime":"…"}}, or {}.
func AppendSearchUrisResponseJSON(b []byte, m *SearchUrisResponse) []byte {
	var j jsonSearchUris
	if t := m.Threat; t != nil {
		j.Threat = &jsonThreatURI{ThreatTypes: t.ThreatTypes, ExpireTime: optTime(t.ExpireTime)}
	}
	return appendJSON(b, &j)
}

// ParseSearchUrisResponseJSON reads a SearchUrisResponse in Google's JSON
// mapping, as the package reads JSON.
func ParseSearchUrisResponseJSON(data []byte) (SearchUrisResponse, error) {
	var j jsonSearchUris
	if err := decodeJSON(data, &j); err != nil {
		return SearchUrisResponse{}, err
	}
	var m SearchUrisResponse
	if t := j.Threat; t != nil {
		m.Threat = &ThreatURI{ThreatTypes: nonEmptySlice(t.ThreatTypes), ExpireTime: fromOptTime(t.ExpireTime)}
	}
	return m, nil
}
