// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import "fmt"

// ListThreatListsResponse is the reply of v4's GET /v4/threatLists: the
// lists a server offers.
type ListThreatListsResponse struct {
	ThreatLists []ThreatListDescriptor
}

// ThreatListDescriptor names a v4 list by its three types.
type ThreatListDescriptor struct {
	ThreatType      ThreatType
	PlatformType    PlatformType
	ThreatEntryType ThreatEntryType
}

// ParseListThreatListsResponse reads a binary ListThreatListsResponse
// { 1 threat_lists } and its ThreatListDescriptor { 1 threat_type;
// 2 platform_type; 3 threat_entry_type }.
func ParseListThreatListsResponse(b []byte) (ListThreatListsResponse, error) {
	var m ListThreatListsResponse
	if n, err := newBudget(b).count(b, listsThreatLists); err != nil {
		return m, err
	} else if n > 0 {
		m.ThreatLists = make([]ThreatListDescriptor, 0, n)
	}
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num != listsThreatLists {
			continue
		}
		v, err := f.bytes()
		if err != nil {
			return m, err
		}
		var d ThreatListDescriptor
		dr := reader{b: v}
		var df field
		for dr.next(&df) {
			var x int32
			switch df.num {
			case descThreatType:
				x, err = df.int32()
				d.ThreatType = ThreatType(x)
			case descPlatformType:
				x, err = df.int32()
				d.PlatformType = PlatformType(x)
			case descThreatEntryType:
				x, err = df.int32()
				d.ThreatEntryType = ThreatEntryType(x)
			}
			if err != nil {
				break
			}
		}
		if err == nil {
			err = dr.err
		}
		if err != nil {
			return m, fmt.Errorf("threat_lists[%d]: %w", len(m.ThreatLists), err)
		}
		m.ThreatLists = append(m.ThreatLists, d)
	}
	return m, r.err
}

// AppendListThreatListsResponse appends m as a binary
// ListThreatListsResponse.
func AppendListThreatListsResponse(b []byte, m *ListThreatListsResponse) []byte {
	for _, d := range m.ThreatLists {
		b = appendMessage(b, listsThreatLists, func(b []byte) []byte {
			b = appendInt32(b, descThreatType, d.ThreatType)
			b = appendInt32(b, descPlatformType, d.PlatformType)
			return appendInt32(b, descThreatEntryType, d.ThreatEntryType)
		})
	}
	return b
}

type jsonThreatLists struct {
	ThreatLists []jsonDescriptor `json:"threatLists,omitempty"`
}

type jsonDescriptor struct {
	ThreatType      ThreatType      `json:"threatType,omitempty"`
	PlatformType    PlatformType    `json:"platformType,omitempty"`
	ThreatEntryType ThreatEntryType `json:"threatEntryType,omitempty"`
}

// AppendListThreatListsResponseJSON appends m in Google's JSON mapping:
// {"threatLists":[{"threatType","platformType","threatEntryType"}]}.
func AppendListThreatListsResponseJSON(b []byte, m *ListThreatListsResponse) []byte {
	var j jsonThreatLists
	if len(m.ThreatLists) > 0 {
		j.ThreatLists = make([]jsonDescriptor, len(m.ThreatLists))
		for i, d := range m.ThreatLists {
			j.ThreatLists[i] = jsonDescriptor(d)
		}
	}
	return appendJSON(b, &j)
}

// ParseListThreatListsResponseJSON reads a ListThreatListsResponse in
// Google's JSON mapping, as the package reads JSON.
func ParseListThreatListsResponseJSON(data []byte) (ListThreatListsResponse, error) {
	var j jsonThreatLists
	if err := decodeJSON(data, &j); err != nil {
		return ListThreatListsResponse{}, err
	}
	var m ListThreatListsResponse
	if len(j.ThreatLists) > 0 {
		m.ThreatLists = make([]ThreatListDescriptor, len(j.ThreatLists))
		for i, d := range j.ThreatLists {
			m.ThreatLists[i] = ThreatListDescriptor(d)
		}
	}
	return m, nil
}
