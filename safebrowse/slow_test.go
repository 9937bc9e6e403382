// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/host"
)

// This file holds the slow oracle: canonicalSlow follows the spec's steps
// literally, on strings, with the simplest code (repeated passes, regular
// expressions, net/netip, strconv), so that the fast code can be checked
// against it in the tables and under fuzzing. It shares only the IDNA profile
// and the package's decisions with the fast code.

var (
	slowScheme        = regexp.MustCompile(`(?s)^([A-Za-z][A-Za-z0-9+.\-]*):(.*)$`)
	slowSchemeSlashes = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*://`)
	slowEscape        = regexp.MustCompile(`%[0-9A-Fa-f]{2}`)
	slowPort          = regexp.MustCompile(`^[0-9]+([/\\?]|$)`)
	slowDigits        = regexp.MustCompile(`^[0-9]+$`)
)

// canonicalSlow returns the canonical form of rawURL, or an error wrapping
// the same sentinel as the fast code's.
func canonicalSlow(rawURL string) (string, error) {
	if len(rawURL) > maxURLLen {
		return "", ErrTooLong
	}
	// Decision: trim bytes <= 0x20.
	s := strings.TrimLeftFunc(rawURL, func(r rune) bool { return r <= ' ' })
	s = strings.TrimRightFunc(s, func(r rune) bool { return r <= ' ' })
	// The trim functions see runes: trim invalid UTF-8 by bytes again.
	s = trimSpace(s)
	if s == "" {
		return "", ErrEmpty
	}
	// Step 1: remove tab, CR and LF.
	s = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(s)
	// Step 2: remove the fragment.
	s, _, _ = strings.Cut(s, "#")
	return canonicalSlowFrom(s, true)
}

// schemeSlow reads the scheme of s as a browser does (decision a). It
// returns the scheme, "http" if s spells none out; the rest of s after the
// scheme and its slashes; whether s spelled the scheme out; and false for
// a scheme that is not hierarchical.
func schemeSlow(s string) (scheme, rest string, read, ok bool) {
	if len(s) >= 2 && strings.ContainsRune(`/\`, rune(s[0])) && strings.ContainsRune(`/\`, rune(s[1])) {
		// Scheme-relative: a host, with no scheme.
		return "http", s[2:], false, true
	}
	m := slowScheme.FindStringSubmatch(s)
	if m == nil {
		return "http", s, false, true
	}
	sc := strings.ToLower(m[1])
	switch {
	case sc == "http" || sc == "https" || sc == "ftp" || sc == "ws" || sc == "wss":
		rest = m[2]
		for range 2 {
			if strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, `\`) {
				rest = rest[1:]
			}
		}
		return sc, rest, true, true
	case strings.HasPrefix(m[2], "//"):
		return sc, m[2][2:], true, true
	case slowPort.MatchString(m[2]):
		// A host and port with no scheme.
		return "http", s, false, true
	}
	return "", "", false, false
}

// canonicalSlowFrom is canonicalSlow after step 2. When raw is false, s is
// the unescaped input of decision g, read without applying it again.
func canonicalSlowFrom(s string, raw bool) (string, error) {
	if s == "" {
		return "", ErrNoHost
	}
	scheme, rest, schemeRead, ok := schemeSlow(s)
	if !ok {
		return "", ErrScheme
	}
	// Decision b: the authority, as a browser reads it.
	auth, rest := rest, ""
	if i := strings.IndexAny(auth, `/\?`); i >= 0 {
		auth, rest = auth[:i], auth[i:]
	}
	host, port := slowHostOfAuthority(auth)

	// Decision g: an escaped scheme, or a host as read that is no host,
	// and an unescaped input that begins with "scheme://".
	if raw {
		if u := unescapeSlow(s); (!schemeRead || !validHostSlow(unescapeSlow(host))) && slowSchemeSlashes.MatchString(u) {
			return canonicalSlowFrom(u, false)
		}
	}
	// Decision b: a port is empty, or digits of value at most 65535.
	if port != "" {
		if n, err := strconv.Atoi(port); !slowDigits.MatchString(port) || err != nil || n > 65535 {
			return "", ErrInvalidPort
		}
	}

	// Step 3: unescape until no escape remains, pass after pass.
	u := unescapeSlow(host + rest)
	// Extract the host again.
	host, path := u, ""
	if i := strings.IndexAny(u, `/\?`); i >= 0 {
		host, path = u[:i], u[i:]
	}
	host, _ = slowHostOfAuthority(host)

	// The host rules.
	host, ip, err := canonHostSlow(host)
	if err != nil {
		return "", err
	}
	if host == "" {
		return "", ErrNoHost
	}

	// The path rules, not on the query.
	path, query, hasQuery := strings.Cut(path, "?")
	path = strings.ReplaceAll(path, `\`, "/")
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	path = removeDotSegments(path)
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}

	// Escape.
	out := scheme + "://" + escapeSlow(host) + escapeSlow(path)
	if hasQuery {
		out += "?" + escapeSlow(query)
	}
	_ = ip
	return out, nil
}

// unescapeSlow unescapes s until no escape remains, pass after pass.
func unescapeSlow(s string) string {
	for {
		v := slowEscape.ReplaceAllStringFunc(s, func(e string) string {
			b, _ := strconv.ParseUint(e[1:], 16, 8)
			return string([]byte{byte(b)})
		})
		if v == s {
			return s
		}
		s = v
	}
}

// validHostSlow reports whether the unescaped host h is a host a browser
// could hold: an IPv6 address in brackets, or no forbidden domain code
// point of the WHATWG URL standard.
func validHostSlow(h string) bool {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") && len(h) >= 2 {
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		return err == nil && a.Is6() && a.Zone() == "" && !strings.Contains(h, "%")
	}
	return strings.IndexFunc(h, func(r rune) bool { return r <= 0x20 || r == 0x7f }) < 0 &&
		!strings.ContainsAny(h, "#%/:<>?@[\\]^|")
}

// slowHostOfAuthority returns the host of the authority a, dropping the
// userinfo (up to the last '@'), and the port (after the first ':' outside
// brackets).
func slowHostOfAuthority(a string) (host, port string) {
	if i := strings.LastIndex(a, "@"); i >= 0 {
		a = a[i+1:]
	}
	if strings.HasPrefix(a, "[") {
		if j := strings.Index(a, "]"); j >= 0 {
			if k := strings.Index(a[j:], ":"); k >= 0 {
				return a[:j+k], a[j+k+1:]
			}
			return a, ""
		}
		return a, "" // unclosed: the brackets hold the rest
	}
	host, port, _ = strings.Cut(a, ":")
	return host, port
}

// canonHostSlow applies the host rules to an unescaped host.
func canonHostSlow(h string) (string, bool, error) {
	trim := func(h string) string {
		// Steps 1 and 2.
		h = strings.Trim(h, ".")
		for strings.Contains(h, "..") {
			h = strings.ReplaceAll(h, "..", ".")
		}
		return h
	}
	h = trim(h)
	if h == "" {
		return "", false, nil
	}
	// IDN, only for a host with a byte >= 0x80 that is valid UTF-8.
	if strings.IndexFunc(h, func(r rune) bool { return r >= 0x80 }) >= 0 && utf8.ValidString(h) {
		if a, err := host.Profile.ToASCII(h); err == nil && !strings.ContainsAny(a, "#%/:<>?@[\\]^|\x7f") &&
			strings.IndexFunc(a, func(r rune) bool { return r <= ' ' || r >= 0x7f }) < 0 {
			h = trim(a)
		}
	}
	// Step 4.
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") || strings.ContainsAny(h, "%") {
			return "", false, ErrInvalidHost
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() {
			return "", false, ErrInvalidHost
		}
		b := a.As16()
		if a.Is4In6() || netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
			return netip.AddrFrom4([4]byte(b[12:])).String(), true, nil
		}
		return "[" + a.String() + "]", true, nil
	}
	// Step 3.
	if a, ok := parseIPv4Slow(h); ok {
		return a, true, nil
	}
	// Step 5, on ASCII letters only.
	lower := []byte(h)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	return string(lower), false, nil
}

// parseIPv4Slow parses every legal IPv4 encoding as the WHATWG URL
// standard's IPv4 parser does, with strconv.
func parseIPv4Slow(h string) (string, bool) {
	fields := strings.Split(h, ".")
	if len(fields) > 4 {
		return "", false
	}
	var v []uint64
	for _, f := range fields {
		base := 10
		switch {
		case strings.HasPrefix(strings.ToLower(f), "0x"):
			f, base = f[2:], 16
			if f == "" {
				f = "0"
			}
		case len(f) > 1 && f[0] == '0':
			f, base = f[1:], 8
		}
		if f == "" || strings.ContainsAny(f, "+-_") {
			return "", false
		}
		x, err := strconv.ParseUint(f, base, 64)
		if err != nil || x > 1<<32 {
			return "", false
		}
		v = append(v, x)
	}
	n := len(v)
	var ip uint64
	for i, x := range v[:n-1] {
		if x > 255 {
			return "", false
		}
		ip |= x << (8 * (3 - i))
	}
	if v[n-1] >= 1<<(8*(5-n)) {
		return "", false
	}
	ip |= v[n-1]
	return fmt.Sprintf("%d.%d.%d.%d", ip>>24, ip>>16&255, ip>>8&255, ip&255), true
}

// removeDotSegments is the algorithm of RFC 3986 section 5.2.4, step by
// step, on an absolute path.
func removeDotSegments(in string) string {
	out := ""
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = out[:max(strings.LastIndex(out, "/"), 0)]
		case in == "/..":
			in = "/"
			out = out[:max(strings.LastIndex(out, "/"), 0)]
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.Index(in[1:], "/")
			if i < 0 {
				out, in = out+in, ""
			} else {
				out, in = out+in[:i+1], in[i+1:]
			}
		}
	}
	return out
}

// escapeSlow escapes every byte <= 0x20, >= 0x7F, '#' and '%'.
func escapeSlow(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f || c == '#' || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sentinelOf returns the sentinel error err wraps, or err.
func sentinelOf(err error) error {
	for _, s := range []error{ErrEmpty, ErrNoHost, ErrScheme, ErrTooLong, ErrInvalidHost, ErrInvalidPort, ErrInvalidURL} {
		if errors.Is(err, s) {
			return s
		}
	}
	return err
}
