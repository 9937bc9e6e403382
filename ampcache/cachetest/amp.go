// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ampInfo is what the cache reads from a document: whether it claims to be
// AMP, and its canonical URL.
type ampInfo struct {
	amp       bool
	canonical string // absolute http or https URL, or ""
}

// readAMP reads doc, a document fetched from docURL, by the minimal AMP
// check of this package. It is not the AMP validator:
//
//   - the document is AMP if its first element is an html start tag with an
//     "⚡" or "amp" attribute (the AMP validator's first rule for the web
//     format); nothing else is validated;
//   - its canonical URL is the href of the first <link> whose rel holds the
//     token "canonical" (ASCII case-insensitive), in the head: before
//     <body> or </head>. It is resolved against the href of the first
//     <base>, if any, and the document URL, as a browser would, and kept
//     only if it is an absolute http or https URL.
//
// The document is read with the HTML tokenizer of golang.org/x/net/html,
// in time linear in its length.
func readAMP(doc []byte, docURL *url.URL) ampInfo {
	var info ampInfo
	base := docURL
	baseSeen := false
	var canonical string
	z := html.NewTokenizer(bytes.NewReader(doc))
	first := true
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return finish(info, base, canonical)
		case html.TextToken:
			if first && len(bytes.TrimLeft(z.Text(), " \t\n\f\r")) > 0 {
				first = false // text implies <html> without attributes
			}
			continue
		case html.EndTagToken:
			name, _ := z.TagName()
			if atom.Lookup(name) == atom.Head {
				return finish(info, base, canonical)
			}
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
		default: // doctype and comments
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		if first {
			first = false
			if a == atom.Html {
				for hasAttr {
					var k []byte
					k, _, hasAttr = z.TagAttr()
					if s := string(k); s == "⚡" || s == "amp" {
						info.amp = true
					}
				}
				continue
			}
		}
		switch a {
		case atom.Body:
			return finish(info, base, canonical)
		case atom.Base:
			if baseSeen {
				continue
			}
			if href, ok := attr(z, hasAttr, "href"); ok {
				baseSeen = true
				if u, err := docURL.Parse(strings.TrimSpace(href)); err == nil {
					base = u
				}
			}
		case atom.Link:
			if canonical != "" {
				continue
			}
			rel, href, ok := linkAttrs(z, hasAttr)
			if ok && hasToken(rel, "canonical") {
				canonical = href
			}
		}
	}
}

// finish resolves the canonical href against the base URL.
func finish(info ampInfo, base *url.URL, href string) ampInfo {
	href = strings.TrimSpace(href)
	if href == "" {
		return info
	}
	u, err := base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return info
	}
	u.Fragment, u.RawFragment = "", ""
	info.canonical = u.String()
	return info
}

// attr returns the value of the first attribute key of the current tag.
// The tokenizer lowercases attribute names.
func attr(z *html.Tokenizer, more bool, key string) (string, bool) {
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == key {
			return string(v), true
		}
	}
	return "", false
}

// linkAttrs returns the first rel and href of the current <link>; ok
// reports whether it has an href.
func linkAttrs(z *html.Tokenizer, more bool) (rel, href string, ok bool) {
	relSeen := false
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "rel":
			if !relSeen {
				rel, relSeen = string(v), true
			}
		case "href":
			if !ok {
				href, ok = string(v), true
			}
		}
	}
	return rel, href, ok
}

// hasToken reports whether the space-separated list s holds tok, ignoring
// ASCII case, as HTML reads a rel attribute.
func hasToken(s, tok string) bool {
	for f := range strings.FieldsFuncSeq(s, isHTMLSpace) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}
