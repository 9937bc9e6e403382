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

// TestJSONEndpoints: every endpoint answers in Google's JSON mapping when
// alt is json or absent, checked against JSON written by hand.
func TestJSONEndpoints(t *testing.T) {
	s := sbtest.NewServer()
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
	s := sbtest.NewServer()
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
