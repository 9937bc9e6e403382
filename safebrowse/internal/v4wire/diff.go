// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"fmt"
	"time"
)

// This file holds the messages of Web Risk's threatLists.computeDiff.

// ComputeThreatListDiffRequest is the request of Web Risk's
// GET /v1/threatLists:computeDiff, sent in the query.
type ComputeThreatListDiffRequest struct {
	ThreatType WebRiskThreatType
	// VersionToken is the client's version of the list, the
	// newVersionToken of its last diff; nil when it has none.
	VersionToken []byte
	Constraints  DiffConstraints
}

// DiffConstraints are a ComputeThreatListDiffRequest's constraints. Web
// Risk takes MaxDiffEntries and MaxDatabaseEntries as powers of two from
// 2^10 to 2^20, or 0 for no limit: the package reads and writes any
// int32, for the caller to judge.
type DiffConstraints struct {
	MaxDiffEntries        int32
	MaxDatabaseEntries    int32
	SupportedCompressions []CompressionType
}

// ParseComputeThreatListDiffRequestQuery reads a
// ComputeThreatListDiffRequest from its query: threatType, versionToken,
// constraints.maxDiffEntries, constraints.maxDatabaseEntries and
// constraints.supportedCompressions, each also by its proto field name
// (threat_type, version_token, constraints.max_diff_entries, …), as
// github.com/google/webrisk sends them.
func ParseComputeThreatListDiffRequestQuery(values map[string][]string) (ComputeThreatListDiffRequest, error) {
	q := query(values)
	var m ComputeThreatListDiffRequest
	s, ok, err := q.one("threatType", "threat_type")
	if err != nil {
		return m, err
	}
	if ok {
		v, err := parseEnum(webRiskThreatTypeNames, s)
		if err != nil {
			return m, fmt.Errorf("threatType: %w", err)
		}
		m.ThreatType = WebRiskThreatType(v)
	}
	if m.VersionToken, err = q.bytes("versionToken", "version_token"); err != nil {
		return m, err
	}
	c := &m.Constraints
	if c.MaxDiffEntries, err = q.int32("constraints.maxDiffEntries", "constraints.max_diff_entries"); err != nil {
		return m, err
	}
	if c.MaxDatabaseEntries, err = q.int32("constraints.maxDatabaseEntries", "constraints.max_database_entries"); err != nil {
		return m, err
	}
	c.SupportedCompressions, err = enums[CompressionType](q, "constraints.supportedCompressions", "constraints.supported_compressions", compressionTypeNames)
	return m, err
}

// AppendComputeThreatListDiffRequestQuery appends m's query to b, as
// Google's documentation writes it:
// threatType=MALWARE&versionToken=…&constraints.maxDiffEntries=2048&constraints.maxDatabaseEntries=4096&constraints.supportedCompressions=RAW.
// The fields at their zero value are left out; the version token is in
// URL-safe base64 with padding.
func AppendComputeThreatListDiffRequestQuery(b []byte, m *ComputeThreatListDiffRequest) []byte {
	if m.ThreatType != 0 {
		b = appendParam(b, "threatType", enumText(webRiskThreatTypeNames, int32(m.ThreatType)))
	}
	b = appendBytesParam(b, "versionToken", m.VersionToken)
	b = appendInt32Param(b, "constraints.maxDiffEntries", m.Constraints.MaxDiffEntries)
	b = appendInt32Param(b, "constraints.maxDatabaseEntries", m.Constraints.MaxDatabaseEntries)
	return appendEnumParams(b, "constraints.supportedCompressions", compressionTypeNames, m.Constraints.SupportedCompressions)
}

// ComputeThreatListDiffResponse is the reply of computeDiff.
type ComputeThreatListDiffResponse struct {
	// ResponseType is DIFF (PartialUpdate) or RESET (FullUpdate).
	ResponseType ResponseType
	Additions    *ThreatEntryAdditions
	Removals     *ThreatEntryRemovals
	// NewVersionToken is the version the client sends with its next
	// request. Read, it aliases the message.
	NewVersionToken []byte
	// Checksum is checksum.sha256: the SHA-256 of the client's list
	// after the diff, its entries of every length sorted bytewise and
	// concatenated; nil when absent.
	Checksum []byte
	// RecommendedNextDiff is recommended_next_diff, in UTC; the zero time
	// when absent.
	RecommendedNextDiff time.Time
}

// ThreatEntryAdditions are the entries a diff adds: raw, one RawHashes a
// prefix size, and the 4-byte prefixes Rice-coded as little-endian
// uint32s.
type ThreatEntryAdditions struct {
	RawHashes  []RawHashes
	RiceHashes *Rice
}

// ThreatEntryRemovals are the indices a diff removes, into the client's
// list in bytewise order.
type ThreatEntryRemovals struct {
	RawIndices  *RawIndices
	RiceIndices *Rice
}

// ParseComputeThreatListDiffResponse reads a binary
// ComputeThreatListDiffResponse { 2 recommended_next_diff;
// 4 response_type; 5 additions; 6 removals; 7 new_version_token;
// 8 checksum }, under the package's policy. Its byte slices alias b.
func ParseComputeThreatListDiffResponse(b []byte) (ComputeThreatListDiffResponse, error) {
	var m ComputeThreatListDiffResponse
	d := newBudget(b)
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case diffRecommendedNext:
			m.RecommendedNextDiff, err = readTimestamp(&f, &seen, "recommended_next_diff")
		case diffResponseType:
			var v int32
			v, err = f.int32()
			m.ResponseType = ResponseType(v)
		case diffAdditions:
			var v []byte
			if v, err = d.message(&f, &seen); err == nil {
				m.Additions, err = parseAdditions(v, d)
			}
		case diffRemovals:
			var v []byte
			if v, err = d.message(&f, &seen); err == nil {
				m.Removals, err = parseRemovals(v, d)
			}
		case diffNewVersionToken:
			m.NewVersionToken, err = f.bytes()
			m.NewVersionToken = nonEmpty(m.NewVersionToken)
		case diffChecksum:
			m.Checksum, err = readChecksum(&f, &seen)
		}
		if err != nil {
			return m, err
		}
	}
	return m, r.err
}

// parseAdditions reads ThreatEntryAdditions { 1 raw_hashes;
// 2 rice_hashes }.
func parseAdditions(b []byte, d *budget) (*ThreatEntryAdditions, error) {
	a := &ThreatEntryAdditions{}
	if n, err := d.count(b, addRawHashes); err != nil {
		return a, fmt.Errorf("additions: %w", err)
	} else if n > 0 {
		a.RawHashes = make([]RawHashes, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case addRawHashes:
			v, err := f.bytes()
			if err != nil {
				return a, fmt.Errorf("additions: %w", err)
			}
			rh, err := parseRawHashes(v)
			if err != nil {
				return a, fmt.Errorf("additions.raw_hashes[%d]: %w", len(a.RawHashes), err)
			}
			a.RawHashes = append(a.RawHashes, rh)
		case addRiceHashes:
			var err error
			if a.RiceHashes, err = readRice(&f, &seen, d, "additions.rice_hashes"); err != nil {
				return a, err
			}
		}
	}
	if r.err != nil {
		return a, fmt.Errorf("additions: %w", r.err)
	}
	return a, nil
}

// parseRemovals reads ThreatEntryRemovals { 1 raw_indices;
// 2 rice_indices }.
func parseRemovals(b []byte, d *budget) (*ThreatEntryRemovals, error) {
	rm := &ThreatEntryRemovals{}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case remRawIndices:
			var v []byte
			if v, err = d.message(&f, &seen); err == nil {
				var ri RawIndices
				ri, err = parseRawIndices(v)
				rm.RawIndices = &ri
			}
		case remRiceIndices:
			rm.RiceIndices, err = readRice(&f, &seen, d, "rice_indices")
		}
		if err != nil {
			return rm, fmt.Errorf("removals: %w", err)
		}
	}
	if r.err != nil {
		return rm, fmt.Errorf("removals: %w", r.err)
	}
	return rm, nil
}

// AppendComputeThreatListDiffResponse appends m as a binary
// ComputeThreatListDiffResponse, as a client asking with alt=proto reads
// it.
func AppendComputeThreatListDiffResponse(b []byte, m *ComputeThreatListDiffResponse) []byte {
	b = appendTimestampField(b, diffRecommendedNext, m.RecommendedNextDiff)
	b = appendInt32(b, diffResponseType, m.ResponseType)
	if a := m.Additions; a != nil {
		b = appendMessage(b, diffAdditions, func(b []byte) []byte {
			for i := range a.RawHashes {
				b = appendMessage(b, addRawHashes, func(b []byte) []byte { return appendRawHashes(b, &a.RawHashes[i]) })
			}
			return appendRiceField(b, addRiceHashes, a.RiceHashes)
		})
	}
	if rm := m.Removals; rm != nil {
		b = appendMessage(b, diffRemovals, func(b []byte) []byte {
			if rm.RawIndices != nil {
				b = appendMessage(b, remRawIndices, func(b []byte) []byte { return appendPacked(b, rawIndices, rm.RawIndices.Indices) })
			}
			return appendRiceField(b, remRiceIndices, rm.RiceIndices)
		})
	}
	b = appendBytes(b, diffNewVersionToken, m.NewVersionToken)
	return appendChecksum(b, diffChecksum, m.Checksum)
}

// The JSON form writes webrisk.proto's fields and no others:
// github.com/google/webrisk reads a reply with protojson, which fails the
// whole diff on a field it does not know.

type jsonDiffResponse struct {
	ResponseType        diffType       `json:"responseType,omitempty"`
	Additions           *jsonAdditions `json:"additions,omitempty"`
	Removals            *jsonRemovals  `json:"removals,omitempty"`
	NewVersionToken     jbytes         `json:"newVersionToken,omitempty"`
	Checksum            *jsonChecksum  `json:"checksum,omitempty"`
	RecommendedNextDiff *jtime         `json:"recommendedNextDiff,omitempty"`
}

type jsonAdditions struct {
	RawHashes  []jsonRawHashes `json:"rawHashes,omitempty"`
	RiceHashes *jsonRice       `json:"riceHashes,omitempty"`
}

type jsonRemovals struct {
	RawIndices  *jsonRawIndices `json:"rawIndices,omitempty"`
	RiceIndices *jsonRice       `json:"riceIndices,omitempty"`
}

// AppendComputeThreatListDiffResponseJSON appends m in Google's JSON
// mapping, as Web Risk's servers send it and its clients read it:
// responseType DIFF or RESET, firstValue as a decimal string, entryCount,
// bytes in standard base64, recommendedNextDiff in RFC 3339.
func AppendComputeThreatListDiffResponseJSON(b []byte, m *ComputeThreatListDiffResponse) []byte {
	j := jsonDiffResponse{
		ResponseType: diffType(m.ResponseType), NewVersionToken: m.NewVersionToken,
		Checksum: checksumToJSON(m.Checksum), RecommendedNextDiff: optTime(m.RecommendedNextDiff),
	}
	if a := m.Additions; a != nil {
		j.Additions = &jsonAdditions{RiceHashes: riceToJSON(a.RiceHashes, true)}
		if len(a.RawHashes) > 0 {
			j.Additions.RawHashes = make([]jsonRawHashes, len(a.RawHashes))
			for i := range a.RawHashes {
				j.Additions.RawHashes[i] = *rawHashesToJSON(&a.RawHashes[i])
			}
		}
	}
	if rm := m.Removals; rm != nil {
		j.Removals = &jsonRemovals{RawIndices: rawIndicesToJSON(rm.RawIndices), RiceIndices: riceToJSON(rm.RiceIndices, true)}
	}
	return appendJSON(b, &j)
}

// ParseComputeThreatListDiffResponseJSON reads a
// ComputeThreatListDiffResponse in Google's JSON mapping, as the package
// reads JSON.
func ParseComputeThreatListDiffResponseJSON(data []byte) (ComputeThreatListDiffResponse, error) {
	var j jsonDiffResponse
	if err := decodeJSON(data, &j); err != nil {
		return ComputeThreatListDiffResponse{}, err
	}
	m := ComputeThreatListDiffResponse{
		ResponseType: ResponseType(j.ResponseType), NewVersionToken: nonEmpty(j.NewVersionToken),
		Checksum: checksumFromJSON(j.Checksum), RecommendedNextDiff: fromOptTime(j.RecommendedNextDiff),
	}
	if a := j.Additions; a != nil {
		m.Additions = &ThreatEntryAdditions{RiceHashes: riceFromJSON(a.RiceHashes, true)}
		if len(a.RawHashes) > 0 {
			m.Additions.RawHashes = make([]RawHashes, len(a.RawHashes))
			for i := range a.RawHashes {
				m.Additions.RawHashes[i] = *rawHashesFromJSON(&a.RawHashes[i])
			}
		}
	}
	if rm := j.Removals; rm != nil {
		m.Removals = &ThreatEntryRemovals{RawIndices: rawIndicesFromJSON(rm.RawIndices), RiceIndices: riceFromJSON(rm.RiceIndices, true)}
	}
	return m, nil
}
