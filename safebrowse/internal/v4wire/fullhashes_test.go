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

// Messages of fullHashes:find written by hand from safebrowsing.proto.
var (
	// ThreatInfo as github.com/google/safebrowsing sends it (proto3,
	// packed): MALWARE and SOCIAL_ENGINEERING, ANY_PLATFORM, one 4-byte
	// prefix, URL.
	goThreatInfo = msg(0x1a,
		[]byte{0x0a, 0x02, 0x01, 0x02, 0x12, 0x01, 0x06},
		msg(0x1a, msg(0x0a, []byte{0xde, 0xad, 0xbe, 0xef})),
		[]byte{0x22, 0x01, 0x01})

	// The same as Chromium's proto2 code writes it: unpacked, in field
	// order, with a second prefix of 8 bytes.
	chromeThreatInfo = msg(0x1a,
		[]byte{0x08, 0x01, 0x08, 0x02, 0x10, 0x06},
		msg(0x1a, msg(0x0a, []byte{0xde, 0xad, 0xbe, 0xef})),
		msg(0x1a, msg(0x0a, []byte{1, 2, 3, 4, 5, 6, 7, 8})),
		[]byte{0x20, 0x01})

	// Two client states, "s1" and "s2".
	clientStates = cat(msg(0x12, []byte("s1")), msg(0x12, []byte("s2")))
)

func findRequestWant() FindFullHashesRequest {
	return FindFullHashesRequest{
		Client:       ClientInfo{ClientID: "GoSafeBrowser", ClientVersion: "1.0.0"},
		ClientStates: [][]byte{[]byte("s1"), []byte("s2")},
		ThreatInfo: ThreatInfo{ThreatTypes: []ThreatType{Malware, SocialEngineering}, PlatformTypes: []PlatformType{AnyPlatform},
			ThreatEntryTypes: []ThreatEntryType{URL}, ThreatEntries: []ThreatEntry{{Hash: []byte{0xde, 0xad, 0xbe, 0xef}}}},
	}
}

// TestFindRequestHandBuilt reads FindFullHashesRequests written by hand.
func TestFindRequestHandBuilt(t *testing.T) {
	chrome := findRequestWant()
	chrome.Client = ClientInfo{}
	chrome.ClientStates = nil
	chrome.ThreatInfo.ThreatEntries = append(chrome.ThreatInfo.ThreatEntries, ThreatEntry{Hash: []byte{1, 2, 3, 4, 5, 6, 7, 8}})
	tests := []struct {
		name    string
		in      []byte
		want    FindFullHashesRequest
		wantErr bool
	}{
		// Nothing asked.
		{"empty", nil, FindFullHashesRequest{}, false},
		// As google/safebrowsing posts it with alt=proto.
		{"google/safebrowsing", cat(goClient, clientStates, goThreatInfo), findRequestWant(), false},
		// As Chromium sends it in $req.
		{"chromium", chromeThreatInfo, chrome, false},
		// A URL entry, as the Lookup API sends one.
		{"url", msg(0x1a, msg(0x1a, msg(0x12, []byte("http://x/")))), FindFullHashesRequest{ThreatInfo: ThreatInfo{ThreatEntries: []ThreatEntry{{URL: "http://x/"}}}}, false},
		// threat_info given twice.
		{"threat_info twice", cat(goThreatInfo, goThreatInfo), FindFullHashesRequest{}, true},
		// A hash as a varint.
		{"hash wire type", msg(0x1a, msg(0x1a, []byte{0x08, 0x01})), FindFullHashesRequest{}, true},
		// A packed enum cut inside a varint.
		{"packed truncated", msg(0x1a, msg(0x0a, []byte{0x80})), FindFullHashesRequest{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFindFullHashesRequest(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
	want := findRequestWant()
	if got := AppendFindFullHashesRequest(nil, &want); !bytes.Equal(got, cat(goClient, clientStates, goThreatInfo)) {
		t.Errorf("AppendFindFullHashesRequest = %x\nwant %x", got, cat(goClient, clientStates, goThreatInfo))
	}
	// The $req form: Chromium's request, base64url with padding.
	b, err := ParseReq(map[string][]string{ReqParam: {base64.URLEncoding.EncodeToString(chromeThreatInfo)}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseFindFullHashesRequest(b); err != nil || !equal(chrome, got) {
		t.Errorf("from $req: %+v, %v", got, err)
	}
}

// TestFindRequestJSON reads the JSON of Google's generated clients, and
// the fields that only JSON carries.
func TestFindRequestJSON(t *testing.T) {
	want := findRequestWant()
	want.APIClient = ClientInfo{ClientID: "api"}
	want.ThreatInfo.ThreatEntries = append(want.ThreatInfo.ThreatEntries, ThreatEntry{Digest: []byte{1}})
	const google = `{"client":{"clientId":"GoSafeBrowser","clientVersion":"1.0.0"},"clientStates":["czE=","czI="],` +
		`"threatInfo":{"threatTypes":["MALWARE","SOCIAL_ENGINEERING"],"platformTypes":["ANY_PLATFORM"],` +
		`"threatEntries":[{"hash":"3q2+7w=="},{"digest":"AQ=="}],"threatEntryTypes":["URL"]},"apiClient":{"clientId":"api"}}`
	if got := AppendFindFullHashesRequestJSON(nil, &want); string(got) != google {
		t.Errorf("AppendFindFullHashesRequestJSON = %s\nwant %s", got, google)
	}
	for _, in := range []string{
		google,
		// Proto names, URL-safe unpadded bytes, enums by number.
		`{"client":{"client_id":"GoSafeBrowser","client_version":"1.0.0"},"client_states":["czE","czI"],` +
			`"threat_info":{"threat_types":[1,2],"platform_types":[6],"threat_entries":[{"hash":"3q2-7w"},{"digest":"AQ"}],"threat_entry_types":[1]},"api_client":{"client_id":"api"}}`,
	} {
		got, err := ParseFindFullHashesRequestJSON([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		mustEqual(t, in, want, got)
	}
}

// matchBody is a ThreatMatch written by hand: MALWARE, ANY_PLATFORM, a
// full hash of 32 bytes 0xab, metadata {"key": "v"}, cache_duration
// 300 s, URL.
var matchBody = cat(
	[]byte{0x08, 0x01, 0x10, 0x06},
	msg(0x1a, msg(0x0a, rep(0xab, 32))),
	msg(0x22, msg(0x0a, msg(0x0a, []byte("key")), msg(0x12, []byte("v")))),
	msg(0x2a, []byte{0x08, 0xac, 0x02}),
	[]byte{0x30, 0x01})

func matchWant() ThreatMatch {
	return ThreatMatch{ThreatType: Malware, PlatformType: AnyPlatform, ThreatEntryType: URL, Threat: ThreatEntry{Hash: rep(0xab, 32)},
		Metadata: []MetadataEntry{{Key: []byte("key"), Value: []byte("v")}}, CacheDuration: 300 * time.Second, HasCacheDuration: true}
}

// TestFindResponseHandBuilt reads FindFullHashesResponses written by hand
// and writes the valid ones back byte for byte.
func TestFindResponseHandBuilt(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    FindFullHashesResponse
		wantErr bool
	}{
		// No match, nothing cached.
		{"empty", nil, FindFullHashesResponse{}, false},
		// One match, a minimum wait of 0 s present, a negative cache of
		// 300 s.
		{"match", cat(msg(0x0a, matchBody), []byte{0x12, 0x00}, []byte{0x1a, 0x03, 0x08, 0xac, 0x02}), FindFullHashesResponse{
			Matches: []ThreatMatch{matchWant()}, HasMinimumWait: true, NegativeCacheDuration: 300 * time.Second, HasNegativeCacheDuration: true}, false},
		// Metadata present with no entry.
		{"empty metadata", msg(0x0a, msg(0x22)), FindFullHashesResponse{Matches: []ThreatMatch{{Metadata: []MetadataEntry{}}}}, false},
		// threat given twice in a match.
		{"threat twice", msg(0x0a, msg(0x1a), msg(0x1a)), FindFullHashesResponse{}, true},
		// cache_duration given twice.
		{"cache twice", msg(0x0a, msg(0x2a), msg(0x2a)), FindFullHashesResponse{}, true},
		// nanos of 1e9.
		{"nanos", []byte{0x1a, 0x06, 0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}, FindFullHashesResponse{}, true},
		// A metadata key as a varint.
		{"metadata key", msg(0x0a, msg(0x22, msg(0x0a, []byte{0x08, 0x01}))), FindFullHashesResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFindFullHashesResponse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			mustEqual(t, "read", tt.want, got)
			if b := AppendFindFullHashesResponse(nil, &got); !bytes.Equal(b, tt.in) {
				t.Errorf("written back %x\nwant %x", b, tt.in)
			}
		})
	}
}

// TestFindResponseJSON checks the JSON of a reply against text written by
// hand from the discovery document.
func TestFindResponseJSON(t *testing.T) {
	m := FindFullHashesResponse{Matches: []ThreatMatch{matchWant()}, HasMinimumWait: true, NegativeCacheDuration: 300 * time.Second, HasNegativeCacheDuration: true}
	const want = `{"matches":[{"threatType":"MALWARE","platformType":"ANY_PLATFORM","threat":{"hash":"q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s="},` +
		`"threatEntryMetadata":{"entries":[{"key":"a2V5","value":"dg=="}]},"cacheDuration":"300s","threatEntryType":"URL"}],` +
		`"minimumWaitDuration":"0s","negativeCacheDuration":"300s"}`
	got := AppendFindFullHashesResponseJSON(nil, &m)
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	back, err := ParseFindFullHashesResponseJSON(got)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read back", m, back)
	// The empty reply is {}.
	if got := AppendFindFullHashesResponseJSON(nil, &FindFullHashesResponse{}); string(got) != `{}` {
		t.Errorf("empty reply %s", got)
	}
}
