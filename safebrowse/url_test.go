// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in                                string
		scheme, host, path, query, String string
		hasQuery, ip                      bool
		wantErr                           error
	}{
		// A host name, a path and a query.
		{in: "http://a.b.com/1/2.html?param=1", scheme: "http", host: "a.b.com", path: "/1/2.html", query: "param=1", String: "http://a.b.com/1/2.html?param=1", hasQuery: true},
		// An empty query is a query.
		{in: "https://A.com/q?", scheme: "https", host: "a.com", path: "/q", String: "https://a.com/q?", hasQuery: true},
		// No query.
		{in: "ftp://a.com", scheme: "ftp", host: "a.com", path: "/", String: "ftp://a.com/"},
		// An IPv4 host.
		{in: "http://3279880203/blah", scheme: "http", host: "195.127.0.11", path: "/blah", String: "http://195.127.0.11/blah", ip: true},
		// An IPv6 host keeps its brackets.
		{in: "http://[2001:0db8::1]/x?y", scheme: "http", host: "[2001:db8::1]", path: "/x", query: "y", String: "http://[2001:db8::1]/x?y", hasQuery: true, ip: true},
		// Escaped parts are returned escaped.
		{in: "http://a.com/a b?c d", scheme: "http", host: "a.com", path: "/a%20b", query: "c%20d", String: "http://a.com/a%20b?c%20d", hasQuery: true},
		// An error gives the zero URL.
		{in: "mailto:x@y", wantErr: ErrScheme},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := Parse(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || u != (URL{}) {
					t.Fatalf("Parse(%q) = %v, %v; want the zero URL, %v", tt.in, u, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			got := []any{u.Scheme(), u.Host(), u.Path(), u.RawQuery(), u.String(), u.HasQuery(), u.IsIP(), u.IsValid()}
			want := []any{tt.scheme, tt.host, tt.path, tt.query, tt.String, tt.hasQuery, tt.ip, true}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("Parse(%q): accessor %d = %v; want %v", tt.in, i, got[i], want[i])
				}
			}
			checkURL(t, u)
		})
	}
}

func TestURLZero(t *testing.T) {
	var u URL
	got := []any{u.Scheme(), u.Host(), u.Path(), u.RawQuery(), u.String(), u.HasQuery(), u.IsIP(), u.IsValid()}
	want := []any{"", "", "", "", "", false, false, false}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("zero URL: accessor %d = %v; want %v", i, got[i], want[i])
		}
	}
}

// TestURLComparable checks that equal canonical forms give equal URLs.
func TestURLComparable(t *testing.T) {
	a, _ := Parse("HTTP://WWW.Example.COM:80/a/./b#x")
	b, _ := Parse("http://www.example.com/a/b")
	if a != b {
		t.Errorf("Parse: %v != %v; want equal", a, b)
	}
}

// checkURL checks that the accessors of u put together give its string,
// and that IsIP agrees with the host.
func checkURL(t *testing.T, u URL) {
	t.Helper()
	s := u.Scheme() + "://" + u.Host() + u.Path()
	if u.HasQuery() {
		s += "?" + u.RawQuery()
	}
	if s != u.String() {
		t.Fatalf("URL %q: parts give %q", u, s)
	}
	if !strings.HasPrefix(u.Path(), "/") || strings.Contains(u.Path(), "?") || u.Host() == "" {
		t.Fatalf("URL %q: host %q, path %q", u, u.Host(), u.Path())
	}
	if _, ok := parseIPv4([]byte(u.Host())); u.IsIP() != (ok || strings.HasPrefix(u.Host(), "[")) {
		t.Fatalf("URL %q: IsIP() = %v for host %q", u, u.IsIP(), u.Host())
	}
}
