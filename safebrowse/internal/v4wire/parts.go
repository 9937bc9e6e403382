// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file writes a FetchThreatListUpdatesResponse in parts, so that a
// server encodes each list's update once, whatever list asked for it,
// and writes it into every reply that carries it with no copy: a
// ListUpdateResponse is its head (its three types, which the request
// chose) and its body (the rest, which the list's contents chose). A
// reply is, in binary, each list's head and body, then
// [AppendMinimumWaitField]; in JSON, [FetchResponseJSONStart], each
// list's head and body (a comma between lists), then
// [AppendFetchResponseJSONEnd]. The bytes are those of
// [AppendFetchThreatListUpdatesResponse] and
// [AppendFetchThreatListUpdatesResponseJSON].

// AppendListUpdateResponseBody appends the body of lr in binary: its
// fields after its three types (response_type, additions, removals,
// new_client_state, checksum), whatever lr's types are.
func AppendListUpdateResponseBody(b []byte, lr *ListUpdateResponse) []byte {
	body := *lr
	body.ThreatType, body.ThreatEntryType, body.PlatformType = 0, 0, 0
	f := AppendListUpdateResponseField(nil, &body)
	_, _, n := protowire.ConsumeTag(f)
	v, _ := protowire.ConsumeBytes(f[n:])
	return append(b, v...)
}

// AppendListUpdateResponseHead appends, in binary, the head of a
// ListUpdateResponse with the types of d and a body of n bytes: the tag
// and length of its list_update_responses field, then its three types.
func AppendListUpdateResponseHead(b []byte, d ThreatListDescriptor, n int) []byte {
	var types [3 * 6]byte
	t := appendInt32(types[:0], lupThreatType, d.ThreatType)
	t = appendInt32(t, lupThreatEntryType, d.ThreatEntryType)
	t = appendInt32(t, lupPlatformType, d.PlatformType)
	b = protowire.AppendTag(b, fetchResponses, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(t)+n))
	return append(b, t...)
}

// AppendListUpdateResponseBodyJSON appends the body of lr in Google's JSON
// mapping: its members after its three types, then the object's closing
// brace, as in "responseType":"FULL_UPDATE",…}. It is not empty when
// lr.ResponseType is set, as every update's is.
func AppendListUpdateResponseBodyJSON(b []byte, lr *ListUpdateResponse) []byte {
	body := *lr
	body.ThreatType, body.ThreatEntryType, body.PlatformType = 0, 0, 0
	j := appendJSON(nil, &jsonListUpdateResponse{
		ResponseType: body.ResponseType,
		Additions:    setsToJSON(body.Additions), Removals: setsToJSON(body.Removals),
		NewClientState: body.NewClientState, Checksum: checksumToJSON(body.Checksum),
	})
	return append(b, bytes.TrimPrefix(j, []byte("{"))...)
}

// AppendListUpdateResponseHeadJSON appends, in Google's JSON mapping, the
// head of a ListUpdateResponse with the types of d: the object's opening
// brace and its three types, each followed by a comma, as in
// {"threatType":"MALWARE","threatEntryType":"URL","platformType":"WINDOWS",
// A type at zero is left out, as proto3 leaves it.
func AppendListUpdateResponseHeadJSON(b []byte, d ThreatListDescriptor) []byte {
	j := appendJSON(nil, &jsonListUpdateResponse{ThreatType: d.ThreatType, ThreatEntryType: d.ThreatEntryType, PlatformType: d.PlatformType})
	j = bytes.TrimSuffix(j, []byte("}"))
	if len(j) > 1 {
		j = append(j, ',')
	}
	return append(b, j...)
}

// FetchResponseJSONStart is how a FetchThreatListUpdatesResponse with at
// least one list starts in JSON.
const FetchResponseJSONStart = `{"listUpdateResponses":[`

// AppendFetchResponseJSONEnd appends the end of a
// FetchThreatListUpdatesResponse in JSON, after its last list: its
// minimumWaitDuration, d when has is set or d is not zero, and the
// closing brace.
func AppendFetchResponseJSONEnd(b []byte, d time.Duration, has bool) []byte {
	b = append(b, ']')
	if j := optDuration(d, has); j != nil {
		mb, _ := j.MarshalJSON()
		b = append(b, `,"minimumWaitDuration":`...)
		b = append(b, mb...)
	}
	return append(b, '}')
}
