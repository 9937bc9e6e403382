// Package ampcache implements the AMP Cache URL format: how an AMP Cache
// rewrites a publisher's URLs, and how a publisher reads a cache's CORS
// Origin back. The spec is "AMP Cache URL Format and Request Handling"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/,
// a copy in shared/spec/amp-cache-url-format.md). This package follows it
// except where the decisions below fill a silence or settle a question on
// which the existing implementations disagree.
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
//	   Unicode U-labels, in any case. It is processed as a browser does, with
//	   UTS #46 non-transitional processing (golang.org/x/net/idna's Lookup
//	   configuration: lowercase, NFC, "ß" kept, "。" is a dot). One trailing
//	   root dot is dropped, so "example.com." means "example.com".
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
//	   one; when the publisher host fails UTS #46 validation for lookup
//	   (CheckHyphens, STD3 rules, joiners, no leading combining mark:
//	   "in--trouble.com", "-foo.com", "_dmarc.example.com"); and when the
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
// A-label; Unicode domains and A-labels ("xn--") are validated by
// golang.org/x/net/idna, and allocate.
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
//	   infix), and a URL over 2 MiB (Chromium's limit, [ErrTooLong]).
//	b. Userinfo is an error, even empty: credentials are never copied into
//	   a cache URL. (The AMP toolbox copies them.)
//	c. The host in the path is the host as a URL parser serialises it: a
//	   percent-encoded or Unicode host is decoded and mapped by UTS #46 to
//	   its ASCII form ("https://點看.com" gives ".../c/s/xn--c1yn36f.com"),
//	   and letters are lowercased. A root dot is kept in the path, as a URL
//	   parser keeps it; DomainPrefix drops it.
//	d. The path, query and fragment are kept byte for byte, with no
//	   re-escaping: "https://example.com" keeps no slash after the host, and
//	   "https://example.com/" keeps it, since a cache treats the two as
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
// [ErrInvalidURL]. A URL not on a cache is an error wrapping
// [ErrNotCacheURL]. It removes the query parameters the runtime removes:
// amp_js_* (by prefix), amp_gsa, amp_r, amp_kit and usqp (by whole name:
// the runtime's patterns match these by prefix too, and would also drop
// amp_react=1), every occurrence, and keeps every other parameter, in
// order, and the fragment. A query from which nothing is removed is kept byte for byte.
//
// SourceURL does not authenticate: nothing ties the subdomain to the host
// in the path, so anyone can build a cache URL that names any publisher
// URL. To learn which publisher a CORS request comes from, read its Origin
// with PublisherDomain.
//
// SourceURL(CacheURL(u)) is u for every u that CacheURL accepts with a
// serving type SourceURL reads, except for what CacheURL normalises: the
// scheme's case, backslashes after the scheme, the host's form and case,
// the default port, and cache-only query parameters, which SourceURL
// removes. This is tested and fuzzed.
//
// # CORS for AMP pages
//
// [CORS] is a net/http middleware for a publisher's API, answering the CORS
// requests of the publisher's AMP pages, on its own origins and on every AMP
// Cache, as "CORS in AMP" (amp.dev) describes them. [NewCORS] takes the
// publisher's origins; [CORS.Handler] wraps the API. Decisions:
//
//	C1. Origins compared, not reversed. NewCORS computes, once, the cache
//	    origin of each publisher host on each cache ([Registry.Origins]);
//	    an Origin is allowed if it is one of those or a publisher origin.
//	    This is the spec's reverse algorithm followed by a comparison with
//	    the publisher's hosts, with [PublisherDomain]'s security check, and
//	    its hash-prefix rule (a test oracle checks the equivalence), at the
//	    cost of one map lookup. A non-canonical prefix that the reverse
//	    steps would read as a publisher host, such as "en--us-example-com"
//	    for en-us.example.com (whose prefix is "0-en--us-example-com-0"), is
//	    refused. Publisher hosts that are IP addresses have no cache origins.
//	C2. Comparison. The Origin is compared ignoring ASCII case and the
//	    scheme's default port (":443", ":80"), as origins compare (RFC 6454)
//	    and as PublisherDomain reads them; it is echoed in
//	    Access-Control-Allow-Origin exactly as sent. Publisher origins in
//	    the configuration are serialized as browsers send them: lowercase,
//	    ASCII (punycode) host, no default port. A trailing dot makes another
//	    origin.
//	C3. Refusals. An Origin that is not allowed, malformed ("null", empty,
//	    longer than a cache origin can be, bytes other than visible ASCII, a
//	    comma, several Origin headers), or an __amp_source_origin that is
//	    not a publisher origin (given twice, with an escaped name, or badly
//	    escaped) gets 403 with a one-line text/plain body naming the reason,
//	    never the input; next is not called.
//	C4. Vary. "Vary: Origin" is added to every response, refused and
//	    non-CORS ones included, as the Fetch standard asks of a server whose
//	    CORS headers depend on the Origin ("CORS protocol and HTTP caches"),
//	    unless Vary already names Origin or is "*".
//	C5. Same-origin requests. A request with no Origin and exactly one
//	    "AMP-Same-Origin: true" is allowed: it gets no Access-Control
//	    headers, as there is no Origin to echo, but its __amp_source_origin
//	    is checked. A request with neither is not CORS and passes through
//	    with only Vary added, even with an __amp_source_origin.
//	C6. Preflight. OPTIONS with an allowed Origin and
//	    Access-Control-Request-Method is answered 204 without calling next,
//	    allowing the requested method and headers (they must be HTTP
//	    tokens), for [CORSMaxAge] seconds (7200, the most Chromium keeps).
//	    The Origin is the gate: the publisher's own pages may call its API
//	    as they wish. OPTIONS without Access-Control-Request-Method, or
//	    without Origin, is not a preflight and reaches next.
//	C7. AMP for Email, off unless [CORSConfig].EmailSenders is set. Then a
//	    request with one AMP-Email-Sender in the list (ignoring ASCII
//	    case) gets AMP-Email-Allow-Sender with that sender, as sent, and
//	    reaches next, whatever the email client's Origin; any other sender
//	    gets 403. No Access-Control headers are set for it: email clients
//	    fetch through their own proxy, which reads AMP-Email-Allow-Sender.
//
// The allowed path makes no allocations, except with an
// __amp_source_origin parameter.
package ampcache
