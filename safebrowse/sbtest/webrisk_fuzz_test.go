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
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// wrServe serves GET path?query on s, in process.
func wrServe(s *Server, path, query string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	r := &http.Request{
		Method: "GET", URL: &url.URL{Path: path, RawQuery: query}, RequestURI: path + "?" + query,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}, Body: http.NoBody, Host: "127.0.0.1",
	}
	s.serveHTTP(w, r)
	return w
}

// wrDiffOf returns a computeDiff reply as hashlist's Diff.
func wrDiffOf(m *v4wire.ComputeThreatListDiffResponse) hashlist.Diff {
	d := hashlist.Diff{Reset: m.ResponseType == v4wire.FullUpdate, Version: m.NewVersionToken, Checksum: m.Checksum}
	if a := m.Additions; a != nil {
		for _, r := range a.RawHashes {
			d.Raw = append(d.Raw, hashlist.RawHashes(r))
		}
		d.Rice = (*hashlist.Rice)(a.RiceHashes)
	}
	if r := m.Removals; r != nil {
		if r.RawIndices != nil {
			d.RawRemovals = r.RawIndices.Indices
		}
		d.RiceRemovals = (*hashlist.Rice)(r.RiceIndices)
	}
	return d
}

// FuzzWebRisk serves arbitrary queries to Web Risk's three methods, in
// JSON and binary: the server never panics; it answers a 200 or a 400
// (the key is given); a 400 is Google's error with a short sbtest
// message (the input quoted is at most 100 bytes, each up to 4 characters
// escaped); a 200 reads back under v4wire's strict policy, and holds what
// was asked: the threat types asked, the hashes that start with the
// prefix asked, a RESET that applies to an empty list, a DIFF that
// applies to the entries its request's token names, and a reply within
// maxDiffEntries.
func FuzzWebRisk(f *testing.F) {
	seeds := []struct {
		ep    uint8
		query string
	}{
		// computeDiff: RESETs, raw and Rice-coded, cut by the limits.
		{0, "threatType=MALWARE"},
		{0, "threatType=UNWANTED_SOFTWARE&constraints.supportedCompressions=RICE&alt=proto"},
		{0, "threat_type=UNWANTED_SOFTWARE&constraints.max_diff_entries=1024&constraints.max_database_entries=2048"},
		{0, "threatType=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&constraints.supportedCompressions=RAW&constraints.supportedCompressions=RICE"},
		// A made-up token.
		{0, "threatType=UNWANTED_SOFTWARE&versionToken=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("UNWANTED_SOFTWARE:0123456789abcdef")))},
		{0, "threatType=MALWARE&versionToken=%%%"},
		{0, "threatType=4&constraints.maxDiffEntries=1023"},
		// hashes:search: 4, 8 and 32 bytes; bad lengths and types.
		{1, "hashPrefix=" + url.QueryEscape(base64.StdEncoding.EncodeToString(prefixOfExpr("evil.example/", 4))) + "&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING"},
		{1, "hash_prefix=" + base64.RawURLEncoding.EncodeToString(prefixOfExpr("long.example/", 8)) + "&threat_types=UNWANTED_SOFTWARE&alt=proto"},
		{1, "hashPrefix=" + base64.RawURLEncoding.EncodeToString(prefixOfExpr("evil.example/", 32)) + "&threatTypes=1&threatTypes=3"},
		{1, "hashPrefix=AAA&threatTypes=MALWARE"},
		{1, "hashPrefix=AAAAAA&threatTypes=FOO&hashPrefix=BBBBBB"},
		// uris:search: listed, clean, and not a URL.
		{2, "uri=http%3A%2F%2Fevil.example%2Fx%3Fy&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE"},
		{2, "uri=http%3A%2F%2Fclean.example%2F&threatTypes=MALWARE&alt=proto"},
		{2, "uri=http%3A%2F%2F&threatTypes=MALWARE&prettyPrint=false"},
		{2, "uri=%FF&threatTypes=MALWARE"},
	}
	for _, s := range seeds {
		f.Add(s.ep, s.query)
	}
	s := NewServer()
	defer s.Close()
	for _, err := range []error{
		s.Add("mw-4b", "evil.example/"),
		s.Add("se-4b", "evil.example/"),
		s.AddPrefix("uws-4b", "long.example/", 8),
		s.AddPrefix("uwsa-4b", "longer.example/", 32),
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "evil.example/"),
	} {
		if err != nil {
			f.Fatal(err)
		}
	}
	for i := range 1500 { // enough for the limits to cut the list
		s.AddHash("uws-4b", sha256.Sum256([]byte{byte(i), byte(i >> 8)}))
	}
	states := make(map[string][]byte) // version token → the saved PrefixSet it names
	// A DIFF from the token of the list cut to 1024 to the whole list: the
	// server's lists do not change, nor do their tokens.
	w := wrServe(s, "/"+epWRDiff, "key="+s.APIKey+"&threatType=UNWANTED_SOFTWARE&constraints.maxDatabaseEntries=1024")
	m, err := v4wire.ParseComputeThreatListDiffResponseJSON(w.Body.Bytes())
	if err != nil {
		f.Fatal(err)
	}
	set, _ := hashlist.NewPrefixSet("UNWANTED_SOFTWARE")
	if d := wrDiffOf(&m); set.Apply(&d, 0) != nil {
		f.Fatal("the seed's RESET does not apply")
	}
	states[string(m.NewVersionToken)], _ = set.MarshalBinary()
	f.Add(uint8(0), "threatType=UNWANTED_SOFTWARE&constraints.supportedCompressions=RICE&versionToken="+base64.URLEncoding.EncodeToString(m.NewVersionToken))
	eps := []string{epWRDiff, epWRHashes, epWRURIs}
	f.Fuzz(func(t *testing.T, ep uint8, query string) {
		path := "/" + eps[int(ep)%len(eps)]
		w := wrServe(s, path, "key="+s.APIKey+"&"+query)
		body := w.Body.Bytes()
		switch w.Code {
		case 200:
		case 400:
			var e struct {
				Error struct {
					Code    int
					Message string
				}
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != 400 || !strings.HasPrefix(e.Error.Message, "sbtest: ") || len(e.Error.Message) > 1000 {
				t.Fatalf("%s?%q: %s", path, query, body)
			}
			return
		default:
			t.Fatalf("%s?%q: status %d: %s", path, query, w.Code, body)
		}
		q, _ := url.ParseQuery(query)
		proto := w.Header().Get("Content-Type") == "application/x-protobuf"
		if proto != (len(q["alt"]) == 1 && q["alt"][0] == "proto") {
			t.Fatalf("%s?%q: Content-Type %q", path, query, w.Header().Get("Content-Type"))
		}
		switch path[1:] {
		case epWRDiff:
			m, err := v4wire.ParseComputeThreatListDiffResponseJSON(body)
			if proto {
				m, err = v4wire.ParseComputeThreatListDiffResponse(body)
			}
			if err != nil {
				t.Fatalf("%s?%q: %v", path, query, err)
			}
			req, err := v4wire.ParseComputeThreatListDiffRequestQuery(q)
			if err != nil {
				t.Fatalf("a 200 for a request v4wire refuses: %v", err)
			}
			set, _ := hashlist.NewPrefixSet(req.ThreatType.String())
			if m.ResponseType == v4wire.PartialUpdate {
				saved, ok := states[string(req.VersionToken)]
				if !ok {
					t.Fatalf("%s?%q: a DIFF from a token not issued", path, query)
				}
				if err := set.UnmarshalBinary(saved); err != nil {
					t.Fatal(err)
				}
			}
			d := wrDiffOf(&m)
			if err := set.Apply(&d, 0); err != nil {
				t.Fatalf("%s?%q: Apply: %v", path, query, err)
			}
			if max := req.Constraints.MaxDiffEntries; max > 0 {
				n := 0
				if m.Additions != nil {
					for _, r := range m.Additions.RawHashes {
						n += len(r.Hashes) / int(r.PrefixSize)
					}
					if r := m.Additions.RiceHashes; r != nil {
						n += int(r.Count) + 1
					}
				}
				if m.Removals != nil && m.Removals.RawIndices != nil {
					n += len(m.Removals.RawIndices.Indices)
				}
				if m.Removals != nil && m.Removals.RiceIndices != nil {
					n += int(m.Removals.RiceIndices.Count) + 1
				}
				if n > int(max) {
					t.Fatalf("%s?%q: %d entries, over %d", path, query, n, max)
				}
			}
			if saved, err := set.MarshalBinary(); err != nil {
				t.Fatal(err)
			} else {
				states[string(m.NewVersionToken)] = saved
			}
		case epWRHashes:
			m, err := v4wire.ParseSearchHashesResponseJSON(body)
			if proto {
				m, err = v4wire.ParseSearchHashesResponse(body)
			}
			if err != nil {
				t.Fatalf("%s?%q: %v", path, query, err)
			}
			req, err := v4wire.ParseSearchHashesRequestQuery(q)
			if err != nil {
				t.Fatalf("a 200 for a request v4wire refuses: %v", err)
			}
			for _, th := range m.Threats {
				if !bytes.HasPrefix(th.Hash[:], req.HashPrefix) || len(th.ThreatTypes) == 0 {
					t.Fatalf("%s?%q: threat %+v", path, query, th)
				}
				for _, typ := range th.ThreatTypes {
					if !slices.Contains(req.ThreatTypes, typ) {
						t.Fatalf("%s?%q: type %v not asked", path, query, typ)
					}
				}
			}
		case epWRURIs:
			m, err := v4wire.ParseSearchUrisResponseJSON(body)
			if proto {
				m, err = v4wire.ParseSearchUrisResponse(body)
			}
			if err != nil {
				t.Fatalf("%s?%q: %v", path, query, err)
			}
			req, err := v4wire.ParseSearchUrisRequestQuery(q)
			if err != nil {
				t.Fatalf("a 200 for a request v4wire refuses: %v", err)
			}
			if m.Threat != nil {
				for _, typ := range m.Threat.ThreatTypes {
					if !slices.Contains(req.ThreatTypes, typ) {
						t.Fatalf("%s?%q: type %v not asked", path, query, typ)
					}
				}
			}
		}
	})
}

// prefixOfExpr returns the first n bytes of an expression's hash.
func prefixOfExpr(expr string, n int) []byte {
	h := sha256.Sum256([]byte(expr))
	return h[:n]
}

// FuzzWebRiskUpdates runs a sequence of changes to mw-4b, with entries
// of several lengths, and fetches of MALWARE by a client (a PrefixSet)
// under every limit: every reply applies, none holds more entries than
// maxDiffEntries, and after each the client holds the server's list, or
// its first maxDatabaseEntries or maxDiffEntries entries in byte order.
func FuzzWebRiskUpdates(f *testing.F) {
	// Each byte is an operation: its low 3 bits choose it, the rest is an
	// argument.
	// 257 entries, a RESET, a DIFF with removals in Rice, a lost list.
	f.Add([]byte{0x80, 2, 0x81, 3, 4, 2})
	// 4473 entries, cut by maxDatabaseEntries 4096, then 1024; longer
	// entries (11 and 18 bytes), a search, and the whole list in Rice.
	f.Add([]byte{0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 0xf8, 0x7a, 0xf9, 0x18, 0x0e, 0x16, 0x7a, 0x22, 7, 3})
	// Past maxDiffEntries 1024 and 2048, with and without a database
	// limit, and an entry back to 4 bytes.
	f.Add([]byte{0xf8, 0xf8, 0xf8, 0x0a, 0xf8, 0xf8, 0xf8, 0x0a, 0x12, 0x0e, 0x3a, 0x0d, 0xf8, 0x4a, 0x2b})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 48 {
			ops = ops[:48]
		}
		s := NewServer()
		defer s.Close()
		client, _ := hashlist.NewPrefixSet("MALWARE")
		lens := make(map[string]int) // expression on mw-4b → the length of its entry
		var exprs []string
		next := 0
		for _, op := range ops {
			arg := int(op >> 3)
			switch op & 7 {
			case 0: // add 16×arg+1 expressions
				for range 16*arg + 1 {
					e := "e" + strconv.Itoa(next) + ".example/"
					next++
					if err := s.Add("mw-4b", e); err != nil {
						t.Fatal(err)
					}
					lens[e] = 4
					exprs = append(exprs, e)
				}
			case 1: // remove every (arg%7+2)-th expression
				kept := exprs[:0]
				for i, e := range exprs {
					if i%(arg%7+2) == 0 {
						s.Remove("mw-4b", e)
						delete(lens, e)
					} else {
						kept = append(kept, e)
					}
				}
				exprs = kept
			case 2, 3: // fetch, with limits from arg
				q := url.Values{"threatType": {"MALWARE"}, "key": {s.APIKey}}
				maxDiff := []int{0, 1024, 2048, 0}[arg&3]
				maxDB := []int{0, 1024, 2048, 4096}[arg>>2&3]
				q.Set("constraints.maxDiffEntries", strconv.Itoa(maxDiff))
				q.Set("constraints.maxDatabaseEntries", strconv.Itoa(maxDB))
				if op&7 == 3 {
					q.Set("constraints.supportedCompressions", "RICE")
				}
				if v := client.Version(); len(v) > 0 {
					q.Set("versionToken", base64.StdEncoding.EncodeToString(v))
				}
				w := wrServe(s, "/"+epWRDiff, q.Encode())
				if w.Code != 200 {
					t.Fatalf("%d: %s", w.Code, w.Body)
				}
				m, err := v4wire.ParseComputeThreatListDiffResponseJSON(w.Body.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				d := wrDiffOf(&m)
				if m.ResponseType == v4wire.FullUpdate {
					client, _ = hashlist.NewPrefixSet("MALWARE")
				}
				if err := client.Apply(&d, 0); err != nil {
					t.Fatalf("Apply: %v", err)
				}
				var want []string
				for e, n := range lens {
					want = append(want, string(prefixOfExpr(e, n)))
				}
				slices.Sort(want)
				var got []string
				for e := range client.All() {
					got = append(got, string(e))
				}
				cut := func(n int) []string { return want[:min(len(want), n)] }
				ok := slices.Equal(got, want)
				if maxDB > 0 {
					ok = ok || slices.Equal(got, cut(maxDB))
				}
				if maxDiff > 0 {
					ok = ok || slices.Equal(got, cut(maxDiff))
				}
				if !ok {
					t.Fatalf("the client holds %d entries, the server %d (limits %d, %d)", len(got), len(want), maxDB, maxDiff)
				}
			case 4: // the client loses its list
				client, _ = hashlist.NewPrefixSet("MALWARE")
			case 5, 6: // an expression's entry takes another length
				if len(exprs) > 0 {
					e := exprs[arg%len(exprs)]
					n := 4 + (arg*7)%29
					if op&7 == 5 {
						n = 4
					}
					if err := s.AddPrefix("mw-4b", e, n); err != nil {
						t.Fatal(err)
					}
					lens[e] = n
				}
			default: // a search for an expression's entry, which must find it
				if len(exprs) > 0 {
					e := exprs[arg%len(exprs)]
					q := url.Values{"key": {s.APIKey}, "threatTypes": {"MALWARE"}, "hashPrefix": {base64.StdEncoding.EncodeToString(prefixOfExpr(e, lens[e]))}}
					w := wrServe(s, "/"+epWRHashes, q.Encode())
					h := sha256.Sum256([]byte(e))
					if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(base64.StdEncoding.EncodeToString(h[:]))) {
						t.Fatalf("search for %s: %d %s", e, w.Code, w.Body)
					}
				}
			}
		}
	})
}
