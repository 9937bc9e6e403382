// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"testing"
)

// TestIndexControl checks the word-at-a-time scan against a byte loop, for
// every byte value at every position of a 20-byte string.
func TestIndexControl(t *testing.T) {
	slow := func(s string) int {
		for i := 0; i < len(s); i++ {
			if s[i] < ' ' || s[i] == 0x7F {
				return i
			}
		}
		return -1
	}
	base := []byte("https://example.com/")
	for pos := range base {
		for c := 0; c < 256; c++ {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if got, want := indexControl(string(b)), slow(string(b)); got != want {
				t.Fatalf("indexControl(%q) = %d; want %d", b, got, want)
			}
		}
	}
}

func BenchmarkIndexControl(b *testing.B) {
	s := "https://www.example.com/a/b.html?q=1"
	b.Run("word", func(b *testing.B) {
		for b.Loop() {
			indexControl(s)
		}
	})
	b.Run("byte", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < len(s); i++ {
				if s[i] < ' ' || s[i] == 0x7F {
					break
				}
			}
		}
	})
}

func TestSplitURL(t *testing.T) {
	tests := []struct {
		in      string
		want    urlParts
		wantErr error
	}{
		// Scheme, host, port and the rest.
		{in: "https://example.com:8443/a?b#c", want: urlParts{https: true, host: "example.com", port: 8443, hasPort: true, rest: "/a?b#c"}},
		// http, no port, no path.
		{in: "http://example.com", want: urlParts{host: "example.com"}},
		// The scheme in any case.
		{in: "HtTp://example.com", want: urlParts{host: "example.com"}},
		// Backslashes as slashes, and as the end of the authority.
		{in: `http:\/example.com\a`, want: urlParts{host: "example.com", rest: `\a`}},
		// The authority ends at a query.
		{in: "http://example.com?a", want: urlParts{host: "example.com", rest: "?a"}},
		// The authority ends at a fragment.
		{in: "http://example.com#a", want: urlParts{host: "example.com", rest: "#a"}},
		// An empty port is no port.
		{in: "http://example.com:/", want: urlParts{host: "example.com", rest: "/"}},
		// Leading zeros of a port are allowed (host.Port).
		{in: "http://example.com:0080/", want: urlParts{host: "example.com", port: 80, hasPort: true, rest: "/"}},
		// A port of zeros is port 0.
		{in: "http://example.com:000/", want: urlParts{host: "example.com", port: 0, hasPort: true, rest: "/"}},
		// The largest port.
		{in: "http://example.com:65535/", want: urlParts{host: "example.com", port: 65535, hasPort: true, rest: "/"}},
		// One more.
		{in: "http://example.com:65536/", wantErr: ErrInvalidURL},
		// A sign is not a digit.
		{in: "http://example.com:+80/", wantErr: ErrInvalidURL},
		// Userinfo after a colon.
		{in: "http://a:b@example.com/", wantErr: ErrInvalidURL},
		// An IPv6 literal.
		{in: "http://[::1]:80/", wantErr: ErrInvalidHost},
		// No slashes.
		{in: "http:example.com", wantErr: ErrInvalidURL},
		// A scheme that only starts like http.
		{in: "httpx://example.com", wantErr: ErrInvalidURL},
		// A NUL byte.
		{in: "http://example.com/\x00", wantErr: ErrInvalidURL},
		// DEL.
		{in: "http://example.com/\x7f", wantErr: ErrInvalidURL},
		// Empty.
		{in: "", wantErr: ErrEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := splitURL(tt.in)
			if err != nil {
				got = urlParts{}
			}
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("splitURL(%q) = %+v, %v; want %+v, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
