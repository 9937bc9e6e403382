// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ampcache implements the AMP Cache URL format: how an AMP Cache
// rewrites a publisher's URLs, and how a publisher reads a cache's CORS
// Origin back. The spec is amp.dev's "AMP Cache URL format and request
// handling"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/).
// Punycode is RFC 3492 (https://www.rfc-editor.org/rfc/rfc3492), and hosts
// are read as the WHATWG URL standard (https://url.spec.whatwg.org/) reads
// them, with UTS #46 (https://www.unicode.org/reports/tr46/). This package
// follows the spec except where the decisions below fill a silence or
// settle a question on which the existing implementations disagree. It is
// pure: no I/O, no goroutines; the CORS middleware for publishers is
// package ampcache/ampcors.
//
// # Domain prefix
//
// [DomainPrefix] implements the spec's Combined Algorithm: the Basic
// Algorithm (punycode decode; "-" to "--"; "." to "-"; "0-" and "-0" around a
// result with "-" at positions 3 and 4; punycode encode), and the Fallback
// Algorithm ([FallbackPrefix]: base32 of SHA-256) when the Basic Algorithm
// cannot give a valid DNS label. Decisions:
//
//	a. Input. The domain is a host as it appears in a URL: ASCII A-labels or
//	   Unicode U-labels, in any case. It is processed as a browser's URL
//	   parser does ("domain to ASCII" of the WHATWG URL standard): UTS #46
//	   non-transitional processing (lowercase, NFC, "ß" kept, "。" is a dot),
//	   with CheckBidi and CheckJoiners. One trailing root dot is dropped, so
//	   "example.com." means "example.com". A URL is not a domain: the error
//	   says so.
//	b. Errors. These are errors, each wrapping a sentinel for [errors.Is]:
//	   an empty domain ([ErrEmpty]); an empty label, as in "a..b", ".a" or
//	   "..." ([ErrEmptyLabel]); a forbidden domain code point of the WHATWG
//	   URL standard, that is a control character, space, DEL, or one of
//	   # % / : < > ? @ [ \ ] ^ |, or invalid UTF-8 ([ErrInvalidHost]); an
//	   "xn--" label that is not valid Punycode, as "xn--", "xn---" and
//	   "xn--99999a" ([ErrInvalidPunycode]); more than 253 bytes in ASCII
//	   form, or more than 1012 bytes as given ([ErrTooLong]).
//	c. Fallback. A valid host that cannot have a human-readable prefix gets
//	   the fallback, not an error. That is when the prefix would be longer
//	   than 63 characters (counted after the wrap and the punycode encoding);
//	   when it would hold no "-" (the dotless "localhost"): the reverse
//	   algorithm reads a prefix without a hyphen as a hash, so it must be
//	   one; when the publisher host fails the browser's UTS #46 validation
//	   (joiners, Bidi, no leading combining mark, A-labels that are not in
//	   mapped NFC form), or the AMP label rules that a DNS label needs on
//	   top of it, the STD3 rules and CheckHyphens ("in--trouble.com",
//	   "-foo.com", "_dmarc.example.com", "≠.com"); and when the
//	   prefix itself fails IDNA validation as one label, with the Bidi rule
//	   of RFC 5893, as Google's amppackager checks it ("hello." followed by
//	   an Arabic domain puts LTR and RTL in one label; "xn--xgb49a.xn--xgb6g"
//	   puts two kinds of Arabic digits in one label, though each label alone
//	   is valid).
//	d. "Positions 3 and 4" are byte positions in the UTF-8 of step 3's
//	   output, checked before punycode encoding: "ab-ü.com" is wrapped, to
//	   "xn--0-ab---com-0-ilb".
//	e. What the fallback hashes. The domain as given, with its ASCII letters
//	   lowercased and the root dot removed; a Unicode domain is hashed in the
//	   form given, not mapped or encoded. The AMP toolbox, amppackager and
//	   snowflake agree on this.
//
// [AppendDomainPrefix] makes no allocations for an ASCII domain with no
// A-label, nor for a domain whose Unicode form holds only lowercase ASCII
// letters, digits, "-" and letters of common scripts whose UTS #46
// processing is known exactly (lowercase Latin, Greek, Cyrillic and
// Armenian letters; Georgian, Hebrew and Arabic letters; Thai letters and
// digits; kana, Hangul, CJK ideographs and Arabic digits): UTS #46
// changes none of them, and its one check that can fail, the Bidi rule of
// RFC 5893, is made without golang.org/x/net/idna, on the domain and on the
// prefix as one label. Tests hold this path to x/net/idna on every such
// code point. Any other Unicode domain or A-label takes one pass of
// x/net/idna (one allocation), and a prefix that may be right-to-left
// (Syriac or Thaana, say) a second one, for the Bidi rule on the prefix. The prefix
// label is encoded with this module's RFC 3492 Punycode.
//
// # Caches
//
// [Caches] returns the built-in list of AMP Caches, generated from the AMP
// project's caches.json (build-system/global-configs/caches.json; source
// and date in [CachesVersion]): Google's cdn.ampproject.org and Bing's
// www.bing-amp.com. The package-level functions use it. A caller who keeps
// a newer list reads it with [ParseCaches] and builds a [Registry] with
// [NewRegistry]; both reject an empty list, an empty or repeated id, and a
// cacheDomain that is not a lowercase host name or is repeated.
//
// # Cache URLs
//
// [CacheURL] and [AppendCacheURL] build the URL of a publisher URL on a
// cache, by the spec's "URL Path": "https://" + DomainPrefix(host) + "." +
// cacheDomain, then "/" + a [Serving], "/s" for an https publisher URL, and
// "/" + the host and the rest of the publisher URL. Decisions:
//
//	a. The publisher URL must be an absolute http or https URL with a
//	   domain. The scheme may be in any case, and "\" counts as "/", as in
//	   a URL parser. Everything else is an error ([ErrInvalidURL] or
//	   [ErrInvalidHost]): another scheme, a relative URL, one or three
//	   slashes after the scheme (which a browser would repair, so that the
//	   cache URL would not show the publisher URL as written), an ASCII
//	   control character or DEL anywhere (which a browser would drop or
//	   escape), an IP address (the WHATWG "ends in a number" rule: 192.0.2.1,
//	   example.0x7f; an AMP Cache serves domains), a host without a dot (the
//	   AMP runtime rejects it, and the http host "s" would read as the https
//	   infix), a host that a browser's URL parser rejects (invalid UTF-8
//	   once percent-decoded; an A-label with a joiner out of context, such
//	   as "xn--ab-m1t.com", or not in NFC, such as "xn--example-tge.com"),
//	   and a URL over 2 MiB (Chromium's limit, [ErrTooLong]). As in a
//	   browser, there are no STD3 rules and no CheckHyphens: "_dmarc.例.com"
//	   and "in--trouble.com" are valid hosts (their prefix is the fallback).
//	b. Userinfo is an error, even empty: credentials are never copied into
//	   a cache URL. (The AMP toolbox copies them.)
//	c. The host in the path is the host as a URL parser serialises it: a
//	   percent-encoded or Unicode host is decoded and mapped by UTS #46 to
//	   its ASCII form ("https://點看.com" gives ".../c/s/xn--c1yn36f.com"),
//	   and letters are lowercased. A root dot is kept in the path, as a URL
//	   parser keeps it; DomainPrefix drops it.
//	d. The path, query and fragment are kept byte for byte, except what a
//	   browser percent-encodes in them (the WHATWG URL standard's path,
//	   query and fragment percent-encode sets): in the path and the
//	   fragment, a space, '"', '<', '>', '`' and bytes from 0x7F; in the
//	   query, the same but '`'. A lone '%' stays as it is, as in a browser.
//	   So net/url reads the cache URL with the publisher URL's path, query
//	   and fragment. "https://example.com" keeps no slash after the host,
//	   and "https://example.com/" keeps it, since a cache treats the two as
//	   different documents. Cache-only query parameters are kept too.
//	e. The default port (80 for http, 443 for https, with any leading
//	   zeros, or an empty port) is dropped. Any other port is kept in the
//	   path as "%3A" and the port without leading zeros
//	   ("http://origin.com:81/a" gives ".../c/origin.com%3A81/a"): the AMP
//	   runtime decodes it, and [SourceURL] restores it, so the publisher URL
//	   survives the round trip.
//	f. The cacheDomain must be a host name, and is lowercased. A Serving is
//	   one or more segments of [a-z0-9] joined by "/", at most 64 bytes, and
//	   an "ii/w" width is a positive number without leading zeros
//	   ([ImageMaxWidth]); it is never escaped ([ErrInvalidServing]).
//
// With a dst that has room, AppendCacheURL makes no allocations for a
// publisher URL with an ASCII host; CacheURL makes one, for its result.
//
// CacheURL and DomainPrefix never disagree; where they differ, it is in
// one direction only, and by these rules (each tested):
//
//   - CacheURL may refuse a host that DomainPrefix computes: an IP address
//     ("1.2.3.4" has the prefix "1-2-3-4"), a host without a dot, and a
//     host that a browser rejects (a Bidi or joiner violation, U+FFFD, an
//     invalid A-label), whose prefix is the fallback.
//   - CacheURL never serves a host (once percent-decoded) that
//     DomainPrefix refuses.
//   - When CacheURL succeeds, its subdomain is DomainPrefix of the ASCII
//     host it writes in its path. So a Unicode host that needs the
//     fallback gets, from DomainPrefix, the hash of its Unicode spelling
//     (decision e), and from CacheURL, the hash of its ASCII form.
//
// # Reading an Origin back
//
// [PublisherDomain] reads the publisher domain from a cache's CORS Origin,
// by the spec's "AMP Cache Origin to Publisher Domain". It accepts only
// "https://" + one label + "." + a registered cacheDomain, in any case,
// with an optional ":443". A prefix without "-" is a hash, which cannot be
// reversed: the error wraps [ErrNotReversible], and the caller compares the
// Origin with [Cache.Origin] or [Registry.Origins] of the domains it knows.
//
// The spec's reverse steps are not injective, so a prefix cannot be
// trusted to name the domain the steps read from it. "0-example-0" reads
// as "example" (strip "0-" and "-0", then nothing to decode), but the
// prefix of "example" is a hash, since a prefix without "-" must be one:
// no cache serves "example" at 0-example-0. (That prefix belongs to
// "0.example.0".) PublisherDomain therefore accepts a result only if its
// [DomainPrefix] is the prefix it was read from, and returns an error
// wrapping [ErrInvalidOrigin] otherwise. Two further decisions follow from
// that check:
//
//   - Step 2 is ambiguous. "0-a--0" is the prefix of "0.a-0", which was
//     never wrapped, and stripping "0-" and "-0" gives "a." instead. When
//     the stripped reading fails the check, PublisherDomain tries the
//     reading without step 2. When both pass ("0-ab--cd-0" is the prefix of
//     "ab-cd" and of "0.ab-cd.0"), the spec's reading wins; the other
//     always ends in the label "0", which no URL can have as its host.
//   - A result that a URL parser reads as an IPv4 address ("1-2-3-4" gives
//     "1.2.3.4") is an error, as it is in CacheURL: an AMP Cache serves
//     domains.
//
// So PublisherDomain("https://" + DomainPrefix(d) + ".cdn.ampproject.org")
// is d, in ASCII, lowercase form, for every host d of a URL whose prefix is
// human-readable; this is tested and fuzzed. A human-readable Origin costs
// one allocation.
//
// # Source URLs
//
// [SourceURL] inverts CacheURL, as the AMP runtime's getSourceUrl does: it
// reads the serving type, "s" for https, and the percent-encoded publisher
// host from the path of a URL on a registered cacheDomain, or one label
// below it ([A-Za-z0-9_-], the runtime's pattern). It accepts the serving
// types c, v, wp, cert, i, ii/w<N> and r, and the runtime's older a and ad;
// anything else, such as the spec's "Redirect & Error Handling" examples,
// whose paths start with the publisher host, is an error wrapping
// [ErrInvalidURL] (and [ErrInvalidServing]). A URL not on a cache is an
// error wrapping [ErrNotCacheURL]. It removes the cache-only query
// parameters: those the runtime removes, amp_js_* (by prefix), amp_gsa,
// amp_r, amp_kit and usqp (by whole name: the runtime's patterns match
// these by prefix too, and would also drop amp_react=1), and the spec's
// own example, amp_latest_update_time; names are compared as net/url reads
// them, so "amp%5Fr" is amp_r. It removes every occurrence, and keeps
// every other parameter, in order, and the fragment. A query from which
// nothing is removed is kept byte for byte. A "\" that ends the publisher
// host is written "/": a browser reads it so, and net/url would read
// "example.com\@evil.com" as userinfo and the host evil.com.
// [Registry.ParseCacheURL] returns the serving type with the publisher URL,
// and [Registry.SplitCacheHost] reads a cache host, for cache servers such
// as ampcache/cachetest.
//
// SourceURL does not authenticate: nothing ties the subdomain to the host
// in the path, so anyone can build a cache URL that names any publisher
// URL. To learn which publisher a CORS request comes from, read its Origin
// with PublisherDomain.
//
// SourceURL(CacheURL(u)) is u for every u that CacheURL accepts with a
// serving type SourceURL reads, except for what CacheURL normalises: the
// scheme's case, backslashes after the scheme, the host's form and case,
// the default port, what CacheURL percent-encodes, a "\" that ends the
// host, and cache-only query parameters, which SourceURL removes. This is
// tested and fuzzed.
//
// # Update-cache
//
// [UpdateCacheURL] and [UpdateCacheURLs] build the signed request that
// flushes a document from the caches, and [VerifyUpdateCache] checks one as
// a cache does, as Google's "Update AMP Content" page describes the
// update-cache request (https://developers.google.com/amp/cache/update-cache).
// The publisher signs, with an RSA key whose public half it serves as PEM
// from https://<its host>/.well-known/amphtml/apikey.pub, the path and
// query from "/update-cache/" up to and including amp_ts; the cache host is
// not signed, so one signature serves every cache. Decisions:
//
//	a. Form. The path is "/update-cache" and the path of [CacheURL] with the
//	   serving type [Content]: "/c", "/s" for https (http is allowed), the
//	   host and the path. The query is the publisher's, byte for byte as
//	   CacheURL keeps it, then amp_action=flush, amp_ts and, last,
//	   amp_url_signature, as amp-toolbox's toolbox-update-cache orders them.
//	   An empty query and the fragment are dropped. A publisher query that
//	   already has one of the three parameters (its name read as net/url
//	   reads it) is an error on both sides, so the signed bytes have one
//	   reading.
//	b. Signature. RSA PKCS #1 v1.5 with SHA-256, written in URL-safe
//	   base64 without padding, as amp-toolbox writes it. VerifyUpdateCache
//	   also accepts padding, as "=" or "%3D", and nothing else: not the
//	   standard alphabet, not non-canonical trailing bits.
//	c. Keys. RSA of at least 2048 bits on both sides; any crypto.Signer
//	   with such a public key signs. UpdateCacheURL verifies what the
//	   signer returned, so a signer that fails or signs another way (PSS)
//	   is an error here, not a 403 at the cache.
//	d. Time. amp_ts is Unix seconds, digits only, at most 60 seconds from
//	   the verifier's clock either way: 60 passes, 61 fails.
//	e. Hosts. The first label of the request's host must be [DomainPrefix]
//	   of the publisher host in the path, in any case; the rest of the host
//	   is not checked against a registry, since the signature does not
//	   cover it. The returned publisher URL is read as [SourceURL] reads a
//	   cache URL, so the cache-only parameters are not part of it.
package ampcache
