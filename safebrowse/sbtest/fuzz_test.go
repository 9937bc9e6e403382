// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// statuses are the only statuses the server answers with when no fault is
// injected.
var statuses = map[int]bool{200: true, 400: true, 403: true, 404: true, 405: true}

// FuzzHandler serves arbitrary methods, paths and queries: the server
// never panics, answers with one of its statuses, a 200 is a protobuf
// message, and any other reply is a JSON error with an sbtest message.
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
		// ListHashLists, paged.
		{"GET", "/v5/hashLists", k + "&pageSize=2&pageToken=2"},
		// Wrong key, alt, method and path.
		{"GET", "/v5/hashes:search", "key=x&alt=json"},
		{"POST", "/v5/hashLists", k},
		{"GET", "/v5/hashList/", k},
		{"GET", "/v5/hashList/se-4b/x", k + "&version=" + strings.Repeat("A", 300)},
		{"GET", "/", ";;&&==%zz"},
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
