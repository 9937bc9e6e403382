// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

// A URL is a canonical Safe Browsing URL, as [Parse] returns it: the
// canonical string of [Canonicalize] and the bounds of its parts, so that
// expressions and hashes reuse it without parsing again.
//
// URL is a small comparable value, like [net/netip.Addr]: two URLs are equal
// when their canonical strings are. The zero URL is not a valid URL: its
// accessors return "" and false, and [URL.IsValid] reports false.
type URL struct {
	s string
	p parts // offsets into s, with p.start == 0
}

// Parse canonicalises rawURL as [Canonicalize] does and returns it in
// parsed form.
func Parse(rawURL string) (URL, error) {
	var buf [256]byte
	b, p, err := appendCanonical(buf[:0], rawURL)
	if err != nil {
		return URL{}, err
	}
	return URL{s: string(b), p: p}, nil
}

// IsValid reports whether u is a URL returned by [Parse], not the zero URL.
func (u URL) IsValid() bool { return u.s != "" }

// String returns the canonical URL, as [Canonicalize] does, or "" for the
// zero URL.
func (u URL) String() string { return u.s }

// Scheme returns the lowercase scheme, such as "http".
func (u URL) Scheme() string {
	if u.s == "" {
		return ""
	}
	return u.s[:u.p.hostStart-len("://")]
}

// Host returns the canonical host: a lowercase ASCII name, an IPv4 address
// in dotted decimal, or an IPv6 address in brackets in RFC 5952 form.
func (u URL) Host() string { return u.s[u.p.hostStart:u.p.hostEnd] }

// Path returns the canonical path, without the query. It begins with '/'
// (except for the zero URL).
func (u URL) Path() string { return u.s[u.p.hostEnd:u.p.pathEnd] }

// RawQuery returns the query, without its '?', as canonicalised (escaped,
// never unescaped or otherwise changed). Use [URL.HasQuery] to tell an
// empty query ("/q?") from none ("/q").
func (u URL) RawQuery() string {
	if !u.p.hasQuery {
		return ""
	}
	return u.s[u.p.pathEnd+1:]
}

// HasQuery reports whether the URL has a '?', even with an empty query.
func (u URL) HasQuery() bool { return u.p.hasQuery }

// IsIP reports whether the host is an IP address: IPv4 in dotted decimal,
// or IPv6 in brackets. Expressions do not take suffixes of such a host.
func (u URL) IsIP() bool { return u.p.ip }
