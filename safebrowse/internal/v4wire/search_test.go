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

// docsTime is the expireTime of the documentation's examples,
// 2019-07-17T15:01:23.045123456Z.
var docsTime = time.Date(2019, 7, 17, 15, 1, 23, 45123456, time.UTC)

// TestSearchHashesRequestQuery reads hashes:search's query as Google's
// documentation writes it (update-api, "Example: hashes.search") and as
// github.com/google/webrisk sends it, and writes it.
func TestSearchHashesRequestQuery(t *testing.T) {
	docs := SearchHashesRequest{HashPrefix: []byte{0x5b, 0x0b, 0x89, 0x75}, ThreatTypes: []WebRiskThreatType{WebRiskMalware, WebRiskSocialEngineering}}
	tests := []struct {
		name    string
		in      string
		want    SearchHashesRequest
		wantErr bool
	}{
		// The documentation's example.
		{"docs", "key=YOUR_API_KEY&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&hashPrefix=WwuJdQ%3D%3D", docs, false},
		// google/webrisk: proto names, standard base64 of a 5-byte entry.
		{"google/webrisk", "hash_prefix=%2B%2F%2B%2F%2F8A%3D&key=K&threat_types=SOCIAL_ENGINEERING_EXTENDED_COVERAGE",
			SearchHashesRequest{HashPrefix: []byte{0xfb, 0xff, 0xbf, 0xff, 0xc0}, ThreatTypes: []WebRiskThreatType{WebRiskSocialEngineeringExtendedCoverage}}, false},
		// URL-safe, unpadded.
		{"url-safe", "hashPrefix=-_-_", SearchHashesRequest{HashPrefix: []byte{0xfb, 0xff, 0xbf}}, false},
		// hashPrefix given twice.
		{"twice", "hashPrefix=AAAAAA&hashPrefix=AAAAAA", SearchHashesRequest{}, true},
		// threatTypes under both names.
		{"both names", "threatTypes=MALWARE&threat_types=MALWARE", SearchHashesRequest{}, true},
		// A threat type over int32.
		{"overflow", "threatTypes=4294967297", SearchHashesRequest{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseSearchHashesRequestQuery(q)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil {
				mustEqual(t, "read", tt.want, got)
			}
		})
	}
	const want = "hashPrefix=WwuJdQ%3D%3D&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING"
	if got := AppendSearchHashesRequestQuery(nil, &docs); string(got) != want {
		t.Errorf("AppendSearchHashesRequestQuery = %s, want %s", got, want)
	}
}

// docsSearchHashes is the hashes:search reply of Google's documentation
// (update-api, "Response body"), with its syntax mended: the page lacks
// the commas after each "hash", and has a stray "}," and a last "}".
// Its hashes are URL-safe base64 with padding; the second has non-zero
// bits after its last byte, which base64 decoders ignore.
const docsSearchHashes = `{
"threats": [{
"threatTypes": ["MALWARE"],
"hash": "WwuJdQx48jP-4lxr4y2Sj82AWoxUVcIRDSk1PC9Rf-4=",
"expireTime": "2019-07-17T15:01:23.045123456Z"
}, {
"threatTypes": ["MALWARE", "SOCIAL_ENGINEERING"],
"hash": "WwuJdQxaCSH453-uytERC456gf45rFExcE23F7-hnfD=",
"expireTime": "2019-07-17T15:01:23.045123456Z"
}],
"negativeExpireTime": "2019-07-17T15:01:23.045123456Z"
}`

func hex32(t *testing.T, s string) (h [32]byte) {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%q: %v", s, err)
	}
	copy(h[:], b)
	return h
}

// TestSearchHashesResponseDocs reads the documentation's reply, and
// writes it back in the writer's form.
func TestSearchHashesResponseDocs(t *testing.T) {
	want := SearchHashesResponse{
		Threats: []ThreatHash{
			{ThreatTypes: []WebRiskThreatType{WebRiskMalware}, Hash: hex32(t, "WwuJdQx48jP-4lxr4y2Sj82AWoxUVcIRDSk1PC9Rf-4"), ExpireTime: docsTime},
			{ThreatTypes: []WebRiskThreatType{WebRiskMalware, WebRiskSocialEngineering}, Hash: hex32(t, "WwuJdQxaCSH453-uytERC456gf45rFExcE23F7-hnfA"), ExpireTime: docsTime},
		},
		NegativeExpireTime: docsTime,
	}
	got, err := ParseSearchHashesResponseJSON([]byte(docsSearchHashes))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read", want, got)
	const written = `{"threats":[{"threatTypes":["MALWARE"],"hash":"WwuJdQx48jP+4lxr4y2Sj82AWoxUVcIRDSk1PC9Rf+4=","expireTime":"2019-07-17T15:01:23.045123456Z"},` +
		`{"threatTypes":["MALWARE","SOCIAL_ENGINEERING"],"hash":"WwuJdQxaCSH453+uytERC456gf45rFExcE23F7+hnfA=","expireTime":"2019-07-17T15:01:23.045123456Z"}],` +
		`"negativeExpireTime":"2019-07-17T15:01:23.045123456Z"}`
	if b := AppendSearchHashesResponseJSON(nil, &want); string(b) != written {
		t.Errorf("written %s\nwant    %s", b, written)
	}
	for _, bad := range []string{
		`{"threats":[{"threatTypes":["MALWARE"]}]}`,                // no hash
		`{"threats":[{"hash":"AAAA"}]}`,                            // a hash of 3 bytes
		`{"negativeExpireTime":"2019-07-17 15:01:23Z"}`,            // not RFC 3339
		`{"negativeExpireTime":"2019-07-17T15:01:23.0451234567Z"}`, // ten digits of fraction
		`{"negativeExpireTime":"10000-01-01T00:00:00Z"}`,           // after year 9999
		`{"threats":[],"threats":[]}`,                              // a key twice
	} {
		if _, err := ParseSearchHashesResponseJSON([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	// An empty reply; an offset, read in UTC; an unknown threat type kept
	// as -1, for the client to drop.
	got, err = ParseSearchHashesResponseJSON([]byte(`{"threats":[{"threatTypes":["NEW_TYPE",4],"hash":"WwuJdQx48jP-4lxr4y2Sj82AWoxUVcIRDSk1PC9Rf-4","expireTime":"2019-07-17T17:01:23.045123456+02:00"}]}`))
	if err != nil || got.Threats[0].ExpireTime != docsTime || got.Threats[0].ThreatTypes[0] != -1 || got.Threats[0].ThreatTypes[1] != WebRiskSocialEngineeringExtendedCoverage {
		t.Errorf("got %+v, %v", got, err)
	}
}

// TestSearchHashesResponseHandBuilt reads SearchHashesResponses written
// by hand from webrisk.proto's field numbers.
func TestSearchHashesResponseHandBuilt(t *testing.T) {
	h := rep(0xab, 32)
	// expire_time 2019-07-17T15:01:23.045123456Z: seconds 1563375683,
	// nanos 45123456.
	expire := []byte{0x08, 0xc3, 0xf0, 0xbc, 0xe9, 0x05, 0x10, 0x80, 0x8f, 0xc2, 0x15}
	var hash [32]byte
	copy(hash[:], h)
	tests := []struct {
		name    string
		in      []byte
		want    SearchHashesResponse
		wantErr bool
	}{
		// Nothing found, nothing cached.
		{"empty", nil, SearchHashesResponse{}, false},
		// One threat: MALWARE and SOCIAL_ENGINEERING_EXTENDED_COVERAGE
		// packed, its hash, its expiry; the negative expiry.
		{"threat", cat(msg(0x0a, []byte{0x0a, 0x02, 0x01, 0x04}, msg(0x12, h), msg(0x1a, expire)), msg(0x12, expire)),
			SearchHashesResponse{Threats: []ThreatHash{{ThreatTypes: []WebRiskThreatType{WebRiskMalware, WebRiskSocialEngineeringExtendedCoverage}, Hash: hash, ExpireTime: docsTime}},
				NegativeExpireTime: docsTime}, false},
		// A hash alone.
		{"hash alone", msg(0x0a, msg(0x12, h)), SearchHashesResponse{Threats: []ThreatHash{{Hash: hash}}}, false},
		// No hash.
		{"no hash", msg(0x0a, []byte{0x08, 0x01}), SearchHashesResponse{}, true},
		// A hash of 31 bytes.
		{"short hash", msg(0x0a, msg(0x12, h[:31])), SearchHashesResponse{}, true},
		// expire_time given twice.
		{"expire twice", msg(0x0a, msg(0x12, h), msg(0x1a), msg(0x1a)), SearchHashesResponse{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSearchHashesResponse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			mustEqual(t, "read", tt.want, got)
			if b := AppendSearchHashesResponse(nil, &got); !bytes.Equal(b, tt.in) {
				t.Errorf("written back %x\nwant %x", b, tt.in)
			}
		})
	}
}

// TestSearchUris reads uris:search's query and reply as Google's
// documentation writes them (extended-coverage, "Using Extended Coverage
// list with uris.search"), in JSON and in binary.
func TestSearchUris(t *testing.T) {
	q, err := url.ParseQuery("threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&uri=http%3A%2F%2Ftestsafebrowsing.appspot.com%2Fs%2Fsocial_engineering_extended_coverage.html&key=API_KEY")
	if err != nil {
		t.Fatal(err)
	}
	req, err := ParseSearchUrisRequestQuery(q)
	wantReq := SearchUrisRequest{URI: "http://testsafebrowsing.appspot.com/s/social_engineering_extended_coverage.html",
		ThreatTypes: []WebRiskThreatType{WebRiskSocialEngineeringExtendedCoverage}}
	if err != nil || !equal(wantReq, req) {
		t.Fatalf("got %+v, %v", req, err)
	}
	const query = "uri=http%3A%2F%2Ftestsafebrowsing.appspot.com%2Fs%2Fsocial_engineering_extended_coverage.html&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
	if b := AppendSearchUrisRequestQuery(nil, &wantReq); string(b) != query {
		t.Errorf("query %s\nwant  %s", b, query)
	}
	if _, err := ParseSearchUrisRequestQuery(url.Values{"uri": {"a", "b"}}); err == nil {
		t.Error("uri twice: no error")
	}

	const docs = `{
"threat": {
"threatTypes": [
"SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
],
"expireTime": "2019-07-17T15:01:23.045123456Z"
}
}`
	want := SearchUrisResponse{Threat: &ThreatURI{ThreatTypes: []WebRiskThreatType{WebRiskSocialEngineeringExtendedCoverage}, ExpireTime: docsTime}}
	got, err := ParseSearchUrisResponseJSON([]byte(docs))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read", want, got)
	const written = `{"threat":{"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE"],"expireTime":"2019-07-17T15:01:23.045123456Z"}}`
	if b := AppendSearchUrisResponseJSON(nil, &want); string(b) != written {
		t.Errorf("written %s", b)
	}
	// Clean is {}.
	if b := AppendSearchUrisResponseJSON(nil, &SearchUrisResponse{}); string(b) != `{}` {
		t.Errorf("clean %s", b)
	}
	// In binary: threat { threat_types [4] packed, expire_time }.
	bin := msg(0x0a, []byte{0x0a, 0x01, 0x04}, msg(0x12, []byte{0x08, 0xc3, 0xf0, 0xbc, 0xe9, 0x05, 0x10, 0x80, 0x8f, 0xc2, 0x15}))
	got, err = ParseSearchUrisResponse(bin)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "binary", want, got)
	if b := AppendSearchUrisResponse(nil, &got); !bytes.Equal(b, bin) {
		t.Errorf("written back %x\nwant %x", b, bin)
	}
	if _, err := ParseSearchUrisResponse(cat(msg(0x0a), msg(0x0a))); err == nil {
		t.Error("threat twice: no error")
	}
}
