// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// FuzzHandler serves arbitrary methods, paths and queries from a loaded
// mirror: it never panics, a 200 is a message that v5wire reads in the
// encoding asked, and any other reply is a JSON error in Google's shape
// with a status the mirror gives.
func FuzzHandler(f *testing.F) {
	for _, s := range []struct{ method, path, query string }{
		// Lists in both encodings, from a version, chunked, constrained.
		{"GET", "/v5/hashList/se-4b", "alt=proto"},
		{"GET", "/v5/hashList/hashLists/uws-4b", "version=c2UtNGI6MQ==&sizeConstraints.maxUpdateEntries=1024"},
		{"GET", "/v5/hashList/gc-32b", "size_constraints.max_database_entries=1&$ct=application/x-protobuf"},
		{"GET", "/v5/hashLists:batchGet", "names=se-4b&names=mw-4b&version=bXctNGI6MQ==&alt=json"},
		{"GET", "/v5/hashLists", "pageSize=2&pageToken=2&alt=proto"},
		// Searches, in both forms, with bad prefixes.
		{"GET", "/v5/hashes:search", "hashPrefixes=AAAAAA==&hashPrefixes=_-_-_w"},
		{"GET", "/v5/hashes:search", "$req=CgQBAgME&$ct=application/x-protobuf"},
		{"GET", "/v5/hashes:search", "hashPrefixes=AAAAAAA=&alt=xml"},
		// Other methods and paths.
		{"POST", "/v5/hashLists", ""},
		{"GET", "/v5/hashList/", ";;&&==%zz"},
	} {
		f.Add(s.method, s.path, s.query)
	}
	e := newEnv(f, mirror.Config{}, "", sbtest.WithCacheDuration(time.Minute))
	for _, x := range []string{"evil.example/", "bad.example/x"} {
		for _, l := range sbtest.Lists() {
			e.up.Add(l, x)
		}
	}
	e.update(f)
	statuses := map[int]bool{200: true, 400: true, 404: true, 405: true}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n") {
			method = "GET"
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Method, r.URL.Path, r.URL.RawQuery = method, path, query
		w := httptest.NewRecorder()
		e.m.ServeHTTP(w, r)
		body := w.Body.Bytes()
		if !statuses[w.Code] {
			t.Fatalf("%s %s?%s: status %d: %s", method, path, query, w.Code, body)
		}
		if w.Code != http.StatusOK {
			var g struct {
				Error struct{ Code int } `json:"error"`
			}
			if err := json.Unmarshal(body, &g); err != nil || g.Error.Code != w.Code {
				t.Fatalf("error reply %d: %s", w.Code, body)
			}
			return
		}
		if method == "HEAD" {
			return
		}
		proto := w.Header().Get("Content-Type") == "application/x-protobuf"
		var err error
		switch {
		case strings.HasPrefix(path, "/v5/hashList/") && proto:
			_, err = v5wire.ParseHashList(body)
		case strings.HasPrefix(path, "/v5/hashList/"):
			var hl v5wire.HashList
			err = hl.UnmarshalJSON(body)
		case path == "/v5/hashLists:batchGet" && proto:
			_, err = v5wire.ParseBatch(body)
		case path == "/v5/hashLists:batchGet":
			_, err = v5wire.UnmarshalBatchJSON(body)
		case path == "/v5/hashes:search" && proto:
			_, err = v5wire.ParseSearchHashesResponse(body)
		case path == "/v5/hashes:search":
			var r v5wire.SearchHashesResponse
			err = r.UnmarshalJSON(body)
		case proto:
			_, err = v5wire.ParseListHashListsResponse(body)
		default:
			var r v5wire.ListHashListsResponse
			err = r.UnmarshalJSON(body)
		}
		if err != nil {
			t.Fatalf("%s?%s: 200 that does not read: %v\n%.300s", path, query, err, body)
		}
	})
}
