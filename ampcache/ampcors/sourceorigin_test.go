// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"net/url"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/host"
)

func TestSourceOrigin(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		found   bool
		wantErr bool
	}{
		// No query.
		{"empty", "", "", false, false},
		// Other parameters only.
		{"other", "a=1&b=2", "", false, false},
		// The name in a value is not the parameter.
		{"name in a value", "q=__amp_source_origin", "", false, false},
		// The plain name, its value unescaped.
		{"plain", "__amp_source_origin=https%3A%2F%2Fexample.com", "https://example.com", true, false},
		// The escaped name, which once slipped past the check.
		{"escaped name", "%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", "https://evil.com", true, false},
		// Lowercase hex in the escapes.
		{"lowercase hex", "%5f%5famp_source_origin=x", "x", true, false},
		// Every byte of the name escaped.
		{"fully escaped", "%5f%5f%61%6d%70%5f%73%6f%75%72%63%65%5f%6f%72%69%67%69%6e=x", "x", true, false},
		// Names compare ignoring ASCII case.
		{"uppercase", "__AMP_SOURCE_ORIGIN=x", "x", true, false},
		// ";" separates parameters.
		{"semicolon", "a=1;__amp_source_origin=x", "x", true, false},
		// "+" in a value is a space, as in net/url.
		{"plus in value", "__amp_source_origin=a+b", "a b", true, false},
		// "+" in a name is a space: not the parameter.
		{"plus in name", "__amp+source_origin=x", "", false, false},
		// The same value twice, spelled two ways.
		{"same twice", "__amp_source_origin=a%2Fb&%5F_amp_source_origin=a/b", "a/b", true, false},
		// Two values that disagree.
		{"disagree", "__amp_source_origin=a&__amp_source_origin=b", "", true, true},
		// A bad escape in the value.
		{"bad escape in value", "__amp_source_origin=a%zz", "", true, true},
		// A trailing "%" in the value.
		{"trailing percent", "__amp_source_origin=a%", "", true, true},
		// A bad escape in the name: the escape is kept, so not the name.
		{"bad escape in name", "__amp_source_origin%zz=x", "", false, false},
		// A value longer than any allowed one.
		{"too long", "__amp_source_origin=" + strings.Repeat("a", maxOriginLen+1), "", true, true},
		// The name with no "=".
		{"no value", "__amp_source_origin", "", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf [maxOriginLen]byte
			v, found, ok := sourceOrigin(tt.in, &buf)
			if ok == tt.wantErr || found != tt.found || ok && string(v) != tt.want {
				t.Errorf("sourceOrigin(%q) = %q, %v, %v; want %q, %v, %v", tt.in, v, found, ok, tt.want, tt.found, !tt.wantErr)
			}
		})
	}
}

// TestSourceOriginAllocs checks that reading the query allocates nothing.
func TestSourceOriginAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations")
	}
	q := "a=1&%5F%5Famp_source_origin=https%3A%2F%2Fexample.com&__amp_source_origin=https://example.com"
	var buf [maxOriginLen]byte
	if n := testing.AllocsPerRun(1000, func() { sourceOrigin(q, &buf) }); n != 0 {
		t.Errorf("%v allocs, want 0", n)
	}
}

// FuzzSourceOrigin checks sourceOrigin against net/url: whenever it finds
// the query acceptable, every value that url.ParseQuery gives under a name
// that is __amp_source_origin, ignoring ASCII case, is the one value it
// returned; and its unescaping agrees with url.QueryUnescape.
func FuzzSourceOrigin(f *testing.F) {
	for _, s := range []string{
		// The escaped name, which once slipped past the check.
		"%5F%5Famp_source_origin=https%3A%2F%2Fevil.com",
		// Two spellings.
		"__amp_source_origin=https%3A%2F%2Fexample.com&%5F%5Famp_source_origin=https%3A%2F%2Fevil.com",
		// Separators and bad escapes.
		"a=1;__amp_source_origin=x", "__amp_source_origin%zz=x&__amp_source_origin=%", "__amp+source_origin=x",
		// Case.
		"__AMP_Source_Origin=x&__amp_source_origin=x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		var buf [maxOriginLen]byte
		v, found, ok := sourceOrigin(q, &buf)
		values, _ := url.ParseQuery(q)
		for k, vs := range values {
			if !host.EqualFold(k, sourceOriginName) {
				continue
			}
			if !found {
				t.Fatalf("query %q: net/url reads %s=%q, sourceOrigin found none", q, k, vs)
			}
			for _, x := range vs {
				if ok && x != string(v) {
					t.Fatalf("query %q: net/url reads %s=%q, sourceOrigin accepted %q", q, k, x, v)
				}
			}
		}
		for pair := range strings.SplitSeq(q, "&") {
			_, val, _ := strings.Cut(pair, "=")
			want, err := url.QueryUnescape(val)
			var b [maxOriginLen]byte
			got, good := unescape(b[:0], val)
			if len(want) > maxOriginLen {
				continue
			}
			if (err == nil) != good || good && string(got) != want {
				t.Fatalf("unescape(%q) = %q, %v; url.QueryUnescape gives %q, %v", val, got, good, want, err)
			}
		}
	})
}
