// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// The server listens on loopback, with the defaults of the options.
func TestNewServer(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(u.Hostname()); u.Scheme != "http" || ip == nil || !ip.IsLoopback() || u.Path != "" {
		t.Errorf("URL = %q, want http://<loopback>:port", s.URL)
	}
	if s.APIKey != sbtest.DefaultAPIKey {
		t.Errorf("APIKey = %q, want %q", s.APIKey, sbtest.DefaultAPIKey)
	}
	if k := sbtest.NewServer(sbtest.WithAPIKey("AIza-own")); k.APIKey != "AIza-own" {
		t.Errorf("WithAPIKey: APIKey = %q", k.APIKey)
	} else {
		k.Close()
	}
	if k := sbtest.NewServer(sbtest.WithAPIKey("")); k.APIKey != sbtest.DefaultAPIKey {
		t.Errorf("WithAPIKey(\"\"): APIKey = %q, want the default", k.APIKey)
	} else {
		k.Close()
	}
	s.Close() // a second Close is fine
}

// Every request is checked for its method, key, alt and parameters before
// it is served; the errors are Google's JSON errors.
func TestRequestChecks(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithAPIKey("right-key"))
	defer s.Close()
	search := "/v5/hashes:search"
	p := "&hashPrefixes=" + url.QueryEscape(b64([]byte{1, 2, 3, 4}))
	tests := []struct {
		name       string
		method     string
		in         string // path and query
		wantStatus int
		wantMsg    string // in the message
		wantReason string // of the ErrorInfo in the details; "" for none
	}{
		// The key and alt=proto: served.
		{name: "good", in: search + "?key=right-key&alt=proto" + p, wantStatus: 200},
		// A wrong key is a 400 with Google's message, which does not echo
		// the key (checked below), and the reason API_KEY_INVALID.
		{name: "bad key", in: search + "?key=AIzaWRONG-KEY&alt=proto" + p, wantStatus: 400, wantMsg: `API key not valid. Please pass a valid API key.`, wantReason: "API_KEY_INVALID"},
		// The key is checked on every endpoint.
		{name: "bad key on ListHashLists", in: "/v5/hashLists?key=wrong&alt=proto", wantStatus: 400, wantMsg: `API key not valid`, wantReason: "API_KEY_INVALID"},
		// A missing key is a 403, as Google's APIs answer, with the reason
		// error_reason.proto gives a request without credentials.
		{name: "missing key", in: search + "?alt=proto" + p, wantStatus: 403, wantMsg: "missing an API key", wantReason: "CREDENTIALS_MISSING"},
		// A key given twice is a 400.
		{name: "key twice", in: search + "?key=right-key&key=right-key&alt=proto" + p, wantStatus: 400, wantMsg: "key given 2 times"},
		// A missing alt is protobuf, as Google's v5 answers (alt=json is
		// TestProtoOnly's).
		{name: "missing alt", in: search + "?key=right-key" + p, wantStatus: 200},
		// Another alt is a 400.
		{name: "alt media", in: search + "?key=right-key&alt=media" + p, wantStatus: 400, wantMsg: `alt="media"`},
		// alt given twice is a 400.
		{name: "alt twice", in: search + "?key=right-key&alt=json&alt=proto" + p, wantStatus: 400, wantMsg: `alt="json,proto"`},
		// A misspelt parameter is a 400 naming it.
		{name: "unknown parameter", in: search + "?key=right-key&alt=proto&hashPrefix=AQIDBA==", wantStatus: 400, wantMsg: `"hashPrefix"`},
		// A long parameter name is quoted as every input is: at most 100
		// bytes, no character cut, and its length.
		{name: "long parameter", in: search + "?key=right-key&alt=proto&" + strings.Repeat("x", 99) + "%C3%A9=1", wantStatus: 400, wantMsg: `"` + strings.Repeat("x", 99) + `"... (101 bytes)`},
		// A parameter of another endpoint is a 400.
		{name: "other endpoint's parameter", in: search + "?key=right-key&alt=proto&names=se-4b" + p, wantStatus: 400, wantMsg: `"names"`},
		// The standard parameters of Google's APIs are accepted.
		{name: "standard parameters", in: search + "?key=right-key&alt=proto&prettyPrint=false&quotaUser=u&fields=*" + p, wantStatus: 200},
		// The system parameters the generated clients send are accepted.
		{name: "system parameters", in: search + "?key=right-key&%24.xgafv=2&prettyPrint=true&fields=fullHashes" + p, wantStatus: 200},
		// A malformed escape is a 400.
		{name: "malformed query", in: search + "?key=right-key&alt=proto&hashPrefixes=%zz", wantStatus: 400, wantMsg: "malformed query"},
		// Another method is a 405.
		{name: "POST", method: "POST", in: search + "?key=right-key&alt=proto" + p, wantStatus: 405, wantMsg: `"POST"`},
		// Another path is a 404.
		{name: "unknown path", in: "/v4/threatMatches:find?key=right-key", wantStatus: 404, wantMsg: "no endpoint"},
		// The v5 path without /v5 is a 404.
		{name: "no version", in: "/hashes:search?key=right-key&alt=proto" + p, wantStatus: 404, wantMsg: "no endpoint"},
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
			res, err := s.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			r := readReply(t, res)
			if r.status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tt.wantStatus, r.body)
			}
			if tt.wantStatus == 200 {
				return
			}
			msg := errorMessage(r)
			if !strings.HasPrefix(msg, "sbtest: ") || !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("message %q, want an sbtest message holding %q", msg, tt.wantMsg)
			}
			if reason := errorReason(r); reason != tt.wantReason {
				t.Errorf("reason %q, want %q: %s", reason, tt.wantReason, r.body)
			}
			// Google does not echo a key it rejects.
			if k := req.URL.Query().Get("key"); k != "" && strings.Contains(string(r.body), k) {
				t.Errorf("reply %s echoes the key %q", r.body, k)
			}
			if r.ctype != "application/json; charset=UTF-8" {
				t.Errorf("Content-Type %q", r.ctype)
			}
		})
	}
}

// Add and Remove take expressions as safebrowse yields them, on the
// server's lists.
func TestAddRemove(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	tests := []struct {
		name    string
		op      func() error
		wantErr error
		wantMsg string
	}{
		// A host and a path.
		{name: "add", op: func() error { return s.Add("se-4b", "evil.example/") }},
		// Again, with attributes: they replace the old ones.
		{name: "add again", op: func() error { return s.Add("se-4b", "evil.example/", sbtest.Canary) }},
		// An IP address, a path and a query.
		{name: "add query", op: func() error { return s.Add("mw-4b", "1.2.3.4/a/b.html?x=1") }},
		// Every list of Lists takes expressions.
		{name: "add gc-32b", op: func() error { return s.Add("gc-32b", "good.example/") }},
		// A host without a path is not canonical: the message gives the form to use.
		{name: "no path", op: func() error { return s.Add("se-4b", "evil.example") }, wantErr: sbtest.ErrExpression, wantMsg: `want "evil.example/"`},
		// A URL is not an expression.
		{name: "URL", op: func() error { return s.Add("se-4b", "http://evil.example/") }, wantErr: sbtest.ErrExpression},
		// Upper case is not canonical.
		{name: "upper case", op: func() error { return s.Add("se-4b", "EVIL.example/") }, wantErr: sbtest.ErrExpression, wantMsg: `want "evil.example/"`},
		// The empty expression.
		{name: "empty", op: func() error { return s.Add("se-4b", "") }, wantErr: sbtest.ErrExpression},
		// A list the server does not serve.
		{name: "unknown list", op: func() error { return s.Add("xx-4b", "evil.example/") }, wantErr: sbtest.ErrUnknownList, wantMsg: `"xx-4b"`},
		// AddHash on an unknown list.
		{name: "AddHash unknown list", op: func() error { return s.AddHash("se-8b", [32]byte{}) }, wantErr: sbtest.ErrUnknownList},
		// A long input is quoted to its first 100 bytes, and its length given.
		{name: "long", op: func() error { return s.Add(strings.Repeat("x", 500), "evil.example/") }, wantErr: sbtest.ErrUnknownList, wantMsg: `"` + strings.Repeat("x", 100) + `"... (500 bytes)`},
		// A character that straddles byte 100 is left out whole, not cut.
		{name: "long UTF-8", op: func() error { return s.Add(strings.Repeat("x", 99)+"é", "evil.example/") }, wantErr: sbtest.ErrUnknownList, wantMsg: `"` + strings.Repeat("x", 99) + `"... (101 bytes)`},
		// Remove of an expression on the list.
		{name: "remove", op: func() error { return s.Remove("se-4b", "evil.example/") }},
		// Remove of one no longer there.
		{name: "remove again", op: func() error { return s.Remove("se-4b", "evil.example/") }, wantErr: sbtest.ErrNotListed, wantMsg: `"evil.example/"`},
		// Remove from an unknown list.
		{name: "remove unknown list", op: func() error { return s.Remove("xx-4b", "evil.example/") }, wantErr: sbtest.ErrUnknownList},
		// Remove of a bad expression.
		{name: "remove bad expression", op: func() error { return s.Remove("se-4b", "evil.example") }, wantErr: sbtest.ErrExpression},
		// RemoveHash of a hash not on the list.
		{name: "RemoveHash", op: func() error { return s.RemoveHash("mw-4b", [32]byte{1}) }, wantErr: sbtest.ErrNotListed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.op()
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && (!strings.HasPrefix(err.Error(), "sbtest: ") || !strings.Contains(err.Error(), tt.wantMsg) || len(err.Error()) > 200) {
				t.Errorf("message %q, want an sbtest message holding %q", err, tt.wantMsg)
			}
		})
	}
}

// ListHashLists gives each list's name and metadata, paged.
func TestListHashLists(t *testing.T) {
	s := seeded(t)
	tests := []struct {
		name       string
		in         []string // query pairs
		want       []string // names
		wantNext   string
		wantStatus int
	}{
		// Every list, in the order of Lists.
		{name: "all", want: sbtest.Lists()},
		// A first page of two.
		{name: "page size", in: []string{"pageSize", "2"}, want: []string{"gc-32b", "se-4b"}, wantNext: "2"},
		// The page after it.
		{name: "page token", in: []string{"pageSize", "2", "pageToken", "2"}, want: []string{"mw-4b", "uws-4b"}, wantNext: "4"},
		// The last page, with no next token.
		{name: "last page", in: []string{"page_token", "4"}, want: []string{"uwsa-4b", "pha-4b"}},
		// A token the server did not give is a 400.
		{name: "bad token", in: []string{"pageToken", "x"}, wantStatus: 400},
		// A negative page size is a 400.
		{name: "negative size", in: []string{"pageSize", "-1"}, wantStatus: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, "/v5/hashLists"+query(s, tt.in...))
			if tt.wantStatus != 0 {
				if r.status != tt.wantStatus {
					t.Fatalf("status %d, want %d", r.status, tt.wantStatus)
				}
				return
			}
			lists, next, err := decodeListHashLists(r.body)
			if err != nil || !isOK(r) {
				t.Fatalf("%d %v", r.status, err)
			}
			var names []string
			for _, l := range lists {
				names = append(names, l.name)
			}
			if strings.Join(names, ",") != strings.Join(tt.want, ",") || next != tt.wantNext {
				t.Errorf("lists %v next %q, want %v next %q", names, next, tt.want, tt.wantNext)
			}
		})
	}

	// The metadata of each list.
	r := get(t, s, "/v5/hashLists"+query(s))
	lists, _, _ := decodeListHashLists(r.body)
	wantMeta := map[string]string{
		"gc-32b":  "threats [] likely safe [1] length 5",
		"se-4b":   "threats [2] likely safe [] length 2",
		"mw-4b":   "threats [1] likely safe [] length 2",
		"uws-4b":  "threats [3] likely safe [] length 2",
		"uwsa-4b": "threats [3] likely safe [] length 2",
		"pha-4b":  "threats [4] likely safe [] length 2",
	}
	for _, l := range lists {
		got := fmtMeta(l)
		if got != wantMeta[l.name] || l.description == "" {
			t.Errorf("%s: %s (%q), want %s", l.name, got, l.description, wantMeta[l.name])
		}
	}
}

func fmtMeta(l listInfo) string {
	return fmt.Sprintf("threats %v likely safe %v length %d", l.threats, l.likelySafe, l.hashLength)
}

// Requests counts each endpoint's requests whatever their answer, and
// SearchedPrefixes every prefix sent to hashes:search.
func TestRequests(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	p1, p2 := []byte{1, 2, 3, 4}, []byte{5, 6, 7, 8, 9}
	get(t, s, "/v5/hashes:search"+searchQuery(s, b64(p1)))
	get(t, s, "/v5/hashes:search?key=wrong&alt=proto&hashPrefixes="+url.QueryEscape(b64(p1)))
	get(t, s, "/v5/hashes:search"+searchQuery(s, b64(p2), "!!"))
	get(t, s, "/v5/hashList/se-4b"+query(s))
	get(t, s, "/v5/hashList/xx-4b"+query(s))
	get(t, s, "/v5/hashLists:batchGet"+query(s, "names", "se-4b"))
	get(t, s, "/v5/hashLists"+query(s))
	get(t, s, "/nowhere")
	tests := []struct {
		in   string
		want int
	}{
		// Three searches: served, a bad key, a bad prefix.
		{in: "hashes:search", want: 3},
		// Two GetHashList, one of an unknown list.
		{in: "hashList", want: 2},
		// One BatchGetHashLists.
		{in: "hashLists:batchGet", want: 1},
		// One ListHashLists.
		{in: "hashLists", want: 1},
		// "" counts every request, to any path.
		{in: "", want: 8},
		// A name that is no endpoint counts nothing.
		{in: "nowhere", want: 0},
	}
	for _, tt := range tests {
		if got := s.Requests(tt.in); got != tt.want {
			t.Errorf("Requests(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	got := s.SearchedPrefixes()
	want := [][]byte{p1, p1, p2} // "!!" is not base64
	if len(got) != len(want) {
		t.Fatalf("SearchedPrefixes = %x, want %x", got, want)
	}
	for i := range want {
		if string(got[i]) != string(want[i]) {
			t.Errorf("SearchedPrefixes[%d] = %x, want %x", i, got[i], want[i])
		}
	}
	got[0][0] = 0xff
	if s.SearchedPrefixes()[0][0] != 1 {
		t.Error("SearchedPrefixes hands out the server's own slices")
	}
}

// The server is safe for concurrent use: lists change, faults come and go
// and counters are read while requests are served (run with -race).
func TestConcurrency(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	var wg sync.WaitGroup
	const n = 20
	for i := range 4 {
		wg.Go(func() {
			for j := range n {
				expr := "host" + string(rune('a'+i)) + ".example/" + string(rune('a'+j%26))
				if err := s.Add(sbtest.Lists()[1+i%5], expr, sbtest.Canary); err != nil {
					t.Error(err)
				}
				if j%3 == 0 {
					if err := s.Remove(sbtest.Lists()[1+i%5], expr); err != nil {
						t.Error(err)
					}
				}
			}
		})
		wg.Go(func() {
			for range n {
				r := get(t, s, "/v5/hashes:search"+searchQuery(s, b64(prefixOf("hosta.example/a"))))
				if !isOK(r) {
					t.Errorf("search: %d", r.status)
				}
				s.Requests("hashes:search")
				s.SearchedPrefixes()
			}
		})
		wg.Go(func() {
			for range n {
				r := get(t, s, "/v5/hashLists:batchGet"+query(s, "names", "se-4b", "names", "mw-4b", "sizeConstraints.maxUpdateEntries", "1024"))
				if r.status != 200 && r.status != 503 {
					t.Errorf("batchGet: %d", r.status)
				}
			}
		})
	}
	wg.Go(func() {
		for range n {
			s.Inject(sbtest.Fault{Endpoint: "hashLists:batchGet", Status: 503, Times: 1})
			s.ClearFaults()
		}
	})
	wg.Wait()
	if got := s.Requests("hashes:search"); got != 4*n {
		t.Errorf("Requests = %d, want %d", got, 4*n)
	}
}

func readReply(t *testing.T, res *http.Response) reply {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{res.StatusCode, res.Header.Get("Content-Type"), b}
}
