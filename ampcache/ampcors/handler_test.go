// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/wpt"
)

// longHost has a domain prefix longer than 63 characters, so its cache
// origins hold the fallback hash.
var longHost = strings.Repeat("a", 60) + ".example.com"

// testHosts are the publisher's hosts in the tests: the example,
// a host with a hash prefix, a host with a wrapped prefix, and an IDN.
var testHosts = []string{"example.com", "www.example.com", longHost, "en-us.example.com", "xn--bcher-kva.example"}

// testOrigins are the publisher's origins in the tests.
var testOrigins = func() []string {
	var o []string
	for _, h := range testHosts {
		o = append(o, "https://"+h)
	}
	return o
}()

func newTestPolicy(tb testing.TB) *Policy {
	tb.Helper()
	c, err := New(Config{Origins: testOrigins, EmailSenders: []string{"news@example.com"}})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// hashOrigin is the Google AMP Cache origin of longHost.
var hashOrigin = "https://" + ampcache.FallbackPrefix(longHost) + ".cdn.ampproject.org"

// corsCase is one request through the middleware.
type corsCase struct {
	name     string
	method   string
	target   string
	header   http.Header
	vary     string // a Vary header set before the middleware
	expose   string // an Access-Control-Expose-Headers set before it
	want     int    // the status; 299 means next was called
	wantHdr  map[string]string
	wantBody string
}

// allowedHeaders are the response headers of an allowed CORS request from
// origin.
func allowedHeaders(origin string) map[string]string {
	return map[string]string{
		"Access-Control-Allow-Origin":            origin,
		"Access-Control-Allow-Credentials":       "true",
		"Access-Control-Expose-Headers":          "AMP-Redirect-To, AMP-Access-Control-Allow-Source-Origin",
		"Vary":                                   varyEmail,
		"Amp-Access-Control-Allow-Source-Origin": "",
		"Access-Control-Max-Age":                 "",
	}
}

// refusedHeaders are the response headers of a refused request.
var refusedHeaders = map[string]string{
	"Access-Control-Allow-Origin":      "",
	"Access-Control-Allow-Credentials": "",
	"Access-Control-Expose-Headers":    "",
	"Vary":                             varyEmail,
	"Content-Type":                     "text/plain; charset=utf-8",
}

// noCORSHeaders are the response headers of a request that is not CORS.
var noCORSHeaders = map[string]string{
	"Access-Control-Allow-Origin":      "",
	"Access-Control-Allow-Credentials": "",
	"Access-Control-Expose-Headers":    "",
	"Vary":                             varyEmail,
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func with(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// varyEmail is the Vary of every response when AMP for Email is on.
const varyEmail = "Origin, AMP-Email-Sender"

const (
	googleOrigin = "https://www-example-com.cdn.ampproject.org"
	bingOrigin   = "https://www-example-com.www.bing-amp.com"
	evilOrigin   = "https://evil-com.cdn.ampproject.org"
)

var corsCases = []corsCase{
	// Rule: an Origin from the publisher's own pages is allowed.
	{name: "publisher origin", header: hdr("Origin", "https://example.com"), want: 299, wantHdr: allowedHeaders("https://example.com")},
	// Rule: another of the publisher's origins.
	{name: "second publisher origin", header: hdr("Origin", "https://www.example.com"), want: 299, wantHdr: allowedHeaders("https://www.example.com")},
	// Rule: a same-origin request, AMP-Same-Origin: true and no Origin, is
	// allowed; it has no Origin to echo.
	{name: "AMP-Same-Origin", header: hdr("AMP-Same-Origin", "true"), want: 299, wantHdr: noCORSHeaders},
	// Rule: a cache origin of a publisher host (spec: "AMP Cache Origin to
	// Publisher Domain", first example).
	{name: "Google AMP Cache origin", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},
	// Rule: on any registered cache.
	{name: "Bing AMP Cache origin", header: hdr("Origin", bingOrigin), want: 299, wantHdr: allowedHeaders(bingOrigin)},
	// Rule: the wrapped prefix of a publisher host (spec: Basic Algorithm
	// example en-us.example.com).
	{name: "wrapped prefix", header: hdr("Origin", "https://0-en--us-example-com-0.cdn.ampproject.org"), want: 299, wantHdr: allowedHeaders("https://0-en--us-example-com-0.cdn.ampproject.org")},
	// Rule: an IDN publisher host's cache origin, in punycode.
	{name: "IDN prefix", header: hdr("Origin", "https://xn--bcher-example-wob.cdn.ampproject.org"), want: 299, wantHdr: allowedHeaders("https://xn--bcher-example-wob.cdn.ampproject.org")},
	// Rule: a hash-prefix origin equal to a publisher host's cache origin.
	{name: "hash-prefix origin", header: hdr("Origin", hashOrigin), want: 299, wantHdr: allowedHeaders(hashOrigin)},
	// Decision: origins compare without regard to ASCII case; the Origin is
	// echoed as sent.
	{name: "uppercase cache origin", header: hdr("Origin", "HTTPS://WWW-EXAMPLE-COM.CDN.AMPPROJECT.ORG"), want: 299, wantHdr: allowedHeaders("HTTPS://WWW-EXAMPLE-COM.CDN.AMPPROJECT.ORG")},
	// Decision: the default port is the origin without a port.
	{name: "default port", header: hdr("Origin", googleOrigin+":443"), want: 299, wantHdr: allowedHeaders(googleOrigin + ":443")},
	// Rule: the exposed headers are added to existing ones.
	{name: "existing Expose-Headers", header: hdr("Origin", googleOrigin), expose: "X-Total", want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Access-Control-Expose-Headers", "X-Total, AMP-Redirect-To, AMP-Access-Control-Allow-Source-Origin")},
	// Rule: Vary: Origin is added to an existing Vary.
	{name: "existing Vary", vary: "Accept-Encoding", header: hdr("Origin", googleOrigin), want: 299, wantHdr: with(allowedHeaders(googleOrigin), "Vary", "Accept-Encoding, Origin, AMP-Email-Sender")},
	// Rule: ...once.
	{name: "Vary already has Origin", vary: "accept-encoding, origin", header: hdr("Origin", googleOrigin), want: 299, wantHdr: with(allowedHeaders(googleOrigin), "Vary", "accept-encoding, origin, AMP-Email-Sender")},
	// Rule: ...and not at all after "*".
	{name: "Vary *", vary: "*", header: hdr("Origin", googleOrigin), want: 299, wantHdr: with(allowedHeaders(googleOrigin), "Vary", "*")},
	// Rule: other methods than GET are allowed too.
	{name: "POST", method: "POST", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},
	// Rule: OPTIONS without Access-Control-Request-Method is not a
	// preflight: it reaches next.
	{name: "OPTIONS, not a preflight", method: "OPTIONS", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},

	// Rule: any other Origin gets 403 and next is not called: a cache origin
	// of another publisher.
	{name: "other publisher on the cache", header: hdr("Origin", evilOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a publisher subdomain that is not configured.
	{name: "unconfigured subdomain on the cache", header: hdr("Origin", "https://m-example-com.cdn.ampproject.org"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: another site.
	{name: "other site", header: hdr("Origin", "https://evil.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: the publisher's host over http is another origin.
	{name: "http publisher", header: hdr("Origin", "http://example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a cache origin over http.
	{name: "http cache origin", header: hdr("Origin", "http://www-example-com.cdn.ampproject.org"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: another port.
	{name: "other port", header: hdr("Origin", "https://example.com:8443"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: the cache domain itself.
	{name: "cache domain", header: hdr("Origin", "https://cdn.ampproject.org"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a publisher host as a suffix of the attacker's.
	{name: "suffix attack", header: hdr("Origin", "https://evilexample.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: the cache origin under another domain.
	{name: "cache origin under attacker domain", header: hdr("Origin", "https://www-example-com.cdn.ampproject.org.evil.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Decision: the reverse algorithm reads "en--us-example-com" as
	// en-us.example.com, a publisher host, but that host's prefix is
	// "0-en--us-example-com-0": refused, as PublisherDomain's security
	// check refuses it.
	{name: "non-canonical prefix", header: hdr("Origin", "https://en--us-example-com.cdn.ampproject.org"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Decision: a trailing dot makes another origin.
	{name: "trailing dot", header: hdr("Origin", "https://www-example-com.cdn.ampproject.org."), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a hash prefix of a domain the publisher does not serve.
	{name: "other hash prefix", header: hdr("Origin", "https://"+ampcache.FallbackPrefix("evil.com")+".cdn.ampproject.org"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},

	// Rule: malformed Origin, "null" (sandboxed pages, opaque origins).
	{name: "null", header: hdr("Origin", "null"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, too long.
	{name: "too long", header: hdr("Origin", "https://"+strings.Repeat("a", 400)+".com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, bad bytes.
	{name: "control byte", header: hdr("Origin", googleOrigin+"\x00"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, non-ASCII.
	{name: "non-ASCII", header: hdr("Origin", "https://bücher.example"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, a space.
	{name: "space", header: hdr("Origin", googleOrigin+" "), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, two origins in one header.
	{name: "comma list", header: hdr("Origin", googleOrigin+","+googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, several Origin headers, even when each is allowed.
	{name: "two Origin headers", header: hdr("Origin", googleOrigin, "Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Rule: malformed Origin, empty.
	{name: "empty Origin", header: hdr("Origin", ""), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},

	// Rule: no Origin and no AMP-Same-Origin: not a CORS request, passed
	// through with no CORS headers.
	{name: "no Origin", want: 299, wantHdr: noCORSHeaders},
	// Rule: AMP-Same-Origin other than "true" is not the same-origin mark.
	{name: "AMP-Same-Origin false", header: hdr("AMP-Same-Origin", "false"), want: 299, wantHdr: noCORSHeaders},
	// Decision: a request that is not CORS gets the __amp_source_origin
	// check too, so that next never sees an unchecked one.
	{name: "no Origin, bad source origin", target: "/api?__amp_source_origin=https%3A%2F%2Fevil.com", want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: ...and a good one is echoed.
	{name: "no Origin, source origin", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com", want: 299,
		wantHdr: with(noCORSHeaders, "Amp-Access-Control-Allow-Source-Origin", "https://example.com")},

	// Rule: __amp_source_origin equal to a publisher origin is allowed,
	// and echoed in AMP-Access-Control-Allow-Source-Origin.
	{name: "source origin", target: "/api?__amp_source_origin=https%3A%2F%2Fwww.example.com", header: hdr("Origin", googleOrigin), want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Amp-Access-Control-Allow-Source-Origin", "https://www.example.com")},
	// Rule: ...also on a same-origin request.
	{name: "source origin, same origin", target: "/api?a=1&__amp_source_origin=https%3A%2F%2Fexample.com", header: hdr("AMP-Same-Origin", "true"), want: 299,
		wantHdr: with(noCORSHeaders, "Amp-Access-Control-Allow-Source-Origin", "https://example.com")},
	// Rule: unescaped, as some clients send it.
	{name: "source origin unescaped", target: "/api?__amp_source_origin=https://example.com", header: hdr("Origin", googleOrigin), want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Amp-Access-Control-Allow-Source-Origin", "https://example.com")},
	// Rule: __amp_source_origin not a publisher origin gets 403.
	{name: "bad source origin", target: "/api?__amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Rule: a cache origin is not a source origin.
	{name: "cache origin as source origin", target: "/api?__amp_source_origin=" + googleOrigin, header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Rule: an empty source origin gets 403.
	{name: "empty source origin", target: "/api?__amp_source_origin=", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: the parameter twice gets 403, even if one is right.
	{name: "two source origins", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com&__amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: an escaped parameter name is the same parameter.
	{name: "escaped name", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com&%5F_amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: badly escaped gets 403.
	{name: "bad escape", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com%", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// The name inside a value is not the parameter.
	{name: "name in a value", target: "/api?q=__amp_source_origin", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},

	// Rule: a preflight from an allowed origin is answered 204 by the
	// middleware, with the method, the headers and the max age.
	{name: "preflight", method: "OPTIONS", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "content-type,x-custom"), want: 204,
		wantHdr: map[string]string{"Access-Control-Allow-Origin": googleOrigin, "Access-Control-Allow-Credentials": "true", "Access-Control-Allow-Methods": "PUT", "Access-Control-Allow-Headers": "content-type,x-custom", "Access-Control-Max-Age": "7200", "Vary": varyEmail, "Access-Control-Expose-Headers": ""}},
	// Rule: a preflight without requested headers.
	{name: "preflight, no headers", method: "OPTIONS", header: hdr("Origin", "https://example.com", "Access-Control-Request-Method", "POST"), want: 204,
		wantHdr: map[string]string{"Access-Control-Allow-Origin": "https://example.com", "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "", "Access-Control-Max-Age": "7200"}},
	// Rule: a preflight from a disallowed origin gets 403.
	{name: "preflight, other origin", method: "OPTIONS", header: hdr("Origin", evilOrigin, "Access-Control-Request-Method", "PUT"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a preflight with a malformed Origin gets 403.
	{name: "preflight, null origin", method: "OPTIONS", header: hdr("Origin", "null", "Access-Control-Request-Method", "PUT"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Decision: a requested method that is not a token gets 403.
	{name: "preflight, bad method", method: "OPTIONS", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "P UT"), want: 403, wantHdr: refusedHeaders, wantBody: refusePreflight},
	// Decision: requested headers that are not tokens get 403.
	{name: "preflight, bad headers", method: "OPTIONS", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-a, x:b"), want: 403, wantHdr: refusedHeaders, wantBody: refusePreflight},
	// Rule: a preflight with a bad source origin gets 403.
	{name: "preflight, bad source origin", method: "OPTIONS", target: "/api?__amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "POST"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Rule: OPTIONS with Access-Control-Request-Method but no Origin is not
	// a CORS preflight: it reaches next.
	{name: "OPTIONS without Origin", method: "OPTIONS", header: hdr("Access-Control-Request-Method", "PUT"), want: 299, wantHdr: noCORSHeaders},

	// Rule: AMP for Email (version 2), a configured sender is answered
	// with AMP-Email-Allow-Sender; the mail client's Origin is not allowed,
	// so it gets no Access-Control headers.
	{name: "email sender", header: hdr("Origin", "https://mail.example.net", "AMP-Email-Sender", "news@example.com"), want: 299,
		wantHdr: map[string]string{"Amp-Email-Allow-Sender": "news@example.com", "Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": "", "Vary": varyEmail}},
	// Decision: senders compare ignoring ASCII case, and are echoed as sent.
	{name: "email sender in capitals", header: hdr("AMP-Email-Sender", "News@Example.COM"), want: 299,
		wantHdr: map[string]string{"Amp-Email-Allow-Sender": "News@Example.COM", "Access-Control-Allow-Origin": ""}},
	// Rule: a sender not in the list gets 403.
	{name: "other email sender", header: hdr("Origin", "https://mail.example.net", "AMP-Email-Sender", "spam@evil.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSender},
	// Rule: two senders get 403.
	{name: "two email senders", header: hdr("AMP-Email-Sender", "news@example.com", "AMP-Email-Sender", "news@example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSender},
	// Rule: AMP for Email version 1's __amp_source_origin, sent with
	// version 2's header, must be the same sender; it is echoed.
	{name: "email sender and v1 source origin", target: "/api?__amp_source_origin=news%40example.com", header: hdr("Origin", "https://mail.example.net", "AMP-Email-Sender", "news@example.com"), want: 299,
		wantHdr: map[string]string{"Amp-Email-Allow-Sender": "news@example.com", "Amp-Access-Control-Allow-Source-Origin": "news@example.com", "Access-Control-Allow-Origin": ""}},
	// Decision: a version 1 sender that disagrees with the header gets 403.
	{name: "email sender, other v1 source origin", target: "/api?__amp_source_origin=spam%40evil.com", header: hdr("Origin", "https://mail.example.net", "AMP-Email-Sender", "news@example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: on the email path, a publisher origin is not a sender.
	{name: "email sender, publisher source origin", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com", header: hdr("AMP-Email-Sender", "news@example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Attack: Origin https://evil.com with an allowed sender reaches next
	// (the Handler doc says why that is safe), but evil.com is granted
	// nothing: no Access-Control-Allow-Origin, no credentials.
	{name: "email sender, evil Origin", header: hdr("Origin", "https://evil.com", "AMP-Email-Sender", "news@example.com"), want: 299,
		wantHdr: map[string]string{"Amp-Email-Allow-Sender": "news@example.com", "Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": "", "Access-Control-Expose-Headers": ""}},
	// Attack: a browser's preflight from evil.com asking for
	// AMP-Email-Sender is refused, so the browser never sends the request
	// above.
	{name: "email preflight, evil Origin", method: "OPTIONS", header: hdr("Origin", "https://evil.com", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "amp-email-sender"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Attack: ...whatever it asks for, even with the header itself on
	// the preflight, which a browser never sends.
	{name: "email preflight with the header, evil Origin", method: "OPTIONS", header: hdr("Origin", "https://evil.com", "Access-Control-Request-Method", "GET", "AMP-Email-Sender", "news@example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Attack: ...and from the mail client's own Origin: mail clients
	// fetch through their servers, which send no preflight.
	{name: "email preflight, mail client Origin", method: "OPTIONS", header: hdr("Origin", "https://mail.example.net", "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "amp-email-sender"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Rule: a preflight from an allowed Origin may ask for AMP-Email-Sender.
	{name: "email preflight, allowed Origin", method: "OPTIONS", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "amp-email-sender"), want: 204,
		wantHdr: map[string]string{"Access-Control-Allow-Origin": googleOrigin, "Access-Control-Allow-Headers": "amp-email-sender"}},
	// Rule: an allowed Origin on the email path gets its Access-Control
	// headers too.
	{name: "email sender, allowed Origin", header: hdr("Origin", googleOrigin, "AMP-Email-Sender", "news@example.com"), want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Amp-Email-Allow-Sender", "news@example.com")},
	// Rule: the email path refuses a malformed Origin too.
	{name: "email sender, null Origin", header: hdr("Origin", "null", "AMP-Email-Sender", "news@example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseMalformed},
	// Attack: a sender alone, from evil.com, without the header: the
	// web path, refused.
	{name: "v1 sender alone, evil Origin", target: "/api?__amp_source_origin=news%40example.com", header: hdr("Origin", "https://evil.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},
	// Decision: version 1 alone, from a mail client's Origin, is not
	// answered.
	{name: "v1 sender alone, mail client Origin", target: "/api?__amp_source_origin=news%40example.com", header: hdr("Origin", "https://mail.google.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseOrigin},

	// Attack: the escaped name, which once slipped past the check, from a
	// cache Origin gets the plain name's rule, a 403.
	{name: "escaped name, evil source origin", target: "/api?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// The escaped name gets the same headers as the plain name on a match.
	{name: "escaped name, publisher source origin", target: "/api?%5F%5Famp_source_origin=https%3A%2F%2Fwww.example.com", header: hdr("Origin", googleOrigin), want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Amp-Access-Control-Allow-Source-Origin", "https://www.example.com")},
	// Attack: every byte of the name escaped, in lowercase hex.
	{name: "fully escaped name", target: "/api?%5f%5f%61%6d%70%5f%73%6f%75%72%63%65%5f%6f%72%69%67%69%6e=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Attack: the escaped name from the publisher's own Origin.
	{name: "escaped name, publisher Origin", target: "/api?__amp_source%5Forigin=https%3A%2F%2Fevil.com", header: hdr("Origin", "https://example.com"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Attack: the escaped name on a same-origin request.
	{name: "escaped name, same origin", target: "/api?%5F_amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("AMP-Same-Origin", "true"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Attack: the escaped name in a preflight.
	{name: "escaped name, preflight", method: "OPTIONS", target: "/api?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin, "Access-Control-Request-Method", "POST"), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Attack: two values that disagree, plain and escaped, get 403.
	{name: "plain and escaped disagree", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com&%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: the same value twice, in two spellings, is one value.
	{name: "same value twice", target: "/api?__amp_source_origin=https%3A%2F%2Fexample.com&%5F%5Famp_source_origin=https://example.com", header: hdr("Origin", googleOrigin), want: 299,
		wantHdr: with(allowedHeaders(googleOrigin), "Amp-Access-Control-Allow-Source-Origin", "https://example.com")},
	// Decision: names compare ignoring ASCII case, which some parsers do.
	{name: "uppercase name", target: "/api?__AMP_SOURCE_ORIGIN=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: ";" separates parameters too, as some parsers read it.
	{name: "semicolon", target: "/api?a=1;__amp_source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
	// Decision: a name with a bad escape is read with the escape as it is:
	// not the parameter.
	{name: "name with a bad escape", target: "/api?__amp_source_origin%zz=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},
	// Rule: "+" in a name is a space: not the parameter.
	{name: "plus in the name", target: "/api?__amp+source_origin=https%3A%2F%2Fevil.com", header: hdr("Origin", googleOrigin), want: 299, wantHdr: allowedHeaders(googleOrigin)},
	// Rule: the name alone, with no value, is an empty value: 403.
	{name: "name without a value", target: "/api?__amp_source_origin", header: hdr("Origin", googleOrigin), want: 403, wantHdr: refusedHeaders, wantBody: refuseSourceOrigin},
}

// serve runs one request through the middleware of c and reports the
// response and whether next was called.
func serve(c *Policy, tc corsCase) (*httptest.ResponseRecorder, bool) {
	method, target := tc.method, tc.target
	if method == "" {
		method = "GET"
	}
	if target == "" {
		target = "/api"
	}
	r := httptest.NewRequest(method, "https://www.example.com"+target, nil)
	for k, v := range tc.header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	if tc.vary != "" {
		w.Header().Set("Vary", tc.vary)
	}
	if tc.expose != "" {
		w.Header().Set("Access-Control-Expose-Headers", tc.expose)
	}
	called := false
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		called = true
		w.WriteHeader(299)
	})
	c.Handler(next).ServeHTTP(w, r)
	return w, called
}

func TestHandler(t *testing.T) {
	c := newTestPolicy(t)
	for _, tc := range corsCases {
		t.Run(tc.name, func(t *testing.T) {
			w, called := serve(c, tc)
			if w.Code != tc.want {
				t.Fatalf("status = %d, want %d (body %q)", w.Code, tc.want, w.Body.String())
			}
			if called != (tc.want == 299) {
				t.Errorf("next called = %v, want %v", called, tc.want == 299)
			}
			for k, want := range tc.wantHdr {
				got := strings.Join(w.Header().Values(k), ", ")
				if got != want {
					t.Errorf("header %s = %q, want %q", k, got, want)
				}
			}
			if tc.want == 403 && strings.TrimSpace(w.Body.String()) != tc.wantBody {
				t.Errorf("body = %q, want %q", w.Body.String(), tc.wantBody)
			}
			if tc.want == 204 && w.Body.Len() != 0 {
				t.Errorf("preflight body = %q, want none", w.Body.String())
			}
		})
	}
}

// TestZeroPolicy checks that the zero Policy allows nothing and does not
// panic.
func TestZeroPolicy(t *testing.T) {
	var p Policy
	if p.Allowed("https://example.com") {
		t.Error("the zero Policy allows an Origin")
	}
	for _, tc := range []corsCase{
		// An Origin: refused.
		{name: "origin", header: hdr("Origin", "https://example.com"), vary: "Accept", want: 403},
		// A sender: AMP for Email is off, so the Origin decides.
		{name: "sender", header: hdr("Origin", "https://example.com", "AMP-Email-Sender", "news@example.com"), want: 403},
		// No Origin: not CORS, reaches next.
		{name: "no origin", want: 299},
	} {
		w, _ := serve(&p, tc)
		if w.Code != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, w.Code, tc.want)
		}
		if !strings.Contains(strings.Join(w.Header().Values("Vary"), ", "), "Origin") {
			t.Errorf("%s: Vary %q lacks Origin", tc.name, w.Header().Values("Vary"))
		}
	}
}

// TestHandlerEveryCache checks every cache of the built-in registry: the
// cache origins of each publisher host are allowed, and another
// publisher's are refused, through a real HTTP round trip.
func TestHandlerEveryCache(t *testing.T) {
	c := newTestPolicy(t)
	srv := httptest.NewServer(c.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	})))
	defer srv.Close()
	get := func(origin string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.Header.Set("Origin", origin)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	caches := ampcache.Caches()
	if len(caches) < 2 {
		t.Fatalf("only %d built-in caches", len(caches))
	}
	for _, cache := range caches {
		t.Run(cache.ID, func(t *testing.T) {
			for _, host := range []string{"example.com", "www.example.com", longHost} {
				o, err := cache.Origin(host)
				if err != nil {
					t.Fatal(err)
				}
				if resp := get(o); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != o {
					t.Errorf("%s: status %d, ACAO %q", o, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
				}
			}
			for _, host := range []string{"evil.com", "example.com.evil.com", "m.example.com", strings.Repeat("b", 60) + ".example.com"} {
				o, err := cache.Origin(host)
				if err != nil {
					t.Fatal(err)
				}
				if resp := get(o); resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
					t.Errorf("%s: status %d, ACAO %q, want 403", o, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
				}
			}
		})
	}
}

// allowedSlow is the oracle for [Policy.Allowed]: it follows the issue's
// rules and the spec's "AMP Cache Origin to Publisher Domain" literally,
// with no precomputed set. origins and hosts are the publisher's
// serialized origins and their hosts.
func allowedSlow(reg *ampcache.Registry, origins, hosts []string, origin string) bool {
	o := strings.ToLower(origin)
	if strings.HasPrefix(o, "https://") {
		o = strings.TrimSuffix(o, ":443")
	}
	// A request with Origin equal to one of the publisher's origins.
	if slices.Contains(origins, o) {
		return true
	}
	// First, remove the protocol prefix and the AMP Cache domain suffix.
	rest, ok := strings.CutPrefix(o, "https://")
	if !ok {
		return false
	}
	for _, cache := range reg.Caches() {
		prefix, ok := strings.CutSuffix(rest, "."+cache.CacheDomain)
		if !ok || prefix == "" || strings.Contains(prefix, ".") {
			continue
		}
		if !strings.Contains(prefix, "-") {
			// A hash: compare with the cache origins of the domains we know.
			for _, h := range hosts {
				if co, err := cache.Origin(h); err == nil && co == o {
					return true
				}
			}
			return false
		}
		// The reverse algorithm; PublisherDomain refuses a prefix that is
		// not the one DomainPrefix gives for its result.
		d, err := reg.PublisherDomain(o)
		return err == nil && slices.Contains(hosts, d)
	}
	return false
}

func TestAllowedOracle(t *testing.T) {
	c := newTestPolicy(t)
	reg, _ := ampcache.NewRegistry(ampcache.Caches())
	origins, hosts := testOrigins, testHosts
	var inputs []string
	for _, tc := range corsCases {
		inputs = append(inputs, tc.header["Origin"]...)
	}
	for _, in := range wpt.Hosts(t) {
		inputs = append(inputs, in, "https://"+in, "https://"+in+".cdn.ampproject.org")
		if p, err := ampcache.DomainPrefix(in); err == nil {
			inputs = append(inputs, "https://"+p+".cdn.ampproject.org")
		}
	}
	allowed := 0
	for _, in := range inputs {
		got, want := c.Allowed(in), allowedSlow(reg, origins, hosts, in)
		if got != want {
			t.Errorf("Allowed(%q) = %v, oracle says %v", in, got, want)
		}
		if got {
			allowed++
		}
	}
	// The oracle must have something to agree on.
	if allowed < 5 {
		t.Errorf("only %d of %d inputs allowed", allowed, len(inputs))
	}
	t.Logf("Allowed agrees with the oracle on %d inputs, %d allowed", len(inputs), allowed)
}

// TestHandlerNoAllocs checks that the allowed path and Allowed allocate
// nothing.
func TestHandlerNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations")
	}
	c := newTestPolicy(t)
	h := c.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	for _, tc := range []struct {
		name string
		hdr  http.Header
	}{
		{"cache origin", hdr("Origin", googleOrigin)},
		{"publisher origin", hdr("Origin", "https://example.com")},
		{"preflight", hdr("Origin", googleOrigin, "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-custom")},
		{"same origin", hdr("AMP-Same-Origin", "true")},
		{"no Origin", http.Header{}},
		{"email", hdr("Origin", "https://mail.google.com", "AMP-Email-Sender", "news@example.com")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "GET"
			if tc.hdr.Get("Access-Control-Request-Method") != "" {
				method = "OPTIONS"
			}
			r := httptest.NewRequest(method, "https://www.example.com/api", nil)
			r.Header = tc.hdr
			w := &nopWriter{h: make(http.Header)}
			if n := testing.AllocsPerRun(1000, func() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}); n != 0 {
				t.Errorf("%v allocs per request, want 0", n)
			}
		})
	}
	if n := testing.AllocsPerRun(1000, func() { c.Allowed(hashOrigin) }); n != 0 {
		t.Errorf("Allowed: %v allocs, want 0", n)
	}
}

// nopWriter is a ResponseWriter that keeps only its header map, so that
// the middleware's own cost can be measured.
type nopWriter struct {
	h    http.Header
	code int
}

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nopWriter) WriteHeader(code int)        { w.code = code }

func BenchmarkHandler(b *testing.B) {
	c := newTestPolicy(b)
	h := c.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	for _, bc := range []struct {
		name, query string
		hdr         http.Header
	}{
		{"allowed=cache", "", hdr("Origin", googleOrigin)},
		{"allowed=hash", "", hdr("Origin", hashOrigin)},
		{"allowed=publisher", "", hdr("Origin", "https://www.example.com")},
		{"preflight", "", hdr("Origin", googleOrigin, "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-custom")},
		{"refused", "", hdr("Origin", evilOrigin)},
		{"no-origin", "", http.Header{}},
		// A query of other parameters, read for __amp_source_origin.
		{"allowed=cache,query", "?page=2&sort=date&q=amp", hdr("Origin", googleOrigin)},
		// The echo of __amp_source_origin allocates its header value.
		{"allowed=source-origin", "?__amp_source_origin=https%3A%2F%2Fwww.example.com", hdr("Origin", googleOrigin)},
		{"refused=escaped-source-origin", "?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", hdr("Origin", googleOrigin)},
		{"allowed=email", "", hdr("Origin", "https://mail.google.com", "AMP-Email-Sender", "news@example.com")},
	} {
		method := "GET"
		if bc.hdr.Get("Access-Control-Request-Method") != "" {
			method = "OPTIONS"
		}
		r := httptest.NewRequest(method, "https://www.example.com/api"+bc.query, nil)
		r.Header = bc.hdr
		w := &nopWriter{h: make(http.Header)}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
		})
	}
}

// FuzzCORS sends hostile Origin headers, queries, AMP-Email-Sender
// headers and methods through the middleware: nothing panics; the answer
// is 403, a preflight's 204 or next; Access-Control-Allow-Origin is only
// ever the Origin as sent, and only an allowed one; Allowed agrees with the
// oracle; and when next is reached, every __amp_source_origin that
// net/url reads, under any spelling of the name, holds one checked value.
func FuzzCORS(f *testing.F) {
	for _, s := range []string{
		// The allowed origins of the tests.
		googleOrigin, bingOrigin, hashOrigin, "https://example.com",
		// Refused ones.
		evilOrigin, "null", "", "https://en--us-example-com.cdn.ampproject.org",
		// Case and ports.
		"HTTPS://EXAMPLE.COM:443", "http://example.com:80", googleOrigin + ":443",
		// Hostile bytes.
		"https://www-example-com.cdn.ampproject.org\x00", "https://xn--.cdn.ampproject.org", "https://0--0.cdn.ampproject.org",
	} {
		f.Add(s, "__amp_source_origin=https%3A%2F%2Fexample.com", "", "GET")
	}
	// The escaped name, which once slipped past the check, and other
	// spellings of the name.
	f.Add(googleOrigin, "%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", "", "GET")
	f.Add(googleOrigin, "__amp_source_origin=https%3A%2F%2Fexample.com&__AMP_source%5forigin=https://evil.com", "", "GET")
	f.Add(googleOrigin, "a=1;__amp_source_origin=https%3A%2F%2Fevil.com", "", "GET")
	f.Add(googleOrigin, "__amp_source_origin=%zz", "", "GET")
	f.Add(googleOrigin, "a=1&__amp_source_origin=x&__amp_source_origin=y", "", "GET")
	// An allowed email sender from evil.com, and its preflight.
	f.Add("https://evil.com", "", "news@example.com", "GET")
	f.Add("https://evil.com", "__amp_source_origin=news%40example.com", "news@example.com", "POST")
	f.Add("https://evil.com", "", "news@example.com", "OPTIONS")
	c := newTestPolicy(f)
	reg, _ := ampcache.NewRegistry(ampcache.Caches())
	origins, hosts := testOrigins, testHosts
	var seen url.Values
	h := c.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.URL.Query()
		w.WriteHeader(299)
	}))
	f.Fuzz(func(t *testing.T, origin, query, sender, method string) {
		allowed := c.Allowed(origin)
		if want := allowedSlow(reg, origins, hosts, origin); allowed != want {
			t.Fatalf("Allowed(%q) = %v, oracle says %v", origin, allowed, want)
		}
		if !validMethod(method) {
			return
		}
		r := httptest.NewRequest(method, "https://www.example.com/api", nil)
		r.URL.RawQuery = query
		r.Header.Set("Origin", origin)
		if sender != "" {
			r.Header.Set("AMP-Email-Sender", sender)
		}
		if method == "OPTIONS" {
			r.Header.Set("Access-Control-Request-Method", "POST")
		}
		seen = nil
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		acao := w.Header()["Access-Control-Allow-Origin"]
		if len(acao) > 0 && (len(acao) != 1 || acao[0] != origin || !allowed) {
			t.Fatalf("Origin %q (allowed %v): ACAO %q", origin, allowed, acao)
		}
		emailPath := w.Header().Get("AMP-Email-Allow-Sender") != ""
		switch w.Code {
		case 299:
			if !allowed && !emailPath {
				t.Fatalf("Origin %q reached next, but is not allowed", origin)
			}
			if emailPath && !host.EqualFold(sender, "news@example.com") {
				t.Fatalf("sender %q reached next", sender)
			}
			if allowed && len(acao) == 0 {
				t.Fatalf("allowed Origin %q reached next without ACAO", origin)
			}
			var value string
			for k, vs := range seen {
				if !host.EqualFold(k, "__amp_source_origin") {
					continue
				}
				for _, v := range vs {
					if value != "" && v != value {
						t.Fatalf("query %q: next saw %s=%q and %q", query, k, value, v)
					}
					value = v
					switch {
					case emailPath && !host.EqualFold(v, sender):
						t.Fatalf("query %q: next saw %s=%q with sender %q", query, k, v, sender)
					case !emailPath && !isPublisherOrigin(v):
						t.Fatalf("query %q: next saw %s=%q", query, k, v)
					}
				}
			}
		case 204:
			if method != "OPTIONS" || !allowed {
				t.Fatalf("%s from %q (allowed %v): 204", method, origin, allowed)
			}
		case 403:
		default:
			t.Fatalf("Origin %q: status %d", origin, w.Code)
		}
	})
}

// validMethod reports whether m is one of the methods the fuzzer tries.
func validMethod(m string) bool {
	return m == "GET" || m == "POST" || m == "OPTIONS"
}

// isPublisherOrigin is the oracle of a publisher origin in
// __amp_source_origin: one of testOrigins, ignoring ASCII case and a
// default port.
func isPublisherOrigin(v string) bool {
	v = strings.ToLower(v)
	if strings.HasPrefix(v, "https://") {
		v = strings.TrimSuffix(v, ":443")
	}
	return slices.Contains(testOrigins, v)
}

// FuzzCORSPrefix puts hostile domain prefixes on the Google AMP Cache, where
// the reverse algorithm reads them, and checks Allowed against the oracle:
// no spelling of a prefix other than the publisher host's own is allowed.
func FuzzCORSPrefix(f *testing.F) {
	for _, s := range []string{
		// Spec: the examples of the Basic Algorithm.
		"example-com", "foo-example-com", "foo--example-com", "xn---com-p33b41770a", "0-en--us-example-com-0",
		// Non-canonical spellings of publisher hosts.
		"en--us-example-com", "0-www-example-com-0", "xn--www-example-com-", "xn--bcher-example-wob", "xn--bcher-kva-example",
		// Hash-looking prefixes.
		ampcache.FallbackPrefix(longHost), strings.ToUpper(ampcache.FallbackPrefix(longHost)), "v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq",
	} {
		f.Add(s)
	}
	c := newTestPolicy(f)
	reg, _ := ampcache.NewRegistry(ampcache.Caches())
	f.Fuzz(func(t *testing.T, prefix string) {
		for _, o := range []string{"https://" + prefix + ".cdn.ampproject.org", "https://" + prefix + ".www.bing-amp.com"} {
			if got, want := c.Allowed(o), allowedSlow(reg, testOrigins, testHosts, o); got != want {
				t.Fatalf("Allowed(%q) = %v, oracle says %v", o, got, want)
			}
		}
	})
}

// BenchmarkAllowed compares the two ways to check a cache Origin: the
// precomputed set of Allowed (decision C1), and reading the Origin back
// with PublisherDomain and looking the host up.
func BenchmarkAllowed(b *testing.B) {
	c := newTestPolicy(b)
	reg, _ := ampcache.NewRegistry(ampcache.Caches())
	hosts := map[string]bool{}
	for _, h := range testHosts {
		hosts[h] = true
	}
	// The floor: one lookup of a string already lowercased, in a map of
	// the same allowed origins.
	floor := maps.Clone(c.allowed)
	b.Run("impl=map-floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !floor[googleOrigin] {
				b.Fatal("not allowed")
			}
		}
	})
	b.Run("impl=precomputed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !c.Allowed(googleOrigin) {
				b.Fatal("not allowed")
			}
		}
	})
	b.Run("impl=reverse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if d, err := reg.PublisherDomain(googleOrigin); err != nil || !hosts[d] {
				b.Fatal("not allowed")
			}
		}
	})
}
