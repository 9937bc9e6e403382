// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// TestLookupEveryURL: in POST /v5/urls:lookup every URL gets a verdict
// (unsafe) or an error, with the URL it was asked as (made valid UTF-8),
// whatever its bytes and however many URLs the request holds; a URL that
// is not UTF-8 gets its error even when it is the only one, or when every
// URL is one.
func TestLookupEveryURL(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	const bad = "http://evil.example/\xff" // encoding/json would make it evil.example/\uFFFD
	many := func(n int, f func(i int) string) []string {
		urls := make([]string, n)
		for i := range urls {
			urls[i] = f(i)
		}
		return urls
	}
	tests := []struct {
		name string
		in   []string // each written in a JSON string as it is, bytes and all
	}{
		// One URL that is not UTF-8, alone.
		{name: "one bad", in: []string{bad}},
		// Two, both bad.
		{name: "two bad", in: []string{bad, `http://evil.example/\udc00`}},
		// A lone surrogate escape, alone.
		{name: "lone surrogate", in: []string{`http://evil.example/\ud800`}},
		// One bad among good ones.
		{name: "mixed", in: []string{evil, bad, safe}},
		// The most URLs a request takes, every one bad.
		{name: "max bad", in: many(maxURLs, func(int) string { return bad })},
		// The most URLs a request takes, every other one bad.
		{name: "max mixed", in: many(maxURLs, func(i int) string {
			if i%2 == 0 {
				return bad
			}
			return evil
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"urls": ["` + strings.Join(tt.in, `", "`) + `"]}`
			status, raw, _ := do(t, "POST", p.URL+"/v5/urls:lookup", body)
			if status != 200 {
				t.Fatalf("status %d: %.300s", status, raw)
			}
			var reply lookupReply
			if err := json.Unmarshal([]byte(raw), &reply); err != nil {
				t.Fatal(err)
			}
			if len(reply.Verdicts) != len(tt.in) {
				t.Fatalf("%d verdicts for %d URLs: %.300s", len(reply.Verdicts), len(tt.in), raw)
			}
			for i, v := range reply.Verdicts {
				var asked string
				if err := json.Unmarshal([]byte(`"`+tt.in[i]+`"`), &asked); err != nil {
					t.Fatal(err)
				}
				notUTF8 := tt.in[i] != evil && tt.in[i] != safe
				switch {
				case v.URL != asked:
					t.Errorf("verdicts[%d].url = %q, want %q", i, v.URL, asked)
				case notUTF8 && (v.Error != errNotUTF8.Error() || v.Unsafe != nil):
					t.Errorf("verdicts[%d] = %+v, want the error %q and no unsafe", i, v, errNotUTF8)
				case !notUTF8 && (v.Error != "" || v.Unsafe == nil || *v.Unsafe != (tt.in[i] == evil)):
					t.Errorf("verdicts[%d] = %+v, want unsafe %v", i, v, tt.in[i] == evil)
				}
			}
		})
	}
}

// TestLookupNotUTF8NotReady: a URL that is not UTF-8 needs no list: it
// gets its error while the lists are not loaded, rather than the reply
// being the 503 of a check that it never needed.
func TestLookupNotUTF8NotReady(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, false)
	status, raw, _ := do(t, "POST", p.URL+"/v5/urls:lookup", "{\"urls\": [\"http://evil.example/\xff\"]}")
	want := `{"verdicts":[{"url":"http://evil.example/` + "\uFFFD" + `","threats":[],"error":"sbserver: URL is not valid UTF-8"}]}` + "\n"
	if status != 200 || raw != want {
		t.Errorf("status %d, body %s\nwant 200, %s", status, raw, want)
	}
}
