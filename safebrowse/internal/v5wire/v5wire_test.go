// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// hash32 is a full hash of 32 bytes, each b.
func hash32(b byte) (h [32]byte) {
	for i := range h {
		h[i] = b
	}
	return h
}

// TestSearchHandBuilt reads SearchHashesResponses written byte by byte
// from the schema, not by AppendSearchHashesResponse.
func TestSearchHandBuilt(t *testing.T) {
	h := hash32(0xab)
	fh := append([]byte{0x0a, 0x20}, h[:]...)
	tests := []struct {
		name    string
		in      []byte
		want    SearchHashesResponse
		wantErr bool
	}{
		// The empty reply: not found, nothing cached.
		{"empty", nil, SearchHashesResponse{}, false},
		// cache_duration 300 s alone.
		{"duration", []byte{0x12, 0x03, 0x08, 0xac, 0x02}, SearchHashesResponse{CacheDuration: 300 * time.Second, HasCacheDuration: true}, false},
		// A full hash with one detail, MALWARE with CANARY and FRAME_ONLY
		// packed, and an unknown field 15 skipped.
		{"detail packed", cat([]byte{0x0a, 0x2a}, fh, []byte{0x12, 0x06, 0x08, 0x01, 0x12, 0x02, 0x01, 0x02}, []byte{0x78, 0x05}),
			SearchHashesResponse{FullHashes: []FullHash{{Hash: h, Details: []FullHashDetail{{Malware, []ThreatAttribute{Canary, FrameOnly}}}}}}, false},
		// The attributes unpacked, one of them unknown (kept, for Known).
		{"detail unpacked", cat([]byte{0x0a, 0x2a}, fh, []byte{0x12, 0x06, 0x08, 0x02, 0x10, 0x01, 0x10, 0x09}),
			SearchHashesResponse{FullHashes: []FullHash{{Hash: h, Details: []FullHashDetail{{SocialEngineering, []ThreatAttribute{Canary, 9}}}}}}, false},
		// A full hash of 31 bytes is corrupt.
		{"short hash", cat([]byte{0x0a, 0x21, 0x0a, 0x1f}, h[:31]), SearchHashesResponse{}, true},
		// A FullHash without full_hash is corrupt.
		{"no hash", []byte{0x0a, 0x02, 0x12, 0x00}, SearchHashesResponse{}, true},
		// cache_duration given twice is corrupt.
		{"duration twice", []byte{0x12, 0x00, 0x12, 0x00}, SearchHashesResponse{}, true},
		// A negative cache_duration is corrupt.
		{"negative", []byte{0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, SearchHashesResponse{}, true},
		// full_hashes as a varint is corrupt.
		{"wire type", []byte{0x08, 0x01}, SearchHashesResponse{}, true},
		// A truncated length.
		{"truncated", []byte{0x0a, 0x40, 0x01}, SearchHashesResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSearchHashesResponse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// TestDuration reads Durations by hand: the policy caps, refuses negative
// values and nanos out of range.
func TestDuration(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    time.Duration
		wantErr bool
	}{
		// 1.5 s.
		{"seconds and nanos", []byte{0x08, 0x01, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01}, 1500 * time.Millisecond, false},
		// 2^62 s is capped, never wrapped (lookup and hashlist once
		// disagreed on it).
		{"capped", []byte{0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}, MaxDuration, false},
		// nanos of 1e9.
		{"nanos out of range", []byte{0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}, 0, true},
		// seconds as fixed64.
		{"wire type", []byte{0x09, 0, 0, 0, 0, 0, 0, 0, 0}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDuration(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("got %v, %v; want %v, wantErr %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// sampleLists are HashLists of each width, with every field.
func sampleLists() []HashList {
	return []HashList{
		{Name: "se-4b", Version: []byte("v1"), Partial: true, AddWidth: 4,
			Additions:   Rice{First: [4]uint64{0, 0, 0, 7}, K: 3, Count: 1, Data: []byte{0x05}},
			HasRemovals: true, Removals: Rice{First: [4]uint64{0, 0, 0, 2}},
			MinimumWait: 1500 * time.Millisecond, Checksum: make([]byte, 32)},
		{Name: "x-8b", AddWidth: 8, Additions: Rice{First: [4]uint64{0, 0, 0, 1 << 60}, K: 40, Count: 2, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}},
		{Name: "x-16b", AddWidth: 16, Additions: Rice{First: [4]uint64{0, 0, 1, 1 << 63}}},
		{Name: "hashLists/gc-32b", AddWidth: 32, Additions: Rice{First: [4]uint64{1, 2, 3, 4}, K: 230, Count: 1, Data: make([]byte, 30)},
			Metadata: &Metadata{LikelySafeTypes: []LikelySafeType{GeneralBrowsing}, Description: "Global Cache", HashLength: ThirtyTwoBytes}},
		{Name: "mw-4b", Metadata: &Metadata{ThreatTypes: []ThreatType{Malware, 7}, HashLength: FourBytes}},
	}
}

// TestHashListRoundTrip: what AppendHashList and MarshalJSON write, the
// readers read back.
func TestHashListRoundTrip(t *testing.T) {
	for _, m := range sampleLists() {
		t.Run(m.Name, func(t *testing.T) {
			got, err := ParseHashList(AppendHashList(nil, &m))
			if err != nil || !reflect.DeepEqual(got, m) {
				t.Errorf("proto: got %+v, %v\nwant %+v", got, err, m)
			}
			j, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var back HashList
			if err := json.Unmarshal(j, &back); err != nil || !reflect.DeepEqual(back, m) {
				t.Errorf("JSON %s: got %+v, %v\nwant %+v", j, back, err, m)
			}
		})
	}
}

// TestHashListHandBuilt reads HashLists written by hand.
func TestHashListHandBuilt(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    HashList
		wantErr bool
	}{
		// name "se-4b", partial, minimum_wait_duration 1800 s, checksum of
		// one byte, an unknown fixed32 field 20.
		{"header", []byte{0x0a, 0x05, 's', 'e', '-', '4', 'b', 0x18, 0x01, 0x32, 0x03, 0x08, 0x88, 0x0e, 0x3a, 0x01, 0x00, 0xa5, 0x01, 1, 2, 3, 4},
			HashList{Name: "se-4b", Partial: true, MinimumWait: 1800 * time.Second, Checksum: []byte{0}}, false},
		// additions_eight_bytes: first_value 5, k 35, no entries.
		{"eight bytes", []byte{0x4a, 0x04, 0x08, 0x05, 0x10, 0x23}, HashList{AddWidth: 8, Additions: Rice{First: [4]uint64{0, 0, 0, 5}, K: 35}}, false},
		// additions_sixteen_bytes: hi 1 (varint), lo 2 (fixed64).
		{"sixteen bytes", []byte{0x52, 0x0b, 0x08, 0x01, 0x11, 2, 0, 0, 0, 0, 0, 0, 0}, HashList{AddWidth: 16, Additions: Rice{First: [4]uint64{0, 0, 1, 2}}}, false},
		// Two fields of the additions oneof.
		{"oneof twice", []byte{0x22, 0x00, 0x4a, 0x00}, HashList{}, true},
		// A 32-bit first value over 32 bits.
		{"first value overflow", []byte{0x22, 0x06, 0x08, 0x80, 0x80, 0x80, 0x80, 0x10}, HashList{}, true},
		// rice_parameter over int32.
		{"k overflow", []byte{0x22, 0x06, 0x10, 0x80, 0x80, 0x80, 0x80, 0x08}, HashList{}, true},
		// The fixed64 part of a 16-byte first value sent as a varint.
		{"lo wire type", []byte{0x52, 0x02, 0x10, 0x01}, HashList{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHashList(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestJSONShapes checks the JSON that the generated clients read, field by
// field, against text written by hand from Google's JSON mapping.
func TestJSONShapes(t *testing.T) {
	h := hash32(0)
	search := &SearchHashesResponse{
		FullHashes:    []FullHash{{Hash: h, Details: []FullHashDetail{{Malware, []ThreatAttribute{Canary}}}}},
		CacheDuration: 300 * time.Second, HasCacheDuration: true,
	}
	urls := &SearchUrlsResponse{Threats: []ThreatURL{{URL: "http://evil.example/", ThreatTypes: []ThreatType{SocialEngineering}}}, CacheDuration: 1500 * time.Millisecond}
	lists := &ListHashListsResponse{HashLists: []HashList{{Name: "se-4b", Metadata: &Metadata{ThreatTypes: []ThreatType{SocialEngineering}, Description: "d", HashLength: FourBytes}}}, NextPageToken: "1"}
	list := &HashList{Name: "se-4b", Version: []byte{0xfb, 0xff}, AddWidth: 8, Additions: Rice{First: [4]uint64{0, 0, 0, 5}, K: 35, Count: 1, Data: []byte{1}}, MinimumWait: time.Second}
	tests := []struct {
		name string
		in   json.Marshaler
		want string
	}{
		// Bytes in standard base64 with padding, the duration in seconds,
		// enums by name.
		{"search", search, `{"fullHashes":[{"fullHash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","fullHashDetails":[{"threatType":"MALWARE","attributes":["CANARY"]}]}],"cacheDuration":"300s"}`},
		// The urls:search reply of the discovery document.
		{"urls", urls, `{"threats":[{"url":"http://evil.example/","threatTypes":["SOCIAL_ENGINEERING"]}],"cacheDuration":"1.500s"}`},
		// ListHashLists: metadata, the page token.
		{"lists", lists, `{"hashLists":[{"name":"se-4b","metadata":{"threatTypes":["SOCIAL_ENGINEERING"],"description":"d","hashLength":"FOUR_BYTES"}}],"nextPageToken":"1"}`},
		// A uint64 as a decimal string, int32s as numbers, "+/" base64.
		{"list", list, `{"name":"se-4b","version":"+/8=","additionsEightBytes":{"firstValue":"5","riceParameter":35,"entriesCount":1,"encodedData":"AQ=="},"minimumWaitDuration":"1s"}`},
		// An empty reply is {}.
		{"empty search", &SearchHashesResponse{}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.MarshalJSON()
			if err != nil || string(got) != tt.want {
				t.Errorf("got %s, %v\nwant %s", got, err, tt.want)
			}
		})
	}
}

// TestJSONLenient: the JSON readers take what the mapping allows besides
// what the writers write.
func TestJSONLenient(t *testing.T) {
	var l HashList
	// URL-safe unpadded bytes, a uint64 as a number, an int32 as a string,
	// an enum by number.
	in := `{"version":"-_8","additionsEightBytes":{"firstValue":5,"riceParameter":"35"},"metadata":{"threatTypes":[2]},"minimumWaitDuration":"0.000000001s"}`
	if err := json.Unmarshal([]byte(in), &l); err != nil {
		t.Fatal(err)
	}
	want := HashList{Version: []byte{0xfb, 0xff}, AddWidth: 8, Additions: Rice{First: [4]uint64{0, 0, 0, 5}, K: 35}, Metadata: &Metadata{ThreatTypes: []ThreatType{SocialEngineering}}, MinimumWait: 1}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("got %+v\nwant %+v", l, want)
	}
	for _, bad := range []string{
		`{"minimumWaitDuration":"-1s"}`,
		`{"minimumWaitDuration":"1"}`,
		`{"minimumWaitDuration":"1.0000000001s"}`,
		`{"additionsFourBytes":{"firstValue":4294967296}}`,
		`{"additionsFourBytes":{},"additionsEightBytes":{}}`,
		`{"version":"!!"}`,
		`{} {}`,
	} {
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestFormatDuration: the JSON mapping writes 0, 3, 6 or 9 digits.
func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                "0s",
		300 * time.Second:                "300s",
		1500 * time.Millisecond:          "1.500s",
		1500 * time.Microsecond:          "0.001500s",
		1:                                "0.000000001s",
		-1500 * time.Millisecond:         "-1.500s",
		MaxDuration:                      "9223372036.854775807s",
		30*time.Minute + time.Nanosecond: "1800.000000001s",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%d) = %q; want %q", d, got, want)
		}
		if d >= 0 {
			if back, err := ParseJSONDuration(want); err != nil || back != d {
				t.Errorf("ParseJSONDuration(%q) = %v, %v", want, back, err)
			}
		}
	}
}

// TestThreatTypeNames: v5's four threat types are valid and named; Web
// Risk's extended coverage is named but not valid, so that a v5 detail of
// its number is ignored; any other number is neither.
func TestThreatTypeNames(t *testing.T) {
	tests := []struct {
		in    ThreatType
		want  string
		valid bool
	}{
		// v5's values.
		{Malware, "MALWARE", true},
		{PotentiallyHarmfulApplication, "POTENTIALLY_HARMFUL_APPLICATION", true},
		// Web Risk's, outside v5's numbers.
		{SocialEngineeringExtendedCoverage, "SOCIAL_ENGINEERING_EXTENDED_COVERAGE", false},
		// Unknown, and unspecified.
		{5, "ThreatType(5)", false},
		{0, "ThreatType(0)", false},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("ThreatType(%d).String() = %q; want %q", int(tt.in), got, tt.want)
			}
			if got := tt.in.Valid(); got != tt.valid {
				t.Errorf("ThreatType(%d).Valid() = %v; want %v", int(tt.in), got, tt.valid)
			}
		})
	}
}
