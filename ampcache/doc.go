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
// [AppendDomainPrefix] makes no allocations for an ASCII domain; Unicode
// domains go through golang.org/x/net/idna and allocate.
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
//	    request with one AMP-Email-Sender in the list gets
//	    AMP-Email-Allow-Sender with that sender and reaches next, whatever
//	    the email client's Origin; any other sender gets 403. No
//	    Access-Control headers are set for it: email clients fetch through
//	    their own proxy, which reads AMP-Email-Allow-Sender.
//
// The allowed path makes no allocations.
package ampcache
