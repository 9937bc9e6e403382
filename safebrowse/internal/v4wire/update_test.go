// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"
)

// Messages of threatListUpdates:fetch written byte by byte from the field
// numbers of safebrowsing.proto, not by the package's writers.
var (
	// ClientInfo { client_id "GoSafeBrowser", client_version "1.0.0" }.
	goClient = msg(0x0a, msg(0x0a, []byte("GoSafeBrowser")), msg(0x12, []byte("1.0.0")))

	// A ListUpdateRequest as github.com/google/safebrowsing sends it:
	// MALWARE, ANY_PLATFORM, no state, constraints { supported_compressions
	// [RICE] } packed, URL.
	goListRequest = msg(0x1a, []byte{0x08, 0x01, 0x10, 0x06}, msg(0x22, msg(0x22, []byte{0x02})), []byte{0x28, 0x01})

	// A ListUpdateRequest as Chromium's proto2 code writes it: MALWARE,
	// LINUX, state "st1", constraints { supported_compressions RICE }
	// unpacked, URL.
	chromeListRequest = msg(0x1a, []byte{0x08, 0x01, 0x10, 0x02}, msg(0x1a, []byte("st1")), msg(0x22, []byte{0x20, 0x02}), []byte{0x28, 0x01})

	// Chromium's chrome_client_info { reporting_population OPT_OUT },
	// field 4 of the request, which the package does not know.
	chromeClientInfo = msg(0x22, []byte{0x08, 0x01})
)

// TestFetchRequestHandBuilt reads FetchThreatListUpdatesRequests written
// by hand.
func TestFetchRequestHandBuilt(t *testing.T) {
	goWant := FetchThreatListUpdatesRequest{
		Client: ClientInfo{ClientID: "GoSafeBrowser", ClientVersion: "1.0.0"},
		ListUpdateRequests: []ListUpdateRequest{{ThreatType: Malware, PlatformType: AnyPlatform, ThreatEntryType: URL,
			Constraints: Constraints{SupportedCompressions: []CompressionType{CompressionRice}}}},
	}
	chromeWant := FetchThreatListUpdatesRequest{
		ListUpdateRequests: []ListUpdateRequest{{ThreatType: Malware, PlatformType: Linux, ThreatEntryType: URL, State: []byte("st1"),
			Constraints: Constraints{SupportedCompressions: []CompressionType{CompressionRice}}}},
	}
	tests := []struct {
		name    string
		in      []byte
		want    FetchThreatListUpdatesRequest
		wantErr bool
	}{
		// No list: an empty message.
		{"empty", nil, FetchThreatListUpdatesRequest{}, false},
		// As google/safebrowsing posts it with alt=proto.
		{"google/safebrowsing", cat(goClient, goListRequest), goWant, false},
		// As Chromium sends it in $req: compressions unpacked, its
		// chrome_client_info skipped.
		{"chromium", cat(chromeListRequest, chromeClientInfo), chromeWant, false},
		// Two lists, in order.
		{"two lists", cat(chromeListRequest, goListRequest), FetchThreatListUpdatesRequest{
			ListUpdateRequests: append(chromeWant.ListUpdateRequests[:1:1], goWant.ListUpdateRequests...)}, false},
		// An unknown enum value is kept, for the server to judge.
		{"unknown threat type", msg(0x1a, []byte{0x08, 0x63}), FetchThreatListUpdatesRequest{ListUpdateRequests: []ListUpdateRequest{{ThreatType: 99}}}, false},
		// A negative enum, sign-extended to 64 bits.
		{"negative enum", msg(0x1a, []byte{0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
			FetchThreatListUpdatesRequest{ListUpdateRequests: []ListUpdateRequest{{PlatformType: -1}}}, false},
		// client given twice is corrupt.
		{"client twice", cat(goClient, goClient), FetchThreatListUpdatesRequest{}, true},
		// constraints given twice is corrupt.
		{"constraints twice", msg(0x1a, []byte{0x22, 0x00, 0x22, 0x00}), FetchThreatListUpdatesRequest{}, true},
		// threat_type as a length-delimited field is corrupt.
		{"wire type", msg(0x1a, []byte{0x0a, 0x00}), FetchThreatListUpdatesRequest{}, true},
		// An enum over int32 is corrupt.
		{"enum overflow", msg(0x1a, []byte{0x08, 0x80, 0x80, 0x80, 0x80, 0x08}), FetchThreatListUpdatesRequest{}, true},
		// A truncated length.
		{"truncated", []byte{0x1a, 0x05, 0x08}, FetchThreatListUpdatesRequest{}, true},
		// A field number of 0.
		{"field zero", []byte{0x00, 0x00}, FetchThreatListUpdatesRequest{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFetchThreatListUpdatesRequest(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
	// The writer writes google/safebrowsing's request byte for byte.
	if got := AppendFetchThreatListUpdatesRequest(nil, &goWant); !bytes.Equal(got, cat(goClient, goListRequest)) {
		t.Errorf("AppendFetchThreatListUpdatesRequest = %x\nwant %x", got, cat(goClient, goListRequest))
	}
}

// TestFetchRequestJSON reads the JSON that Google's generated clients post
// and writes it back; the proto names are read too.
func TestFetchRequestJSON(t *testing.T) {
	want := FetchThreatListUpdatesRequest{
		Client: ClientInfo{ClientID: "gapi", ClientVersion: "1"},
		ListUpdateRequests: []ListUpdateRequest{{ThreatType: SocialEngineering, PlatformType: Windows, ThreatEntryType: URL, State: []byte{0xfb, 0xff},
			Constraints: Constraints{MaxUpdateEntries: 2048, MaxDatabaseEntries: 4096, Region: "US", Language: "en", DeviceLocation: "US",
				SupportedCompressions: []CompressionType{CompressionRaw, CompressionRice}}}},
	}
	const google = `{"client":{"clientId":"gapi","clientVersion":"1"},"listUpdateRequests":[{"threatType":"SOCIAL_ENGINEERING","platformType":"WINDOWS","state":"+/8=","constraints":{"maxUpdateEntries":2048,"maxDatabaseEntries":4096,"region":"US","supportedCompressions":["RAW","RICE"],"language":"en","deviceLocation":"US"},"threatEntryType":"URL"}]}`
	tests := []struct {
		name    string
		in      string
		want    FetchThreatListUpdatesRequest
		wantErr bool
	}{
		// As the writer writes it, and Google's clients send it.
		{"camel", google, want, false},
		// The proto names, URL-safe unpadded bytes, int32s as strings,
		// enums by number.
		{"proto names", `{"client":{"client_id":"gapi","client_version":"1"},"list_update_requests":[{"threat_type":2,"platform_type":"WINDOWS","state":"-_8","constraints":{"max_update_entries":"2048","max_database_entries":4096,"region":"US","supported_compressions":[1,"RICE"],"language":"en","device_location":"US"},"threat_entry_type":"URL"}]}`, want, false},
		// Escapes in a bytes field and in a key.
		{"escapes", `{"list\u005fupdate_requests":[{"state":"\u002b\/8="}]}`, FetchThreatListUpdatesRequest{ListUpdateRequests: []ListUpdateRequest{{State: []byte{0xfb, 0xff}}}}, false},
		// An unknown key is skipped; an unknown enum name is read as -1.
		{"unknown", `{"listUpdateRequests":[{"threatType":"NEW_TYPE","futureField":{"a":[1]}}]}`, FetchThreatListUpdatesRequest{ListUpdateRequests: []ListUpdateRequest{{ThreatType: -1}}}, false},
		// A field under both its names.
		{"both names", `{"listUpdateRequests":[{"threatType":1,"threat_type":1}]}`, FetchThreatListUpdatesRequest{}, true},
		// A key given twice.
		{"key twice", `{"client":{},"client":{}}`, FetchThreatListUpdatesRequest{}, true},
		// An int32 out of range.
		{"overflow", `{"listUpdateRequests":[{"constraints":{"maxUpdateEntries":2147483648}}]}`, FetchThreatListUpdatesRequest{}, true},
		// Not an object.
		{"array", `[]`, FetchThreatListUpdatesRequest{}, true},
		// Something after the object.
		{"trailing", `{}{}`, FetchThreatListUpdatesRequest{}, true},
		// A string that is not UTF-8.
		{"not UTF-8", "{\"client\":{\"clientId\":\"\xff\"}}", FetchThreatListUpdatesRequest{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFetchThreatListUpdatesRequestJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
	if got := AppendFetchThreatListUpdatesRequestJSON(nil, &want); string(got) != google {
		t.Errorf("AppendFetchThreatListUpdatesRequestJSON = %s\nwant %s", got, google)
	}
}

// TestFetchRequestReq reads a Chromium $req built by hand: the request
// above in base64url with padding, as Chromium composes the URL.
func TestFetchRequestReq(t *testing.T) {
	raw := cat(chromeListRequest, chromeClientInfo)
	q := map[string][]string{ReqParam: {base64.URLEncoding.EncodeToString(raw)}, CTParam: {ReqContentType}, "key": {"K"}}
	b, err := ParseReq(q)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseFetchThreatListUpdatesRequest(b)
	if err != nil || len(m.ListUpdateRequests) != 1 || string(m.ListUpdateRequests[0].State) != "st1" {
		t.Fatalf("got %+v, %v", m, err)
	}
	if got := EncodeReq(raw); got != q[ReqParam][0] {
		t.Errorf("EncodeReq = %q, want %q", got, q[ReqParam][0])
	}
}

// Replies of threatListUpdates:fetch written by hand.
var (
	// A Rice stream: first_value 7, rice_parameter 3, num_entries 1,
	// encoded_data 0x05.
	riceBody = []byte{0x08, 0x07, 0x10, 0x03, 0x18, 0x01, 0x22, 0x01, 0x05}

	// A full update of MALWARE/URL/ANY_PLATFORM, Rice-coded, with state
	// "v1" and a checksum of 32 bytes 0xaa.
	fullUpdate = msg(0x0a,
		[]byte{0x08, 0x01, 0x10, 0x01, 0x18, 0x06, 0x20, 0x02},
		msg(0x2a, []byte{0x08, 0x02}, msg(0x22, riceBody)),
		msg(0x3a, []byte("v1")),
		msg(0x42, msg(0x0a, rep(0xaa, 32))))

	// A partial update of the same list: RAW additions of two 4-byte
	// prefixes, RAW removals of indices 0, 2 and 4, packed.
	partialUpdate = msg(0x0a,
		[]byte{0x08, 0x01, 0x10, 0x01, 0x18, 0x06, 0x20, 0x01},
		msg(0x2a, []byte{0x08, 0x01}, msg(0x12, []byte{0x08, 0x04}, msg(0x12, []byte{1, 2, 3, 4, 5, 6, 7, 8}))),
		msg(0x32, []byte{0x08, 0x01}, msg(0x1a, msg(0x0a, []byte{0, 2, 4}))),
		msg(0x3a, []byte("v2")),
		msg(0x42, msg(0x0a, rep(0xbb, 32))))

	// minimum_wait_duration 300 s.
	wait300 = []byte{0x12, 0x03, 0x08, 0xac, 0x02}
)

func fullUpdateWant() ListUpdateResponse {
	return ListUpdateResponse{ThreatType: Malware, ThreatEntryType: URL, PlatformType: AnyPlatform, ResponseType: FullUpdate,
		Additions:      []ThreatEntrySet{{Compression: CompressionRice, RiceHashes: &Rice{First: 7, K: 3, Count: 1, Data: []byte{5}}}},
		NewClientState: []byte("v1"), Checksum: rep(0xaa, 32)}
}

func partialUpdateWant() ListUpdateResponse {
	return ListUpdateResponse{ThreatType: Malware, ThreatEntryType: URL, PlatformType: AnyPlatform, ResponseType: PartialUpdate,
		Additions:      []ThreatEntrySet{{Compression: CompressionRaw, RawHashes: &RawHashes{PrefixSize: 4, Hashes: []byte{1, 2, 3, 4, 5, 6, 7, 8}}}},
		Removals:       []ThreatEntrySet{{Compression: CompressionRaw, RawIndices: &RawIndices{Indices: []int32{0, 2, 4}}}},
		NewClientState: []byte("v2"), Checksum: rep(0xbb, 32)}
}

// TestFetchResponseHandBuilt reads FetchThreatListUpdatesResponses
// written by hand, and writes the valid ones back byte for byte.
func TestFetchResponseHandBuilt(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    FetchThreatListUpdatesResponse
		wantErr bool
	}{
		// Nothing.
		{"empty", nil, FetchThreatListUpdatesResponse{}, false},
		// A full and a partial update, and the wait.
		{"updates", cat(fullUpdate, partialUpdate, wait300), FetchThreatListUpdatesResponse{
			ListUpdateResponses: []ListUpdateResponse{fullUpdateWant(), partialUpdateWant()}, MinimumWait: 300 * time.Second, HasMinimumWait: true}, false},
		// A wait of 0 s, present.
		{"zero wait", []byte{0x12, 0x00}, FetchThreatListUpdatesResponse{HasMinimumWait: true}, false},
		// Removals unpacked; an empty RawIndices, present.
		{"unpacked", msg(0x0a, msg(0x32, msg(0x1a, []byte{0x08, 0x03, 0x08, 0x01})), msg(0x32, msg(0x1a))), FetchThreatListUpdatesResponse{
			ListUpdateResponses: []ListUpdateResponse{{Removals: []ThreatEntrySet{{RawIndices: &RawIndices{Indices: []int32{3, 1}}}, {RawIndices: &RawIndices{}}}}}}, false},
		// minimum_wait_duration given twice.
		{"wait twice", cat(wait300, wait300), FetchThreatListUpdatesResponse{}, true},
		// rice_hashes given twice in one set.
		{"rice twice", msg(0x0a, msg(0x2a, msg(0x22), msg(0x22))), FetchThreatListUpdatesResponse{}, true},
		// checksum given twice.
		{"checksum twice", msg(0x0a, msg(0x42), msg(0x42)), FetchThreatListUpdatesResponse{}, true},
		// A negative wait.
		{"negative wait", []byte{0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, FetchThreatListUpdatesResponse{}, true},
		// rice_parameter over int32.
		{"k overflow", msg(0x0a, msg(0x2a, msg(0x22, []byte{0x10, 0x80, 0x80, 0x80, 0x80, 0x08}))), FetchThreatListUpdatesResponse{}, true},
		// An index over int32.
		{"index overflow", msg(0x0a, msg(0x32, msg(0x1a, msg(0x0a, []byte{0x80, 0x80, 0x80, 0x80, 0x08})))), FetchThreatListUpdatesResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFetchThreatListUpdatesResponse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			mustEqual(t, "read", tt.want, got)
			if tt.name != "unpacked" {
				if b := AppendFetchThreatListUpdatesResponse(nil, &got); !bytes.Equal(b, tt.in) {
					t.Errorf("written back %x\nwant %x", b, tt.in)
				}
			}
		})
	}
}

// TestFetchResponseParts: the reply built a list at a time is the reply.
func TestFetchResponseParts(t *testing.T) {
	m := FetchThreatListUpdatesResponse{ListUpdateResponses: []ListUpdateResponse{fullUpdateWant(), partialUpdateWant()}, MinimumWait: 90 * time.Second}
	var b []byte
	for i := range m.ListUpdateResponses {
		b = AppendListUpdateResponseField(b, &m.ListUpdateResponses[i])
	}
	b = AppendMinimumWaitField(b, m.MinimumWait, false)
	if want := AppendFetchThreatListUpdatesResponse(nil, &m); !bytes.Equal(b, want) {
		t.Errorf("parts %x\nwant %x", b, want)
	}
}

// TestFetchResponseJSON checks the JSON that Google's generated clients
// read, against text written by hand from the discovery document:
// firstValue a string, int32s numbers, enums by name, bytes in standard
// base64, the wait in seconds.
func TestFetchResponseJSON(t *testing.T) {
	m := FetchThreatListUpdatesResponse{ListUpdateResponses: []ListUpdateResponse{fullUpdateWant(), partialUpdateWant()},
		MinimumWait: 1500 * time.Millisecond, HasMinimumWait: true}
	const want = `{"listUpdateResponses":[` +
		`{"threatType":"MALWARE","threatEntryType":"URL","platformType":"ANY_PLATFORM","responseType":"FULL_UPDATE",` +
		`"additions":[{"compressionType":"RICE","riceHashes":{"firstValue":"7","riceParameter":3,"numEntries":1,"encodedData":"BQ=="}}],` +
		`"newClientState":"djE=","checksum":{"sha256":"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo="}},` +
		`{"threatType":"MALWARE","threatEntryType":"URL","platformType":"ANY_PLATFORM","responseType":"PARTIAL_UPDATE",` +
		`"additions":[{"compressionType":"RAW","rawHashes":{"prefixSize":4,"rawHashes":"AQIDBAUGBwg="}}],` +
		`"removals":[{"compressionType":"RAW","rawIndices":{"indices":[0,2,4]}}],` +
		`"newClientState":"djI=","checksum":{"sha256":"u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7s="}}],` +
		`"minimumWaitDuration":"1.500s"}`
	got := AppendFetchThreatListUpdatesResponseJSON(nil, &m)
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	back, err := ParseFetchThreatListUpdatesResponseJSON(got)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read back", m, back)
	// firstValue as a number, a wait of 0s present.
	back, err = ParseFetchThreatListUpdatesResponseJSON([]byte(`{"listUpdateResponses":[{"additions":[{"riceHashes":{"firstValue":7,"num_entries":"1"}}]}],"minimumWaitDuration":"0s"}`))
	if err != nil || back.ListUpdateResponses[0].Additions[0].RiceHashes.First != 7 || back.ListUpdateResponses[0].Additions[0].RiceHashes.Count != 1 || !back.HasMinimumWait {
		t.Errorf("got %+v, %v", back, err)
	}
}
