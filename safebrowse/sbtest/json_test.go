// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// getJSON sends GET s.URL+path?query with the key in the X-Goog-Api-Key
// header, as the generated clients may send it, and decodes a JSON reply
// into a generic value: an oracle independent of v5wire.
func getJSON(t *testing.T, s *sbtest.Server, path string, q url.Values) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path+"?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Goog-Api-Key", s.APIKey)
	res, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q: %s", ct, body)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return res.StatusCode, v
}

// TestJSONEndpoints: with WithJSON, every endpoint answers in Google's
// JSON mapping when alt is json or absent, checked against JSON written by
// hand.
func TestJSONEndpoints(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithJSON())
	defer s.Close()
	if err := s.Add("se-4b", "evil.example/", sbtest.Canary); err != nil {
		t.Fatal(err)
	}
	h := hash("evil.example/")
	p := b64(h[:4])
	tests := []struct {
		name string
		path string
		q    url.Values
		want string
	}{
		// hashes:search, no alt: bytes in padded base64, enums by name.
		{"search", "/v5/hashes:search", url.Values{"hashPrefixes": {p}},
			`{"fullHashes":[{"fullHash":"` + b64(h[:]) + `","fullHashDetails":[{"threatType":"SOCIAL_ENGINEERING","attributes":["CANARY"]}]}],"cacheDuration":"300s"}`},
		// urls:search: the URL as sent, its threat types.
		{"urls", "/v5/urls:search", url.Values{"urls": {"http://evil.example/", "http://good.example/"}, "alt": {"json"}},
			`{"threats":[{"url":"http://evil.example/","threatTypes":["SOCIAL_ENGINEERING"]}],"cacheDuration":"300s"}`},
		// ListHashLists, one a page.
		{"hashLists", "/v5/hashLists", url.Values{"pageSize": {"1"}},
			`{"hashLists":[{"name":"gc-32b","metadata":{"likelySafeTypes":["GENERAL_BROWSING"],"description":"Global Cache: expressions likely to be safe (sbtest)","hashLength":"THIRTY_TWO_BYTES"}}],"nextPageToken":"1"}`},
		// An empty list in the resource form of its name.
		{"hashList", "/v5/hashList/hashLists/mw-4b", nil,
			`{"name":"mw-4b","version":"` + b64([]byte("mw-4b:0")) + `","sha256Checksum":"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=","minimumWaitDuration":"1800s"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, got := getJSON(t, s, tt.path, tt.q)
			var want map[string]any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if status != 200 || !reflect.DeepEqual(got, want) {
				t.Errorf("%d %v\nwant %v", status, got, want)
			}
		})
	}
}

// TestSearchURLsLimits: urls:search takes 1 to 50 URLs.
func TestSearchURLsLimits(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithJSON())
	defer s.Close()
	tests := []struct {
		name string
		n    int
		want int
	}{
		// 50 URLs, the most.
		{"50", 50, 200},
		// 51 is a 400.
		{"51", 51, 400},
		// None is a 400.
		{"0", 0, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{}
			for range tt.n {
				q.Add("urls", "http://a.example/")
			}
			if status, v := getJSON(t, s, "/v5/urls:search", q); status != tt.want {
				t.Errorf("status %d, want %d: %v", status, tt.want, v)
			}
		})
	}
	if n := s.Requests("urls:search"); n != 3 {
		t.Errorf("Requests(urls:search) = %d, want 3", n)
	}
}

// TestProtoOnly: by default the server answers as Google's v5 API does, in
// binary protobuf only: no alt, or alt=proto, is protobuf, and alt=json
// is Google's 400, word for word. WithJSON serves both.
func TestProtoOnly(t *testing.T) {
	p := url.QueryEscape(b64([]byte{1, 2, 3, 4}))
	tests := []struct {
		name      string
		opts      []sbtest.Option
		alt       string // "" for none
		wantCType string
		wantBody  string // the whole body of an error
	}{
		// No alt: protobuf, since Google's v5 serves nothing else.
		{name: "no alt", alt: "", wantCType: "application/x-protobuf"},
		// alt=proto: protobuf.
		{name: "proto", alt: "proto", wantCType: "application/x-protobuf"},
		// alt=json: Google's answer (google-api-go-client #2534), with no
		// details, no "sbtest: " prefix.
		{name: "json", alt: "json", wantCType: "application/json; charset=UTF-8",
			wantBody: `{"error":{"code":400,"message":"Unsupported Output Format","status":"INVALID_ARGUMENT"}}` + "\n"},
		// WithJSON: no alt is JSON, as Google's JSON APIs default.
		{name: "WithJSON no alt", opts: []sbtest.Option{sbtest.WithJSON()}, alt: "", wantCType: "application/json; charset=UTF-8"},
		// WithJSON: alt=json is JSON.
		{name: "WithJSON json", opts: []sbtest.Option{sbtest.WithJSON()}, alt: "json", wantCType: "application/json; charset=UTF-8"},
		// WithJSON: alt=proto is still protobuf.
		{name: "WithJSON proto", opts: []sbtest.Option{sbtest.WithJSON()}, alt: "proto", wantCType: "application/x-protobuf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer(tt.opts...)
			defer s.Close()
			for _, path := range []string{"/v5/hashes:search?hashPrefixes=" + p, "/v5/hashList/se-4b?", "/v5/hashLists:batchGet?names=se-4b", "/v5/hashLists?", "/v5/urls:search?urls=http://a.example/"} {
				q := "&key=" + s.APIKey
				if tt.alt != "" {
					q += "&alt=" + tt.alt
				}
				r := get(t, s, path+q)
				wantStatus := 200
				if tt.wantBody != "" {
					wantStatus = 400
				}
				if r.status != wantStatus || r.ctype != tt.wantCType {
					t.Errorf("%s: %d %s, want %d %s: %s", path, r.status, r.ctype, wantStatus, tt.wantCType, r.body)
				}
				if tt.wantBody != "" && string(r.body) != tt.wantBody {
					t.Errorf("%s: body %s, want %s", path, r.body, tt.wantBody)
				}
				if tt.wantCType == "application/x-protobuf" && !isMessage(r.body) {
					t.Errorf("%s: not a protobuf message: %q", path, r.body)
				}
			}
		})
	}
}

// TestSearchURLsNotUTF8: a URL that is not valid UTF-8 is a 400
// INVALID_ARGUMENT, as Google answers (a proto3 string must be UTF-8),
// not a 200 with no threats; so is any other parameter's value.
func TestSearchURLsNotUTF8(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	if err := s.Add("se-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      string
		want    int
		wantMsg string
	}{
		// A byte that is no UTF-8 in the path.
		{name: "bad byte", in: "/v5/urls:search?urls=http://evil.example/%FF", want: 400, wantMsg: "sbtest: urls[0] is not valid UTF-8"},
		// The second URL is the bad one: the whole request is refused.
		{name: "second", in: "/v5/urls:search?urls=http://evil.example/&urls=http://evil.example/%C3", want: 400, wantMsg: "sbtest: urls[1] is not valid UTF-8"},
		// An encoded surrogate is no UTF-8 either.
		{name: "surrogate", in: "/v5/urls:search?urls=http://evil.example/%ED%A0%80", want: 400, wantMsg: "sbtest: urls[0] is not valid UTF-8"},
		// A list name of batchGet, another string.
		{name: "names", in: "/v5/hashLists:batchGet?names=se-4b%FF", want: 400, wantMsg: "sbtest: names[0] is not valid UTF-8"},
		// Valid UTF-8 beyond ASCII is served.
		{name: "UTF-8", in: "/v5/urls:search?urls=http://evil.example/%C3%A9", want: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, tt.in+"&key="+s.APIKey)
			if r.status != tt.want {
				t.Fatalf("status %d, want %d: %s", r.status, tt.want, r.body)
			}
			if tt.want != 200 {
				var e googleError
				if err := json.Unmarshal(r.body, &e); err != nil || e.Error.Status != "INVALID_ARGUMENT" || e.Error.Message != tt.wantMsg {
					t.Errorf("body %s, want INVALID_ARGUMENT %q", r.body, tt.wantMsg)
				}
			}
		})
	}
}
