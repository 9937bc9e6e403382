// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/inputerr"
)

// MaxAge is the Access-Control-Max-Age, in seconds, of the preflight
// responses of [Policy.Handler]: two hours, the longest that Chromium
// honours (it clamps larger values to 7200). Firefox would keep a preflight
// for up to a day; the publisher's origins change too rarely for that to
// matter, and two hours bounds how long a browser remembers a preflight
// after a change.
const MaxAge = 7200

// Config configures a [Policy]. Only Origins is required.
type Config struct {
	// Origins are the publisher's own origins, as a browser serializes
	// them: a scheme ("https" or "http"), "://", a host, and a port only if
	// it is not the scheme's default, such as "https://example.com" or
	// "http://localhost:8080". A host is a domain, an IPv4 address in
	// dotted-decimal form, or an IPv6 address in brackets. [New] reads each
	// as a browser's URL parser reads the origin of a URL, and keeps it in
	// the form the browser sends: letters may be in any case, a Unicode
	// host becomes its ASCII form by the URL standard's rules, a default
	// port is dropped, a port's leading zeros are dropped, and an empty
	// port (a trailing ":") is no port. Anything
	// else (a path, even "/", a query, a fragment, userinfo, a
	// percent-escape) is an error. There must be at least one.
	Origins []string
	// Registry is the list of AMP Caches whose origins are allowed. Nil
	// means the built-in caches, [ampcache.Caches]. A Registry with no
	// caches allows only the publisher's own origins.
	Registry *ampcache.Registry
	// EmailSenders are the AMP for Email senders allowed to make requests,
	// such as "newsletter@example.com". Nil or empty turns AMP for Email
	// off: the AMP-Email-Sender header is then ignored.
	EmailSenders []string
}

// maxOriginLen bounds an origin this package allows: "https://", a
// domain prefix of 63 bytes, a dot and a cache domain of at most 253
// bytes, or a publisher host, and a port. A longer Origin header is
// never allowed, so checking one needs no allocation.
const maxOriginLen = len("https://") + 63 + 1 + 253 + len(":65535")

// maxConfigLen bounds an entry of Config.Origins before it is parsed:
// room for a Unicode host whose ASCII form fits in maxOriginLen.
const maxConfigLen = 4 * maxOriginLen

// maxSenderLen bounds an email sender: the longest address that fits in
// the 256-byte forward path of RFC 5321, section 4.5.3.1.3.
const maxSenderLen = 254

// New returns the Policy of cfg. It computes at once every cache origin
// it will accept: for each host of cfg.Origins that is a domain, not an IP
// address, its [ampcache.Cache.Origin] on each cache of the registry.
//
// It returns an error wrapping [ErrEmpty] when cfg.Origins is empty,
// [ErrInvalidOrigin] when an entry is not an http or https origin, or its
// host has no domain prefix (then the error wraps ampcache's too),
// [ErrTooLong] when an entry is longer than an origin can be, or
// [ErrInvalidSender] when an email sender is not an address. The message
// names the field, such as "Config.Origins[2]".
func New(cfg Config) (*Policy, error) {
	if len(cfg.Origins) == 0 {
		return nil, inputerr.Field(ErrEmpty, "ampcors", "Config.Origins", "empty")
	}
	p := &Policy{
		allowed:   make(map[string]bool),
		publisher: make(map[string]bool),
	}
	for i, o := range cfg.Origins {
		field := "Config.Origins[" + strconv.Itoa(i) + "]"
		origin, domain, err := parseOrigin(field, o)
		if err != nil {
			return nil, err
		}
		p.publisher[origin] = true
		p.allowed[origin] = true
		if domain == "" {
			continue // an IP address: caches serve domains only
		}
		var cacheOrigins []string
		if cfg.Registry == nil {
			cacheOrigins, err = ampcache.Origins(domain)
		} else {
			cacheOrigins, err = cfg.Registry.Origins(domain)
		}
		if err != nil {
			return nil, inputerr.InField(ErrInvalidOrigin, field, o, "host has no AMP Cache domain prefix", err)
		}
		for _, co := range cacheOrigins {
			if len(co) > maxOriginLen {
				return nil, inputerr.InField(ErrTooLong, field, o, "cache origin "+strconv.Quote(co[:maxQuoted])+"... is too long", nil)
			}
			p.allowed[lowerASCII(co)] = true
		}
	}
	for i, s := range cfg.EmailSenders {
		if !validSender(s) {
			return nil, inputerr.InField(ErrInvalidSender, "Config.EmailSenders["+strconv.Itoa(i)+"]", s,
				"want an address of visible ASCII, with an @, no comma, at most 254 bytes", nil)
		}
		if p.senders == nil {
			p.senders = make(map[string]bool)
		}
		p.senders[lowerASCII(s)] = true
	}
	if len(p.senders) > 0 {
		p.vary = hdrVaryEmail
	} else {
		p.vary = hdrVaryOrigin
	}
	return p, nil
}

// validSender reports whether s can be an AMP-Email-Sender: visible ASCII
// with an "@", no comma (which would join two header values), and no
// longer than an address can be.
func validSender(s string) bool {
	return s != "" && len(s) <= maxSenderLen && isVisibleASCII(s) &&
		strings.IndexByte(s, '@') >= 0 && strings.IndexByte(s, ',') < 0
}

// parseOrigin reads an entry of Config.Origins as a browser's URL parser
// reads the origin of a URL (WHATWG URL standard, "URL parsing" and
// "origin"), and returns it serialized as a browser sends it in an Origin
// header (RFC 6454 section 6.2): lowercase scheme, ASCII host, no default
// port. domain is its host if the host is a domain, or "" for an IP
// address. Errors name field.
func parseOrigin(field, s string) (origin, domain string, err error) {
	bad := func(detail string) (string, string, error) {
		return "", "", inputerr.InField(ErrInvalidOrigin, field, s, detail, nil)
	}
	if len(s) > maxConfigLen {
		return "", "", inputerr.InField(ErrTooLong, field, s, "", nil)
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return bad(`want scheme://host[:port]`)
	}
	var defaultPort int
	switch {
	case host.EqualFold(scheme, "https"):
		scheme, defaultPort = "https", 443
	case host.EqualFold(scheme, "http"):
		scheme, defaultPort = "http", 80
	default:
		return bad(`scheme is not "https" or "http"`)
	}
	if strings.ContainsAny(rest, "/?#@\\") {
		return bad("want scheme://host[:port] and nothing else")
	}

	// Split the host and the port. An IPv6 address is in brackets; any
	// other host has no colon.
	var h, port string
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return bad("unclosed IPv6 address")
		}
		h, port = rest[:end+1], rest[end+1:]
		if port != "" && port[0] != ':' {
			return bad("want scheme://host[:port] and nothing else")
		}
		port = strings.TrimPrefix(port, ":")
	} else {
		h, port, _ = strings.Cut(rest, ":")
		if strings.IndexByte(port, ':') >= 0 {
			return bad("a host other than an IPv6 address has no colon")
		}
	}
	// The port state of the URL parser: an empty port is no port.
	if port != "" {
		n, ok := host.Port(port)
		if !ok {
			return bad("port is not a number from 0 to 65535")
		}
		if n == defaultPort {
			port = ""
		} else {
			port = strconv.Itoa(n) // "08080" is 8080
		}
	}

	switch {
	case h == "":
		return bad("empty host")
	case h[0] == '[':
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return bad("invalid IPv6 address")
		}
		h = "[" + serializeIPv6(a) + "]"
	default:
		if h, err = domainToASCII(h); err != nil {
			return bad(err.Error())
		}
		if host.EndsInANumber(h) {
			// The URL parser reads it as an IPv4 address, in one of the
			// several forms it accepts; a configuration must use the
			// one form that a browser serializes.
			a, err := netip.ParseAddr(h)
			if err != nil || !a.Is4() {
				return bad("a host ending in a number must be an IPv4 address in dotted-decimal form")
			}
		} else {
			domain = h
		}
	}

	origin = scheme + "://" + h
	if port != "" {
		origin += ":" + port
	}
	if len(origin) > maxOriginLen {
		return "", "", inputerr.InField(ErrTooLong, field, s, "", nil)
	}
	return origin, domain, nil
}

// hostError is the reason a host is invalid, for the detail of an error.
type hostError string

func (e hostError) Error() string { return string(e) }

// domainToASCII is the URL standard's "domain to ASCII" with beStrict
// false: UTS #46 ToASCII with the browser's profile ([host.Profile]),
// then a check for forbidden domain code points. A percent-escape is
// refused rather than decoded: '%' is itself forbidden.
func domainToASCII(h string) (string, error) {
	for i := 0; i < len(h); i++ {
		if host.Forbidden(h[i]) {
			return "", hostError("host has a forbidden code point " + strconv.QuoteRune(rune(h[i])))
		}
	}
	if !utf8.ValidString(h) {
		// x/net/idna would read a bad byte as U+FFFD and encode it.
		return "", hostError("host is not valid UTF-8")
	}
	a, err := host.Profile.ToASCII(h)
	if err != nil {
		return "", hostError("host is not a valid domain by UTS #46")
	}
	// The result must be a valid ASCII host in its own right, as the URL
	// parser's output is when parsed again.
	if again, err := host.Profile.ToASCII(a); err != nil || again != a {
		return "", hostError("host is not a valid domain by UTS #46")
	}
	if a == "" {
		return "", hostError("empty host")
	}
	for i := 0; i < len(a); i++ {
		if host.Forbidden(a[i]) {
			return "", hostError("host has a forbidden code point " + strconv.QuoteRune(rune(a[i])))
		}
	}
	return a, nil
}

// serializeIPv6 writes a as the URL standard's IPv6 serializer does:
// lowercase hexadecimal pieces without leading zeros, and the first
// longest run of two or more zero pieces as "::". It differs from
// netip.Addr.String for IPv4-mapped addresses, which a browser writes in
// hexadecimal ("::ffff:102:304", not "::ffff:1.2.3.4").
func serializeIPv6(a netip.Addr) string {
	b := a.As16()
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	// The first longest run of zero pieces, if it is longer than one.
	start, length := -1, 1
	for i := 0; i < 8; {
		if pieces[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > length {
			start, length = i, j-i
		}
		i = j
	}
	var out []byte
	for i := 0; i < 8; i++ {
		if i == start {
			out = append(out, "::"...)
			i += length - 1
			continue
		}
		if len(out) > 0 && out[len(out)-1] != ':' {
			out = append(out, ':')
		}
		out = strconv.AppendUint(out, uint64(pieces[i]), 16)
	}
	return string(out)
}

// lowerASCII returns s with ASCII letters lowercased.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = host.Lower(c)
	}
	return string(b)
}
