// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes that f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// denseInputs are the inputs that cost a reader most for their size:
// messages of many empty sub-messages, each two bytes in binary and three
// in JSON, and long runs of one-byte enums and indices.
func denseInputs(n int) []struct {
	name string
	in   []byte
	read func([]byte) error
} {
	// A sub-message of 8 bytes, the densest a reader takes: its tag, its
	// length, and an unknown field 15 of 4 bytes.
	bin := func(tag byte) []byte { return bytes.Repeat([]byte{tag, 0x06, 0x7a, 0x04, 0, 0, 0, 0}, n/4) }
	// An object of 16 bytes, with an unknown key: {"zzzzzzzzzz":0},
	js := func(field, elem string) []byte {
		if elem == "{}" {
			elem = `{"zzzzzzzzzz":0}`
		}
		return []byte(`{"` + field + `":[` + strings.TrimSuffix(strings.Repeat(elem+",", n), ",") + `]}`)
	}
	nested := func(field string, inner string) []byte {
		return []byte(strings.Replace(inner, "@", string(js(field, "{}")), 1))
	}
	return []struct {
		name string
		in   []byte
		read func([]byte) error
	}{
		{"fetch request", bin(0x1a), func(b []byte) error { _, err := ParseFetchThreatListUpdatesRequest(b); return err }},
		{"fetch response", bin(0x0a), func(b []byte) error { _, err := ParseFetchThreatListUpdatesResponse(b); return err }},
		{"fetch additions", msg(0x0a, bin(0x2a)), func(b []byte) error { _, err := ParseFetchThreatListUpdatesResponse(b); return err }},
		{"find states", bin(0x12), func(b []byte) error { _, err := ParseFindFullHashesRequest(b); return err }},
		{"find entries", msg(0x1a, bin(0x1a)), func(b []byte) error { _, err := ParseFindFullHashesRequest(b); return err }},
		{"find enums", msg(0x1a, msg(0x0a, bytes.Repeat([]byte{1}, 2*n))), func(b []byte) error { _, err := ParseFindFullHashesRequest(b); return err }},
		{"find response", bin(0x0a), func(b []byte) error { _, err := ParseFindFullHashesResponse(b); return err }},
		{"threat lists", bin(0x0a), func(b []byte) error { _, err := ParseListThreatListsResponse(b); return err }},
		{"diff raw hashes", msg(0x2a, bin(0x0a)), func(b []byte) error { _, err := ParseComputeThreatListDiffResponse(b); return err }},
		{"diff indices", msg(0x32, msg(0x0a, msg(0x0a, bytes.Repeat([]byte{0}, 2*n)))), func(b []byte) error { _, err := ParseComputeThreatListDiffResponse(b); return err }},
		{"search hashes", bytes.Repeat(msg(0x0a, msg(0x12, rep(1, 32))), n/16), func(b []byte) error { _, err := ParseSearchHashesResponse(b); return err }},
		{"JSON fetch request", js("listUpdateRequests", "{}"), func(b []byte) error { _, err := ParseFetchThreatListUpdatesRequestJSON(b); return err }},
		{"JSON fetch response", js("listUpdateResponses", "{}"), func(b []byte) error { _, err := ParseFetchThreatListUpdatesResponseJSON(b); return err }},
		{"JSON fetch additions", nested("additions", `{"listUpdateResponses":[@]}`), func(b []byte) error { _, err := ParseFetchThreatListUpdatesResponseJSON(b); return err }},
		{"JSON find entries", nested("threatEntries", `{"threatInfo":@}`), func(b []byte) error { _, err := ParseFindFullHashesRequestJSON(b); return err }},
		{"JSON find response", js("matches", "{}"), func(b []byte) error { _, err := ParseFindFullHashesResponseJSON(b); return err }},
		{"JSON threat lists", js("threatLists", "{}"), func(b []byte) error { _, err := ParseListThreatListsResponseJSON(b); return err }},
		{"JSON diff indices", []byte(`{"removals":{"rawIndices":` + string(js("indices", "0")) + `}}`), func(b []byte) error { _, err := ParseComputeThreatListDiffResponseJSON(b); return err }},
		{"JSON diff raw hashes", []byte(`{"additions":` + string(js("rawHashes", "{}")) + `}`), func(b []byte) error { _, err := ParseComputeThreatListDiffResponseJSON(b); return err }},
		{"JSON enums", []byte(`{"threatInfo":` + string(js("threatTypes", "1")) + `}`), func(b []byte) error { _, err := ParseFindFullHashesRequestJSON(b); return err }},
	}
}

// TestDenseAlloc: a reader allocates at most maxBinaryAlloc (binary) or
// maxJSONAlloc (JSON) bytes a byte of input, plus 64 KiB, on the inputs
// that cost most; and the same inputs made denser are refused.
func TestDenseAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	const (
		maxBinaryAlloc = 16
		maxJSONAlloc   = 40
	)
	for _, tt := range denseInputs(1 << 14) {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			n := allocated(func() { err = tt.read(tt.in) })
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			limit := uint64(maxBinaryAlloc)
			if strings.HasPrefix(tt.name, "JSON") {
				limit = maxJSONAlloc
			}
			if n > limit*uint64(len(tt.in))+64<<10 {
				t.Errorf("%d bytes in, %d allocated: %.1f a byte", len(tt.in), n, float64(n)/float64(len(tt.in)))
			}
		})
	}
}

// TestDenseRefused: a message denser in sub-messages than the budget is
// refused, whatever its size, before its values are allocated.
func TestDenseRefused(t *testing.T) {
	tests := []struct {
		name string
		read func([]byte) error
		in   []byte
	}{
		// 1000 empty ListUpdateRequests: 2000 bytes.
		{"fetch request", func(b []byte) error { _, err := ParseFetchThreatListUpdatesRequest(b); return err }, bytes.Repeat([]byte{0x1a, 0x00}, 1000)},
		// 1000 empty sets in one list.
		{"fetch additions", func(b []byte) error { _, err := ParseFetchThreatListUpdatesResponse(b); return err }, msg(0x0a, bytes.Repeat([]byte{0x2a, 0x00}, 1000))},
		// 1000 empty entries to search.
		{"find entries", func(b []byte) error { _, err := ParseFindFullHashesRequest(b); return err }, msg(0x1a, bytes.Repeat([]byte{0x1a, 0x00}, 1000))},
		// 1000 empty objects in JSON.
		{"JSON fetch request", func(b []byte) error { _, err := ParseFetchThreatListUpdatesRequestJSON(b); return err },
			[]byte(`{"listUpdateRequests":[` + strings.Repeat("{},", 999) + "{}]}")},
		// 1000 empty client states in JSON.
		{"JSON client states", func(b []byte) error { _, err := ParseFindFullHashesRequestJSON(b); return err },
			[]byte(`{"clientStates":[` + strings.Repeat(`"",`, 999) + `""]}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.read(tt.in); err == nil {
				t.Error("no error")
			}
		})
	}
	// The densest real requests are read: 1000 prefixes of 4 bytes to
	// search, in binary (8 bytes each) and in JSON.
	var m FindFullHashesRequest
	for range 1000 {
		m.ThreatInfo.ThreatEntries = append(m.ThreatInfo.ThreatEntries, ThreatEntry{Hash: []byte{1, 2, 3, 4}})
	}
	if _, err := ParseFindFullHashesRequest(AppendFindFullHashesRequest(nil, &m)); err != nil {
		t.Errorf("1000 prefixes: %v", err)
	}
	if _, err := ParseFindFullHashesRequestJSON(AppendFindFullHashesRequestJSON(nil, &m)); err != nil {
		t.Errorf("1000 prefixes in JSON: %v", err)
	}
}
