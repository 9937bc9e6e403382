// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package safebrowse implements the URL rules of the Google Safe Browsing v5
// API: canonicalisation, host-suffix/path-prefix expressions, and their
// SHA-256 hashes. See https://developers.google.com/safe-browsing/reference/URLs.and.Hashing
// (and, for the hash lists and lookups, the v5 reference at
// https://developers.google.com/safe-browsing/reference), except where the
// decisions below depart from it or fill a silence. Where the spec defers to
// the browser, the rules are those of the WHATWG URL standard,
// https://url.spec.whatwg.org/.
//
// # Canonicalisation
//
// [Canonicalize] and [AppendCanonical] return the canonical URL,
// "scheme://host/path" followed by "?query" when the URL has a query; [Parse]
// returns it as a [URL], whose accessors give the host, path and query
// without parsing again. They take these steps, in this order:
//
//  1. Trim the bytes <= 0x20 at both ends, then remove every tab, CR and LF
//     (spec step 1; "%09", "%0D" and "%0A" stay).
//  2. Cut the fragment at the first '#' (spec step 2).
//  3. Read the scheme and the authority as a browser does (decisions a to
//     c): the userinfo and the port are dropped here, before unescaping,
//     and a port must be a port. If the scheme is escaped, or the host as
//     read is no valid host, decision g may read the input again, once
//     unescaped.
//  4. Unescape the rest repeatedly until no escape remains (spec step 3), in
//     linear time, then extract the host again from the result: an
//     unescaped '/', '\' or '?' ends it, and an unescaped userinfo or port
//     is dropped, as Chromium's and Google's Go client's re-parse do.
//  5. The host rules: remove leading and trailing dots and collapse runs of
//     dots (host steps 1 and 2); lowercase ASCII letters (host step 5);
//     convert an internationalised host to punycode (decision f); write a
//     bracketed IPv6 address in RFC 5952 form, and an IPv4-mapped
//     (::ffff:0:0/96) or NAT64 (64:ff9b::/96) one as IPv4 (host step 4);
//     write an IPv4 address in any legal form as four decimal parts (host
//     step 3, decision e).
//  6. The path rules, not on the query: a backslash is a slash; resolve
//     "/./" and "/../" as RFC 3986 section 5.2.4 removes dot segments, so a
//     final "/." or "/.." is resolved too (path step 1); then collapse runs of
//     slashes (path step 2). The path is "/" when empty.
//  7. Escape every byte <= 0x20, >= 0x7F, '#' and '%' as "%XX" with uppercase
//     hex. The spec's words are: escape every character "<= ASCII 32,
//     >= 127, "#", or "%"", so the space (32) and DEL (127) are escaped
//     too.
//
// Decisions, where the spec is silent:
//
//	a. Input as users pass it. With no scheme, "http" is assumed
//	   ("www.google.com" is "http://www.google.com/"). The scheme, lowercased,
//	   is kept if it is http, https, ftp, ws or wss (up to two '/' or '\'
//	   may follow the colon, as in a browser, so "http:a.com" is
//	   "http://a.com/"), or if "//" follows the colon (any hierarchical
//	   scheme). "host:8080/path" (digits after the colon) is a host and port
//	   with no scheme. So is a scheme-relative input, two '/' or '\' and
//	   a host: "//example.net:8080/x" is "http://example.net/x" (a third
//	   slash leaves no host, as in "http:///path"). Any other scheme is
//	   non-hierarchical, such as "mailto:", "javascript:" or "data:", and an
//	   error ([ErrScheme]).
//	b. The authority, as in a browser (the WHATWG URL standard's special
//	   schemes). It ends at the first '/', '\' or '?': so
//	   "http://evil.com\@good.com/" has host evil.com, not good.com. The
//	   userinfo, up to the last '@', is removed, and so is the port, from the
//	   first ':' outside brackets (unclosed brackets hold the rest of the
//	   authority). A port must be empty (no port) or one or more ASCII
//	   digits, leading zeros allowed, of value at most 65535, as the WHATWG
//	   port state requires: "http://example.org:99999/", ":8x", ":-1" and
//	   ":1:2" fail the parse in a browser, and here too ([ErrInvalidPort]).
//	   The port is read before unescaping, so ":%38%30" is no port. Reading
//	   the authority before unescaping means an escaped '/' in a userinfo
//	   cannot hide the host: "http://good.com%2F@evil.com/" is evil.com, the
//	   host a browser visits, where unescaping the whole URL first would give
//	   good.com. A port that step 4's unescaping reveals is dropped, whatever
//	   it holds: no browser reads it.
//	c. No host is an error ([ErrNoHost]): "http:///path", "/path", "?q",
//	   "#f", "http://user@/", or a host of dots only. An empty input is
//	   [ErrEmpty]. A bracketed host that is not an IPv6 address, as a browser
//	   parses it (no zone), is [ErrInvalidHost]. An input over 2 MiB, the
//	   longest URL Chromium accepts, is [ErrTooLong]. Invalid UTF-8 is not an
//	   error: its bytes are escaped.
//	d. A '?' with nothing after it is kept: "http://www.google.com/q?" is
//	   canonical, and [URL.HasQuery] reports true.
//	e. IPv4 is parsed as browsers parse it (the WHATWG URL standard): one to
//	   four parts, each decimal, hex after "0x" (empty hex is 0), or octal
//	   after a leading "0"; each part but the last is a byte, and the last
//	   fills the bytes that remain ("3279880203", "1.2.772"). Nothing folds
//	   modulo 256: where a browser fails the parse (a part above 255 before
//	   the last, a last part too large for the bytes left, a digit invalid in
//	   its base, more than four parts), the host is a host name and kept as it
//	   is, as Chromium's Safe Browsing code does.
//	f. IDN. A host with a byte >= 0x80 once unescaped goes through UTS #46
//	   ToASCII as a browser's does (non-transitional, CheckBidi and
//	   CheckJoiners, no STD3 rules, CheckHyphens or DNS length check), which
//	   maps full-width letters, digits and dots ("１２７．０．０．１" is
//	   127.0.0.1). If the host is not valid UTF-8, fails UTS #46, or maps to
//	   a forbidden domain code point such as '/' (from U+FF0F), a browser
//	   would reject it: its bytes are kept and escaped ("http://\x01\x80.com/"
//	   is "http://%01%80.com/", from the official list). An ASCII host is not
//	   passed through IDNA, so its "xn--" labels are not checked.
//	g. Escaped scheme or authority. Phishing mail hides a link from filters
//	   as "ht%74p://evil.com/", "%68ttp://evil.com/" or
//	   "http%3A%2F%2Fevil.com/", which a browser cannot open and which
//	   Google's reference canonicaliser, which unescapes the whole URL
//	   before it parses it, reads as "http://evil.com/". So the input is
//	   first read as above (decisions a and b); then, if its scheme is
//	   escaped (none is read, but the unescaped input begins with one), or
//	   its host as read, once unescaped, is no valid host (it holds a
//	   forbidden domain code point of the WHATWG URL standard, such as ':',
//	   '/', '@' or a space, or brackets around no IPv6 address), and the
//	   input after steps 1 and 2, unescaped repeatedly, begins with a scheme
//	   followed by "://", that unescaped input is canonicalised instead (once:
//	   a '#' in it is a byte, not a fragment, and its port must be a port).
//	   "http%3A%2F%2Fexample.org:80/a" is "http://example.org/a". Decision b
//	   stays for every URL a browser can open, whose scheme is written out
//	   and whose host is valid: "http://good.com%2F@evil.com/" is still
//	   evil.com.
//
// [AppendCanonical] makes no allocation when dst has room and the URL is
// ASCII, once unescaped, or its host's labels are lowercase letters of
// Latin-1, Greek, Cyrillic, kana, Hangul or CJK, which are encoded to
// punycode directly (UTS #46 leaves them as they are and checks nothing
// that can fail); any other internationalised host allocates, in
// golang.org/x/net/idna. (Removing tabs, CR and LF, and decision g, work in
// dst's spare capacity.) Each step is linear in the input, including the
// repeated unescaping of "%25252525...", and decision g reads the input
// again at most once.
//
// # Expressions and hashes
//
// [Expressions] turns a URL into the strings Safe Browsing looks up, and
// [Hashes] and [AppendHashes] into their SHA-256 hashes, as sections
// "Host-suffix / path-prefix expressions" and "Hashing" of the spec say.
// A link scanner sends the 4-byte prefixes of the hashes in a hashes.search
// request, or looks them up in local lists:
//
//	hashes, err := safebrowse.Hashes("http://a.b.com/1/2.html?param=1")
//	for _, h := range hashes {
//		fmt.Printf("%x\n", h.Prefix(safebrowse.Prefix4))
//	}
//
// The decisions taken where the spec is silent or loose:
//
//   - Order. The exact host comes first, then its suffixes from the longest
//     down to the eTLD+1; for each host, the exact path with its query, the
//     exact path without it, then the prefixes from "/" down. This is the
//     order of the spec's examples.
//   - Hosts. The eTLD+1 comes from the whole Public Suffix List, its private
//     section included, as golang.org/x/net/publicsuffix has it:
//     "a.b.github.io" stops at "b.github.io", and "tenant.blogspot.com" is its
//     own eTLD+1. A host that is itself a public suffix ("co.uk", "com"), or
//     a single label ("localhost", by the list's default rule "*"), has only
//     its exact form. An unlisted top-level domain follows the default rule
//     "*": "a.b.example.zzzz" goes down to "example.zzzz". The package reads a
//     copy of x/net's tables that answers without allocating
//     (internal/psl); its tests check it against x/net.
//   - The v4 rule, [HostsV4], is offered because Chromium still applies it
//     to its v5 lookups: the host and up to four hosts from its last five
//     labels, never the last label alone. It differs from the v5 rule,
//     [HostsV5], only under public suffixes of more than one label, such as
//     co.uk, or github.io and blogspot.com from the private section: v4
//     looks up the public suffix itself and reaches one label less high.
//     For "http://example.co.uk/1" v4 also gives "co.uk/1" and "co.uk/",
//     which the spec says v5 must not.
//   - An IPv4 or IPv6 host has no suffixes, under both rules.
//   - Paths. The prefixes are "/" and then each directory of the path, at
//     most four in all: only components followed by a '/' count, so a file
//     name never gets a trailing slash. A slash in the query makes no
//     prefix.
//   - No expression appears twice: a path that ends in '/' is not repeated
//     among the prefixes, so "http://a.com/" has the single expression
//     "a.com/".
//   - An empty query still counts: "http://a.com/?" gives "a.com/?" and
//     "a.com/". (Chromium skips an empty query; the spec keeps the path with
//     its query whenever the URL has one.)
//   - A host with an empty label, which canonicalisation never produces, has
//     only its exact form.
//   - Hash prefixes are 4, 8, 16 or 32 bytes ([PrefixLen]). A hashes.search
//     request must carry exactly 4 bytes; more would hurt the user's
//     privacy. A hash list's prefix length comes from the suffix of its name
//     ([ListPrefixLen]): Chromium's lists are mw-4b, se-4b, uws-4b, sus-4b,
//     bi-4b, mcrx-16b, gc-32b, csda-32b and csdda-32b.
//
// Every expression of a canonical URL is a substring of it, from the start
// of a host suffix to the end of a path variant, so AppendHashes hashes each
// where it lies: it builds no string and, when the canonical URL fits in
// 1024 bytes and dst has room for [MaxExpressions] more hashes, allocates
// nothing. It hashes with crypto/sha256's compression (SHA-NI where the CPU
// has it) but pads each expression itself and reads the digest's state
// from its binary form, which costs less than [crypto/sha256.Sum256] on
// short messages; that form is checked against Sum256 once, and Sum256 is
// used if it differs.
package safebrowse
