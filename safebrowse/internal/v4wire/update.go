// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// This file holds the messages of v4's threatListUpdates:fetch.

// FetchThreatListUpdatesRequest is the request of threatListUpdates:fetch:
// one ListUpdateRequest a list. Chromium's chrome_client_info (field 4) is
// skipped, as an unknown field.
type FetchThreatListUpdatesRequest struct {
	Client             ClientInfo
	ListUpdateRequests []ListUpdateRequest
}

// ListUpdateRequest asks for the update of one list, named by its three
// types, from the client's state.
type ListUpdateRequest struct {
	ThreatType      ThreatType
	PlatformType    PlatformType
	ThreatEntryType ThreatEntryType
	// State is the client's state of the list, the new_client_state of
	// its last update; nil when the client has none. Read, it aliases
	// the message.
	State       []byte
	Constraints Constraints
}

// Constraints are a ListUpdateRequest's constraints; the zero value is
// none.
type Constraints struct {
	MaxUpdateEntries      int32
	MaxDatabaseEntries    int32
	Region                string
	SupportedCompressions []CompressionType
	// Language and DeviceLocation are in the discovery document, but no
	// published proto numbers them: they are read and written in JSON
	// only.
	Language       string
	DeviceLocation string
}

func (c *Constraints) isZero() bool {
	return c.MaxUpdateEntries == 0 && c.MaxDatabaseEntries == 0 && c.Region == "" &&
		len(c.SupportedCompressions) == 0 && c.Language == "" && c.DeviceLocation == ""
}

// ParseFetchThreatListUpdatesRequest reads a binary
// FetchThreatListUpdatesRequest { 1 client; 3 list_update_requests },
// under the package's policy. Its byte slices alias b.
func ParseFetchThreatListUpdatesRequest(b []byte) (FetchThreatListUpdatesRequest, error) {
	var m FetchThreatListUpdatesRequest
	d := newBudget(b)
	if n, err := d.count(b, fetchRequests); err != nil {
		return m, err
	} else if n > 0 {
		m.ListUpdateRequests = make([]ListUpdateRequest, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case fetchClient:
			c, err := readClientInfo(&f, &seen)
			if err != nil {
				return m, fmt.Errorf("client: %w", err)
			}
			m.Client = c
		case fetchRequests:
			v, err := f.bytes()
			if err != nil {
				return m, err
			}
			lr, err := parseListUpdateRequest(v)
			if err != nil {
				return m, fmt.Errorf("list_update_requests[%d]: %w", len(m.ListUpdateRequests), err)
			}
			m.ListUpdateRequests = append(m.ListUpdateRequests, lr)
		}
	}
	return m, r.err
}

// parseListUpdateRequest reads ListUpdateRequest { 1 threat_type;
// 2 platform_type; 3 state; 4 constraints; 5 threat_entry_type }.
func parseListUpdateRequest(b []byte) (ListUpdateRequest, error) {
	var m ListUpdateRequest
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var v int32
		var err error
		switch f.num {
		case lurThreatType:
			v, err = f.int32()
			m.ThreatType = ThreatType(v)
		case lurPlatformType:
			v, err = f.int32()
			m.PlatformType = PlatformType(v)
		case lurThreatEntryType:
			v, err = f.int32()
			m.ThreatEntryType = ThreatEntryType(v)
		case lurState:
			m.State, err = f.bytes()
			m.State = nonEmpty(m.State)
		case lurConstraints:
			var c []byte
			if c, err = seen.message(&f); err == nil {
				m.Constraints, err = parseConstraints(c)
			}
		}
		if err != nil {
			return m, err
		}
	}
	return m, r.err
}

// parseConstraints reads Constraints { 1 max_update_entries;
// 2 max_database_entries; 3 region; 4 supported_compressions }.
func parseConstraints(b []byte) (Constraints, error) {
	var c Constraints
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case conMaxUpdateEntries:
			c.MaxUpdateEntries, err = f.int32()
		case conMaxDatabaseEntries:
			c.MaxDatabaseEntries, err = f.int32()
		case conRegion:
			var v []byte
			v, err = f.bytes()
			c.Region = string(v)
		case conCompressions:
			c.SupportedCompressions, err = int32s(c.SupportedCompressions, &f)
		}
		if err != nil {
			return c, fmt.Errorf("constraints: %w", err)
		}
	}
	if r.err != nil {
		return c, fmt.Errorf("constraints: %w", r.err)
	}
	return c, nil
}

// AppendFetchThreatListUpdatesRequest appends m as a binary
// FetchThreatListUpdatesRequest, as google/safebrowsing posts it with
// alt=proto and Chromium sends it in $req. Constraints.Language and
// DeviceLocation are left out: they have no field number.
func AppendFetchThreatListUpdatesRequest(b []byte, m *FetchThreatListUpdatesRequest) []byte {
	b = appendClientInfo(b, fetchClient, &m.Client)
	for i := range m.ListUpdateRequests {
		lr := &m.ListUpdateRequests[i]
		b = appendMessage(b, fetchRequests, func(b []byte) []byte {
			b = appendInt32(b, lurThreatType, lr.ThreatType)
			b = appendInt32(b, lurPlatformType, lr.PlatformType)
			b = appendBytes(b, lurState, lr.State)
			if c := &lr.Constraints; !c.isZero() {
				b = appendMessage(b, lurConstraints, func(b []byte) []byte {
					b = appendInt32(b, conMaxUpdateEntries, c.MaxUpdateEntries)
					b = appendInt32(b, conMaxDatabaseEntries, c.MaxDatabaseEntries)
					b = appendString(b, conRegion, c.Region)
					return appendPacked(b, conCompressions, c.SupportedCompressions)
				})
			}
			return appendInt32(b, lurThreatEntryType, lr.ThreatEntryType)
		})
	}
	return b
}

type jsonFetchRequest struct {
	Client             *jsonClientInfo         `json:"client,omitempty"`
	ListUpdateRequests []jsonListUpdateRequest `json:"listUpdateRequests,omitempty"`
}

type jsonListUpdateRequest struct {
	ThreatType      ThreatType       `json:"threatType,omitempty"`
	PlatformType    PlatformType     `json:"platformType,omitempty"`
	State           jbytes           `json:"state,omitempty"`
	Constraints     *jsonConstraints `json:"constraints,omitempty"`
	ThreatEntryType ThreatEntryType  `json:"threatEntryType,omitempty"`
}

type jsonConstraints struct {
	MaxUpdateEntries      jint32            `json:"maxUpdateEntries,omitempty"`
	MaxDatabaseEntries    jint32            `json:"maxDatabaseEntries,omitempty"`
	Region                string            `json:"region,omitempty"`
	SupportedCompressions []CompressionType `json:"supportedCompressions,omitempty"`
	Language              string            `json:"language,omitempty"`
	DeviceLocation        string            `json:"deviceLocation,omitempty"`
}

// AppendFetchThreatListUpdatesRequestJSON appends m in Google's JSON
// mapping, as a client posts it without alt=proto.
func AppendFetchThreatListUpdatesRequestJSON(b []byte, m *FetchThreatListUpdatesRequest) []byte {
	j := jsonFetchRequest{Client: clientToJSON(m.Client)}
	if len(m.ListUpdateRequests) > 0 {
		j.ListUpdateRequests = make([]jsonListUpdateRequest, len(m.ListUpdateRequests))
	}
	for i := range m.ListUpdateRequests {
		lr := &m.ListUpdateRequests[i]
		jl := &j.ListUpdateRequests[i]
		*jl = jsonListUpdateRequest{ThreatType: lr.ThreatType, PlatformType: lr.PlatformType, State: lr.State, ThreatEntryType: lr.ThreatEntryType}
		if c := &lr.Constraints; !c.isZero() {
			jl.Constraints = &jsonConstraints{
				MaxUpdateEntries: jint32(c.MaxUpdateEntries), MaxDatabaseEntries: jint32(c.MaxDatabaseEntries),
				Region: c.Region, SupportedCompressions: c.SupportedCompressions,
				Language: c.Language, DeviceLocation: c.DeviceLocation,
			}
		}
	}
	return appendJSON(b, &j)
}

// ParseFetchThreatListUpdatesRequestJSON reads a
// FetchThreatListUpdatesRequest in Google's JSON mapping, as the package
// reads JSON.
func ParseFetchThreatListUpdatesRequestJSON(data []byte) (FetchThreatListUpdatesRequest, error) {
	var j jsonFetchRequest
	if err := decodeJSON(data, &j); err != nil {
		return FetchThreatListUpdatesRequest{}, err
	}
	m := FetchThreatListUpdatesRequest{Client: clientFromJSON(j.Client)}
	if len(j.ListUpdateRequests) > 0 {
		m.ListUpdateRequests = make([]ListUpdateRequest, len(j.ListUpdateRequests))
	}
	for i := range j.ListUpdateRequests {
		jl := &j.ListUpdateRequests[i]
		lr := &m.ListUpdateRequests[i]
		*lr = ListUpdateRequest{ThreatType: jl.ThreatType, PlatformType: jl.PlatformType, State: nonEmpty(jl.State), ThreatEntryType: jl.ThreatEntryType}
		if c := jl.Constraints; c != nil {
			lr.Constraints = Constraints{
				MaxUpdateEntries: int32(c.MaxUpdateEntries), MaxDatabaseEntries: int32(c.MaxDatabaseEntries),
				Region: c.Region, SupportedCompressions: nonEmptySlice(c.SupportedCompressions),
				Language: c.Language, DeviceLocation: c.DeviceLocation,
			}
		}
	}
	return m, nil
}

// FetchThreatListUpdatesResponse is the reply of threatListUpdates:fetch:
// one ListUpdateResponse a list asked, in the request's order.
type FetchThreatListUpdatesResponse struct {
	ListUpdateResponses []ListUpdateResponse
	// MinimumWait is minimum_wait_duration, one for the whole reply;
	// HasMinimumWait tells whether it was present. It is written when
	// HasMinimumWait is set or MinimumWait is not zero.
	MinimumWait    time.Duration
	HasMinimumWait bool
}

// ListUpdateResponse is the update of one list.
type ListUpdateResponse struct {
	ThreatType      ThreatType
	ThreatEntryType ThreatEntryType
	PlatformType    PlatformType
	ResponseType    ResponseType
	Additions       []ThreatEntrySet
	Removals        []ThreatEntrySet
	// NewClientState is the state the client sends with its next
	// request for the list. Read, it aliases the message.
	NewClientState []byte
	// Checksum is checksum.sha256: the SHA-256 of the client's list after
	// the update, its prefixes sorted bytewise and concatenated; nil when
	// absent.
	Checksum []byte
}

// ThreatEntrySet is a set of entries to add, or of indices to remove.
// Compression names the one field of the other four that a client reads;
// the package reads and writes every field present.
type ThreatEntrySet struct {
	Compression CompressionType
	RawHashes   *RawHashes
	RawIndices  *RawIndices
	RiceHashes  *Rice // 4-byte prefixes, little-endian uint32s
	RiceIndices *Rice
}

// ParseFetchThreatListUpdatesResponse reads a binary
// FetchThreatListUpdatesResponse { 1 list_update_responses;
// 2 minimum_wait_duration }, under the package's policy. Its byte slices
// alias b.
func ParseFetchThreatListUpdatesResponse(b []byte) (FetchThreatListUpdatesResponse, error) {
	var m FetchThreatListUpdatesResponse
	d := newBudget(b)
	if n, err := d.count(b, fetchResponses); err != nil {
		return m, err
	} else if n > 0 {
		m.ListUpdateResponses = make([]ListUpdateResponse, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case fetchResponses:
			v, err := f.bytes()
			if err != nil {
				return m, err
			}
			lr, err := parseListUpdateResponse(v, d)
			if err != nil {
				return m, fmt.Errorf("list_update_responses[%d]: %w", len(m.ListUpdateResponses), err)
			}
			m.ListUpdateResponses = append(m.ListUpdateResponses, lr)
		case fetchMinWait:
			d, err := readDuration(&f, &seen, "minimum_wait_duration")
			if err != nil {
				return m, err
			}
			m.MinimumWait, m.HasMinimumWait = d, true
		}
	}
	return m, r.err
}

// parseListUpdateResponse reads ListUpdateResponse { 1 threat_type;
// 2 threat_entry_type; 3 platform_type; 4 response_type; 5 additions;
// 6 removals; 7 new_client_state; 8 checksum }.
func parseListUpdateResponse(b []byte, d *budget) (ListUpdateResponse, error) {
	var m ListUpdateResponse
	if n, err := d.count(b, lupAdditions); err != nil {
		return m, err
	} else if n > 0 {
		m.Additions = make([]ThreatEntrySet, 0, n)
	}
	if n, err := d.count(b, lupRemovals); err != nil {
		return m, err
	} else if n > 0 {
		m.Removals = make([]ThreatEntrySet, 0, n)
	}
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var v int32
		var err error
		switch f.num {
		case lupThreatType:
			v, err = f.int32()
			m.ThreatType = ThreatType(v)
		case lupThreatEntryType:
			v, err = f.int32()
			m.ThreatEntryType = ThreatEntryType(v)
		case lupPlatformType:
			v, err = f.int32()
			m.PlatformType = PlatformType(v)
		case lupResponseType:
			v, err = f.int32()
			m.ResponseType = ResponseType(v)
		case lupAdditions, lupRemovals:
			var sb []byte
			if sb, err = f.bytes(); err != nil {
				break
			}
			var s ThreatEntrySet
			if s, err = parseThreatEntrySet(sb, d); err != nil {
				if f.num == lupAdditions {
					return m, fmt.Errorf("additions[%d]: %w", len(m.Additions), err)
				}
				return m, fmt.Errorf("removals[%d]: %w", len(m.Removals), err)
			}
			if f.num == lupAdditions {
				m.Additions = append(m.Additions, s)
			} else {
				m.Removals = append(m.Removals, s)
			}
		case lupNewClientState:
			m.NewClientState, err = f.bytes()
			m.NewClientState = nonEmpty(m.NewClientState)
		case lupChecksum:
			m.Checksum, err = readChecksum(&f, &seen)
		}
		if err != nil {
			return m, err
		}
	}
	return m, r.err
}

// parseThreatEntrySet reads ThreatEntrySet { 1 compression_type;
// 2 raw_hashes; 3 raw_indices; 4 rice_hashes; 5 rice_indices }.
func parseThreatEntrySet(b []byte, d *budget) (ThreatEntrySet, error) {
	var s ThreatEntrySet
	var seen once
	r := reader{b: b}
	var f field
	for r.next(&f) {
		var err error
		switch f.num {
		case setCompression:
			var v int32
			v, err = f.int32()
			s.Compression = CompressionType(v)
		case setRawHashes:
			var v []byte
			if v, err = d.message(&f, &seen); err == nil {
				var rh RawHashes
				rh, err = parseRawHashes(v)
				s.RawHashes = &rh
			}
		case setRawIndices:
			var v []byte
			if v, err = d.message(&f, &seen); err == nil {
				var ri RawIndices
				ri, err = parseRawIndices(v)
				s.RawIndices = &ri
			}
		case setRiceHashes:
			s.RiceHashes, err = readRice(&f, &seen, d, "rice_hashes")
		case setRiceIndices:
			s.RiceIndices, err = readRice(&f, &seen, d, "rice_indices")
		}
		if err != nil {
			return s, err
		}
	}
	return s, r.err
}

// AppendFetchThreatListUpdatesResponse appends m as a binary
// FetchThreatListUpdatesResponse, as google/safebrowsing and Chromium
// read it.
func AppendFetchThreatListUpdatesResponse(b []byte, m *FetchThreatListUpdatesResponse) []byte {
	for i := range m.ListUpdateResponses {
		b = AppendListUpdateResponseField(b, &m.ListUpdateResponses[i])
	}
	return appendDurationField(b, fetchMinWait, m.MinimumWait, m.HasMinimumWait)
}

// AppendListUpdateResponseField appends lr as one list_update_responses
// field of a FetchThreatListUpdatesResponse, so that a server may build a
// reply from lists encoded apart: the fields, then
// [AppendMinimumWaitField], are [AppendFetchThreatListUpdatesResponse]'s
// bytes.
func AppendListUpdateResponseField(b []byte, lr *ListUpdateResponse) []byte {
	return appendMessage(b, fetchResponses, func(b []byte) []byte {
		b = appendInt32(b, lupThreatType, lr.ThreatType)
		b = appendInt32(b, lupThreatEntryType, lr.ThreatEntryType)
		b = appendInt32(b, lupPlatformType, lr.PlatformType)
		b = appendInt32(b, lupResponseType, lr.ResponseType)
		for i := range lr.Additions {
			b = appendMessage(b, lupAdditions, func(b []byte) []byte { return appendThreatEntrySet(b, &lr.Additions[i]) })
		}
		for i := range lr.Removals {
			b = appendMessage(b, lupRemovals, func(b []byte) []byte { return appendThreatEntrySet(b, &lr.Removals[i]) })
		}
		b = appendBytes(b, lupNewClientState, lr.NewClientState)
		return appendChecksum(b, lupChecksum, lr.Checksum)
	})
}

// AppendMinimumWaitField appends the minimum_wait_duration of a
// FetchThreatListUpdatesResponse: d when has is set or d is not zero.
func AppendMinimumWaitField(b []byte, d time.Duration, has bool) []byte {
	return appendDurationField(b, fetchMinWait, d, has)
}

func appendThreatEntrySet(b []byte, s *ThreatEntrySet) []byte {
	b = appendInt32(b, setCompression, s.Compression)
	if s.RawHashes != nil {
		b = appendMessage(b, setRawHashes, func(b []byte) []byte { return appendRawHashes(b, s.RawHashes) })
	}
	if s.RawIndices != nil {
		b = appendMessage(b, setRawIndices, func(b []byte) []byte { return appendPacked(b, rawIndices, s.RawIndices.Indices) })
	}
	b = appendRiceField(b, setRiceHashes, s.RiceHashes)
	return appendRiceField(b, setRiceIndices, s.RiceIndices)
}

type jsonFetchResponse struct {
	ListUpdateResponses []jsonListUpdateResponse `json:"listUpdateResponses,omitempty"`
	MinimumWaitDuration *jduration               `json:"minimumWaitDuration,omitempty"`
}

type jsonListUpdateResponse struct {
	ThreatType      ThreatType           `json:"threatType,omitempty"`
	ThreatEntryType ThreatEntryType      `json:"threatEntryType,omitempty"`
	PlatformType    PlatformType         `json:"platformType,omitempty"`
	ResponseType    ResponseType         `json:"responseType,omitempty"`
	Additions       []jsonThreatEntrySet `json:"additions,omitempty"`
	Removals        []jsonThreatEntrySet `json:"removals,omitempty"`
	NewClientState  jbytes               `json:"newClientState,omitempty"`
	Checksum        *jsonChecksum        `json:"checksum,omitempty"`
}

type jsonThreatEntrySet struct {
	CompressionType CompressionType `json:"compressionType,omitempty"`
	RawHashes       *jsonRawHashes  `json:"rawHashes,omitempty"`
	RawIndices      *jsonRawIndices `json:"rawIndices,omitempty"`
	RiceHashes      *jsonRice       `json:"riceHashes,omitempty"`
	RiceIndices     *jsonRice       `json:"riceIndices,omitempty"`
}

func setsToJSON(sets []ThreatEntrySet) []jsonThreatEntrySet {
	if len(sets) == 0 {
		return nil
	}
	out := make([]jsonThreatEntrySet, len(sets))
	for i := range sets {
		s := &sets[i]
		out[i] = jsonThreatEntrySet{
			CompressionType: s.Compression, RawHashes: rawHashesToJSON(s.RawHashes), RawIndices: rawIndicesToJSON(s.RawIndices),
			RiceHashes: riceToJSON(s.RiceHashes, false), RiceIndices: riceToJSON(s.RiceIndices, false),
		}
	}
	return out
}

func setsFromJSON(sets []jsonThreatEntrySet) []ThreatEntrySet {
	if len(sets) == 0 {
		return nil
	}
	out := make([]ThreatEntrySet, len(sets))
	for i := range sets {
		s := &sets[i]
		out[i] = ThreatEntrySet{
			Compression: s.CompressionType, RawHashes: rawHashesFromJSON(s.RawHashes), RawIndices: rawIndicesFromJSON(s.RawIndices),
			RiceHashes: riceFromJSON(s.RiceHashes, false), RiceIndices: riceFromJSON(s.RiceIndices, false),
		}
	}
	return out
}

// AppendFetchThreatListUpdatesResponseJSON appends m in Google's JSON
// mapping, as Google's generated clients read it: firstValue as a decimal
// string, bytes in standard base64, enums by name.
func AppendFetchThreatListUpdatesResponseJSON(b []byte, m *FetchThreatListUpdatesResponse) []byte {
	j := jsonFetchResponse{MinimumWaitDuration: optDuration(m.MinimumWait, m.HasMinimumWait)}
	if len(m.ListUpdateResponses) > 0 {
		j.ListUpdateResponses = make([]jsonListUpdateResponse, len(m.ListUpdateResponses))
	}
	for i := range m.ListUpdateResponses {
		lr := &m.ListUpdateResponses[i]
		j.ListUpdateResponses[i] = jsonListUpdateResponse{
			ThreatType: lr.ThreatType, ThreatEntryType: lr.ThreatEntryType, PlatformType: lr.PlatformType, ResponseType: lr.ResponseType,
			Additions: setsToJSON(lr.Additions), Removals: setsToJSON(lr.Removals),
			NewClientState: lr.NewClientState, Checksum: checksumToJSON(lr.Checksum),
		}
	}
	return appendJSON(b, &j)
}

// ParseFetchThreatListUpdatesResponseJSON reads a
// FetchThreatListUpdatesResponse in Google's JSON mapping, as the package
// reads JSON.
func ParseFetchThreatListUpdatesResponseJSON(data []byte) (FetchThreatListUpdatesResponse, error) {
	var j jsonFetchResponse
	if err := decodeJSON(data, &j); err != nil {
		return FetchThreatListUpdatesResponse{}, err
	}
	var m FetchThreatListUpdatesResponse
	m.MinimumWait, m.HasMinimumWait = fromOptDuration(j.MinimumWaitDuration)
	if len(j.ListUpdateResponses) > 0 {
		m.ListUpdateResponses = make([]ListUpdateResponse, len(j.ListUpdateResponses))
	}
	for i := range j.ListUpdateResponses {
		jl := &j.ListUpdateResponses[i]
		m.ListUpdateResponses[i] = ListUpdateResponse{
			ThreatType: jl.ThreatType, ThreatEntryType: jl.ThreatEntryType, PlatformType: jl.PlatformType, ResponseType: jl.ResponseType,
			Additions: setsFromJSON(jl.Additions), Removals: setsFromJSON(jl.Removals),
			NewClientState: nonEmpty(jl.NewClientState), Checksum: checksumFromJSON(jl.Checksum),
		}
	}
	return m, nil
}

// appendJSON appends v marshaled. The package's JSON values cannot fail to
// marshal: their MarshalJSON methods return no error, and encoding/json
// writes invalid UTF-8 as U+FFFD.
func appendJSON(b []byte, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return append(b, out...)
}

// nonEmptySlice returns s, or nil when s is empty.
func nonEmptySlice[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clip(s)
}
