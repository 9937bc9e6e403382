// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

func TestValidJSONString(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		// ASCII.
		{`"http://a.example/"`, true},
		// UTF-8.
		{`"http://é.example/"`, true},
		// An escaped non-ASCII rune.
		{`"\u00e9"`, true},
		// A surrogate pair.
		{`"\ud83d\ude00"`, true},
		// U+FFFD sent as such is the client's own.
		{`"\ufffd"`, true},
		// An escaped backslash before "u".
		{`"\\ud800"`, true},
		// An invalid byte.
		{"\"a\xffb\"", false},
		// A lone high surrogate.
		{`"\ud800x"`, false},
		// A lone low surrogate.
		{`"\udc00"`, false},
		// A high surrogate followed by no low one.
		{`"\ud800\u0041"`, false},
		// null is no string.
		{`null`, true},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := validJSONString([]byte(tt.in)); got != tt.want {
				t.Errorf("validJSONString(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestLookupNotUTF8: a URL that is not UTF-8 gets an error of its own; the
// others stand.
func TestLookupNotUTF8(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	status, body, _ := do(t, "POST", p.URL+"/v5/urls:lookup", "{\"urls\": [\""+evil+"\", \"http://evil.example/\xff\", \"http://evil.example/\\udc00\"]}")
	if status != 200 || strings.Count(body, `"error":"sbserver: URL is not valid UTF-8"`) != 2 || !strings.Contains(body, `"unsafe":true`) {
		t.Errorf("status %d, body %s", status, body)
	}
}

// TestLookupQuotes: an unknown field is quoted within 100 bytes.
func TestLookupQuotes(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	status, body, _ := do(t, "POST", p.URL+"/v5/urls:lookup", `{"`+strings.Repeat("u", 1<<19)+`": []}`)
	if status != 400 || len(body) > 400 || !strings.Contains(body, "(524288 bytes)") {
		t.Errorf("status %d, %d bytes: %.400s", status, len(body), body)
	}
}
