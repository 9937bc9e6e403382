// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestReadAMP(t *testing.T) {
	docURL, _ := url.Parse("https://www.example.com/dir/page.html?q=1")
	tests := []struct {
		name      string
		in        string
		amp       bool
		canonical string
	}{
		// The AMP validator's rule: <html ⚡>.
		{name: "lightning", in: `<!doctype html><html ⚡><head></head></html>`, amp: true},
		// The AMP validator's rule: <html amp>.
		{name: "amp", in: `<html amp lang=en>`, amp: true},
		// Attribute names are case-insensitive in HTML.
		{name: "AMP uppercase", in: `<HTML AMP>`, amp: true},
		// Whitespace and comments may come first.
		{name: "comment first", in: "\n<!-- hi -->\n<html ⚡=\"\">", amp: true},
		// No attribute: not AMP.
		{name: "plain html", in: `<html><head></head></html>`},
		// amp4email is another format, not a web page.
		{name: "amp4email", in: `<html ⚡4email>`},
		// An attribute value "amp" is not the amp attribute.
		{name: "amp value", in: `<html class=amp>`},
		// A first element other than html implies <html> without attributes.
		{name: "head first", in: `<head></head><html amp>`},
		// Text first implies <html> too.
		{name: "text first", in: `hello <html amp>`},
		// No html at all.
		{name: "empty", in: ``},
		// spec "Invalid AMP": the canonical page, absolute.
		{name: "canonical absolute", in: `<html><head><link rel=canonical href="https://example.org/c">`, canonical: "https://example.org/c"},
		// A relative href resolves against the document URL.
		{name: "canonical relative", in: `<html><link rel=canonical href="../c.html">`, canonical: "https://www.example.com/c.html"},
		// rel is a token list, case-insensitive.
		{name: "rel tokens", in: "<link rel=\"alternate\tCanonical\" href=/c>", canonical: "https://www.example.com/c"},
		// The first canonical wins.
		{name: "first canonical", in: `<link rel=canonical href=/a><link rel=canonical href=/b>`, canonical: "https://www.example.com/a"},
		// The first <base href> is the base URL.
		{name: "base", in: `<base href="https://cdn.example.net/x/"><base href="/ignored/"><link rel=canonical href=c>`, canonical: "https://cdn.example.net/x/c"},
		// A <base> without href does not count.
		{name: "base without href", in: `<base target=_top><base href=/y/><link rel=canonical href=c>`, canonical: "https://www.example.com/y/c"},
		// The fragment is dropped; whitespace around the href too.
		{name: "fragment", in: `<link rel=canonical href="  /c#top ">`, canonical: "https://www.example.com/c"},
		// A canonical link in the body does not count.
		{name: "in body", in: `<html><head></head><body><link rel=canonical href=/c>`},
		// Nor one after </head>.
		{name: "after head", in: `<head></head><link rel=canonical href=/c>`},
		// A canonical of another scheme is not followed.
		{name: "javascript", in: `<link rel=canonical href="javascript:alert(1)">`},
		// A canonical without href.
		{name: "no href", in: `<link rel=canonical>`},
		// A link in a script is text, not a link.
		{name: "in script", in: `<script>"<link rel=canonical href=/c>"</script>`},
		// A malformed href.
		{name: "malformed href", in: `<link rel=canonical href="http://[::1">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readAMP([]byte(tt.in), docURL)
			if got.amp != tt.amp || got.canonical != tt.canonical {
				t.Errorf("readAMP(%q) = %+v, want amp %v canonical %q", tt.in, got, tt.amp, tt.canonical)
			}
			checkAMPOracle(t, tt.in)
		})
	}
}

// slowIsAMP is the oracle for the AMP check: it builds the document's tree
// with the HTML5 parsing algorithm and looks at the attributes of its html
// element, as the AMP validator does.
func slowIsAMP(doc string) bool {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return false
	}
	for n := root.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "html" {
			for _, a := range n.Attr {
				if a.Namespace == "" && (a.Key == "⚡" || a.Key == "amp") {
					return true
				}
			}
		}
	}
	return false
}

// htmlFirst matches a document whose first tag is <html>, after
// whitespace, comments and a doctype.
var htmlFirst = regexp.MustCompile(`^(?is)(\s|<!--.*?-->|<!doctype[^>]*>)*<html[\s/>]`)

// checkAMPOracle checks readAMP against slowIsAMP. They differ by design
// where the cache reads less than the tree builder: the tree builder
// merges the attributes of any <html> tag into the html element, while the
// cache reads only the first element. So a document the cache takes for
// AMP must be AMP for the oracle, and a document the oracle takes for AMP
// must be so for the cache if its first tag is its only <html>.
func checkAMPOracle(t *testing.T, doc string) {
	t.Helper()
	fast := readAMP([]byte(doc), &url.URL{Scheme: "https", Host: "example.com", Path: "/"}).amp
	slow := slowIsAMP(doc)
	if fast && !slow {
		t.Errorf("readAMP(%q) is AMP; the tree has no amp attribute on html", doc)
	}
	if slow && !fast && strings.Count(strings.ToLower(doc), "<html") == 1 && htmlFirst.MatchString(doc) {
		t.Errorf("readAMP(%q) is not AMP; the tree's html has the attribute", doc)
	}
}

func BenchmarkReadAMP(b *testing.B) {
	doc := []byte(`<!doctype html><html ⚡ lang="en"><head><meta charset="utf-8"><script async src="https://cdn.ampproject.org/v0.js"></script><title>Hello</title><link rel="canonical" href="https://www.example.com/hello.html"><meta name="viewport" content="width=device-width"><style amp-boilerplate>body{visibility:hidden}</style></head><body><h1>Hello</h1></body></html>`)
	u, _ := url.Parse("https://www.example.com/hello.amp.html")
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		readAMP(doc, u)
	}
}
