// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"google.golang.org/protobuf/encoding/protowire"
)

// statuses are the only statuses the server answers with when no fault is
// injected; 415 is the OHTTP gateway's, for a request that is not
// message/ohttp-req.
var statuses = map[int]bool{200: true, 400: true, 403: true, 404: true, 405: true, 415: true}

// FuzzHandler serves arbitrary methods, paths and queries: the server
// never panics, answers with one of its statuses, a 200 is a protobuf
// message (or valid JSON, when alt is not proto), and any other reply is a
// JSON error with an sbtest message.
func FuzzHandler(f *testing.F) {
	const k = "key=sbtest-key&alt=proto"
	seeds := []struct{ method, path, query string }{
		// A search for a listed prefix, in both base64 forms.
		{"GET", "/v5/hashes:search", k + "&hashPrefixes=" + url.QueryEscape("+5kQ6A==")},
		{"GET", "/v5/hashes:search", k + "&hash_prefixes=-5kQ6A&hashPrefixes=AAAAAA"},
		// A search with a bad prefix, and with none.
		{"GET", "/v5/hashes:search", k + "&hashPrefixes=AAAAAAA="},
		{"GET", "/v5/hashes:search", k},
		// A full and a partial update, with size constraints.
		{"GET", "/v5/hashList/se-4b", k},
		{"GET", "/v5/hashList/se-4b", k + "&version=c2UtNGI6MQ==&sizeConstraints.maxUpdateEntries=1024"},
		{"GET", "/v5/hashList/gc-32b", k + "&version=Z2MtMzJiOjA&size_constraints.max_database_entries=5"},
		// A batch, with versions in any order, and a bad one.
		{"GET", "/v5/hashLists:batchGet", k + "&names=se-4b&names=mw-4b&version=bXctNGI6MQ==&version=c2UtNGI6MQ=="},
		{"GET", "/v5/hashLists:batchGet", k + "&names=se-4b&names=se-4b"},
		{"GET", "/v5/hashLists:batchGet", k + "&names=xx&version=%%"},
		// A list that maxUpdateEntries cuts into chunks, and a later chunk.
		{"GET", "/v5/hashList/uws-4b", k + "&sizeConstraints.maxUpdateEntries=1024"},
		{"GET", "/v5/hashList/uws-4b", k + "&sizeConstraints.maxUpdateEntries=1024&version=dXdzLTRiOjExMDAuMQ=="},
		// ListHashLists, paged.
		{"GET", "/v5/hashLists", k + "&pageSize=2&pageToken=2"},
		// Wrong key, alt, method and path.
		{"GET", "/v5/hashes:search", "key=x&alt=json"},
		{"POST", "/v5/hashLists", k},
		{"GET", "/v5/hashList/", k},
		{"GET", "/v5/hashList/se-4b/x", k + "&version=" + strings.Repeat("A", 300)},
		{"GET", "/", ";;&&==%zz"},
		// Chromium's form of a search, and a bad one.
		{"GET", "/v5/hashes:search", "key=sbtest-key&$req=CgT2896Z&$ct=application/x-protobuf"},
		{"GET", "/v5/hashes:search", "key=sbtest-key&$req=CgT2&$ct=application/x-protobuf"},
		// The OHTTP gateway's key, and its encapsulated requests with no body.
		{"GET", "/v1/ohttp/hpkekeyconfig", ""},
		{"POST", "/v1/ohttp:handleOhttpEncapsulatedRequest", ""},
		// Web Risk's methods, in JSON and binary, and a POST.
		{"GET", "/v1/threatLists:computeDiff", "key=sbtest-key&threatType=UNWANTED_SOFTWARE&constraints.supportedCompressions=RICE&constraints.maxDiffEntries=1024"},
		{"GET", "/v1/hashes:search", k + "&hashPrefix=-5kQ6A&threatTypes=SOCIAL_ENGINEERING"},
		{"POST", "/v1/uris:search", "key=sbtest-key&uri=http://evil.example/&threatTypes=MALWARE"},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.query)
	}
	s := NewServer()
	defer s.Close()
	for _, e := range []string{"evil.example/", "bad.example/x"} {
		for _, l := range Lists() {
			if err := s.Add(l, e, Canary, 7); err != nil {
				f.Fatal(err)
			}
		}
	}
	h := sha256.Sum256([]byte("evil.example/"))
	h[31]++
	s.AddHash("se-4b", h, FrameOnly)
	for i := range 1100 { // enough for maxUpdateEntries=1024 to cut updates
		s.AddHash("uws-4b", sha256.Sum256([]byte{byte(i), byte(i >> 8)}))
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n") {
			method = "GET"
		}
		r := &http.Request{
			Method:     method,
			URL:        &url.URL{Path: path, RawQuery: query},
			RequestURI: path + "?" + query,
			Proto:      "HTTP/1.1",
			ProtoMajor: 1,
			ProtoMinor: 1,
			Header:     http.Header{},
			Body:       http.NoBody,
			Host:       "127.0.0.1",
		}
		r = r.WithContext(t.Context())
		w := httptest.NewRecorder()
		s.serveHTTP(w, r)
		if !statuses[w.Code] {
			t.Fatalf("%s %q ? %q: status %d", method, path, query, w.Code)
		}
		body := w.Body.Bytes()
		if w.Code == 200 && path == "/v1/ohttp/hpkekeyconfig" && w.Header().Get("Content-Type") == "application/ohttp-keys" {
			return
		}
		if w.Code == 200 && w.Header().Get("Content-Type") == "application/json; charset=UTF-8" {
			// No alt: Google's JSON, as the servers default to.
			if !json.Valid(body) {
				t.Fatalf("%s %q ? %q: a JSON 200 that is not JSON: %q", method, path, query, body)
			}
			return
		}
		if w.Code == 200 {
			if w.Header().Get("Content-Type") != "application/x-protobuf" {
				t.Fatalf("200 with Content-Type %q", w.Header().Get("Content-Type"))
			}
			for b := body; len(b) > 0; {
				_, _, n := protowire.ConsumeField(b)
				if n < 0 {
					t.Fatalf("%s %q ? %q: a 200 that is no message: %x", method, path, query, body)
				}
				b = b[n:]
			}
			return
		}
		var e struct {
			Error struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != w.Code || !strings.HasPrefix(e.Error.Message, "sbtest: ") {
			t.Fatalf("%s %q ? %q: %d %s", method, path, query, w.Code, body)
		}
	})
}

// FuzzUpdates runs a sequence of changes to a list and fetches by a
// client (hashlist.List), with and without maxUpdateEntries, and with
// versions lost or made up: every reply applies, and once a reply carries
// a minimum wait the client holds exactly the server's list.
func FuzzUpdates(f *testing.F) {
	// Each byte is an operation: its low 3 bits choose it, the rest is an
	// argument.
	f.Add([]byte{0, 2, 1, 2, 3})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 2, 0x41, 0x41, 2, 4, 3, 5, 2})
	f.Add([]byte{0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 2, 0xf9, 0xf8, 2, 6, 7, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		s := NewServer(WithMinimumWait(time.Minute))
		defer s.Close()
		client, err := hashlist.New("se-4b")
		if err != nil {
			t.Fatal(err)
		}
		var added [][32]byte
		next := 0
		version := func() []byte { return client.Version() }
		for _, op := range ops {
			arg := int(op >> 3)
			switch op & 7 {
			case 0: // add 8×arg+1 hashes
				for range 8*arg + 1 {
					h := sha256.Sum256([]byte(strconv.Itoa(next)))
					next++
					added = append(added, h)
					s.AddHash("se-4b", h)
				}
			case 1: // remove every (arg%7+2)-th hash still added
				kept := added[:0]
				for i, h := range added {
					if i%(arg%7+2) == 0 {
						s.RemoveHash("se-4b", h)
					} else {
						kept = append(kept, h)
					}
				}
				added = kept
			case 2, 3, 4: // fetch until done: with 1024, unlimited, or from a made-up version
				max := "0"
				if op&7 == 2 {
					max = "1024"
				}
				v := version()
				if op&7 == 4 {
					v = []byte("mw-4b:" + strconv.Itoa(arg)) // foreign: never served for se-4b
				}
				for i := 0; ; i++ {
					if i > 200 {
						t.Fatal("no end to the chunks")
					}
					q := url.Values{"key": {s.APIKey}, "alt": {"proto"}, "sizeConstraints.maxUpdateEntries": {max}}
					if v != nil {
						q.Set("version", base64.StdEncoding.EncodeToString(v))
					}
					w := httptest.NewRecorder()
					s.serveHTTP(w, httptest.NewRequest("GET", "/v5/hashList/se-4b?"+q.Encode(), nil))
					if w.Code != 200 {
						t.Fatalf("status %d: %s", w.Code, w.Body)
					}
					var m hashlist.Message
					if err := m.UnmarshalBinary(w.Body.Bytes()); err != nil {
						t.Fatal(err)
					}
					if max == "1024" && len(m.Removals)+len(m.Additions)/4 > 1024 {
						t.Fatalf("%d entries, over 1024", len(m.Removals)+len(m.Additions)/4)
					}
					if op&7 == 4 && i == 0 && !m.Partial {
						client, _ = hashlist.New("se-4b") // a made-up version gets a full update
					}
					if err := client.Apply(w.Body.Bytes()); err != nil {
						t.Fatalf("Apply: %v", err)
					}
					if m.MinimumWait != 0 {
						break
					}
					v = version()
				}
				s.mu.Lock()
				want := s.lists["se-4b"].sorted()
				s.mu.Unlock()
				var got []byte
				for h := range client.All() {
					got = append(got, h...)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("the client holds %d hashes, the server %d", len(got)/4, len(want)/4)
				}
			case 5: // the client loses its list: next fetch without a version
				client, _ = hashlist.New("se-4b")
			default: // a search for a hash added, which must be found
				if len(added) > 0 {
					h := added[arg%len(added)]
					q := url.Values{"key": {s.APIKey}, "alt": {"proto"}, "hashPrefixes": {base64.StdEncoding.EncodeToString(h[:4])}}
					w := httptest.NewRecorder()
					s.serveHTTP(w, httptest.NewRequest("GET", "/v5/hashes:search?"+q.Encode(), nil))
					if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), h[:]) {
						t.Fatalf("search for an added hash: %d %x", w.Code, w.Body)
					}
				}
			}
		}
	})
}
