// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/host"
)

// Policy is the CORS policy of a publisher's API: the origins whose AMP
// pages may call it, on the publisher's own origins and on AMP Caches, and
// the AMP for Email senders allowed to. Build it with [New] and wrap a
// handler with [Policy.Handler]. A Policy is immutable and safe for
// concurrent use. The zero Policy allows no Origin and no sender.
type Policy struct {
	// allowed holds every allowed Origin, lowercased: the publisher's
	// origins and the cache origin of each publisher domain on each cache.
	allowed map[string]bool
	// publisher holds the publisher's own origins, lowercased, the only
	// allowed values of __amp_source_origin on a web request.
	publisher map[string]bool
	// senders holds the allowed AMP for Email senders, lowercased; nil
	// when AMP for Email is off.
	senders map[string]bool
	// vary is the Vary value of every response.
	vary []string
}

// Allowed reports whether origin, the value of an Origin header, is one of
// the publisher's origins or the origin of one of the publisher's domains
// on a cache of the registry. The comparison ignores ASCII case and the
// scheme's default port (":443" after "https://", ":80" after "http://"),
// as origins compare (RFC 6454 sections 4 and 5), and as
// [ampcache.PublisherDomain] reads a cache origin. It makes no
// allocations.
func (p *Policy) Allowed(origin string) bool {
	return lookupFold(p.allowed, origin, true)
}

// lookupFold reports whether the ASCII lowercase of s is in m, without
// allocating. If origin is set, a default port is dropped first.
func lookupFold(m map[string]bool, s string, origin bool) bool {
	if len(s) > maxOriginLen {
		return false
	}
	var buf [maxOriginLen]byte
	return lookupLower(m, buf[:copy(buf[:], s)], origin)
}

// lookupLower is lookupFold of b, which it lowercases in place.
func lookupLower(m map[string]bool, b []byte, origin bool) bool {
	for i, c := range b {
		b[i] = host.Lower(c)
	}
	if origin {
		b = trimDefaultPort(b)
	}
	return m[string(b)]
}

// trimDefaultPort drops ":443" from a lowercase https origin and ":80"
// from an http one.
func trimDefaultPort(b []byte) []byte {
	switch {
	case bytes.HasPrefix(b, []byte("https://")) && bytes.HasSuffix(b, []byte(":443")):
		return b[:len(b)-len(":443")]
	case bytes.HasPrefix(b, []byte("http://")) && bytes.HasSuffix(b, []byte(":80")):
		return b[:len(b)-len(":80")]
	}
	return b
}

// Handler returns a handler that answers the CORS protocol for next, by
// the rules of "CORS in AMP" and "CORS in AMP for Email" (amp.dev) and
// the decisions in the package documentation. In order:
//
//   - Every response gets "Vary: Origin" (and "AMP-Email-Sender" when
//     AMP for Email is on), added to any Vary already set, as the Fetch
//     standard asks of a server whose CORS headers depend on the request.
//     next should use Header().Add, not Set, for its own Vary values.
//   - Several Origin headers, or one that is "null", empty, longer than an
//     allowed origin can be, or holds bytes other than visible ASCII or a
//     comma, are refused.
//   - A preflight (OPTIONS with an Origin and Access-Control-Request-Method)
//     is answered by the middleware and never reaches next: from an Origin
//     that is not [Policy.Allowed], it is refused, whatever it asks for,
//     AMP-Email-Sender included; from an allowed Origin, it gets 204 with
//     the requested method and headers (HTTP tokens) allowed for [MaxAge]
//     seconds.
//   - AMP for Email, when Config.EmailSenders is set and the request has
//     an AMP-Email-Sender header: see below.
//   - A request with an Origin that is not allowed is refused.
//   - The __amp_source_origin query parameter, on every request that gets
//     this far, CORS or not: every form of it must carry one value, one of
//     the publisher's origins; it is echoed in
//     AMP-Access-Control-Allow-Source-Origin. See below.
//   - A request with an allowed Origin reaches next with
//     Access-Control-Allow-Origin (the Origin as sent),
//     Access-Control-Allow-Credentials, and Access-Control-Expose-Headers
//     for AMP-Redirect-To and AMP-Access-Control-Allow-Source-Origin.
//   - A request with no Origin (a same-origin request marked
//     "AMP-Same-Origin: true", or a request that is not CORS) reaches next
//     with no Access-Control headers.
//
// A refusal is a 403 with a one-line text/plain body naming the reason,
// never the input; next is not called.
//
// The __amp_source_origin check reads the query as net/url does (so
// [net/url.URL.Query] sees only what was checked): names are unescaped, so "%5F%5Famp_source_origin" is the same
// parameter as "__amp_source_origin". It reads more than net/url, so that
// a parser with other rules behind next cannot be fooled either: names
// compare ignoring ASCII case, ";" separates parameters as "&" does, and a
// name with a bad escape is read with the escape kept as it is. A
// parameter that appears several times must have the same value each
// time, after unescaping; a value that is not validly escaped is refused.
// The parameter is not removed: next sees the URL as sent, in which every
// form of it holds the checked value. The middleware does not read the
// body, so next must read __amp_source_origin from r.URL.Query(), not
// with [net/http.Request.FormValue], which prefers a form body's value.
//
// AMP for Email (version 2) sends AMP-Email-Sender, the sender's address,
// and version 1 clients sent __amp_source_origin instead; the Origin is
// the mail client's, such as https://mail.google.com, which no list of the
// publisher's can name. The email path checks:
//
//   - exactly one AMP-Email-Sender, one of Config.EmailSenders, ignoring
//     ASCII case, else the request is refused;
//   - every form of __amp_source_origin, if any, equal to that sender,
//     ignoring ASCII case (a client that sends both sends the same
//     address), else the request is refused;
//   - the Origin, if any, well formed, as above.
//
// It then reaches next with AMP-Email-Allow-Sender, the sender as sent,
// and with the Access-Control headers above only if the Origin is
// allowed. It does not check the Origin against the allowed ones, and
// this is safe: AMP-Email-Sender is not a CORS-safelisted request header,
// so a browser sends it cross-origin only after a preflight, and the
// preflight of any Origin not allowed is refused; a response to an
// Origin not allowed carries no Access-Control-Allow-Origin, so no page
// of that origin can read it; and a client that is not a browser can send
// any Origin it likes, so the header proves nothing there. Mail clients
// fetch through their own servers (Gmail proxies every request of an AMP
// email), which send no preflight. Version 1 alone, with no
// AMP-Email-Sender, is not answered: it asks for the mail client's Origin
// in Access-Control-Allow-Origin, a grant this package cannot tell apart
// from one to any other site.
//
// The middleware's own work makes no allocations on the allowed paths,
// except to echo an __amp_source_origin.
func (p *Policy) Handler(next http.Handler) http.Handler {
	return &handler{p: p, next: next}
}

type handler struct {
	p    *Policy
	next http.Handler
}

// Response header values, shared by every response. Each slice has its
// length as capacity, so a later Header().Add copies it instead of
// writing into it.
var (
	hdrTrue          = []string{"true"}
	hdrVaryOrigin    = []string{"Origin"}
	hdrVaryEmail     = []string{"Origin, AMP-Email-Sender"}
	hdrExposeHeaders = []string{"AMP-Redirect-To, AMP-Access-Control-Allow-Source-Origin"}
	hdrMaxAge        = []string{strconv.Itoa(MaxAge)}
)

// Refusal reasons, the body of a 403 answer.
const (
	refuseOrigin       = "ampcors: origin not allowed"
	refuseMalformed    = "ampcors: malformed Origin header"
	refuseSourceOrigin = "ampcors: __amp_source_origin not allowed"
	refusePreflight    = "ampcors: malformed preflight"
	refuseSender       = "ampcors: AMP-Email-Sender not allowed"
)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := h.p
	wh := w.Header()
	if p.vary != nil {
		addVary(wh, p.vary)
	} else {
		addVary(wh, hdrVaryOrigin) // the zero Policy
	}

	origins, hasOrigin := r.Header["Origin"]
	if hasOrigin && (len(origins) != 1 || !wellFormedOrigin(origins[0])) {
		refuse(w, refuseMalformed)
		return
	}
	allowed := hasOrigin && p.Allowed(origins[0])

	if hasOrigin && r.Method == http.MethodOptions {
		if m, ok := r.Header["Access-Control-Request-Method"]; ok {
			switch {
			case !allowed:
				refuse(w, refuseOrigin)
			case !p.checkSourceOrigin(w, r.URL.RawQuery, ""):
				refuse(w, refuseSourceOrigin)
			default:
				p.preflight(w, r, origins, m)
			}
			return
		}
	}

	if p.senders != nil {
		if s, ok := r.Header["Amp-Email-Sender"]; ok {
			if len(s) != 1 || !lookupFold(p.senders, s[0], false) {
				refuse(w, refuseSender)
				return
			}
			if !p.checkSourceOrigin(w, r.URL.RawQuery, s[0]) {
				refuse(w, refuseSourceOrigin)
				return
			}
			wh["Amp-Email-Allow-Sender"] = s[:1:1]
			if allowed {
				setAllowOrigin(wh, origins)
			}
			h.next.ServeHTTP(w, r)
			return
		}
	}

	if hasOrigin && !allowed {
		refuse(w, refuseOrigin)
		return
	}
	if !p.checkSourceOrigin(w, r.URL.RawQuery, "") {
		refuse(w, refuseSourceOrigin)
		return
	}
	if hasOrigin {
		setAllowOrigin(wh, origins)
	}
	h.next.ServeHTTP(w, r)
}

// checkSourceOrigin reports whether every __amp_source_origin parameter of
// rawQuery has one value, allowed: equal to sender, ignoring ASCII case,
// if sender is set, else one of the publisher's origins. If there is one,
// it echoes the value in AMP-Access-Control-Allow-Source-Origin. A query
// without the parameter is allowed.
func (p *Policy) checkSourceOrigin(w http.ResponseWriter, rawQuery, sender string) bool {
	if rawQuery == "" {
		return true // the common case: spare zeroing the buffers below
	}
	var buf [maxOriginLen]byte
	v, found, ok := sourceOrigin(rawQuery, &buf)
	if !ok {
		return false
	}
	if !found {
		return true
	}
	if sender != "" {
		ok = equalFold(v, sender)
	} else {
		var lower [maxOriginLen]byte
		ok = lookupLower(p.publisher, lower[:copy(lower[:], v)], true)
	}
	if ok {
		w.Header()["Amp-Access-Control-Allow-Source-Origin"] = []string{string(v)}
	}
	return ok
}

// setAllowOrigin sets the headers of an allowed CORS request.
func setAllowOrigin(wh http.Header, origins []string) {
	wh["Access-Control-Allow-Origin"] = origins[:1:1]
	wh["Access-Control-Allow-Credentials"] = hdrTrue
	if e, ok := wh["Access-Control-Expose-Headers"]; ok {
		wh["Access-Control-Expose-Headers"] = append(e, hdrExposeHeaders[0])
	} else {
		wh["Access-Control-Expose-Headers"] = hdrExposeHeaders
	}
}

// preflight answers a CORS preflight from an allowed origin: 204 with the
// requested method and headers allowed, or 403 if they are not tokens. The
// origin is the gate: a page of the publisher's may call its API with any
// method and headers.
func (p *Policy) preflight(w http.ResponseWriter, r *http.Request, origins, method []string) {
	if len(method) != 1 || !isToken(method[0]) {
		refuse(w, refusePreflight)
		return
	}
	hs := r.Header["Access-Control-Request-Headers"]
	for _, v := range hs {
		if !isTokenList(v) {
			refuse(w, refusePreflight)
			return
		}
	}
	wh := w.Header()
	delete(wh, "Amp-Access-Control-Allow-Source-Origin")
	wh["Access-Control-Allow-Origin"] = origins[:1:1]
	wh["Access-Control-Allow-Credentials"] = hdrTrue
	wh["Access-Control-Allow-Methods"] = method[:1:1]
	if len(hs) > 0 {
		wh["Access-Control-Allow-Headers"] = hs[:len(hs):len(hs)]
	}
	wh["Access-Control-Max-Age"] = hdrMaxAge
	w.WriteHeader(http.StatusNoContent)
}

// wellFormedOrigin reports whether o could be a serialized origin: not
// "null", not empty, not longer than maxOriginLen, and only visible ASCII
// other than the comma that would join two origins.
func wellFormedOrigin(o string) bool {
	if o == "" || o == "null" || len(o) > maxOriginLen {
		return false
	}
	return isVisibleASCII(o) && strings.IndexByte(o, ',') < 0
}

func isVisibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// isToken reports whether s is an HTTP token (RFC 9110 section 5.6.2).
func isToken(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenChar(s[i]) {
			return false
		}
	}
	return true
}

// isTokenList reports whether s is a comma-separated list of HTTP tokens,
// as Access-Control-Request-Headers is (Fetch standard, "CORS-preflight
// request"). An empty list is allowed.
func isTokenList(s string) bool {
	if len(s) > 4096 {
		return false
	}
	for s != "" {
		var t string
		t, s, _ = strings.Cut(s, ",")
		t = strings.Trim(t, " \t")
		if t != "" && !isToken(t) {
			return false
		}
	}
	return true
}

func isTokenChar(ch byte) bool {
	switch {
	case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", ch) >= 0
}

// addVary adds the names of want (one value, "Origin" or "Origin,
// AMP-Email-Sender") to the Vary header, unless each is there or Vary is
// "*". With no Vary yet, it sets want itself, without allocating.
func addVary(h http.Header, want []string) {
	vs, ok := h["Vary"]
	if !ok {
		h["Vary"] = want
		return
	}
	for name := range strings.SplitSeq(want[0], ", ") {
		if !varyHas(vs, name) {
			vs = append(vs, name)
		}
	}
	h["Vary"] = vs
}

// varyHas reports whether the Vary values vs name name, or are "*".
func varyHas(vs []string, name string) bool {
	for _, v := range vs {
		for v != "" {
			var f string
			f, v, _ = strings.Cut(v, ",")
			f = strings.Trim(f, " \t")
			if f == "*" || host.EqualFold(f, name) {
				return true
			}
		}
	}
	return false
}

// refuse answers 403 with a short plain-text reason.
func refuse(w http.ResponseWriter, reason string) {
	http.Error(w, reason, http.StatusForbidden)
}
