// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// parseQueryModel is readQuery as url.ParseQuery reads the query: the
// model that readQuery must match, value for value and error for error.
func parseQueryModel(raw, own string) ([]string, error) {
	q, _ := url.ParseQuery(raw)
	for name := range q {
		if systemParams[name] || name == own {
			continue
		}
		// An unknown parameter: name the first, in the query's order,
		// reading each pair as url.ParseQuery reads it.
		for pair := range strings.SplitSeq(raw, "&") {
			p, _ := url.ParseQuery(pair)
			for name := range p {
				if !systemParams[name] && name != own {
					return nil, fmt.Errorf("sbserver: unknown query parameter %s", inputerr.Quote(name))
				}
			}
		}
	}
	if alt := q.Get("alt"); alt != "" && alt != "json" {
		return nil, fmt.Errorf("sbserver: alt=%s: only alt=json is served", inputerr.Quote(alt))
	}
	return q[own], nil
}

func TestReadQuery(t *testing.T) {
	for _, tt := range []struct {
		name, raw string
		want      []string
		wantErr   string
	}{
		// Values unescaped, in order.
		{"escaped", "urls=http%3A%2F%2Fa.example%2F&urls=b+c%20d", []string{"http://a.example/", "b c d"}, ""},
		// An escaped name is read unescaped.
		{"escaped name", "u%72ls=x", []string{"x"}, ""},
		// A pair holding ';' is skipped, as url.ParseQuery skips it.
		{"semicolon", "urls=a;b&urls=c", []string{"c"}, ""},
		// A badly escaped value drops its pair, name and all.
		{"bad escape", "urls=%zz&urls=ok&bogus=%4", []string{"ok"}, ""},
		// Empty pairs and values.
		{"empty", "&&urls=&urls", []string{"", ""}, ""},
		// No value.
		{"none", "", nil, ""},
		// System parameters pass.
		{"system", "key=k&alt=json&prettyPrint=false&urls=x", []string{"x"}, ""},
		// The first unknown parameter is named, in the query's order.
		{"unknown", "urls=x&zeta=1&alpha=2", nil, `unknown query parameter "zeta"`},
		// An empty name is unknown.
		{"empty name", "=x&urls=y", nil, `unknown query parameter ""`},
		// Only alt=json; the first alt counts.
		{"alt", "urls=x&alt=proto&alt=json", nil, `alt="proto": only`},
		// An unknown parameter is named before a wrong alt.
		{"unknown and alt", "alt=proto&bogus=1", nil, `unknown query parameter "bogus"`},
		// An empty alt is json.
		{"alt empty", "urls=x&alt=", []string{"x"}, ""},
		// Over net/url's limit, the query reads as empty.
		{"too many", "urls=x" + strings.Repeat("&", maxQueryParams), nil, ""},
		// At the limit, it is read.
		{"at the limit", "urls=x" + strings.Repeat("&", maxQueryParams-1), []string{"x"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readQuery(tt.raw, "urls")
			if model, modelErr := parseQueryModel(tt.raw, "urls"); fmt.Sprint(err) != fmt.Sprint(modelErr) {
				t.Errorf("error %v; url.ParseQuery reads %q, %v", err, model, modelErr)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
			if model, err := parseQueryModel(tt.raw, "urls"); err != nil || !slices.Equal(got, model) {
				t.Errorf("got %q; url.ParseQuery reads %q, %v", got, model, err)
			}
		})
	}
}

func TestQueryGet(t *testing.T) {
	for _, tt := range []struct {
		raw, want string
	}{
		{"key=a&key=b", "a"},     // the first
		{"key=a%2Bb+c", "a+b c"}, // unescaped
		{"key=%zz&key=ok", "ok"}, // a bad escape drops its pair
		{"key=a;b&key=c", "c"},   // so does a ';'
		{"urls=x&k%65y=d", "d"},  // an escaped name
		{"urls=x", ""},           // none
		{"key", ""},              // no value
		{"key=v" + strings.Repeat("&", maxQueryParams), ""}, // over the limit
	} {
		got := queryGet(tt.raw, "key")
		q, _ := url.ParseQuery(tt.raw)
		if got != tt.want || got != q.Get("key") {
			t.Errorf("queryGet(%.40q) = %q, want %q (url.ParseQuery: %q)", tt.raw, got, tt.want, q.Get("key"))
		}
	}
}

// FuzzReadQuery checks readQuery and queryGet against url.ParseQuery.
func FuzzReadQuery(f *testing.F) {
	for _, s := range []string{"urls=a&urls=b", "urls=%41%zz&x=1", "a;b=c&urls=+", "alt=proto&urls=x", "key=%4&key=k", "=&=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := readQuery(raw, "urls")
		want, wantErr := parseQueryModel(raw, "urls")
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !slices.Equal(got, want) {
			t.Fatalf("readQuery(%q) = %q, %v; url.ParseQuery: %q, %v", raw, got, err, want, wantErr)
		}
		q, _ := url.ParseQuery(raw)
		if got, want := queryGet(raw, "key"), q.Get("key"); got != want {
			t.Fatalf("queryGet(%q) = %q, url.ParseQuery: %q", raw, got, want)
		}
	})
}

// TestReadQueryAllocs checks that the values of a search share one
// allocation, and that a key is found without allocating.
func TestReadQueryAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	raw := url.Values{"urls": benchURLs, "key": {"k"}}.Encode()
	if n := testing.AllocsPerRun(100, func() { readQuery(raw, "urls") }); n > 2 {
		t.Errorf("readQuery: %v allocations, want 2 (the values and their strings)", n)
	}
	if n := testing.AllocsPerRun(100, func() { queryGet(raw, "key") }); n > 0 {
		t.Errorf("queryGet: %v allocations, want 0", n)
	}
}
