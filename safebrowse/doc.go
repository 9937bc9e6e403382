// Package safebrowse implements the URL rules of the Google Safe Browsing v5
// API: canonicalisation, host-suffix/path-prefix expressions, and their
// SHA-256 hashes. See https://developers.google.com/safe-browsing/reference/URLs.and.Hashing
// (shared/spec/safe-browsing-urls-and-hashing.tr.txt), except where the
// decisions below depart from it or fill a silence.
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
// in place: it builds no string and, when the canonical URL fits in 1024
// bytes and dst has room for [MaxExpressions] more hashes, allocates
// nothing.
package safebrowse
