// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package cachetest provides an AMP Cache for tests: an in-process cache
// that serves a publisher's site under real cache URLs, on loopback, so
// publishers can test their AMP pages, their CORS handling and their
// redirects end to end. It follows the "URL Path" and "Redirect & Error
// Handling" sections of amp.dev's "AMP Cache URL format and request
// handling"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/),
// except where the decisions below fill its silences. Hosts are read as
// the WHATWG URL standard (https://url.spec.whatwg.org/) reads them.
//
// [NewServer] starts a cache over https on a loopback address, modelled on
// [net/http/httptest.Server]: its [Server.Client] reaches it under any host
// name, so a test fetches
// https://www-example-com.cdn.ampproject.org/c/s/www.example.com/ as a
// browser would. [New] returns the same cache as an [http.Handler] to
// mount. The publisher's site, the origin, is an [http.Handler], or a
// server on loopback given by its base URL through [OriginURL].
//
// # What the cache does
//
// For a request to https://<prefix>.<cacheDomain>/<serving>/[s/]<host>/<path>:
//
//   - Spec "URL Path": the cache URL is mapped back to the publisher URL,
//     and its serving type read, in one parse by
//     [ampcache.Registry.ParseCacheURL]; the serving types c and v serve
//     AMP documents, i, ii/w<N> and r serve subresources, and any other
//     gets 404.
//   - Spec "Domain Name Prefix": a host whose prefix is not
//     [ampcache.DomainPrefix] of the publisher host is redirected (301) to
//     the right one.
//   - Spec "URL Path", last paragraph: the cache-only query parameters are
//     not passed to the origin.
//   - Spec "Redirects": the origin's redirects are followed, and the
//     content of the resolved URL is returned for the original cache URL.
//   - Spec "Not Found": an origin 404 gets a 404 with an error page.
//   - Spec "Server Errors": an origin 5xx gets a 404.
//   - Spec "Invalid AMP": a document that is not AMP is redirected (302)
//     to its canonical page.
//
// # Decisions
//
// Where the spec is silent, this package decides as follows; each decision
// has a test.
//
//   - Redirect bound. The cache follows at most [DefaultMaxRedirects] (10)
//     redirects per request, as Google's crawlers follow up to 10 hops; see
//     [WithMaxRedirects]. One more, a loop, a redirect without a Location,
//     or one to a scheme other than http and https, gets 404. It follows
//     301, 302, 303, 307 and 308, to any host: the origin serves every
//     publisher host.
//   - Errors are 404. Every origin status other than 200 (404, 410, 5xx,
//     ...), a failed or timed-out fetch, and a body over the size bound
//     get 404 with an error page, as the spec's "Not Found" and "Server
//     Errors" do. The page holds the reason, a message from this package.
//   - Not the AMP validator. A document is AMP if it is served as
//     text/html (sniffed if it has no Content-Type) and its first element
//     is an <html> start tag with the "⚡" or "amp" attribute. Nothing else
//     is validated: a page the real cache refuses for invalid markup is
//     served here. The canonical URL is the href of the first <link> whose
//     rel holds "canonical", in the head, resolved against the first
//     <base href> and the document's resolved URL, as a browser would; a
//     document without one is redirected to the publisher URL (without the
//     cache-only parameters). The document is read with the tokenizer of
//     golang.org/x/net/html.
//   - Subresources as they are. i, ii/w<N> and r serve the origin's bytes
//     unchanged: an image is not resized to the width of ii/w<N>, and the
//     width is only checked to be a positive decimal number. wp (signed exchanges) and
//     cert are not served: 404.
//   - Documents as they are. The cache does not rewrite a document's
//     URLs to cache URLs, nor add the AMP runtime, as the real cache does.
//   - Cache-only parameters. Those that [ampcache.SourceURL] removes: the
//     ones the AMP runtime removes from a cache URL (amp_js_*, amp_gsa,
//     amp_r, amp_kit, usqp) and the spec's example amp_latest_update_time,
//     with names compared as net/url reads them ("amp%5Fr" is amp_r).
//     Every other parameter keeps its bytes and its order.
//   - The origin's request. A GET with the cache's own User-Agent (carrying
//     "Google-AMPHTML", the token of Google's AMP Cache fetcher) and
//     Accept, and nothing of the client's request: no cookies, no
//     authorization. Its Host is the publisher host, and an in-process
//     origin sees TLS set for an https publisher URL.
//   - Headers. A served response carries the origin's headers less the
//     hop-by-hop ones (RFC 9110, section 7.6.1, and those named in
//     Connection) and Set-Cookie, which a shared cache must not hand out.
//     Content-Type is always set (sniffed if the origin sent none), with
//     X-Content-Type-Options: nosniff and Content-Length.
//   - Bounds. A URL over [MaxURLLength] bytes gets 414, a method other
//     than GET and HEAD gets 405, an origin body over [DefaultMaxBodySize]
//     bytes and a fetch over [DefaultTimeout] get 404. No request causes
//     more than one bounded fetch per redirect. Once the cache has what it
//     needs, it closes the origin's body: an in-process origin's writes
//     then fail and its request's context is done. A handler that ignores
//     both keeps running, as it would under net/http.
//   - Hosts. A request's Host must be a host name of ASCII bytes without
//     the WHATWG URL standard's forbidden domain code points, and an
//     optional port of digits up to 65535; any other Host (such as
//     "a.cdn.ampproject.org:1@evil.com") gets 400. A host is on a cache if
//     it is a cache domain or one label below it
//     ([ampcache.Registry.SplitCacheHost], as SourceURL and the AMP runtime
//     read it), ignoring ASCII case and a final dot. On a [Server], a
//     request for any other host goes to the origin, as the publisher's
//     own site, so a client can follow the cache's redirects to the
//     publisher; a mounted [Cache] answers 404 for it. The prefix redirect
//     keeps the scheme of the request (https when it came over TLS) and
//     its port, written as a number: only the computed prefix, the cache
//     domain and that port reach the Location.
//   - Error pages. An error page holds the reason, a message of at most
//     512 bytes that quotes at most 100 bytes of any input, so a page is
//     at most 4 KiB whatever the request. An error returned by a fetch
//     keeps its cause for [errors.Is] (context.Canceled, a transport
//     error), and a configuration error names the option at fault.
//   - No storage. The cache fetches the origin on every request, so a
//     test sees its changes at once.
//   - Loopback only. [OriginURL] accepts only loopback hosts and does not
//     verify an https origin's certificate. A [Server] listens on
//     127.0.0.1 (or ::1) and its certificates come from an authority made
//     for it, which only its [Server.Client] trusts.
//
// # Update-cache
//
// The cache answers update-cache requests as Google's AMP Cache does
// (https://developers.google.com/amp/cache/update-cache), so a publisher
// can test its flush code, such as [ampcache.UpdateCacheURLs], without
// reaching production. A GET of
// https://<prefix>.<updateCacheApiDomainSuffix>/update-cache/c/[s/]<host>/<path>?...
// fetches the publisher's key from
// https://<host>/.well-known/amphtml/apikey.pub through the origin, and
// checks the request with [ampcache.VerifyUpdateCache] on the cache's
// clock. A valid request gets 204 No Content, and its publisher URL is
// added to [Cache.Flushed]. Decisions:
//
//   - 403 for every refusal, with the reason in the error page: a bad,
//     missing or malformed signature, an amp_ts more than 60 seconds
//     from the clock, a prefix that is not the publisher host's, a path
//     that names no publisher URL, and a missing or unusable key
//     ([ErrNoKey]; else [ErrUpdateRefused], which also wraps ampcache's
//     error). A method other than GET gets 405.
//   - The key. Fetched on every request (nothing is stored), over https
//     from the publisher host as the path names it, port included, with
//     the cache's User-Agent. It must be answered 200, without a
//     redirect (the key comes from the publisher's own host), with
//     Content-Type text/plain, as Google's page requires, in at most
//     [MaxKeySize] bytes, as a PEM "PUBLIC KEY" (openssl rsa -pubout) or
//     "RSA PUBLIC KEY" holding an RSA key of at least 2048 bits.
//   - Hosts. Update-cache requests are answered one label below each
//     cache's updateCacheApiDomainSuffix; a cache without one takes none.
package cachetest
