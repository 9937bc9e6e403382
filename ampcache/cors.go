package ampcache

import (
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// CORSMaxAge is the Access-Control-Max-Age, in seconds, of the preflight
// responses of [CORS]: two hours, the longest that Chromium honours (it
// clamps larger values to 7200). Firefox would keep a preflight for up to a
// day; the publisher's origins change too rarely for that to matter, and two
// hours bounds how long a browser remembers a preflight after a change.
const CORSMaxAge = 7200

// CORSConfig configures a [CORS] middleware.
type CORSConfig struct {
	// Origins are the publisher's own origins, as a browser serializes
	// them: a scheme ("https" or "http"), "://", a host, and a port only if
	// it is not the scheme's default, such as "https://example.com" or
	// "http://localhost:8080". Letters may be in any case, a Unicode host is
	// converted to its ASCII form, and a default port is dropped. There
	// must be at least one.
	Origins []string
	// Registry is the list of AMP Caches whose origins are allowed. Nil
	// means the built-in caches, [Caches].
	Registry *Registry
	// EmailSenders are the AMP for Email senders allowed to make requests,
	// such as "newsletter@example.com". Empty turns AMP for Email off: the
	// AMP-Email-Sender header is then ignored.
	EmailSenders []string
}

// CORS is a net/http middleware that answers the CORS requests of a
// publisher's AMP pages, whether served from the publisher's own origins or
// from an AMP Cache, by the rules of "CORS in AMP" (amp.dev) and the
// decisions in the package documentation. Build it with [NewCORS] and wrap
// a handler with [CORS.Handler]. A CORS is immutable and safe for
// concurrent use.
type CORS struct {
	// allowed holds every allowed Origin, lowercased: the publisher's
	// origins and the cache origin of each publisher host on each cache.
	allowed map[string]bool
	// publisher holds the publisher's own origins, lowercased, for the
	// __amp_source_origin check.
	publisher map[string]bool
	// senders holds the allowed AMP for Email senders, lowercased.
	senders map[string]bool
}

// NewCORS returns a CORS middleware for the publisher origins of cfg. It
// computes at once every cache origin it will accept: for each host of
// cfg.Origins that is a domain (not an IP address), its [Cache.Origin] on
// each cache of the registry.
//
// It returns an error wrapping [ErrEmpty] when cfg.Origins is empty,
// [ErrInvalidOrigin] when one is not a serialized http or https origin,
// [ErrTooLong] when one is longer than an origin can be, the error of
// [DomainPrefix] when a publisher host is not a valid domain, or
// [ErrInvalidSender] when an email sender is not an address.
func NewCORS(cfg CORSConfig) (*CORS, error) {
	if len(cfg.Origins) == 0 {
		return nil, newError(ErrEmpty, "", "no publisher origins")
	}
	reg := cfg.Registry
	if reg == nil {
		var err error
		if reg, err = NewRegistry(Caches()); err != nil {
			return nil, err
		}
	}
	c := &CORS{
		allowed:   make(map[string]bool),
		publisher: make(map[string]bool),
		senders:   make(map[string]bool),
	}
	for _, o := range cfg.Origins {
		origin, host, err := parsePublisherOrigin(o)
		if err != nil {
			return nil, err
		}
		c.publisher[origin] = true
		c.allowed[origin] = true
		if isIPHost(host) {
			continue // caches serve domains only
		}
		cacheOrigins, err := reg.Origins(host)
		if err != nil {
			return nil, err
		}
		for _, co := range cacheOrigins {
			c.allowed[strings.ToLower(co)] = true
		}
	}
	for _, s := range cfg.EmailSenders {
		if s == "" || len(s) > maxOriginLen || !isVisibleASCII(s) || !strings.Contains(s, "@") {
			return nil, newError(ErrInvalidSender, s, "")
		}
		c.senders[strings.ToLower(s)] = true
	}
	return c, nil
}

// parsePublisherOrigin parses a publisher origin of [CORSConfig] and returns
// it serialized as a browser does (RFC 6454 section 6.2: lowercase scheme
// and host, ASCII host, no default port), with its host.
func parsePublisherOrigin(o string) (origin, host string, err error) {
	bad := func(detail string) (string, string, error) {
		return "", "", newError(ErrInvalidOrigin, o, detail)
	}
	if len(o) > 4*maxOriginLen {
		return "", "", newError(ErrTooLong, o, "")
	}
	u, err := url.Parse(o)
	if err != nil {
		return bad("not a URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return bad(`scheme is not "https" or "http"`)
	}
	if u.Opaque != "" || u.User != nil || u.Host == "" || u.Path != "" ||
		u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return bad("want scheme://host[:port] and nothing else")
	}
	host, port := u.Hostname(), u.Port()
	if port == "" && strings.HasSuffix(u.Host, ":") {
		return bad("empty port")
	}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return bad("port out of range")
		}
		port = strconv.FormatUint(n, 10) // "08080" is 8080
	}
	if isIPHost(host) {
		a, err := netip.ParseAddr(host)
		if err != nil || a.Zone() != "" {
			return bad("invalid IP address")
		}
		host = a.String()
		if a.Is6() {
			host = "[" + host + "]"
		}
	} else {
		if host, err = idna.Lookup.ToASCII(host); err != nil || host == "" {
			return bad("invalid host")
		}
	}
	if port == "80" && scheme == "http" || port == "443" && scheme == "https" {
		port = ""
	}
	origin = scheme + "://" + host
	if port != "" {
		origin += ":" + port
	}
	if len(origin) > maxOriginLen {
		return "", "", newError(ErrTooLong, o, "")
	}
	return origin, strings.Trim(host, "[]"), nil
}

// isIPHost reports whether host, without brackets, is an IP address literal.
func isIPHost(host string) bool {
	if strings.Contains(host, ":") {
		return true // IPv6, or garbage that ParseAddr rejects
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}

// Allowed reports whether origin, the value of an Origin header, is one of
// the publisher's origins or the origin of one of the publisher's hosts on
// a cache of the registry. The comparison ignores ASCII case and the
// scheme's default port, as origins do (RFC 6454 sections 4 and 5), and
// as [PublisherDomain] does. It makes no allocations.
func (c *CORS) Allowed(origin string) bool {
	return lookupFold(c.allowed, origin, true)
}

// lookupFold reports whether the lowercase of s is in m, without
// allocating. If origin is set, a default port is dropped first.
func lookupFold(m map[string]bool, s string, origin bool) bool {
	if len(s) > maxOriginLen {
		return false
	}
	var buf [maxOriginLen]byte
	b := buf[:len(s)]
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		b[i] = ch
	}
	switch {
	case !origin:
	case hasPrefixFold(s, "https://") && strings.HasSuffix(s, ":443"):
		b = b[:len(b)-len(":443")]
	case hasPrefixFold(s, "http://") && strings.HasSuffix(s, ":80"):
		b = b[:len(b)-len(":80")]
	}
	return m[string(b)]
}

// Handler returns a handler that answers the CORS protocol for next, by the
// rules in the package documentation:
//
//   - a request with an allowed Origin reaches next with the CORS response
//     headers set: Access-Control-Allow-Origin (the request's Origin),
//     Access-Control-Allow-Credentials, and Access-Control-Expose-Headers
//     for AMP-Redirect-To and AMP-Access-Control-Allow-Source-Origin;
//   - a same-origin request, with no Origin and "AMP-Same-Origin: true",
//     reaches next with no Access-Control headers;
//   - an __amp_source_origin query parameter equal to a publisher origin
//     is echoed in AMP-Access-Control-Allow-Source-Origin;
//   - a preflight (OPTIONS with Access-Control-Request-Method) from an
//     allowed Origin is answered 204 by the middleware, with the requested
//     method and headers allowed for [CORSMaxAge] seconds;
//   - any other Origin, a malformed one, or an __amp_source_origin query
//     parameter that is not a publisher origin is refused with 403 and a
//     short plain-text body, and next is not called;
//   - a request with no Origin and no AMP-Same-Origin reaches next with no
//     CORS headers.
//
// Every response gets "Vary: Origin", added to any Vary already set, as the
// Fetch standard asks of a server whose CORS headers depend on the Origin.
// next should use Header().Add, not Set, for its own Vary values. The
// middleware's own work makes no allocations on these paths, except with
// an __amp_source_origin parameter.
func (c *CORS) Handler(next http.Handler) http.Handler {
	return &corsHandler{c: c, next: next}
}

type corsHandler struct {
	c    *CORS
	next http.Handler
}

// Response header values, shared by every response. Each slice has its
// length as capacity, so a later Header().Add copies it instead of
// writing into it.
var (
	hdrTrue          = []string{"true"}
	hdrOrigin        = []string{"Origin"}
	hdrExposeHeaders = []string{"AMP-Redirect-To, AMP-Access-Control-Allow-Source-Origin"}
	hdrMaxAge        = []string{strconv.Itoa(CORSMaxAge)}
)

// Refusal reasons, the body of a 403 answer.
const (
	refuseOrigin       = "ampcache: CORS origin not allowed"
	refuseMalformed    = "ampcache: malformed Origin header"
	refuseSourceOrigin = "ampcache: __amp_source_origin not allowed"
	refusePreflight    = "ampcache: malformed CORS preflight"
	refuseSender       = "ampcache: AMP-Email-Sender not allowed"
)

func (h *corsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := h.c
	wh := w.Header()
	addVaryOrigin(wh)

	if len(c.senders) > 0 {
		if s, ok := r.Header["Amp-Email-Sender"]; ok {
			if len(s) != 1 || !lookupFold(c.senders, s[0], false) {
				refuse(w, refuseSender)
				return
			}
			wh["Amp-Email-Allow-Sender"] = s[:1:1]
			h.next.ServeHTTP(w, r)
			return
		}
	}

	origins, hasOrigin := r.Header["Origin"]
	if !hasOrigin {
		if !sameOrigin(r.Header) {
			h.next.ServeHTTP(w, r) // not a CORS request
			return
		}
	} else {
		if len(origins) != 1 || !wellFormedOrigin(origins[0]) {
			refuse(w, refuseMalformed)
			return
		}
		if !c.Allowed(origins[0]) {
			refuse(w, refuseOrigin)
			return
		}
	}

	var sourceOrigin string
	if strings.Contains(r.URL.RawQuery, "__amp_source_origin") {
		var ok bool
		if sourceOrigin, ok = c.sourceOrigin(r.URL.RawQuery); !ok {
			refuse(w, refuseSourceOrigin)
			return
		}
	}

	if hasOrigin && r.Method == http.MethodOptions {
		if m, ok := r.Header["Access-Control-Request-Method"]; ok {
			c.preflight(w, r, origins, m)
			return
		}
	}
	if hasOrigin {
		wh["Access-Control-Allow-Origin"] = origins[:1:1]
		wh["Access-Control-Allow-Credentials"] = hdrTrue
		if e, ok := wh["Access-Control-Expose-Headers"]; ok {
			wh["Access-Control-Expose-Headers"] = append(e, hdrExposeHeaders[0])
		} else {
			wh["Access-Control-Expose-Headers"] = hdrExposeHeaders
		}
	}
	if sourceOrigin != "" {
		wh["Amp-Access-Control-Allow-Source-Origin"] = []string{sourceOrigin}
	}
	h.next.ServeHTTP(w, r)
}

// preflight answers a CORS preflight from an allowed origin: 204 with the
// requested method and headers allowed, or 403 if they are not tokens. The
// origin is the gate: a page of the publisher's may call its API with any
// method and headers.
func (c *CORS) preflight(w http.ResponseWriter, r *http.Request, origins, method []string) {
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
	wh["Access-Control-Allow-Origin"] = origins[:1:1]
	wh["Access-Control-Allow-Credentials"] = hdrTrue
	wh["Access-Control-Allow-Methods"] = method[:1:1]
	if len(hs) > 0 {
		wh["Access-Control-Allow-Headers"] = hs[:len(hs):len(hs)]
	}
	wh["Access-Control-Max-Age"] = hdrMaxAge
	w.WriteHeader(http.StatusNoContent)
}

// sameOrigin reports whether the request has exactly one AMP-Same-Origin
// header, "true": the AMP runtime's mark of a same-origin request, which
// has no Origin header.
func sameOrigin(h http.Header) bool {
	v := h["Amp-Same-Origin"]
	return len(v) == 1 && v[0] == "true"
}

// sourceOrigin returns the value of the one __amp_source_origin parameter
// of the query and whether it is one of the publisher's origins. The
// parameter given twice, or badly escaped, is not allowed.
func (c *CORS) sourceOrigin(rawQuery string) (string, bool) {
	var value string
	found := false
	for q := rawQuery; q != ""; {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		k, v, _ := strings.Cut(kv, "=")
		if k != "__amp_source_origin" {
			if strings.Contains(k, "%") || strings.Contains(k, "+") {
				uk, err := url.QueryUnescape(k)
				if err != nil || uk == "__amp_source_origin" {
					return "", false
				}
			}
			continue
		}
		if found {
			return "", false
		}
		found = true
		var err error
		if value, err = url.QueryUnescape(v); err != nil {
			return "", false
		}
	}
	if !found {
		return "", true // the name only appeared in a value
	}
	return value, lookupFold(c.publisher, value, true)
}

// wellFormedOrigin reports whether o could be a serialized origin: not
// "null", not empty, not longer than maxOriginLen, and only visible ASCII
// other than the comma that would join two origins.
func wellFormedOrigin(o string) bool {
	if o == "" || o == "null" || len(o) > maxOriginLen {
		return false
	}
	return isVisibleASCII(o) && !strings.Contains(o, ",")
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
// as Access-Control-Request-Headers is (Fetch standard, section 4.8). An
// empty list is allowed.
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

// addVaryOrigin adds "Origin" to the Vary header, unless it is there or
// Vary is "*".
func addVaryOrigin(h http.Header) {
	vs, ok := h["Vary"]
	if !ok {
		h["Vary"] = hdrOrigin
		return
	}
	for _, v := range vs {
		for v != "" {
			var f string
			f, v, _ = strings.Cut(v, ",")
			f = strings.Trim(f, " \t")
			if f == "*" || strings.EqualFold(f, "Origin") {
				return
			}
		}
	}
	h["Vary"] = append(vs, "Origin")
}

// refuse answers 403 with a short plain-text reason.
func refuse(w http.ResponseWriter, reason string) {
	http.Error(w, reason, http.StatusForbidden)
}
