// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestKeyNeverShown: no error or log line shows the API key, whatever
// fails: a server echoing it, a refused connection (*url.Error holds the
// whole URL), a redirect.
func TestKeyNeverShown(t *testing.T) {
	const key = "AIzaSECRET+key/with=chars"
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	tests := []struct {
		name   string
		base   func(s *testServer) string
		handle http.HandlerFunc
	}{
		// The server echoes the key in its message, raw and escaped.
		{name: "echoed by the server", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "API key not valid: "+r.URL.Query().Get("key")+" "+r.URL.RawQuery, http.StatusBadRequest)
		}},
		// The server echoes it in a google.rpc.Status.
		{name: "echoed in a Status", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.WriteHeader(http.StatusForbidden)
			msg := "bad key " + r.URL.Query().Get("key")
			w.Write(append([]byte{0x08, 0x07, 0x12, byte(len(msg))}, msg...))
		}},
		// A refused connection: *url.Error holds the request URL.
		{name: "connection refused", base: func(*testServer) string { return deadURL }},
		// A redirect, not followed.
		{name: "redirect", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://elsewhere.invalid/?"+r.URL.RawQuery, http.StatusFound)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.handle = tt.handle
			base := s.URL
			if tt.base != nil {
				base = tt.base(s)
			}
			var logs syncBuffer
			c, _ := newTestClient(t, Config{APIKey: key, BaseURL: base, Mode: NoStorage,
				Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			_, err := c.Lookup(bg, "http://a.example/")
			if err == nil {
				t.Fatal("no error")
			}
			var ue *url.Error
			for _, s := range []string{err.Error(), logs.String()} {
				for _, k := range []string{key, url.QueryEscape(key)} {
					if strings.Contains(s, k) {
						t.Errorf("key shown in %q", s)
					}
				}
			}
			if errors.As(err, &ue) && strings.Contains(ue.URL, url.QueryEscape(key)) {
				t.Errorf("*url.Error holds the key: %q", ue.URL)
			}
			var se *StatusError
			if errors.As(err, &se) && strings.Contains(se.Message, key) {
				t.Errorf("StatusError.Message holds the key: %q", se.Message)
			}
		})
	}
}

// TestStatusError: an error reply carries the HTTP status and the server's
// message.
func TestStatusError(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		body        string
		wantMsg     string
	}{
		// Plain text, as net/http writes it.
		{"text", "text/plain", "quota exceeded\n", "quota exceeded"},
		// Google's JSON error.
		{"json", "application/json", `{"error":{"code":429,"message":"Quota exceeded for quota metric","status":"RESOURCE_EXHAUSTED"}}`, "Quota exceeded for quota metric"},
		// A google.rpc.Status {code: 8, message: "slow down"}.
		{"protobuf", "application/x-protobuf", "\x08\x08\x12\x09slow down", "slow down"},
		// A long message is cut to 100 bytes, as every quoted input is, and
		// kept on one line.
		{"long", "text/plain", strings.Repeat("ab\n", 100), strings.Repeat("ab ", 33) + "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(http.StatusTooManyRequests)
				w.Write([]byte(tt.body))
			}
			c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
			_, err := c.Lookup(bg, "http://a.example/")
			var se *StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *StatusError", err)
			}
			if se.StatusCode != 429 || se.Method != "hashes:search" || se.Message != tt.wantMsg {
				t.Errorf("got %+v, want 429 with message %q", se, tt.wantMsg)
			}
			if !strings.Contains(err.Error(), "429") {
				t.Errorf("error %q lacks the status", err)
			}
		})
	}
}

// TestNoRedirects: a redirect is an error, and the other host gets nothing,
// even with a caller's http.Client that follows redirects.
func TestNoRedirects(t *testing.T) {
	hits := 0
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer other.Close()
	s := newTestServer(t)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage, HTTPClient: &http.Client{}})
	_, err := c.Lookup(bg, "http://a.example/")
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("err = %v, want a StatusError 307", err)
	}
	if hits != 0 {
		t.Errorf("the redirect was followed")
	}
}

// TestRequestFormat: GET /v5/hashes:search?key=K&alt=proto with 4-byte
// prefixes in URL-safe base64 with padding, the padding not escaped, as
// Chromium's hash_realtime_service encodes them (decision 2).
func TestRequestFormat(t *testing.T) {
	s := newTestServer(t)
	c, _ := newTestClient(t, Config{BaseURL: s.URL + "/", Mode: NoStorage})
	if _, err := c.Lookup(bg, "http://a.b.example/c"); err != nil {
		t.Fatal(err)
	}
	q := s.queries[0]
	if q.Get("key") != testKey || q.Get("alt") != "proto" || len(q["hashPrefixes"]) != 4 {
		t.Errorf("query %v", q)
	}
	for _, p := range q["hashPrefixes"] {
		if b, err := base64.URLEncoding.DecodeString(p); err != nil || len(b) != 4 || len(p) != 8 {
			t.Errorf("prefix %q is not 4 bytes in padded URL-safe base64", p)
		}
	}
	if strings.Contains(s.rawQueries[0], "%3D") {
		t.Errorf("padding escaped in %q", s.rawQueries[0])
	}
}

// TestConfigErrors: New rejects a bad Config, naming the field.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      Config
		wantErr string
	}{
		// The key is required.
		{"no key", Config{}, "Config.APIKey"},
		// An unknown mode.
		{"bad mode", Config{APIKey: "k", Mode: 7}, "Config.Mode"},
		// A base URL with a path.
		{"base URL with a path", Config{APIKey: "k", BaseURL: "https://h/v5"}, "Config.BaseURL"},
		// A long base URL is quoted as inputerr quotes every input: in
		// part, with its length.
		{"long base URL", Config{APIKey: "k", BaseURL: "https://h/" + strings.Repeat("p", 200)}, `pppp"... (210 bytes): want`},
		// A User-Agent with a control character is quoted, escaped.
		{"UserAgent control", Config{APIKey: "k", UserAgent: "a\tb"}, `Config.UserAgent "a\tb"`},
		// A base URL of another scheme.
		{"base URL scheme", Config{APIKey: "k", BaseURL: "ftp://h"}, "Config.BaseURL"},
		// NoStorage keeps no lists.
		{"NoStorage with lists", Config{APIKey: "k", Mode: NoStorage, Lists: []string{"se-4b"}}, "Config.Lists"},
		// NoStorage stores nothing.
		{"NoStorage with Dir", Config{APIKey: "k", Mode: NoStorage, Dir: "x"}, "Config.Dir"},
		// A list named twice.
		{"duplicate list", Config{APIKey: "k", Lists: []string{"se-4b", "se-4b"}}, "Config.Lists"},
		// A name that is no file name.
		{"bad list name", Config{APIKey: "k", Lists: []string{"../se-4b"}}, "Config.Lists"},
		// A name without a width.
		{"list without width", Config{APIKey: "k", Lists: []string{"se"}}, "Config.Lists"},
		// gc-32b is for RealTime.
		{"gc-32b in LocalList", Config{APIKey: "k", Lists: []string{"gc-32b"}}, "Config.Lists"},
		// An empty, non-nil list.
		{"empty lists", Config{APIKey: "k", Lists: []string{}}, "Config.Lists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.in)
			if err == nil {
				c.Close()
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "lookup: ") || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %q, want one naming %s", err, tt.wantErr)
			}
		})
	}
}
