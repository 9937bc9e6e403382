// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ampcors is a net/http middleware for a publisher's API that
// answers the CORS requests of the publisher's AMP pages, on its own
// origins and on every AMP Cache, and of its AMP emails.
//
// The rules come from amp.dev's "CORS in AMP"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cors-requests/),
// "CORS in AMP for Email"
// (https://amp.dev/documentation/guides-and-tutorials/email/learn/cors-in-email/),
// "AMP Cache URL format and request handling"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/),
// and the CORS protocol of the Fetch standard
// (https://fetch.spec.whatwg.org/#http-cors-protocol). An AMP page's
// fetches carry an Origin header: the publisher's origin, or its origin on
// a cache, such as https://www-example-com.cdn.ampproject.org. Same-origin
// fetches carry none, and the AMP runtime marks them "AMP-Same-Origin:
// true". The runtime adds an __amp_source_origin query parameter, the
// origin of the page's source, which the server echoes in
// AMP-Access-Control-Allow-Source-Origin.
//
// [New] takes the publisher's origins (a [Config]); [Policy.Allowed]
// checks an Origin; [Policy.Handler] wraps the API. The package uses only
// package ampcache's exported API, so it computes cache origins exactly as
// [ampcache.Cache.Origin] does.
//
// Where the pages are silent, or a choice was needed, these decisions hold:
//
//	C1. Origins compared, not reversed. New computes, once, the cache
//	    origin of each publisher domain on each cache
//	    ([ampcache.Registry.Origins]); an Origin is allowed if it is one of
//	    those or a publisher origin. This is the spec's reverse algorithm
//	    ("AMP Cache Origin to Publisher Domain") followed by a comparison
//	    with the publisher's domains, with [ampcache.PublisherDomain]'s
//	    security check and its hash-prefix rule (a test oracle checks the
//	    equivalence), at the cost of one map lookup. A non-canonical prefix
//	    that the reverse steps would read as a publisher domain, such as
//	    "en--us-example-com" for en-us.example.com (whose prefix is
//	    "0-en--us-example-com-0"), is refused. Publisher hosts that are IP
//	    addresses have no cache origins.
//	C2. Comparison. The Origin is compared ignoring ASCII case and the
//	    scheme's default port (":443", ":80"), as origins compare (RFC 6454)
//	    and as PublisherDomain reads them; it is echoed in
//	    Access-Control-Allow-Origin exactly as sent. A trailing dot makes
//	    another origin.
//	C3. Configuration. Publisher origins are read as a browser's URL
//	    parser reads a URL's origin (WHATWG URL standard), and kept as the
//	    browser serializes them: lowercase; a Unicode host in ASCII by the
//	    standard's "domain to ASCII" (UTS #46 non-transitional, CheckBidi,
//	    CheckJoiners, no STD3 rules, no CheckHyphens), so "_dmarc.example"
//	    and "in--trouble.example" are hosts and "xn--ab-m1t.com" is not; the
//	    URL standard's port rule (digits, at most 65535, leading zeros
//	    dropped, an empty port is none, port 0 is a port), with the
//	    default port dropped; IPv6 as the standard serializes it. Stricter
//	    than a URL parser: an entry is an origin, so a path (even "/"), a
//	    query, userinfo and percent-escapes are errors, and an IPv4 host
//	    must be in dotted-decimal form. Errors name the field, such as
//	    "Config.Origins[2]", and quote at most 100 bytes of the value.
//	C4. Refusals. An Origin that is not allowed, a malformed one ("null",
//	    empty, longer than an allowed origin can be, bytes other than
//	    visible ASCII, a comma, several Origin headers), or an
//	    __amp_source_origin that is not allowed gets 403 with a one-line
//	    text/plain body naming the reason, never the input; next is not
//	    called.
//	C5. __amp_source_origin. Read as net/url reads a query, names
//	    unescaped, so that any spelling of the name gets the plain name's
//	    rule; and, to hide nothing from a parser with other rules behind
//	    next, names also compare ignoring ASCII case and ";" also separates
//	    parameters. Every occurrence must have the same value, a publisher
//	    origin (on the email path, the sender). The check applies to every
//	    request, CORS or not, so that next never sees an unchecked value.
//	    The parameter is not stripped: next sees the URL as sent.
//	C6. Vary. "Vary: Origin" is added to every response, refused and
//	    non-CORS ones included, as the Fetch standard asks of a server whose
//	    CORS headers depend on the Origin ("CORS protocol and HTTP caches"),
//	    unless Vary already names it or is "*"; with AMP for Email on,
//	    "AMP-Email-Sender" too.
//	C7. Same-origin requests. A request with no Origin gets no
//	    Access-Control headers, as there is nothing to echo, whether it has
//	    "AMP-Same-Origin: true" or is not CORS at all.
//	C8. Preflight. OPTIONS with an Origin and Access-Control-Request-Method
//	    is answered by the middleware and never reaches next. From an
//	    allowed Origin it gets 204, allowing the requested method and
//	    headers (they must be HTTP tokens), for [MaxAge] seconds (7200, the
//	    most Chromium keeps): the Origin is the gate, and the publisher's
//	    own pages may call its API as they wish. From any other Origin it is
//	    refused, whatever it asks for. OPTIONS without
//	    Access-Control-Request-Method, or without Origin, is not a
//	    preflight and reaches next.
//	C9. AMP for Email, off unless [Config].EmailSenders is set. Then a
//	    request with one AMP-Email-Sender in the list (ignoring ASCII
//	    case), and any __amp_source_origin equal to it, gets
//	    AMP-Email-Allow-Sender with that sender, as sent, and reaches next,
//	    whatever the mail client's Origin; Access-Control headers only for
//	    an allowed Origin. [Policy.Handler] says why this is safe. Version 1
//	    alone (the sender only in __amp_source_origin, and the mail
//	    client's Origin to be echoed) is refused.
//
// The allowed paths make no allocations, except to echo an
// __amp_source_origin.
package ampcors
