// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/punycode"
)

// PublisherDomain returns the publisher domain of an AMP Cache Origin, such
// as a browser sends in the Origin header of a CORS request from a cache,
// by the spec's "AMP Cache Origin to Publisher Domain":
//
//	https://www-example-com.cdn.ampproject.org → www.example.com
//
// It accepts only "https://" + prefix + "." + the cacheDomain of a
// registered cache, ignoring ASCII case, with an optional ":443". Anything
// else is an error: another scheme or port, a path, userinfo, "null", a
// prefix with a dot (ErrInvalidOrigin), or a host on no registered cache
// (ErrUnknownCache).
//
// The spec's steps then reverse the domain prefix: (1) punycode decode an
// "xn--" prefix, (2) strip a "0-" prefix and "-0" suffix, (3) read "--" as
// "-" and "-" as ".", and (4) punycode encode each label of the result. The
// result is the publisher domain in ASCII, lowercase form.
//
// A prefix without "-" is a hash, which cannot be reversed: PublisherDomain
// returns an error wrapping [ErrNotReversible]. Compare such an Origin with
// the origins of the domains you know, from [Cache.Origin] or
// [Registry.Origins].
//
// The reverse steps are not injective, so PublisherDomain accepts a result
// only if its [DomainPrefix] is the prefix it was read from; otherwise it
// returns an error wrapping ErrInvalidOrigin. See "Reading an Origin back"
// in the package documentation.
func PublisherDomain(origin string) (string, error) {
	return defaultRegistry.PublisherDomain(origin)
}

// PublisherDomain is like the package-level [PublisherDomain], on r's caches.
func (r *Registry) PublisherDomain(origin string) (string, error) {
	prefix, err := r.originPrefix(origin)
	if err != nil {
		return "", err
	}
	// The prefix is a DNS label of letters, digits and hyphens, with its
	// letters lowercased (the host is case-insensitive).
	var pbuf [maxLabel]byte
	p := pbuf[:len(prefix)]
	for i := 0; i < len(prefix); i++ {
		p[i] = host.Lower(prefix[i])
	}
	if !containsHyphen(p) {
		return "", newError(ErrNotReversible, origin, "")
	}
	domain, err := reversePrefix(origin, p, true)
	if err != nil && wrapped(p) {
		// Step 2 is ambiguous: "0-a--0" is the prefix of "0.a-0", which
		// was never wrapped. Try the reading without it. Its result must
		// pass the check and be a host a URL can have; otherwise the
		// error is the spec's reading's.
		if d, err2 := reversePrefix(origin, p, false); err2 == nil && !host.EndsInANumber(d) {
			domain, err = d, nil
		}
	}
	if err != nil {
		return "", err
	}
	if host.EndsInANumber(domain) {
		return "", newError(ErrInvalidOrigin, origin, strconv.Quote(domain)+" is an IPv4 address, not a publisher domain")
	}
	return domain, nil
}

// wrapped reports whether the prefix p starts with "0-" and ends with "-0",
// as step 2 of the reverse steps tests it.
func wrapped(p []byte) bool {
	return len(p) >= 4 && p[0] == '0' && p[1] == '-' && p[len(p)-2] == '-' && p[len(p)-1] == '0'
}

// reversePrefix returns the domain that the reverse steps read from the
// lowercase prefix p of origin, with or without step 2, if its domain
// prefix is p. Otherwise it returns an error wrapping ErrInvalidOrigin.
func reversePrefix(origin string, p []byte, strip bool) (string, error) {
	var buf [maxDomain + 1]byte
	b, ok := appendReversePrefix(buf[:0], p, strip)
	if !ok {
		return "", newError(ErrInvalidOrigin, origin, "the domain prefix is not valid Punycode")
	}
	domain := string(b)
	// The security check: the result must give back the prefix.
	var cbuf [maxLabel]byte
	if check, err := AppendDomainPrefix(cbuf[:0], domain); err != nil || string(check) != string(p) {
		return "", newError(ErrInvalidOrigin, origin, strconv.Quote(string(p))+" is not the domain prefix of "+strconv.Quote(domain))
	}
	return domain, nil
}

// originPrefix returns the domain prefix of a cache origin, as it appears in
// origin: "https://" + prefix + "." + a registered cache domain, in any
// case, with an optional ":443".
func (r *Registry) originPrefix(origin string) (string, error) {
	switch {
	case origin == "":
		return "", newError(ErrEmpty, origin, "")
	case len(origin) > maxOriginLen:
		return "", newError(ErrTooLong, origin, "")
	case !host.HasPrefixFold(origin, "https://"):
		return "", newError(ErrInvalidOrigin, origin, "not an https origin")
	}
	h := origin[len("https://"):]
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == ':':
		case c == '/' || c == '\\' || c == '?' || c == '#':
			return "", newError(ErrInvalidOrigin, origin, "an origin has no path")
		case c == '@':
			return "", newError(ErrInvalidOrigin, origin, "an origin has no userinfo")
		default:
			return "", newError(ErrInvalidOrigin, origin, "invalid host code point "+quoteByte(c))
		}
	}
	h, port, hasPort := strings.Cut(h, ":")
	if n, ok := host.Port(port); hasPort && (!ok || n != 443) {
		return "", newError(ErrInvalidOrigin, origin, "not the https port")
	}
	// One cache domain may end another ("cdn.example" and "example"):
	// the first cache that leaves one label wins, and a near miss reports
	// what was wrong with it only if none does.
	detail := ""
	for _, c := range r.list() {
		if host.EqualFold(h, c.CacheDomain) {
			detail = "no domain prefix"
			continue
		}
		n := len(h) - len(c.CacheDomain) - 1
		if n < 0 || h[n] != '.' || !host.EqualFold(h[n+1:], c.CacheDomain) {
			continue
		}
		prefix := h[:n]
		switch {
		case prefix == "":
			detail = "no domain prefix"
		case strings.IndexByte(prefix, '.') >= 0:
			detail = "the domain prefix has a dot"
		case len(prefix) > maxLabel:
			detail = "the domain prefix is longer than a DNS label"
		default:
			return prefix, nil
		}
	}
	if detail != "" {
		return "", newError(ErrInvalidOrigin, origin, detail)
	}
	return "", newError(ErrUnknownCache, origin, "")
}

// appendReversePrefix appends the domain that the spec's reverse steps read
// from the lowercase prefix p to dst, with or without step 2. It reports
// false when p is not valid Punycode.
func appendReversePrefix(dst []byte, p []byte, strip bool) ([]byte, bool) {
	// Step 1: punycode decode an "xn--" prefix. A label holds at most 63
	// bytes, so at most 59 code points of 4 bytes.
	var ubuf [4 * maxLabel]byte
	s := p
	if len(p) >= 4 && string(p[:4]) == "xn--" {
		u, err := punycode.AppendDecode(ubuf[:0], string(p[4:]))
		if err != nil {
			return dst, false
		}
		s = u
	}
	// Step 2: strip "0-" and "-0".
	if strip && wrapped(s) {
		s = s[2 : len(s)-2]
	}
	// Step 3: "--" is "-", and any other "-" is ".". Each label is kept in
	// d, and step 4 punycode encodes it into dst when it is not ASCII.
	var dbuf [4 * maxLabel]byte
	d := dbuf[:0]
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '-' && i+1 < len(s) && s[i+1] == '-' {
			d = append(d, '-')
			i++
			continue
		}
		if i < len(s) && s[i] != '-' {
			d = append(d, s[i])
			continue
		}
		// The end of a label: a lone "-", or the end of s.
		var ok bool
		if dst, ok = appendLabel(dst, d, false, false); !ok {
			return dst, false
		}
		if i < len(s) {
			dst = append(dst, '.')
		}
		d = d[:0]
	}
	return dst, true
}
