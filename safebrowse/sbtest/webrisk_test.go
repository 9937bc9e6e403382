// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// This file holds the tests of Web Risk's endpoints as a whole (key, alt,
// parameters, faults, counting) and their helpers; webrisk_diff_test.go
// and webrisk_search_test.go test each method's rules.

const (
	wrDiff   = "v1/threatLists:computeDiff"
	wrHashes = "v1/hashes:search"
	wrURIs   = "v1/uris:search"
)

// wrQuery returns "?key=K" followed by the pairs kv.
func wrQuery(s *sbtest.Server, kv ...string) string {
	q := url.Values{"key": {s.APIKey}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return "?" + q.Encode()
}

// wrGet sends GET /ep with the server's key and the pairs kv.
func wrGet(t testing.TB, s *sbtest.Server, ep string, kv ...string) reply {
	t.Helper()
	return get(t, s, "/"+ep+wrQuery(s, kv...))
}

// decodeStrict decodes a JSON reply into v, refusing a field v does not
// name: github.com/google/webrisk fails a whole update on a field outside
// webrisk.proto, so the tests' structs hold webrisk.proto's fields only.
func decodeStrict(t testing.TB, r reply, v any) {
	t.Helper()
	if r.status != 200 || r.ctype != "application/json; charset=UTF-8" {
		t.Fatalf("%d %q: %s", r.status, r.ctype, r.body)
	}
	d := json.NewDecoder(bytes.NewReader(r.body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
}

// wrReason is errorReason for Web Risk, whose ErrorInfo names its own
// service.
func wrReason(r reply) string { return serviceReason(r, "webrisk.googleapis.com") }

// Every Web Risk request is checked for its method, key, alt and
// parameters; the errors are Google's, naming the Web Risk service.
func TestWebRiskRequestChecks(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithAPIKey("right-key"))
	defer s.Close()
	diff := "/" + wrDiff + "?threatType=MALWARE"
	search := "/" + wrHashes + "?threatTypes=MALWARE&hashPrefix=AQIDBA%3D%3D"
	uris := "/" + wrURIs + "?threatTypes=MALWARE&uri=http%3A%2F%2Fa.example%2F"
	tests := []struct {
		name       string
		method     string
		in         string // path and query
		header     string // X-Goog-Api-Key
		wantStatus int
		wantCT     string // of a 200; "" for JSON
		wantMsg    string // in an error's message
		wantReason string
	}{
		// Each method with the key: JSON, Web Risk's default.
		{name: "computeDiff", in: diff + "&key=right-key", wantStatus: 200},
		{name: "hashes:search", in: search + "&key=right-key", wantStatus: 200},
		{name: "uris:search", in: uris + "&key=right-key", wantStatus: 200},
		// The key in the header Google's APIs take too.
		{name: "header key", in: uris, header: "right-key", wantStatus: 200},
		// alt=json is JSON; alt=proto binary protobuf.
		{name: "alt json", in: diff + "&key=right-key&alt=json", wantStatus: 200},
		{name: "alt proto", in: diff + "&key=right-key&alt=proto", wantStatus: 200, wantCT: "application/x-protobuf"},
		// Another alt, or two, is a 400.
		{name: "alt media", in: diff + "&key=right-key&alt=media", wantStatus: 400, wantMsg: `alt="media"`},
		{name: "alt twice", in: diff + "&key=right-key&alt=json&alt=proto", wantStatus: 400, wantMsg: `alt="json,proto"`},
		// A wrong key: Google's 400 and reason, naming Web Risk.
		{name: "bad key", in: search + "&key=AIzaWRONG", wantStatus: 400, wantMsg: "API key not valid", wantReason: "API_KEY_INVALID"},
		// No key: a 403 with CREDENTIALS_MISSING.
		{name: "missing key", in: uris, wantStatus: 403, wantMsg: "missing an API key", wantReason: "CREDENTIALS_MISSING"},
		// The key both ways is two keys: a 400.
		{name: "key twice", in: uris + "&key=right-key", header: "right-key", wantStatus: 400, wantMsg: "key given 2 times"},
		// The proto names google/webrisk sends are taken.
		{name: "proto names", in: "/" + wrDiff + "?threat_type=MALWARE&constraints.max_diff_entries=1024&constraints.supported_compressions=RICE&key=right-key", wantStatus: 200},
		// One field under both its names is a 400.
		{name: "both names", in: diff + "&threat_type=MALWARE&key=right-key", wantStatus: 400, wantMsg: "threatType given as threat_type too"},
		// A misspelt parameter is a 400 naming it.
		{name: "unknown parameter", in: search + "&hashPrefixes=AQIDBA&key=right-key", wantStatus: 400, wantMsg: `"hashPrefixes"`},
		// Another method's parameter is a 400.
		{name: "other method's parameter", in: uris + "&hashPrefix=AQIDBA&key=right-key", wantStatus: 400, wantMsg: `"hashPrefix"`},
		// The system parameters the generated clients send are taken.
		{name: "system parameters", in: uris + "&key=right-key&prettyPrint=false&%24.xgafv=2&fields=threat", wantStatus: 200},
		// Chromium's $req is v5's only.
		{name: "$req", in: search + "&key=right-key&%24req=CgT2", wantStatus: 400, wantMsg: `"$req"`},
		// A parameter that is not UTF-8 is a 400.
		{name: "not UTF-8", in: "/" + wrURIs + "?threatTypes=MALWARE&uri=http%3A%2F%2F%FF.example%2F&key=right-key", wantStatus: 400, wantMsg: "uri[0] is not valid UTF-8"},
		// A malformed escape is a 400.
		{name: "malformed query", in: uris + "&key=right-key&uri=%zz", wantStatus: 400, wantMsg: "malformed query"},
		// Another method is a 405.
		{name: "POST", method: "POST", in: uris + "&key=right-key", wantStatus: 405, wantMsg: `"POST"`},
		// Web Risk's other methods are not served.
		{name: "submitUri", in: "/v1/projects/p/uris:submit?key=right-key", wantStatus: 404, wantMsg: "no endpoint"},
		// Nor its paths under another version.
		{name: "v1beta1", in: "/v1beta1/uris:search?key=right-key", wantStatus: 404, wantMsg: "no endpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			req, err := http.NewRequest(method, s.URL+tt.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.header != "" {
				req.Header.Set("X-Goog-Api-Key", tt.header)
			}
			res, err := s.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			r := readReply(t, res)
			if r.status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tt.wantStatus, r.body)
			}
			if r.status == 200 {
				want := tt.wantCT
				if want == "" {
					want = "application/json; charset=UTF-8"
					if !json.Valid(r.body) {
						t.Errorf("not JSON: %s", r.body)
					}
				} else if !isMessage(r.body) {
					t.Errorf("not a message: %x", r.body)
				}
				if r.ctype != want {
					t.Errorf("Content-Type %q, want %q", r.ctype, want)
				}
				return
			}
			if msg := errorMessage(r); !strings.HasPrefix(msg, "sbtest: ") || !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("message %q, want an sbtest message holding %q", msg, tt.wantMsg)
			}
			if reason := wrReason(r); reason != tt.wantReason {
				t.Errorf("reason %q, want %q: %s", reason, tt.wantReason, r.body)
			}
			if r.status == 405 && res.Header.Get("Allow") != "GET" {
				t.Errorf("Allow %q", res.Header.Get("Allow"))
			}
			if strings.Contains(string(r.body), "AIzaWRONG") {
				t.Errorf("reply %s echoes the key", r.body)
			}
		})
	}
}

// Faults hit Web Risk's methods by their own names, apart from v5's; an
// injected 429 names the Web Risk service.
func TestWebRiskFaults(t *testing.T) {
	tests := []struct {
		name  string
		fault sbtest.Fault
		ep    string
		want  []int // statuses of successive requests; 0 is garbage, a 200 that is not JSON
	}{
		// A fault on computeDiff hits it.
		{name: "computeDiff", fault: sbtest.Fault{Endpoint: wrDiff, Status: 503, Times: 1}, ep: wrDiff, want: []int{503, 200}},
		// A fault on hashes:search hits it.
		{name: "hashes:search", fault: sbtest.Fault{Endpoint: wrHashes, Status: 429, Times: 2}, ep: wrHashes, want: []int{429, 429, 200}},
		// A fault on uris:search hits it.
		{name: "uris:search", fault: sbtest.Fault{Endpoint: wrURIs, Garbage: true, Times: 1}, ep: wrURIs, want: []int{0, 200}},
		// v5's hashes:search is another endpoint.
		{name: "v5's search", fault: sbtest.Fault{Endpoint: "hashes:search", Status: 500}, ep: wrHashes, want: []int{200, 200}},
		// Web Risk's is not v5's either.
		{name: "not v5", fault: sbtest.Fault{Endpoint: wrHashes, Status: 500}, ep: "v5", want: []int{200}},
		// A fault on every endpoint hits Web Risk's.
		{name: "every endpoint", fault: sbtest.Fault{Status: 502, Times: 1}, ep: wrURIs, want: []int{502, 200}},
		// A fault comes before the checks.
		{name: "before checks", fault: sbtest.Fault{Endpoint: wrURIs, Status: 503, Times: 1}, ep: "bad key", want: []int{503, 400}},
	}
	kv := map[string][]string{
		wrDiff:   {"threatType", "MALWARE"},
		wrHashes: {"hashPrefix", b64([]byte{1, 2, 3, 4}), "threatTypes", "MALWARE"},
		wrURIs:   {"uri", "http://a.example/", "threatTypes", "MALWARE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer()
			defer s.Close()
			s.Inject(tt.fault)
			for i, want := range tt.want {
				var r reply
				switch tt.ep {
				case "v5":
					r = get(t, s, "/v5/hashes:search"+searchQuery(s, b64([]byte{1, 2, 3, 4})))
				case "bad key":
					r = get(t, s, "/"+wrURIs+"?key=wrong&uri=x&threatTypes=MALWARE")
				default:
					r = wrGet(t, s, tt.ep, kv[tt.ep]...)
				}
				got := r.status
				if got == 200 && r.ctype == "application/json; charset=UTF-8" && !json.Valid(r.body) {
					got = 0
				}
				if got != want {
					t.Fatalf("request %d: %d, want %d: %s", i, got, want, r.body)
				}
				if want == 429 && wrReason(r) != "RATE_LIMIT_EXCEEDED" {
					t.Errorf("request %d: reason %q: %s", i, wrReason(r), r.body)
				}
				if want >= 500 && (wrReason(r) != "" || !strings.HasPrefix(errorMessage(r), "sbtest: injected fault")) {
					t.Errorf("request %d: %s", i, r.body)
				}
			}
		})
	}
}

// Requests counts Web Risk's methods apart from v5's, and
// SearchedPrefixes holds the prefixes Web Risk's hashes:search received.
func TestWebRiskRequests(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	p4, p8 := []byte{1, 2, 3, 4}, []byte{1, 2, 3, 4, 5, 6, 7, 8}
	wrGet(t, s, wrDiff, "threatType", "MALWARE")
	wrGet(t, s, wrDiff, "threatType", "NOPE")
	wrGet(t, s, wrHashes, "hashPrefix", b64(p4), "threatTypes", "MALWARE")
	get(t, s, "/"+wrHashes+"?key=wrong&hash_prefix="+url.QueryEscape(b64(p8)))
	wrGet(t, s, wrURIs, "uri", "http://a.example/", "threatTypes", "MALWARE")
	get(t, s, "/v5/hashes:search"+searchQuery(s, b64(p4)))
	tests := []struct {
		in   string
		want int
	}{
		// Two computeDiff, one refused.
		{in: wrDiff, want: 2},
		// Two of Web Risk's hashes:search, one with a wrong key.
		{in: wrHashes, want: 2},
		// One uris:search.
		{in: wrURIs, want: 1},
		// One of v5's hashes:search.
		{in: "hashes:search", want: 1},
		// Every request.
		{in: "", want: 6},
	}
	for _, tt := range tests {
		if got := s.Requests(tt.in); got != tt.want {
			t.Errorf("Requests(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	got := s.SearchedPrefixes()
	if len(got) != 3 || !bytes.Equal(got[0], p4) || !bytes.Equal(got[1], p8) || !bytes.Equal(got[2], p4) {
		t.Errorf("SearchedPrefixes = %x, want %x %x %x", got, p4, p8, p4)
	}
}

// The OHTTP gateway serves v5 alone: a Web Risk request inside it is a
// 404, and is counted as an ohttp request only.
func TestWebRiskNotInGateway(t *testing.T) {
	s := seeded(t)
	c := keyClient(t, s)
	o := postOHTTP(t, c, s.OHTTPGatewayURL(), "/"+wrURIs+wrQuery(s, "uri", "http://evil.example/", "threatTypes", "SOCIAL_ENGINEERING"))
	if o.status != 200 || o.inner.Status != 404 {
		t.Fatalf("outer %d, inner %+v", o.status, o.inner)
	}
	if n := s.Requests(wrURIs); n != 0 {
		t.Errorf("Requests(%q) = %d, want 0", wrURIs, n)
	}
}

// AddPrefix seeds Web Risk entries of 4 to 32 bytes on the lists Web Risk
// serves; SOCIAL_ENGINEERING_EXTENDED_COVERAGE is a list name Add and the
// like take.
func TestAddPrefix(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	const ext = "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
	tests := []struct {
		name    string
		op      func() error
		wantErr error
		wantMsg string
	}{
		// An 8-byte entry on mw-4b.
		{name: "8 bytes", op: func() error { return s.AddPrefix("mw-4b", "evil.example/", 8) }},
		// The bounds, 4 and 32 bytes.
		{name: "4 bytes", op: func() error { return s.AddPrefix("uwsa-4b", "evil.example/", 4) }},
		{name: "32 bytes", op: func() error { return s.AddPrefix("se-4b", "evil.example/", 32) }},
		// The extended coverage list.
		{name: "extended", op: func() error { return s.AddPrefix(ext, "evil.example/", 16) }},
		// Outside 4 to 32 bytes.
		{name: "3 bytes", op: func() error { return s.AddPrefix("mw-4b", "evil.example/", 3) }, wantErr: sbtest.ErrPrefixLength, wantMsg: `"3"`},
		{name: "33 bytes", op: func() error { return s.AddPrefix("mw-4b", "evil.example/", 33) }, wantErr: sbtest.ErrPrefixLength, wantMsg: "want 4 to 32"},
		// A list Web Risk does not serve.
		{name: "pha-4b", op: func() error { return s.AddPrefix("pha-4b", "evil.example/", 8) }, wantErr: sbtest.ErrUnknownList, wantMsg: "not served by Web Risk"},
		{name: "gc-32b", op: func() error { return s.AddPrefix("gc-32b", "evil.example/", 8) }, wantErr: sbtest.ErrUnknownList},
		// Web Risk's name of a list v5 serves is not a list name.
		{name: "MALWARE", op: func() error { return s.AddPrefix("MALWARE", "evil.example/", 8) }, wantErr: sbtest.ErrUnknownList},
		// A bad expression, checked first.
		{name: "expression", op: func() error { return s.AddPrefix("mw-4b", "evil.example", 40) }, wantErr: sbtest.ErrExpression},
		// Add, AddHash, Remove and RemoveHash take the extended list.
		{name: "Add extended", op: func() error { return s.Add(ext, "other.example/") }},
		{name: "AddHash extended", op: func() error { return s.AddHash(ext, [32]byte{1}) }},
		{name: "Remove extended", op: func() error { return s.Remove(ext, "other.example/") }},
		{name: "RemoveHash extended", op: func() error { return s.RemoveHash(ext, [32]byte{1}) }},
		{name: "Remove extended again", op: func() error { return s.Remove(ext, "other.example/") }, wantErr: sbtest.ErrNotListed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.op()
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && (!strings.HasPrefix(err.Error(), "sbtest: ") || !strings.Contains(err.Error(), tt.wantMsg)) {
				t.Errorf("message %q, want an sbtest message holding %q", err, tt.wantMsg)
			}
		})
	}
	// v5 knows nothing of the extended list.
	if r := get(t, s, "/v5/hashList/"+ext+query(s)); r.status != 404 {
		t.Errorf("v5's hashList/%s: %d, want 404", ext, r.status)
	}
	for _, l := range sbtest.Lists() {
		if l == ext {
			t.Errorf("Lists() holds %s", ext)
		}
	}
}

// Web Risk's methods are served while the lists change (run with -race):
// every computeDiff applies, from the token before it.
func TestWebRiskConcurrency(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	const n = 20
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			for j := range n {
				expr := "host" + strconv.Itoa(i) + ".example/" + strconv.Itoa(j)
				if err := s.AddPrefix("uws-4b", expr, 4+j%8); err != nil {
					t.Error(err)
				}
				if j%3 == 0 {
					if err := s.Remove("uws-4b", expr); err != nil {
						t.Error(err)
					}
				}
			}
		})
		wg.Go(func() {
			c := newWRClient(t, "UNWANTED_SOFTWARE")
			for range n {
				if _, err := c.update(s, "constraints.supportedCompressions", "RICE"); err != nil {
					t.Error(err)
					return
				}
				for _, pq := range []string{
					"/" + wrHashes + wrQuery(s, "hashPrefix", b64(prefixOf("host0.example/1")), "threatTypes", "UNWANTED_SOFTWARE"),
					"/" + wrURIs + wrQuery(s, "uri", "http://host1.example/2", "threatTypes", "UNWANTED_SOFTWARE"),
				} {
					res, err := s.Client().Get(s.URL + pq)
					if err != nil {
						t.Error(err)
						return
					}
					res.Body.Close()
					if res.StatusCode != 200 && res.StatusCode != 503 {
						t.Errorf("%s: %d", pq, res.StatusCode)
					}
				}
			}
		})
	}
	wg.Go(func() {
		for range n {
			s.Inject(sbtest.Fault{Endpoint: wrHashes, Status: 503, Times: 1})
			s.ClearFaults()
		}
	})
	wg.Wait()
	if got := s.Requests(wrDiff); got != 2*n {
		t.Errorf("Requests(%q) = %d, want %d", wrDiff, got, 2*n)
	}
}
