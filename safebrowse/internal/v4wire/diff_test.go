// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"testing"
	"time"
)

// b64 decodes standard base64, for the vectors below.
func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDiffRequestQuery reads computeDiff's query as Google's documentation
// writes it (cloud.google.com/web-risk/docs/update-api, "HTTP method and
// URL") and as github.com/google/webrisk sends it (api.go: proto names,
// standard base64, url.Values.Encode), and writes the documentation's
// query back.
func TestDiffRequestQuery(t *testing.T) {
	docs := ComputeThreatListDiffRequest{ThreatType: WebRiskMalware, VersionToken: b64(t, "Gg4IBBADIgYQgBAiAQEoAQ=="),
		Constraints: DiffConstraints{MaxDiffEntries: 2048, MaxDatabaseEntries: 4096, SupportedCompressions: []CompressionType{CompressionRaw}}}
	tests := []struct {
		name    string
		in      string
		want    ComputeThreatListDiffRequest
		wantErr bool
	}{
		// The documentation's example, key included.
		{"docs", "threatType=MALWARE&versionToken=Gg4IBBADIgYQgBAiAQEoAQ%3D%3D&constraints.maxDiffEntries=2048&constraints.maxDatabaseEntries=4096&constraints.supportedCompressions=RAW&key=API_KEY", docs, false},
		// google/webrisk's form: proto names, a token with "+/" escaped,
		// both compressions, sorted by url.Values.Encode.
		{"google/webrisk", "constraints.max_database_entries=1024&constraints.max_diff_entries=1024&constraints.supported_compressions=RAW&constraints.supported_compressions=RICE&key=K&threat_type=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&version_token=%2B%2F%2B%2F",
			ComputeThreatListDiffRequest{ThreatType: WebRiskSocialEngineeringExtendedCoverage, VersionToken: []byte{0xfb, 0xff, 0xbf},
				Constraints: DiffConstraints{MaxDiffEntries: 1024, MaxDatabaseEntries: 1024, SupportedCompressions: []CompressionType{CompressionRaw, CompressionRice}}}, false},
		// A first request: no token, no constraints; enums by number.
		{"first", "threatType=3&constraints.supportedCompressions=2", ComputeThreatListDiffRequest{ThreatType: WebRiskUnwantedSoftware,
			Constraints: DiffConstraints{SupportedCompressions: []CompressionType{CompressionRice}}}, false},
		// An unknown threat type is -1, for the server to refuse.
		{"unknown type", "threatType=POTENTIALLY_HARMFUL_APPLICATION", ComputeThreatListDiffRequest{ThreatType: -1}, false},
		// threatType given twice.
		{"type twice", "threatType=MALWARE&threatType=MALWARE", ComputeThreatListDiffRequest{}, true},
		// threatType under both names.
		{"both names", "threatType=MALWARE&threat_type=MALWARE", ComputeThreatListDiffRequest{}, true},
		// A token that is not base64.
		{"bad token", "versionToken=%21%21", ComputeThreatListDiffRequest{}, true},
		// maxDiffEntries not an int32.
		{"bad int", "constraints.maxDiffEntries=1e3", ComputeThreatListDiffRequest{}, true},
		{"int overflow", "constraints.maxDatabaseEntries=2147483648", ComputeThreatListDiffRequest{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseComputeThreatListDiffRequestQuery(q)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
	const want = "threatType=MALWARE&versionToken=Gg4IBBADIgYQgBAiAQEoAQ%3D%3D&constraints.maxDiffEntries=2048&constraints.maxDatabaseEntries=4096&constraints.supportedCompressions=RAW"
	if got := AppendComputeThreatListDiffRequestQuery(nil, &docs); string(got) != want {
		t.Errorf("AppendComputeThreatListDiffRequestQuery = %s\nwant %s", got, want)
	}
}

// The replies of Google's documentation, with their local edits:
//
//   - docsReset is the RESET example of cloud.google.com/web-risk/docs/update-api
//     and /extended-coverage, its rawHashes cut to their first 16
//     characters (12 bytes): the page elides the rest as "AArQMQAMoUgAPn8lAE...".
//   - docsDiff is the DIFF example of the same update-api page, whose
//     "recommendedNextDiff" comes twice: docsDiffVerbatim keeps both,
//     docsDiff only the last. Its "compressionType" in additions is not a
//     field of webrisk.proto's ThreatEntryAdditions.
const (
	docsReset = `{
"recommendedNextDiff": "2020-01-08T19:41:45.436722194Z",
"responseType": "RESET",
"additions": {
"rawHashes": [
{
"prefixSize": 4,
"rawHashes": "AArQMQAMoUgAPn8l"
}
]
},
"newVersionToken": "ChAIARAGGAEiAzAwMSiAEDABEPDyBhoCGAlTcIVL",
"checksum": {
"sha256": "wy6jh0+MAg/V/+VdErFhZIpOW+L8ulrVwhlV61XkROI="
}
}`
	docsDiffVerbatim = `{
"responseType" : "DIFF",
"recommendedNextDiff": "2019-12-31T23:59:59.000000000Z",
"additions": {
"compressionType": "RAW",
"rawHashes": [{
"prefixSize": 4,
"rawHashes": "rnGLoQ=="
}]
},
"removals": {
"rawIndices": {
"indices": [0, 2, 4]
}
},
"newVersionToken": "ChAIBRADGAEiAzAwMSiAEDABEAFGpqhd",
"checksum": {
"sha256": "YSgoRtsRlgHDqDA3LAhM1gegEpEzs1TjzU33vqsR8iM="
},
"recommendedNextDiff": "2019-07-17T15:01:23.045123456Z"
}`
	docsDiff = `{
"responseType" : "DIFF",
"additions": {
"compressionType": "RAW",
"rawHashes": [{
"prefixSize": 4,
"rawHashes": "rnGLoQ=="
}]
},
"removals": {
"rawIndices": {
"indices": [0, 2, 4]
}
},
"newVersionToken": "ChAIBRADGAEiAzAwMSiAEDABEAFGpqhd",
"checksum": {
"sha256": "YSgoRtsRlgHDqDA3LAhM1gegEpEzs1TjzU33vqsR8iM="
},
"recommendedNextDiff": "2019-07-17T15:01:23.045123456Z"
}`
)

func docsResetWant(t *testing.T) ComputeThreatListDiffResponse {
	return ComputeThreatListDiffResponse{
		ResponseType:        FullUpdate,
		Additions:           &ThreatEntryAdditions{RawHashes: []RawHashes{{PrefixSize: 4, Hashes: b64(t, "AArQMQAMoUgAPn8l")}}},
		NewVersionToken:     b64(t, "ChAIARAGGAEiAzAwMSiAEDABEPDyBhoCGAlTcIVL"),
		Checksum:            b64(t, "wy6jh0+MAg/V/+VdErFhZIpOW+L8ulrVwhlV61XkROI="),
		RecommendedNextDiff: time.Date(2020, 1, 8, 19, 41, 45, 436722194, time.UTC),
	}
}

func docsDiffWant(t *testing.T) ComputeThreatListDiffResponse {
	return ComputeThreatListDiffResponse{
		ResponseType:        PartialUpdate,
		Additions:           &ThreatEntryAdditions{RawHashes: []RawHashes{{PrefixSize: 4, Hashes: []byte{0xae, 0x71, 0x8b, 0xa1}}}},
		Removals:            &ThreatEntryRemovals{RawIndices: &RawIndices{Indices: []int32{0, 2, 4}}},
		NewVersionToken:     b64(t, "ChAIBRADGAEiAzAwMSiAEDABEAFGpqhd"),
		Checksum:            b64(t, "YSgoRtsRlgHDqDA3LAhM1gegEpEzs1TjzU33vqsR8iM="),
		RecommendedNextDiff: time.Date(2019, 7, 17, 15, 1, 23, 45123456, time.UTC),
	}
}

// TestDiffResponseDocs reads the replies of Google's documentation.
func TestDiffResponseDocs(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    ComputeThreatListDiffResponse
		wantErr bool
	}{
		// A full update.
		{"reset", docsReset, docsResetWant(t), false},
		// A diff, with a field webrisk.proto does not have, skipped.
		{"diff", docsDiff, docsDiffWant(t), false},
		// The page as written gives recommendedNextDiff twice, which
		// protobuf's parsers (and github.com/google/webrisk's) refuse.
		{"diff verbatim", docsDiffVerbatim, ComputeThreatListDiffResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseComputeThreatListDiffResponseJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
}

// TestDiffResponseJSON checks the JSON the writer sends Web Risk's
// clients: webrisk.proto's names only (entryCount, not numEntries),
// DIFF/RESET, firstValue a string, the time in RFC 3339 with a "Z".
func TestDiffResponseJSON(t *testing.T) {
	m := ComputeThreatListDiffResponse{
		ResponseType: PartialUpdate,
		Additions: &ThreatEntryAdditions{RawHashes: []RawHashes{{PrefixSize: 8, Hashes: []byte{1, 2, 3, 4, 5, 6, 7, 8}}},
			RiceHashes: &Rice{First: 7, K: 3, Count: 1, Data: []byte{5}}},
		Removals:            &ThreatEntryRemovals{RiceIndices: &Rice{First: 2}},
		NewVersionToken:     []byte{0xfb, 0xff},
		Checksum:            rep(0xaa, 32),
		RecommendedNextDiff: time.Date(2026, 3, 31, 0, 0, 0, 500_000_000, time.UTC),
	}
	const want = `{"responseType":"DIFF","additions":{"rawHashes":[{"prefixSize":8,"rawHashes":"AQIDBAUGBwg="}],` +
		`"riceHashes":{"firstValue":"7","riceParameter":3,"entryCount":1,"encodedData":"BQ=="}},` +
		`"removals":{"riceIndices":{"firstValue":"2"}},"newVersionToken":"+/8=",` +
		`"checksum":{"sha256":"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo="},"recommendedNextDiff":"2026-03-31T00:00:00.500Z"}`
	got := AppendComputeThreatListDiffResponseJSON(nil, &m)
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	back, err := ParseComputeThreatListDiffResponseJSON(got)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read back", m, back)
	// v4's name of the count is not Web Risk's: skipped.
	back, err = ParseComputeThreatListDiffResponseJSON([]byte(`{"additions":{"riceHashes":{"numEntries":5,"entry_count":"4"}}}`))
	if err != nil || back.Additions.RiceHashes.Count != 4 {
		t.Errorf("got %+v, %v", back.Additions, err)
	}
}

// TestDiffResponseHandBuilt reads ComputeThreatListDiffResponses written
// by hand from webrisk.proto's field numbers, and writes the valid ones
// back byte for byte.
func TestDiffResponseHandBuilt(t *testing.T) {
	// recommended_next_diff 2020-01-08T19:41:45.436722194Z: seconds
	// 1578512505, nanos 436722194.
	next := msg(0x12, []byte{0x08, 0xf9, 0xe0, 0xd8, 0xf0, 0x05, 0x10, 0x92, 0xb4, 0x9f, 0xd0, 0x01})
	full := cat(next,
		[]byte{0x20, 0x02}, // RESET
		msg(0x2a, msg(0x0a, []byte{0x08, 0x04}, msg(0x12, b64(t, "AArQMQAMoUgAPn8l")))),
		msg(0x3a, b64(t, "ChAIARAGGAEiAzAwMSiAEDABEPDyBhoCGAlTcIVL")),
		msg(0x42, msg(0x0a, b64(t, "wy6jh0+MAg/V/+VdErFhZIpOW+L8ulrVwhlV61XkROI="))))
	// A diff: Rice-coded additions beside raw 8-byte ones, Rice-coded
	// removals.
	diff := cat([]byte{0x20, 0x01},
		msg(0x2a, msg(0x0a, []byte{0x08, 0x08}, msg(0x12, []byte{1, 2, 3, 4, 5, 6, 7, 8})), msg(0x12, riceBody)),
		msg(0x32, msg(0x12, []byte{0x08, 0x02})))
	tests := []struct {
		name    string
		in      []byte
		want    ComputeThreatListDiffResponse
		wantErr bool
	}{
		// Nothing.
		{"empty", nil, ComputeThreatListDiffResponse{}, false},
		// The documentation's RESET, in binary.
		{"reset", full, docsResetWant(t), false},
		// A diff.
		{"diff", diff, ComputeThreatListDiffResponse{ResponseType: PartialUpdate,
			Additions: &ThreatEntryAdditions{RawHashes: []RawHashes{{PrefixSize: 8, Hashes: []byte{1, 2, 3, 4, 5, 6, 7, 8}}}, RiceHashes: &Rice{First: 7, K: 3, Count: 1, Data: []byte{5}}},
			Removals:  &ThreatEntryRemovals{RiceIndices: &Rice{First: 2}}}, false},
		// Empty additions and removals, present.
		{"present", cat(msg(0x2a), msg(0x32)), ComputeThreatListDiffResponse{Additions: &ThreatEntryAdditions{}, Removals: &ThreatEntryRemovals{}}, false},
		// additions given twice.
		{"additions twice", cat(msg(0x2a), msg(0x2a)), ComputeThreatListDiffResponse{}, true},
		// A second before 1970, and the last second of year 9999.
		{"time before 1970", msg(0x12, []byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
			ComputeThreatListDiffResponse{RecommendedNextDiff: time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC)}, false},
		{"time max", msg(0x12, []byte{0x08, 0xff, 0x82, 0xd1, 0xff, 0xaf, 0x07}),
			ComputeThreatListDiffResponse{RecommendedNextDiff: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)}, false},
		// A second before year 1, and after year 9999.
		{"time too early", msg(0x12, []byte{0x08, 0xff, 0x91, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff, 0xff, 0x01}), ComputeThreatListDiffResponse{}, true},
		{"time too late", msg(0x12, []byte{0x08, 0x80, 0x83, 0xd1, 0xff, 0xaf, 0x07}), ComputeThreatListDiffResponse{}, true},
		// Timestamp nanos negative.
		{"time nanos", msg(0x12, []byte{0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), ComputeThreatListDiffResponse{}, true},
		// rice_hashes given twice.
		{"rice twice", msg(0x2a, msg(0x12), msg(0x12)), ComputeThreatListDiffResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseComputeThreatListDiffResponse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			mustEqual(t, "read", tt.want, got)
			if b := AppendComputeThreatListDiffResponse(nil, &got); !bytes.Equal(b, tt.in) {
				t.Errorf("written back %x\nwant %x", b, tt.in)
			}
		})
	}
}
