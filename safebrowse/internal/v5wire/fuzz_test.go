// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// Every reader of the package has a fuzz target here. Each is seeded from
// a commented corpus of messages written by hand from the schema (not by
// the package's writers), and checks, besides that nothing panics, the
// round trip that the format promises: what the reader accepts, the writer
// writes, and the reader reads back equal. Equal means reflect.DeepEqual
// once empty slices are nil: proto3 and the JSON mapping leave out an
// empty bytes or repeated field, so "present and empty" and "absent" are
// one value. Where a message read in one encoding holds only valid UTF-8
// strings (JSON cannot carry others), it must also survive the other
// encoding.

// seed is one message of a corpus and why it is there.
type seed struct {
	why string
	in  []byte
}

// hashListSeeds are binary HashLists.
var hashListSeeds = []seed{
	{"empty message: a full update of nothing", nil},
	{"name, partial, minimum_wait_duration 1800 s, a one-byte checksum, unknown fixed32 field 20",
		[]byte{0x0a, 0x05, 's', 'e', '-', '4', 'b', 0x18, 0x01, 0x32, 0x03, 0x08, 0x88, 0x0e, 0x3a, 0x01, 0x00, 0xa5, 0x01, 1, 2, 3, 4}},
	{"additions_four_bytes: first 7, k 3, one entry, data 0x05", []byte{0x22, 0x09, 0x08, 0x07, 0x10, 0x03, 0x18, 0x01, 0x22, 0x01, 0x05}},
	{"compressed_removals: first 2", []byte{0x2a, 0x02, 0x08, 0x02}},
	{"additions_eight_bytes: first 5, k 35", []byte{0x4a, 0x04, 0x08, 0x05, 0x10, 0x23}},
	{"additions_sixteen_bytes: hi 1 (varint), lo 2 (fixed64)", []byte{0x52, 0x0b, 0x08, 0x01, 0x11, 2, 0, 0, 0, 0, 0, 0, 0}},
	{"additions_thirty_two_bytes: the four parts, k 230",
		[]byte{0x5a, 0x20, 0x08, 0x01, 0x11, 2, 0, 0, 0, 0, 0, 0, 0, 0x19, 3, 0, 0, 0, 0, 0, 0, 0, 0x21, 4, 0, 0, 0, 0, 0, 0, 0, 0x28, 0xe6, 0x01}},
	{"metadata: threat types 1 and 2 packed, description \"d\", hash_length FOUR_BYTES",
		[]byte{0x42, 0x09, 0x0a, 0x02, 0x01, 0x02, 0x22, 0x01, 'd', 0x30, 0x02}},
	{"metadata: likely safe GENERAL_BROWSING unpacked", []byte{0x42, 0x02, 0x10, 0x01}},
	{"metadata: a negative threat type, sign-extended", []byte{0x42, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	{"minimum_wait_duration of 2^62 s, capped", []byte{0x32, 0x0a, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
	{"two fields of the additions oneof: corrupt", []byte{0x22, 0x00, 0x4a, 0x00}},
	{"a 32-bit first value over 32 bits: corrupt", []byte{0x22, 0x06, 0x08, 0x80, 0x80, 0x80, 0x80, 0x10}},
	{"rice_parameter over int32: corrupt", []byte{0x22, 0x06, 0x10, 0x80, 0x80, 0x80, 0x80, 0x08}},
	{"name as a varint: corrupt", []byte{0x08, 0x01}},
	{"a truncated length", []byte{0x0a, 0x40, 0x01}},
	{"field number 0", []byte{0x00}},
	{"an unknown group, start and end", []byte{0xa3, 0x01, 0xa4, 0x01}},
	{"a name that is not UTF-8", []byte{0x0a, 0x02, 0xff, 0xfe}},
}

// searchSeeds are binary SearchHashesResponses.
var searchSeeds = func() []seed {
	h := bytes.Repeat([]byte{0xab}, 32)
	fh := append([]byte{0x0a, 0x20}, h...)
	return []seed{
		{"the empty reply", nil},
		{"cache_duration 300 s alone", []byte{0x12, 0x03, 0x08, 0xac, 0x02}},
		{"one detail, MALWARE with CANARY and FRAME_ONLY packed, unknown field 15",
			cat([]byte{0x0a, 0x2a}, fh, []byte{0x12, 0x06, 0x08, 0x01, 0x12, 0x02, 0x01, 0x02}, []byte{0x78, 0x05})},
		{"attributes unpacked, one unknown", cat([]byte{0x0a, 0x2a}, fh, []byte{0x12, 0x06, 0x08, 0x02, 0x10, 0x01, 0x10, 0x09})},
		{"a full hash alone, no detail", cat([]byte{0x0a, 0x22}, fh)},
		{"an empty detail", cat([]byte{0x0a, 0x24}, fh, []byte{0x12, 0x00})},
		{"a full hash of 31 bytes: corrupt", cat([]byte{0x0a, 0x21, 0x0a, 0x1f}, h[:31])},
		{"a FullHash without full_hash: corrupt", []byte{0x0a, 0x02, 0x12, 0x00}},
		{"cache_duration twice: corrupt", []byte{0x12, 0x00, 0x12, 0x00}},
		{"a negative cache_duration: corrupt", []byte{0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
		{"nanos of 1e9: corrupt", []byte{0x12, 0x06, 0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}},
	}
}()

// urlsSeeds are binary SearchUrlsResponses (threats 1, cacheDuration 2;
// url 1, threatTypes 2).
var urlsSeeds = []seed{
	{"the empty reply", nil},
	{"one threat: url, SOCIAL_ENGINEERING, and cache_duration 1.5 s",
		[]byte{0x0a, 0x0c, 0x0a, 0x08, 'h', 't', 't', 'p', ':', '/', '/', 'e', 0x10, 0x02, 0x12, 0x08, 0x08, 0x01, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01}},
	{"threat types packed", []byte{0x0a, 0x04, 0x12, 0x02, 0x01, 0x05}},
	{"an empty threat", []byte{0x0a, 0x00}},
	{"url as a varint: corrupt", []byte{0x0a, 0x02, 0x08, 0x01}},
}

// durationSeeds are binary Durations.
var durationSeeds = []seed{
	{"zero", nil},
	{"1.5 s", []byte{0x08, 0x01, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01}},
	{"2^62 s, capped", []byte{0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
	{"9223372035 s, the most whole seconds not capped", []byte{0x08, 0x83, 0xfa, 0x85, 0xae, 0x22}},
	{"9223372036 s, the fewest capped", []byte{0x08, 0x84, 0xfa, 0x85, 0xae, 0x22}},
	{"nanos of 1e9: corrupt", []byte{0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}},
	{"seconds as fixed64: corrupt", []byte{0x09, 0, 0, 0, 0, 0, 0, 0, 0}},
	{"seconds given twice: the last wins", []byte{0x08, 0x01, 0x08, 0x02}},
}

// FuzzParseHashList: a HashList read is written and read back equal, and,
// its strings valid UTF-8, survives JSON.
func FuzzParseHashList(f *testing.F) {
	for _, s := range hashListSeeds {
		f.Add(s.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseHashList(b)
		if err != nil {
			return
		}
		out := AppendHashList(nil, &m)
		back, err := ParseHashList(out)
		if err != nil {
			t.Fatalf("ParseHashList(AppendHashList(%x)) error: %v", b, err)
		}
		mustEqual(t, "proto", m, back)
		if hashListUTF8(&m) {
			jsonRoundTrip(t, &m, new(HashList))
		}
	})
}

// FuzzParseRice: a Rice message of each width read is written and read
// back equal.
func FuzzParseRice(f *testing.F) {
	for _, s := range []struct {
		why string
		in  []byte
		w   int
	}{
		{"32-bit: first 7, k 3, one entry", []byte{0x08, 0x07, 0x10, 0x03, 0x18, 0x01, 0x22, 0x01, 0x05}, 4},
		{"64-bit: first 2^60 as a varint", []byte{0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10}, 8},
		{"128-bit: hi, lo, k, count, data", []byte{0x08, 0x01, 0x11, 2, 0, 0, 0, 0, 0, 0, 0, 0x18, 0x05, 0x20, 0x01, 0x2a, 0x01, 0x00}, 16},
		{"256-bit: the third part alone", []byte{0x19, 3, 0, 0, 0, 0, 0, 0, 0}, 32},
		{"a negative count, sign-extended", []byte{0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 4},
		{"32-bit first value over 32 bits: corrupt", []byte{0x08, 0x80, 0x80, 0x80, 0x80, 0x10}, 4},
		{"the 128-bit lo as a varint: corrupt", []byte{0x10, 0x01}, 16},
	} {
		f.Add(s.in, uint8(s.w))
	}
	f.Fuzz(func(t *testing.T, b []byte, wb uint8) {
		w := 4 << (wb % 4) // 4, 8, 16 or 32
		s, err := ParseRice(b, w)
		if err != nil {
			return
		}
		back, err := ParseRice(AppendRice(nil, w, &s), w)
		if err != nil {
			t.Fatalf("ParseRice(AppendRice(%x), %d) error: %v", b, w, err)
		}
		mustEqual(t, "proto", s, back)
	})
}

// FuzzParseDuration: a Duration read is written and read back equal, and
// so is its JSON form.
func FuzzParseDuration(f *testing.F) {
	for _, s := range durationSeeds {
		f.Add(s.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDuration(b)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("ParseDuration(%x) = %v, negative", b, d)
		}
		if back, err := ParseDuration(AppendDuration(nil, d)); err != nil || back != d {
			t.Fatalf("ParseDuration(AppendDuration(%v)) = %v, %v", d, back, err)
		}
		if back, err := ParseJSONDuration(FormatDuration(d)); err != nil || back != d {
			t.Fatalf("ParseJSONDuration(%q) = %v, %v; want %v", FormatDuration(d), back, err, d)
		}
	})
}

// FuzzParseBatch: the HashLists of a BatchGetHashListsResponse read are
// written and read back equal, and each is a HashList to ParseHashList or
// an error, never a panic.
func FuzzParseBatch(f *testing.F) {
	for _, s := range []seed{
		{"no lists", nil},
		{"one empty list", []byte{0x0a, 0x00}},
		{"two lists, named", []byte{0x0a, 0x07, 0x0a, 0x05, 's', 'e', '-', '4', 'b', 0x0a, 0x07, 0x0a, 0x05, 'm', 'w', '-', '4', 'b'}},
		{"an unknown field between them", []byte{0x0a, 0x00, 0x10, 0x01, 0x0a, 0x00}},
		{"hash_lists as a varint: corrupt", []byte{0x08, 0x01}},
	} {
		f.Add(s.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lists, err := ParseBatch(b)
		if err != nil {
			return
		}
		var out []byte
		for _, l := range lists {
			ParseHashList(l)
			out = AppendBatchList(out, l)
		}
		back, err := ParseBatch(out)
		if err != nil {
			t.Fatalf("ParseBatch of its own lists %x: %v", out, err)
		}
		mustEqual(t, "proto", lists, back)
	})
}

// FuzzParseListHashListsResponse: a ListHashListsResponse read is written
// and read back equal, and, its strings valid UTF-8, survives JSON.
func FuzzParseListHashListsResponse(f *testing.F) {
	f.Add([]byte(nil))                                // no lists
	f.Add([]byte{0x12, 0x01, '2'})                    // a next_page_token alone
	f.Add([]byte{0x0a, 0x00, 0x0a, 0x00})             // two empty lists
	f.Add([]byte{0x0a, 0x04, 0x42, 0x02, 0x30, 0x02}) // a list whose metadata says FOUR_BYTES
	f.Add([]byte{0x0a, 0x02, 0x08, 0x01})             // a corrupt list
	for _, s := range hashListSeeds {
		f.Add(cat([]byte{0x0a, byte(len(s.in))}, s.in)) // each HashList seed in a reply
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseListHashListsResponse(b)
		if err != nil {
			return
		}
		back, err := ParseListHashListsResponse(AppendListHashListsResponse(nil, &m))
		if err != nil {
			t.Fatalf("ParseListHashListsResponse of its own reply: %v", err)
		}
		mustEqual(t, "proto", m, back)
		ok := utf8.ValidString(m.NextPageToken)
		for i := range m.HashLists {
			ok = ok && hashListUTF8(&m.HashLists[i])
		}
		if ok {
			jsonRoundTrip(t, &m, new(ListHashListsResponse))
		}
	})
}

// FuzzParseStatusMessage: a google.rpc.Status is read without a panic, and
// the message of one written by hand is read back.
func FuzzParseStatusMessage(f *testing.F) {
	f.Add([]byte(nil), "")                                            // nothing
	f.Add([]byte{0x08, 0x03, 0x12, 0x03, 'b', 'a', 'd'}, "bad")       // code 3, message "bad"
	f.Add([]byte{0x12, 0x01, 'a', 0x12, 0x01, 'b'}, "b")              // the message twice: the last wins
	f.Add([]byte{0x12, 0x05, 'a'}, "truncated")                       // a truncated message: ""
	f.Add([]byte{0x1a, 0x02, 0x0a, 0x00, 0x10, 0x01}, "with details") // details skipped
	f.Fuzz(func(t *testing.T, b []byte, msg string) {
		ParseStatusMessage(b)
		in := cat([]byte{0x08, 0x05, 0x12}, appendLen(nil, len(msg)), []byte(msg))
		if got := ParseStatusMessage(in); got != msg {
			t.Fatalf("ParseStatusMessage(%x) = %q; want %q", in, got, msg)
		}
	})
}

// appendLen appends n as a varint, as a test-side writer of lengths.
func appendLen(b []byte, n int) []byte {
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(b, byte(n))
}

// FuzzParseSearchHashesResponse: a SearchHashesResponse read is written
// and read back equal, and survives JSON.
func FuzzParseSearchHashesResponse(f *testing.F) {
	for _, s := range searchSeeds {
		f.Add(s.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseSearchHashesResponse(b)
		if err != nil {
			return
		}
		back, err := ParseSearchHashesResponse(AppendSearchHashesResponse(nil, &m))
		if err != nil {
			t.Fatalf("ParseSearchHashesResponse of its own reply: %v", err)
		}
		mustEqual(t, "proto", m, back)
		jsonRoundTrip(t, &m, new(SearchHashesResponse))
	})
}

// FuzzParseSearchUrlsResponse: a SearchUrlsResponse read is written and
// read back equal, and, its URLs valid UTF-8, survives JSON.
func FuzzParseSearchUrlsResponse(f *testing.F) {
	for _, s := range urlsSeeds {
		f.Add(s.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseSearchUrlsResponse(b)
		if err != nil {
			return
		}
		back, err := ParseSearchUrlsResponse(AppendSearchUrlsResponse(nil, &m))
		if err != nil {
			t.Fatalf("ParseSearchUrlsResponse of its own reply: %v", err)
		}
		mustEqual(t, "proto", m, back)
		for _, th := range m.Threats {
			if !utf8.ValidString(th.URL) {
				return
			}
		}
		jsonRoundTrip(t, &m, new(SearchUrlsResponse))
	})
}

// hashListJSONSeeds are HashLists in Google's JSON mapping.
var hashListJSONSeeds = []string{
	// The empty list.
	`{}`,
	// What Google's servers send for a 4-byte list.
	`{"name":"se-4b","version":"AQ==","partialUpdate":true,"additionsFourBytes":{"firstValue":7,"riceParameter":3,"entriesCount":1,"encodedData":"BQ=="},"compressedRemovals":{"firstValue":2},"minimumWaitDuration":"1.500s","sha256Checksum":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}`,
	// A uint64 as a decimal string, "+/" base64.
	`{"name":"se-4b","version":"+/8=","additionsEightBytes":{"firstValue":"5","riceParameter":35,"entriesCount":1,"encodedData":"AQ=="},"minimumWaitDuration":"1s"}`,
	// The 128- and 256-bit first values.
	`{"additionsSixteenBytes":{"firstValueHi":"1","firstValueLo":"2"}}`,
	`{"name":"hashLists/gc-32b","additionsThirtyTwoBytes":{"firstValueFirstPart":"1","firstValueSecondPart":"2","firstValueThirdPart":"3","firstValueFourthPart":"18446744073709551615","riceParameter":230}}`,
	// Metadata, enums by name and by number.
	`{"name":"mw-4b","metadata":{"threatTypes":["MALWARE",7],"likelySafeTypes":["GENERAL_BROWSING"],"description":"d","hashLength":"FOUR_BYTES"}}`,
	// What the mapping allows besides: URL-safe unpadded bytes, a uint64 as
	// a number, an int32 as a string.
	`{"version":"-_8","additionsEightBytes":{"firstValue":5,"riceParameter":"35"},"metadata":{"threatTypes":[2]},"minimumWaitDuration":"0.000000001s"}`,
	// A wait longer than a time.Duration holds, capped.
	`{"minimumWaitDuration":"315576000000s"}`,
	// Corrupt: a negative wait, no "s", ten digits of fraction, a 32-bit
	// first value over 32 bits, two fields of the oneof, bad base64, two
	// values, an unknown enum name.
	`{"minimumWaitDuration":"-1s"}`,
	`{"minimumWaitDuration":"1"}`,
	`{"minimumWaitDuration":"1.0000000001s"}`,
	`{"additionsFourBytes":{"firstValue":4294967296}}`,
	`{"additionsFourBytes":{},"additionsEightBytes":{}}`,
	`{"version":"!!"}`,
	`{} {}`,
	`{"metadata":{"threatTypes":["NO_SUCH_TYPE"]}}`,
}

// FuzzHashListJSON: a HashList read from JSON is written and read back
// equal, and survives the binary form.
func FuzzHashListJSON(f *testing.F) {
	for _, s := range hashListJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m HashList
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		jsonRoundTrip(t, &m, new(HashList))
		back, err := ParseHashList(AppendHashList(nil, &m))
		if err != nil {
			t.Fatalf("ParseHashList(AppendHashList(JSON %s)) error: %v", b, err)
		}
		mustEqual(t, "JSON to proto", m, back)
	})
}

// FuzzBatchJSON: a BatchGetHashListsResponse read from JSON is written and
// read back equal.
func FuzzBatchJSON(f *testing.F) {
	f.Add([]byte(`{}`))                      // no lists
	f.Add([]byte(`{"hashLists":[]}`))        // an empty array
	f.Add([]byte(`{"hashLists":[null,{}]}`)) // a null list is the empty one
	for _, s := range hashListJSONSeeds {
		f.Add([]byte(`{"hashLists":[` + s + `]}`)) // each HashList seed in a reply
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lists, err := UnmarshalBatchJSON(b)
		if err != nil {
			return
		}
		out, err := MarshalBatchJSON(lists)
		if err != nil {
			t.Fatalf("MarshalBatchJSON: %v", err)
		}
		back, err := UnmarshalBatchJSON(out)
		if err != nil {
			t.Fatalf("UnmarshalBatchJSON(%s): %v", out, err)
		}
		mustEqual(t, "JSON", lists, back)
	})
}

// FuzzListHashListsJSON: a ListHashListsResponse read from JSON is written
// and read back equal, and survives the binary form.
func FuzzListHashListsJSON(f *testing.F) {
	for _, s := range []string{
		// Nothing.
		`{}`,
		// As sbtest serves it.
		`{"hashLists":[{"name":"se-4b","metadata":{"threatTypes":["SOCIAL_ENGINEERING"],"description":"d","hashLength":"FOUR_BYTES"}}],"nextPageToken":"1"}`,
		// A null list is dropped.
		`{"hashLists":[null],"nextPageToken":""}`,
		// Not an array: refused.
		`{"hashLists":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m ListHashListsResponse
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		jsonRoundTrip(t, &m, new(ListHashListsResponse))
		back, err := ParseListHashListsResponse(AppendListHashListsResponse(nil, &m))
		if err != nil {
			t.Fatalf("binary form of JSON %s: %v", b, err)
		}
		mustEqual(t, "JSON to proto", m, back)
	})
}

// FuzzSearchHashesJSON: a SearchHashesResponse read from JSON is written
// and read back equal, and survives the binary form.
func FuzzSearchHashesJSON(f *testing.F) {
	for _, s := range []string{
		// Not found, nothing cached.
		`{}`,
		// As Google's servers send it.
		`{"fullHashes":[{"fullHash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","fullHashDetails":[{"threatType":"MALWARE","attributes":["CANARY"]}]}],"cacheDuration":"300s"}`,
		// Unknown names are kept as -1, for Known; numbers are read.
		`{"fullHashes":[{"fullHash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","fullHashDetails":[{"threatType":"NEW_TYPE","attributes":["NEW",2]},{"threatType":3},{}]}],"cacheDuration":"0s"}`,
		// Corrupt: a short hash, no hash, a bad duration.
		`{"fullHashes":[{"fullHash":"AAAA"}]}`,
		`{"fullHashes":[{}]}`,
		`{"cacheDuration":"5m"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m SearchHashesResponse
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		jsonRoundTrip(t, &m, new(SearchHashesResponse))
		back, err := ParseSearchHashesResponse(AppendSearchHashesResponse(nil, &m))
		if err != nil {
			t.Fatalf("binary form of JSON %s: %v", b, err)
		}
		mustEqual(t, "JSON to proto", m, back)
	})
}

// FuzzSearchUrlsJSON: a SearchUrlsResponse read from JSON is written and
// read back equal, and survives the binary form.
func FuzzSearchUrlsJSON(f *testing.F) {
	for _, s := range []string{
		// Nothing unsafe.
		`{}`,
		// The reply of the discovery document.
		`{"threats":[{"url":"http://evil.example/","threatTypes":["SOCIAL_ENGINEERING"]}],"cacheDuration":"1.500s"}`,
		// Threat types by number, an empty threat.
		`{"threats":[{"threatTypes":[1,"5"]},{}]}`,
		// Corrupt: an unknown threat type, a bad duration.
		`{"threats":[{"threatTypes":["NEW_TYPE"]}]}`,
		`{"cacheDuration":"1.s"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m SearchUrlsResponse
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		jsonRoundTrip(t, &m, new(SearchUrlsResponse))
		back, err := ParseSearchUrlsResponse(AppendSearchUrlsResponse(nil, &m))
		if err != nil {
			t.Fatalf("binary form of JSON %s: %v", b, err)
		}
		mustEqual(t, "JSON to proto", m, back)
	})
}

// FuzzParseJSONDuration: a JSON Duration read is written and read back
// equal, and its binary form too.
func FuzzParseJSONDuration(f *testing.F) {
	for _, s := range []string{
		"0s",                    // zero
		"300s",                  // whole seconds
		"1.5s",                  // fewer than 3 digits of fraction
		"0.000000001s",          // one nanosecond
		"9223372036.854775807s", // the longest time.Duration
		"315576000000s",         // longer, capped
		"99999999999999999999s", // over int64 seconds, capped
		"-0s",                   // negative zero, read as zero
		"-1s",                   // negative: refused
		"1",                     // no "s"
		"1.0000000001s",         // ten digits of fraction
		"+1s",                   // a sign the mapping does not write
		"1e3s",                  // not decimal
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseJSONDuration(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("ParseJSONDuration(%q) = %v, negative", s, d)
		}
		if back, err := ParseJSONDuration(FormatDuration(d)); err != nil || back != d {
			t.Fatalf("ParseJSONDuration(FormatDuration(%v)) = %v, %v", d, back, err)
		}
		if back, err := ParseDuration(AppendDuration(nil, d)); err != nil || back != d {
			t.Fatalf("ParseDuration(AppendDuration(%v)) = %v, %v", d, back, err)
		}
	})
}

// FuzzDecodeBytes: bytes read from base64 in any of the four forms are
// what each form of their encoding reads back.
func FuzzDecodeBytes(f *testing.F) {
	for _, s := range []string{
		"",         // empty
		"AQIDBA==", // standard, padded
		"AQIDBA",   // standard, unpadded
		"-_8=",     // URL-safe, padded
		"+/8",      // standard, unpadded
		"+_8",      // both alphabets: refused
		"A",        // one character: refused
		"AQ=A",     // padding inside: refused
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeBytes(s)
		if err != nil {
			return
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			e := enc.EncodeToString(v)
			if back, err := DecodeBytes(e); err != nil || !bytes.Equal(back, v) {
				t.Fatalf("DecodeBytes(%q) = %x, %v; want %x (from %q)", e, back, err, v, s)
			}
		}
	})
}

// jsonRoundTrip checks that m, written in JSON, is read back into back
// equal.
func jsonRoundTrip[T any, P interface {
	*T
	json.Marshaler
	json.Unmarshaler
}](t *testing.T, m P, back P) {
	t.Helper()
	j, err := m.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON(%+v): %v", *m, err)
	}
	if err := back.UnmarshalJSON(j); err != nil {
		t.Fatalf("UnmarshalJSON(%s) of its own JSON: %v", j, err)
	}
	mustEqual(t, "JSON", *m, *back)
}

// mustEqual fails unless a and b are equal once their empty slices are
// nil.
func mustEqual[T any](t *testing.T, what string, a, b T) {
	t.Helper()
	na, nb := a, b
	nilEmpty(reflect.ValueOf(&na).Elem())
	nilEmpty(reflect.ValueOf(&nb).Elem())
	if !reflect.DeepEqual(na, nb) {
		t.Fatalf("%s round trip:\n got %+v\nwant %+v", what, nb, na)
	}
}

// nilEmpty sets every empty slice reachable from v to nil. It copies a
// pointed-to struct before changing it, so that the caller's values stay
// as they were.
func nilEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Elem().Type())
			c.Elem().Set(v.Elem())
			nilEmpty(c.Elem())
			v.Set(c)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			nilEmpty(v.Field(i))
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.SetZero()
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := range c.Len() {
			nilEmpty(c.Index(i))
		}
		v.Set(c)
	case reflect.Array:
		for i := range v.Len() {
			nilEmpty(v.Index(i))
		}
	}
}

// hashListUTF8 reports whether the strings of m are valid UTF-8, as JSON
// requires.
func hashListUTF8(m *HashList) bool {
	return utf8.ValidString(m.Name) && (m.Metadata == nil || utf8.ValidString(m.Metadata.Description))
}
