// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// TestRequests: what each method takes, and the errors, in Google's
// shape, of what it does not.
func TestRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	fetch := client{}.request(goLists, riceOnly)
	bin := v4wire.AppendFetchThreatListUpdatesRequest(nil, fetch)
	js := v4wire.AppendFetchThreatListUpdatesRequestJSON(nil, fetch)
	req := "$req=" + v4wire.EncodeReq(bin)
	const path = "/v4/threatListUpdates:fetch"
	tests := []struct {
		name, method, path, query, ctype string
		header                           map[string]string
		body                             []byte
		want                             int
		wantCT                           string // of a 200
		wantMsg                          string // in the error
	}{
		// JSON in, JSON out; a charset is fine.
		{name: "json", method: "POST", path: path, ctype: "application/json; charset=utf-8", body: js, want: 200, wantCT: "application/json; charset=UTF-8"},
		// No Content-Type: JSON.
		{name: "json untyped", method: "POST", path: path, body: js, want: 200, wantCT: "application/json; charset=UTF-8"},
		// Binary in, alt=json: JSON out.
		{name: "binary alt=json", method: "POST", path: path, query: "alt=json", ctype: "application/x-protobuf", body: bin, want: 200, wantCT: "application/json; charset=UTF-8"},
		// Binary in, no alt: binary out.
		{name: "binary", method: "POST", path: path, ctype: "application/x-protobuf", body: bin, want: 200, wantCT: "application/x-protobuf"},
		// JSON in, alt=proto: binary out.
		{name: "json alt=proto", method: "POST", path: path, query: "alt=proto", ctype: "application/json", body: js, want: 200, wantCT: "application/x-protobuf"},
		// Chromium's GET, with no override header.
		{name: "$req", method: "GET", path: path, query: req + "&$ct=application/x-protobuf", want: 200, wantCT: "application/x-protobuf"},
		// An override other than POST.
		{name: "override", method: "GET", path: path, query: req, header: map[string]string{"X-HTTP-Method-Override": "DELETE"}, want: 400, wantMsg: "X-HTTP-Method-Override"},
		// $ct of another type.
		{name: "$ct json", method: "GET", path: path, query: req + "&$ct=application/json", want: 400, wantMsg: "$ct"},
		// $req that is not base64.
		{name: "$req garbage", method: "GET", path: path, query: "$req=%%%21", want: 400},
		// $req that is not a request.
		{name: "$req not proto", method: "GET", path: path, query: "$req=_____w==", want: 400, wantMsg: "not a FetchThreatListUpdatesRequest"},
		// A GET with no $req.
		{name: "get", method: "GET", path: path, want: 400, wantMsg: "$req"},
		// $req on a POST.
		{name: "post $req", method: "POST", path: path, query: req, body: js, want: 400, wantMsg: "$req"},
		// A PUT.
		{name: "put", method: "PUT", path: path, body: js, want: 405},
		// Another Content-Type.
		{name: "form", method: "POST", path: path, ctype: "application/x-www-form-urlencoded", body: js, want: 415, wantMsg: "Content-Type"},
		// alt=media.
		{name: "alt", method: "POST", path: path, query: "alt=media", body: js, want: 400, wantMsg: "alt="},
		// An unknown parameter.
		{name: "param", method: "POST", path: path, query: "foo=1", body: js, want: 400, wantMsg: "unknown parameter"},
		// JSON that is not the request.
		{name: "bad json", method: "POST", path: path, body: []byte(`{"listUpdateRequests":7}`), want: 400},
		// No list asked.
		{name: "no lists", method: "POST", path: path, body: []byte(`{}`), want: 400, wantMsg: "listUpdateRequests is required"},
		// A list asked twice.
		{name: "twice", method: "POST", path: path, body: []byte(`{"listUpdateRequests":[{"threatType":"MALWARE","platformType":"LINUX","threatEntryType":"URL"},{"threatType":"MALWARE","platformType":"LINUX","threatEntryType":"URL"}]}`), want: 400, wantMsg: "twice"},
		// Past the body's bound.
		{name: "too long", method: "POST", path: path, body: bytes.Repeat([]byte(" "), MaxRequestBytes+1), want: 413},
		// Another path.
		{name: "path", method: "POST", path: "/v4/threatMatches:find", body: js, want: 404},
		// threatLists: GET, HEAD.
		{name: "lists", method: "GET", path: "/v4/threatLists", want: 200, wantCT: "application/json; charset=UTF-8"},
		{name: "lists head", method: "HEAD", path: "/v4/threatLists", want: 200, wantCT: "application/json; charset=UTF-8"},
		{name: "lists proto", method: "GET", path: "/v4/threatLists", query: "alt=proto", want: 200, wantCT: "application/x-protobuf"},
		{name: "lists post", method: "POST", path: "/v4/threatLists", body: js, want: 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequest(tt.method, h.url+tt.path+"?"+tt.query, bytes.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			resp.Body.Close()
			ct := resp.Header.Get("Content-Type")
			if resp.StatusCode != tt.want {
				t.Fatalf("%d %s, want %d", resp.StatusCode, body.Bytes(), tt.want)
			}
			if tt.want == 200 {
				if ct != tt.wantCT {
					t.Errorf("Content-Type %q, want %q", ct, tt.wantCT)
				}
				return
			}
			var e struct {
				Error struct {
					Code    int
					Message string
					Status  string
				}
			}
			if err := json.Unmarshal(body.Bytes(), &e); err != nil || e.Error.Code != tt.want || e.Error.Status == "" || e.Error.Status == "UNKNOWN" ||
				!strings.HasPrefix(e.Error.Message, "v4update: ") || !strings.Contains(e.Error.Message, tt.wantMsg) {
				t.Errorf("error %s (%v), want Google's shape with %q", body.Bytes(), err, tt.wantMsg)
			}
			if tt.want == 405 && resp.Header.Get("Allow") == "" {
				t.Errorf("a 405 with no Allow")
			}
		})
	}
}

// TestThreatLists: GET /v4/threatLists names each threat type served on
// each platform, of URLs, in JSON and in binary.
func TestThreatLists(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for _, alt := range []string{"json", "proto"} {
		r, _ := http.NewRequest(http.MethodGet, h.url+"/v4/threatLists?key=K&alt="+alt, nil)
		status, _, body := do(t, r)
		if status != 200 {
			t.Fatalf("%d %s", status, body)
		}
		var m v4wire.ListThreatListsResponse
		var err error
		if alt == "json" {
			m, err = v4wire.ParseListThreatListsResponseJSON(body)
		} else {
			m, err = v4wire.ParseListThreatListsResponse(body)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(m.ThreatLists) != 4*8 {
			t.Fatalf("%d lists, want 32", len(m.ThreatLists))
		}
		seen := map[v4wire.ThreatListDescriptor]bool{}
		for _, d := range m.ThreatLists {
			if d.ThreatType < v4wire.Malware || d.ThreatType > v4wire.PotentiallyHarmfulApplication || !d.PlatformType.Valid() || d.ThreatEntryType != v4wire.URL || seen[d] {
				t.Errorf("list %v", d)
			}
			seen[d] = true
		}
		if alt == "json" && !strings.HasPrefix(string(body), `{"threatLists":[{"threatType":"MALWARE","platformType":"ANY_PLATFORM","threatEntryType":"URL"}`) {
			t.Errorf("JSON %.100s", body)
		}
	}
}
