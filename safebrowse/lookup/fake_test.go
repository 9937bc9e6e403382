// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse"
)

// This file is the tests' own minimal v5 server, for the rules that need a
// server to misbehave in ways sbtest does not offer, and the protobuf
// builders the tests use (protowire by hand, not the package's code).

const testKey = "test-key-0123456789"

// testServer answers hashes:search from full, and hashList and
// hashLists:batchGet from lists; handle, when set, answers instead.
type testServer struct {
	*httptest.Server
	mu         sync.Mutex
	full       map[safebrowse.Hash][]byte // full hash -> its FullHash message
	duration   []byte                     // the reply's cache_duration message; nil: absent
	lists      map[string]func(version string) []byte
	handle     http.HandlerFunc
	requests   map[string]int
	searched   [][]byte
	queries    []url.Values
	urlLens    []int // the length of each request's URL, as the client wrote it
	rawQueries []string
}

func newTestServer(t testing.TB) *testServer {
	s := &testServer{
		full:     map[safebrowse.Hash][]byte{},
		duration: durationMsg(300 * time.Second),
		lists:    map[string]func(string) []byte{},
		requests: map[string]int{},
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *testServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	s.queries = append(s.queries, q)
	s.urlLens = append(s.urlLens, len(s.URL)+len(r.RequestURI))
	s.rawQueries = append(s.rawQueries, r.URL.RawQuery)
	method := strings.TrimPrefix(r.URL.Path, "/v5/")
	if strings.HasPrefix(method, "hashList/") {
		method = "hashList"
	}
	s.requests[method]++
	if s.handle != nil {
		s.handle(w, r)
		return
	}
	if q.Get("key") != testKey || q.Get("alt") != "proto" {
		http.Error(w, "bad key "+q.Get("key"), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	switch method {
	case "hashes:search":
		var body []byte
		for _, p := range q["hashPrefixes"] {
			// Decision 2: URL-safe base64 with padding, strictly.
			b, err := base64.URLEncoding.DecodeString(p)
			if err != nil || len(b) != 4 {
				http.Error(w, "bad prefix", http.StatusBadRequest)
				return
			}
			s.searched = append(s.searched, b)
			for h, m := range s.full {
				if string(h[:4]) == string(b) {
					body = protowire.AppendTag(body, 1, protowire.BytesType)
					body = protowire.AppendBytes(body, m)
				}
			}
		}
		if s.duration != nil {
			body = protowire.AppendTag(body, 2, protowire.BytesType)
			body = protowire.AppendBytes(body, s.duration)
		}
		w.Write(body)
	case "hashList":
		name := strings.TrimPrefix(r.URL.Path, "/v5/hashList/")
		f := s.lists[name]
		if f == nil {
			http.Error(w, "no list", http.StatusNotFound)
			return
		}
		w.Write(f(q.Get("version")))
	case "hashLists:batchGet":
		var body []byte
		for i, name := range q["names"] {
			f := s.lists[name]
			if f == nil {
				http.Error(w, "no list", http.StatusNotFound)
				return
			}
			v := ""
			if i < len(q["version"]) {
				v = q["version"][i] // the tests' lists send versions in order
			}
			body = protowire.AppendTag(body, 1, protowire.BytesType)
			body = protowire.AppendBytes(body, f(v))
		}
		w.Write(body)
	default:
		http.NotFound(w, r)
	}
}

func (s *testServer) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[method]
}

func (s *testServer) prefixes() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.searched...)
}

// add lists the expression's full hash with the given details, each a
// FullHashDetail message.
func (s *testServer) add(expr string, details ...[]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := safebrowse.Hash(sha256.Sum256([]byte(expr)))
	s.full[h] = fullHashMsg(h, details...)
}

func (s *testServer) set(f func(*testServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// unavailable is a handle for a server that is down: every request gets 503.
func unavailable(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "down", http.StatusServiceUnavailable)
}

// durationMsg is a google.protobuf.Duration.
func durationMsg(d time.Duration) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(d/time.Second))
	if ns := d % time.Second; ns != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(ns))
	}
	return b
}

// detailMsg is a FullHashDetail, the attributes packed.
func detailMsg(t ThreatType, attrs ...ThreatAttribute) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t))
	if len(attrs) > 0 {
		var p []byte
		for _, a := range attrs {
			p = protowire.AppendVarint(p, uint64(a))
		}
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	return b
}

// fullHashMsg is a FullHash.
func fullHashMsg(h safebrowse.Hash, details ...[]byte) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, h[:])
	for _, d := range details {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, d)
	}
	return b
}

func hashOf(expr string) safebrowse.Hash { return sha256.Sum256([]byte(expr)) }

// fakeClock is the time of a test client, moved by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newTestClient returns a client of cfg with a fake clock and rand = 0.5.
func newTestClient(t testing.TB, cfg Config) (*Client, *fakeClock) {
	t.Helper()
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	clk := &fakeClock{t: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	c.now = clk.now
	c.rand = func() float64 { return 0.5 }
	return c, clk
}

var bg = context.Background()
