// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestFetchResponseHeadBody: a reply written with each list's head and
// body apart is the reply the whole-message writers write, in binary and
// in JSON.
func TestFetchResponseHeadBody(t *testing.T) {
	sum := bytes.Repeat([]byte{7}, 32)
	full := ListUpdateResponse{
		ResponseType: FullUpdate,
		Additions: []ThreatEntrySet{
			{Compression: CompressionRice, RiceHashes: &Rice{First: 1 << 33, K: 5, Count: 2, Data: []byte{1, 2, 3}}},
			{Compression: CompressionRaw, RawHashes: &RawHashes{PrefixSize: 8, Hashes: bytes.Repeat([]byte{9}, 16)}},
		},
		NewClientState: []byte("MALWARE:0011"), Checksum: sum,
	}
	partial := ListUpdateResponse{
		ResponseType: PartialUpdate,
		Removals:     []ThreatEntrySet{{Compression: CompressionRaw, RawIndices: &RawIndices{Indices: []int32{0, 200, 70000}}}},
		// A body over 127 bytes: a length of two bytes.
		Additions:      []ThreatEntrySet{{Compression: CompressionRaw, RawHashes: &RawHashes{PrefixSize: 4, Hashes: bytes.Repeat([]byte{1, 2, 3, 4}, 40)}}},
		NewClientState: []byte("s"), Checksum: sum,
	}
	tests := []struct {
		name  string
		lists []ListUpdateResponse
		types []ThreatListDescriptor
		wait  time.Duration
		has   bool
	}{
		// One list, a minimum wait.
		{"one", []ListUpdateResponse{full}, []ThreatListDescriptor{{Malware, AnyPlatform, URL}}, 300 * time.Second, true},
		// Two lists, a wait of 0s present.
		{"two", []ListUpdateResponse{full, partial}, []ThreatListDescriptor{{Malware, Windows, URL}, {SocialEngineering, Chrome, URL}}, 0, true},
		// No minimum wait; a list whose types are all zero.
		{"zero types", []ListUpdateResponse{partial, full}, []ThreatListDescriptor{{}, {UnwantedSoftware, 0, Executable}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole := FetchThreatListUpdatesResponse{MinimumWait: tt.wait, HasMinimumWait: tt.has}
			var bin, js []byte
			js = append(js, FetchResponseJSONStart...)
			for i, lr := range tt.lists {
				d := tt.types[i]
				lr.ThreatType, lr.PlatformType, lr.ThreatEntryType = d.ThreatType, d.PlatformType, d.ThreatEntryType
				whole.ListUpdateResponses = append(whole.ListUpdateResponses, lr)
				// The body ignores the types it is given.
				lr.ThreatType = Malware
				body := AppendListUpdateResponseBody(nil, &lr)
				bin = AppendListUpdateResponseHead(bin, d, len(body))
				bin = append(bin, body...)
				if i > 0 {
					js = append(js, ',')
				}
				js = AppendListUpdateResponseHeadJSON(js, d)
				js = AppendListUpdateResponseBodyJSON(js, &lr)
			}
			bin = AppendMinimumWaitField(bin, tt.wait, tt.has)
			js = AppendFetchResponseJSONEnd(js, tt.wait, tt.has)
			if want := AppendFetchThreatListUpdatesResponse(nil, &whole); !bytes.Equal(bin, want) {
				t.Errorf("binary in parts:\n%x\nwant\n%x", bin, want)
			}
			if want := AppendFetchThreatListUpdatesResponseJSON(nil, &whole); !bytes.Equal(js, want) {
				t.Errorf("JSON in parts:\n%s\nwant\n%s", js, want)
			}
			if !json.Valid(js) {
				t.Errorf("JSON in parts is not valid: %s", js)
			}
		})
	}
}
