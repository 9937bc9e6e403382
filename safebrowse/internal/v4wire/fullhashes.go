// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"fmt"
	"time"
)

// This file holds the messages of v4's fullHashes:find.

// FindFullHashesRequest is the request of fullHashes:find: the prefixes to
// search, as ThreatInfo.ThreatEntries' hashes, and the lists asked.
type FindFullHashesRequest struct {
	Client ClientInfo
	// ClientStates are the client's states of its lists; read, they
	// alias the message.
	ClientStates [][]byte
	ThreatInfo   ThreatInfo
	// APIClient is apiClient, in the discovery document with no field
	// number: read and written in JSON only.
	APIClient ClientInfo
}

// ThreatInfo names the lists to search, and the entries to search for.
type ThreatInfo struct {
	ThreatTypes      []ThreatType
	PlatformTypes    []PlatformType
	ThreatEntryTypes []ThreatEntryType
	ThreatEntries    []ThreatEntry
}

// ThreatEntry is an entry searched or matched: a hash (a prefix of 4 to 32
// bytes in a request, a full hash in a match) or a URL.
type ThreatEntry struct {
	Hash []byte // hash; read, it aliases the message
	URL  string // url
	// Digest is in the discovery document with no field number: read
	// and written in JSON only.
	Digest []byte
}

func (e *ThreatEntry) isZero() bool { return len(e.Hash) == 0 && e.URL == "" && len(e.Digest) == 0 }

// ParseFindFullHashesRequest reads a binary FindFullHashesRequest
// { 1 client; 2 client_states; 3 threat_info }, under the package's
// policy. Its byte slices alias b.
func ParseFindFullHashesRequest(b []byte) (FindFullHashesRequest, error) {
	var m FindFullHashesRequest
	d := newBudget(b)
	if n, err := d.count(b, findClientStates); err != nil {
		return m, err
	} else if n > 0 {
		m.ClientStates = make([][]byte, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case findClient:
			c, err := readClientInfo(&f, &seen)
			if err != nil {
				return m, fmt.Errorf("client: %w", err)
			}
			m.Client = c
		case findClientStates:
			v, err := f.bytes()
			if err != nil {
				return m, err
			}
			m.ClientStates = append(m.ClientStates, v)
		case findThreatInfo:
			v, err := seen.message(&f)
			if err != nil {
				return m, err
			}
			if m.ThreatInfo, err = parseThreatInfo(v, d); err != nil {
				return m, fmt.Errorf("threat_info: %w", err)
			}
		}
	}
	return m, r.err
}

// parseThreatInfo reads ThreatInfo { 1 threat_types; 2 platform_types;
// 3 threat_entries; 4 threat_entry_types }.
func parseThreatInfo(b []byte, d *budget) (ThreatInfo, error) {
	var ti ThreatInfo
	if n, err := d.count(b, infoThreatEntries); err != nil {
		return ti, err
	} else if n > 0 {
		ti.ThreatEntries = make([]ThreatEntry, 0, n)
	}
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case infoThreatTypes:
			ti.ThreatTypes, err = int32s(ti.ThreatTypes, &f)
		case infoPlatformTypes:
			ti.PlatformTypes, err = int32s(ti.PlatformTypes, &f)
		case infoThreatEntryTypes:
			ti.ThreatEntryTypes, err = int32s(ti.ThreatEntryTypes, &f)
		case infoThreatEntries:
			var v []byte
			if v, err = f.bytes(); err != nil {
				break
			}
			var e ThreatEntry
			if e, err = parseThreatEntry(v); err != nil {
				return ti, fmt.Errorf("threat_entries[%d]: %w", len(ti.ThreatEntries), err)
			}
			ti.ThreatEntries = append(ti.ThreatEntries, e)
		}
		if err != nil {
			return ti, err
		}
	}
	return ti, r.err
}

// parseThreatEntry reads ThreatEntry { 1 hash; 2 url }.
func parseThreatEntry(b []byte) (ThreatEntry, error) {
	var e ThreatEntry
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case entryHash, entryURL:
			v, err := f.bytes()
			if err != nil {
				return e, err
			}
			if f.num == entryHash {
				e.Hash = nonEmpty(v)
			} else {
				e.URL = string(v)
			}
		}
	}
	return e, r.err
}

// AppendFindFullHashesRequest appends m as a binary FindFullHashesRequest,
// as google/safebrowsing posts it with alt=proto and Chromium sends it in
// $req. APIClient and the entries' Digest are left out: they have no
// field number.
func AppendFindFullHashesRequest(b []byte, m *FindFullHashesRequest) []byte {
	b = appendClientInfo(b, findClient, &m.Client)
	for _, s := range m.ClientStates {
		b = appendBytesAlways(b, findClientStates, s)
	}
	ti := &m.ThreatInfo
	if ti.isZero() {
		return b
	}
	return appendMessage(b, findThreatInfo, func(b []byte) []byte {
		b = appendPacked(b, infoThreatTypes, ti.ThreatTypes)
		b = appendPacked(b, infoPlatformTypes, ti.PlatformTypes)
		for i := range ti.ThreatEntries {
			b = appendMessage(b, infoThreatEntries, func(b []byte) []byte { return appendThreatEntry(b, &ti.ThreatEntries[i]) })
		}
		return appendPacked(b, infoThreatEntryTypes, ti.ThreatEntryTypes)
	})
}

func (ti *ThreatInfo) isZero() bool {
	return len(ti.ThreatTypes) == 0 && len(ti.PlatformTypes) == 0 && len(ti.ThreatEntryTypes) == 0 && len(ti.ThreatEntries) == 0
}

func appendThreatEntry(b []byte, e *ThreatEntry) []byte {
	b = appendBytes(b, entryHash, e.Hash)
	return appendString(b, entryURL, e.URL)
}

type jsonFindRequest struct {
	Client       *jsonClientInfo `json:"client,omitempty"`
	ClientStates []jbytes        `json:"clientStates,omitempty"`
	ThreatInfo   *jsonThreatInfo `json:"threatInfo,omitempty"`
	APIClient    *jsonClientInfo `json:"apiClient,omitempty"`
}

type jsonThreatInfo struct {
	ThreatTypes      []ThreatType      `json:"threatTypes,omitempty"`
	PlatformTypes    []PlatformType    `json:"platformTypes,omitempty"`
	ThreatEntries    []jsonThreatEntry `json:"threatEntries,omitempty"`
	ThreatEntryTypes []ThreatEntryType `json:"threatEntryTypes,omitempty"`
}

type jsonThreatEntry struct {
	Hash   jbytes `json:"hash,omitempty"`
	URL    string `json:"url,omitempty"`
	Digest jbytes `json:"digest,omitempty"`
}

func threatInfoToJSON(ti *ThreatInfo) *jsonThreatInfo {
	if ti.isZero() {
		return nil
	}
	j := &jsonThreatInfo{ThreatTypes: ti.ThreatTypes, PlatformTypes: ti.PlatformTypes, ThreatEntryTypes: ti.ThreatEntryTypes}
	if len(ti.ThreatEntries) > 0 {
		j.ThreatEntries = make([]jsonThreatEntry, len(ti.ThreatEntries))
		for i, e := range ti.ThreatEntries {
			j.ThreatEntries[i] = jsonThreatEntry{Hash: e.Hash, URL: e.URL, Digest: e.Digest}
		}
	}
	return j
}

func threatInfoFromJSON(j *jsonThreatInfo) ThreatInfo {
	if j == nil {
		return ThreatInfo{}
	}
	ti := ThreatInfo{
		ThreatTypes: nonEmptySlice(j.ThreatTypes), PlatformTypes: nonEmptySlice(j.PlatformTypes),
		ThreatEntryTypes: nonEmptySlice(j.ThreatEntryTypes),
	}
	if len(j.ThreatEntries) > 0 {
		ti.ThreatEntries = make([]ThreatEntry, len(j.ThreatEntries))
		for i, e := range j.ThreatEntries {
			ti.ThreatEntries[i] = ThreatEntry{Hash: nonEmpty(e.Hash), URL: e.URL, Digest: nonEmpty(e.Digest)}
		}
	}
	return ti
}

// AppendFindFullHashesRequestJSON appends m in Google's JSON mapping, as
// a client posts it without alt=proto.
func AppendFindFullHashesRequestJSON(b []byte, m *FindFullHashesRequest) []byte {
	j := jsonFindRequest{Client: clientToJSON(m.Client), ThreatInfo: threatInfoToJSON(&m.ThreatInfo), APIClient: clientToJSON(m.APIClient)}
	if len(m.ClientStates) > 0 {
		j.ClientStates = make([]jbytes, len(m.ClientStates))
		for i, s := range m.ClientStates {
			j.ClientStates[i] = s
		}
	}
	return appendJSON(b, &j)
}

// ParseFindFullHashesRequestJSON reads a FindFullHashesRequest in Google's
// JSON mapping, as the package reads JSON.
func ParseFindFullHashesRequestJSON(data []byte) (FindFullHashesRequest, error) {
	var j jsonFindRequest
	if err := decodeJSON(data, &j); err != nil {
		return FindFullHashesRequest{}, err
	}
	m := FindFullHashesRequest{Client: clientFromJSON(j.Client), ThreatInfo: threatInfoFromJSON(j.ThreatInfo), APIClient: clientFromJSON(j.APIClient)}
	if len(j.ClientStates) > 0 {
		m.ClientStates = make([][]byte, len(j.ClientStates))
		for i, s := range j.ClientStates {
			m.ClientStates[i] = s
		}
	}
	return m, nil
}

// FindFullHashesResponse is the reply of fullHashes:find.
type FindFullHashesResponse struct {
	Matches []ThreatMatch
	// MinimumWait is minimum_wait_duration, NegativeCacheDuration
	// negative_cache_duration; each Has tells whether the field was
	// present, and each is written when its Has is set or it is not
	// zero.
	MinimumWait              time.Duration
	HasMinimumWait           bool
	NegativeCacheDuration    time.Duration
	HasNegativeCacheDuration bool
}

// ThreatMatch is one match: an entry found on one list.
type ThreatMatch struct {
	ThreatType      ThreatType
	PlatformType    PlatformType
	ThreatEntryType ThreatEntryType
	Threat          ThreatEntry
	// Metadata is threat_entry_metadata.entries; nil when absent.
	Metadata []MetadataEntry
	// CacheDuration is cache_duration; HasCacheDuration tells whether it
	// was present. It is written when HasCacheDuration is set or it is
	// not zero.
	CacheDuration    time.Duration
	HasCacheDuration bool
}

// MetadataEntry is one entry of a match's ThreatEntryMetadata.
type MetadataEntry struct {
	Key, Value []byte
}

// ParseFindFullHashesResponse reads a binary FindFullHashesResponse
// { 1 matches; 2 minimum_wait_duration; 3 negative_cache_duration },
// under the package's policy. Its byte slices alias b.
func ParseFindFullHashesResponse(b []byte) (FindFullHashesResponse, error) {
	var m FindFullHashesResponse
	d := newBudget(b)
	if n, err := d.count(b, fullMatches); err != nil {
		return m, err
	} else if n > 0 {
		m.Matches = make([]ThreatMatch, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case fullMatches:
			v, err := f.bytes()
			if err != nil {
				return m, err
			}
			tm, err := parseThreatMatch(v, d)
			if err != nil {
				return m, fmt.Errorf("matches[%d]: %w", len(m.Matches), err)
			}
			m.Matches = append(m.Matches, tm)
		case fullMinWait:
			d, err := readDuration(&f, &seen, "minimum_wait_duration")
			if err != nil {
				return m, err
			}
			m.MinimumWait, m.HasMinimumWait = d, true
		case fullNegativeCache:
			d, err := readDuration(&f, &seen, "negative_cache_duration")
			if err != nil {
				return m, err
			}
			m.NegativeCacheDuration, m.HasNegativeCacheDuration = d, true
		}
	}
	return m, r.err
}

// parseThreatMatch reads ThreatMatch { 1 threat_type; 2 platform_type;
// 3 threat; 4 threat_entry_metadata; 5 cache_duration;
// 6 threat_entry_type }.
func parseThreatMatch(b []byte, d *budget) (ThreatMatch, error) {
	var m ThreatMatch
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var v int32
		var err error
		switch f.num {
		case matchThreatType:
			v, err = f.int32()
			m.ThreatType = ThreatType(v)
		case matchPlatformType:
			v, err = f.int32()
			m.PlatformType = PlatformType(v)
		case matchThreatEntryType:
			v, err = f.int32()
			m.ThreatEntryType = ThreatEntryType(v)
		case matchThreat:
			var e []byte
			if e, err = seen.message(&f); err == nil {
				m.Threat, err = parseThreatEntry(e)
			}
		case matchMetadata:
			var md []byte
			if md, err = seen.message(&f); err == nil {
				m.Metadata, err = parseMetadata(md, d)
			}
		case matchCacheDuration:
			m.CacheDuration, err = readDuration(&f, &seen, "cache_duration")
			m.HasCacheDuration = err == nil
		}
		if err != nil {
			return m, err
		}
	}
	return m, r.err
}

// parseMetadata reads ThreatEntryMetadata { 1 entries } and its
// MetadataEntry { 1 key; 2 value }.
func parseMetadata(b []byte, d *budget) ([]MetadataEntry, error) {
	var out []MetadataEntry
	if n, err := d.count(b, metaEntries); err != nil {
		return nil, err
	} else if n > 0 {
		out = make([]MetadataEntry, 0, n)
	}
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num != metaEntries {
			continue
		}
		v, err := f.bytes()
		if err != nil {
			return out, err
		}
		var e MetadataEntry
		er := reader{b: v}
		var ef field
		for er.next(&ef) {
			switch ef.num {
			case metaKey:
				e.Key, err = ef.bytes()
				e.Key = nonEmpty(e.Key)
			case metaValue:
				e.Value, err = ef.bytes()
				e.Value = nonEmpty(e.Value)
			}
			if err != nil {
				return out, fmt.Errorf("threat_entry_metadata: %w", err)
			}
		}
		if er.err != nil {
			return out, fmt.Errorf("threat_entry_metadata: %w", er.err)
		}
		out = append(out, e)
	}
	if r.err != nil {
		return out, fmt.Errorf("threat_entry_metadata: %w", r.err)
	}
	if out == nil {
		out = []MetadataEntry{} // present, with no entries
	}
	return out, nil
}

// AppendFindFullHashesResponse appends m as a binary
// FindFullHashesResponse, as google/safebrowsing and Chromium read it.
func AppendFindFullHashesResponse(b []byte, m *FindFullHashesResponse) []byte {
	for i := range m.Matches {
		tm := &m.Matches[i]
		b = appendMessage(b, fullMatches, func(b []byte) []byte {
			b = appendInt32(b, matchThreatType, tm.ThreatType)
			b = appendInt32(b, matchPlatformType, tm.PlatformType)
			if !tm.Threat.isZero() {
				b = appendMessage(b, matchThreat, func(b []byte) []byte { return appendThreatEntry(b, &tm.Threat) })
			}
			if tm.Metadata != nil {
				b = appendMessage(b, matchMetadata, func(b []byte) []byte {
					for _, e := range tm.Metadata {
						b = appendMessage(b, metaEntries, func(b []byte) []byte {
							b = appendBytes(b, metaKey, e.Key)
							return appendBytes(b, metaValue, e.Value)
						})
					}
					return b
				})
			}
			b = appendDurationField(b, matchCacheDuration, tm.CacheDuration, tm.HasCacheDuration)
			return appendInt32(b, matchThreatEntryType, tm.ThreatEntryType)
		})
	}
	b = appendDurationField(b, fullMinWait, m.MinimumWait, m.HasMinimumWait)
	return appendDurationField(b, fullNegativeCache, m.NegativeCacheDuration, m.HasNegativeCacheDuration)
}

type jsonFindResponse struct {
	Matches               []jsonThreatMatch `json:"matches,omitempty"`
	MinimumWaitDuration   *jduration        `json:"minimumWaitDuration,omitempty"`
	NegativeCacheDuration *jduration        `json:"negativeCacheDuration,omitempty"`
}

type jsonThreatMatch struct {
	ThreatType          ThreatType       `json:"threatType,omitempty"`
	PlatformType        PlatformType     `json:"platformType,omitempty"`
	Threat              *jsonThreatEntry `json:"threat,omitempty"`
	ThreatEntryMetadata *jsonMetadata    `json:"threatEntryMetadata,omitempty"`
	CacheDuration       *jduration       `json:"cacheDuration,omitempty"`
	ThreatEntryType     ThreatEntryType  `json:"threatEntryType,omitempty"`
}

type jsonMetadata struct {
	Entries []jsonMetadataEntry `json:"entries,omitempty"`
}

type jsonMetadataEntry struct {
	Key   jbytes `json:"key,omitempty"`
	Value jbytes `json:"value,omitempty"`
}

// AppendFindFullHashesResponseJSON appends m in Google's JSON mapping.
func AppendFindFullHashesResponseJSON(b []byte, m *FindFullHashesResponse) []byte {
	j := jsonFindResponse{
		MinimumWaitDuration:   optDuration(m.MinimumWait, m.HasMinimumWait),
		NegativeCacheDuration: optDuration(m.NegativeCacheDuration, m.HasNegativeCacheDuration),
	}
	if len(m.Matches) > 0 {
		j.Matches = make([]jsonThreatMatch, len(m.Matches))
	}
	for i := range m.Matches {
		tm := &m.Matches[i]
		jm := jsonThreatMatch{
			ThreatType: tm.ThreatType, PlatformType: tm.PlatformType, ThreatEntryType: tm.ThreatEntryType,
			CacheDuration: optDuration(tm.CacheDuration, tm.HasCacheDuration),
		}
		if !tm.Threat.isZero() {
			jm.Threat = &jsonThreatEntry{Hash: tm.Threat.Hash, URL: tm.Threat.URL, Digest: tm.Threat.Digest}
		}
		if tm.Metadata != nil {
			jm.ThreatEntryMetadata = &jsonMetadata{}
			for _, e := range tm.Metadata {
				jm.ThreatEntryMetadata.Entries = append(jm.ThreatEntryMetadata.Entries, jsonMetadataEntry{Key: e.Key, Value: e.Value})
			}
		}
		j.Matches[i] = jm
	}
	return appendJSON(b, &j)
}

// ParseFindFullHashesResponseJSON reads a FindFullHashesResponse in
// Google's JSON mapping, as the package reads JSON.
func ParseFindFullHashesResponseJSON(data []byte) (FindFullHashesResponse, error) {
	var j jsonFindResponse
	if err := decodeJSON(data, &j); err != nil {
		return FindFullHashesResponse{}, err
	}
	var m FindFullHashesResponse
	m.MinimumWait, m.HasMinimumWait = fromOptDuration(j.MinimumWaitDuration)
	m.NegativeCacheDuration, m.HasNegativeCacheDuration = fromOptDuration(j.NegativeCacheDuration)
	if len(j.Matches) > 0 {
		m.Matches = make([]ThreatMatch, len(j.Matches))
	}
	for i := range j.Matches {
		jm := &j.Matches[i]
		tm := ThreatMatch{ThreatType: jm.ThreatType, PlatformType: jm.PlatformType, ThreatEntryType: jm.ThreatEntryType}
		tm.CacheDuration, tm.HasCacheDuration = fromOptDuration(jm.CacheDuration)
		if e := jm.Threat; e != nil {
			tm.Threat = ThreatEntry{Hash: nonEmpty(e.Hash), URL: e.URL, Digest: nonEmpty(e.Digest)}
		}
		if md := jm.ThreatEntryMetadata; md != nil {
			tm.Metadata = make([]MetadataEntry, len(md.Entries))
			for k, e := range md.Entries {
				tm.Metadata[k] = MetadataEntry{Key: nonEmpty(e.Key), Value: nonEmpty(e.Value)}
			}
		}
		m.Matches[i] = tm
	}
	return m, nil
}
