// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"math/bits"
	"strings"

	"github.com/urlspec/urlspec/internal/host"
)

// appendCanonicalFast is appendCanonical for the common URL, in one scan
// of its scheme and authority: it begins with "http://" or "https://" in
// lower case, holds no tab, CR or LF, and does not end in a byte <= 0x20
// (so steps 1 and 3 have nothing to do), and its authority holds no other
// byte <= 0x20 or DEL. If it holds a '%', its host as read, once
// unescaped, must be a valid host, so that decision g does not apply: when
// only the rest holds one, an authority without brackets, bytes >= 0x80
// or forbidden domain code points (but the '@' and ':' the host is cut
// from) is known to give one. Its host then needs only lowercasing, or the
// host rules of canonHost, and its path only the path rules, which it
// leaves to [pathRules] as the full path does.
//
// For any other input, and for one that is an error, it reports false,
// and has written only dst's spare capacity; the caller then takes the
// full path. When it reports true, the result is the full path's, byte for
// byte, with the same parts (TestFastPath and FuzzFastPath check that).
func appendCanonicalFast(dst []byte, rawURL string) ([]byte, parts, bool) {
	var p parts
	s := rawURL
	n := 0
	switch {
	case strings.HasPrefix(s, "http://"):
		n = len("http://")
	case strings.HasPrefix(s, "https://"):
		n = len("https://")
	default:
		return dst, p, false
	}
	if len(s) > maxURLLen {
		return dst, p, false
	}
	orig := dst
	p.start = len(dst)
	dst = append(dst, s[:n]...)
	p.hostStart = len(dst)

	// The authority, lowercased as it is copied. It ends at the first '/',
	// '\\', '?' or '#'. A leading dot, a trailing dot and a run of dots all
	// show as a dot after a dot, the host being framed by dots. The scan
	// stops first at a ':'.
	var all, prev fastKind = 0, fastDot
	i := n
	for ; i < len(s); i++ {
		k := fastKinds[s[i]]
		if k&(fastEnd|fastColon) != 0 {
			break
		}
		all |= k | (prev&k&fastDot)<<1
		prev = k
		if len(dst) == cap(dst) {
			// A userinfo is copied here, and a port below, to be dropped
			// later: where the full path, which copies neither, would not
			// grow dst, neither may this.
			return orig, p, false
		}
		dst = append(dst, fastLower[s[i]])
	}
	all |= (prev & fastDot) << 1
	ah := i // s[n:ah] holds the host as read, and any userinfo
	if i < len(s) && s[i] == ':' {
		// Most often a port: digits, with a value of at most 65535, up to
		// the end of the authority (decision b). Otherwise the ':' is in
		// a userinfo or brackets, or begins a port that is no port: read
		// on to the end of the authority, for hostBounds.
		j, v := i+1, 0
		for j < len(s) && isDigit(s[j]) && v <= 65535 {
			v = v*10 + int(s[j]-'0')
			j++
		}
		if v <= 65535 && (j == len(s) || fastKinds[s[j]]&fastEnd != 0) {
			i = j
		} else {
			for ; i < len(s); i++ {
				k := fastKinds[s[i]]
				if k&fastEnd != 0 {
					break
				}
				all |= k
				if len(dst) == cap(dst) {
					return orig, p, false
				}
				dst = append(dst, fastLower[s[i]])
			}
			ah = i
		}
	}
	if all&fastBail != 0 {
		return orig, p, false
	}
	hostEnd := len(dst)

	// The path, the query and the fragment, which is cut (step 2). Most
	// hold no byte to escape, and so no tab, CR, LF, '#' or '%'.
	rest := s[i:]
	q, restPercent, other := scanRest(rest)
	if other {
		if strings.IndexByte(rest, '\t') >= 0 || strings.IndexByte(rest, '\r') >= 0 ||
			strings.IndexByte(rest, '\n') >= 0 || s[len(s)-1] <= ' ' {
			return orig, p, false // step 1
		}
		if h := strings.IndexByte(rest, '#'); h >= 0 {
			rest = rest[:h]
			q, restPercent, other = scanRest(rest)
		}
	}
	// Otherwise the rest holds no tab, CR, LF or '#', and ends in no byte
	// <= 0x20: only a '%', if anything, is escaped.
	dirty := restPercent || other

	switch {
	case all&fastPercent != 0 || restPercent && all&(fastForbidden|fastHost) != 0:
		// Decision b on the authority as read, then step 3 on the host.
		a := s[n:ah]
		hs, he := 0, len(a)
		if all&fastCut != 0 {
			var portOK bool
			if hs, he, portOK = splitAuthority(a); !portOK {
				return orig, p, false
			}
		}
		dst = appendUnescaped(dst[:p.hostStart], a[hs:he])
		if !validHost(dst[p.hostStart:]) {
			return orig, p, false // decision g may apply
		}
		// A valid host holds no delimiter, userinfo or port to extract
		// again once the rest is unescaped.
		hostEnd = len(dst)
		dst = appendUnescaped(dst, rest)
		var err error
		dst, hostEnd, p.ip, err = canonHost(dst, p.hostStart, hostEnd)
		if err != nil || hostEnd == p.hostStart {
			return orig, p, false
		}
		// An escaped '?' is a '?' now: find the query again.
		q, pct, other := scanRest(dst[hostEnd:])
		dirty := pct || other || anyEscape(dst[p.hostStart:hostEnd])
		return pathRules(dst, &p, hostEnd, q, dirty), p, true

	case all&(fastCut|fastDotRun|fastHost) == 0:
		// A host in form, but for its case, and perhaps an IPv4 address.
		if hostEnd == p.hostStart {
			return orig, p, false
		}
		if all&fastNotIPv4 == 0 {
			if a, ok := parseIPv4(dst[p.hostStart:hostEnd]); ok {
				dst = appendIPv4(dst[:p.hostStart], a)
				hostEnd = len(dst)
				p.ip = true
			}
		}

	default:
		if all&fastCut != 0 {
			// Decision b: drop the userinfo and the port, which must be a port.
			a := dst[p.hostStart:hostEnd]
			hs, he, portOK := splitAuthority(a)
			if !portOK {
				return orig, p, false
			}
			hostEnd = p.hostStart + copy(a, a[hs:he])
			dst = dst[:hostEnd]
		}
		var err error
		dst, hostEnd, p.ip, err = canonHost(dst, p.hostStart, hostEnd)
		if err != nil || hostEnd == p.hostStart {
			return orig, p, false
		}
		// A byte >= 0x80 that the host rules kept, as when the host is
		// not valid UTF-8, is escaped (step 7).
		dirty = dirty || all&fastHost != 0
	}
	if restPercent {
		// Only the rest holds a '%'. The authority holds no forbidden
		// domain code point but the '@' and ':' that the host as read is
		// cut from, so that host is valid and decision g does not apply;
		// and unescaping leaves the authority as it is, for a '%' in the
		// rest cannot reach back past the delimiter that begins it. Step 3
		// on the rest, whose first '?' once unescaped begins the query.
		// The host holds no byte to escape.
		dst = appendUnescaped(dst, rest)
		q, pct, other := scanRest(dst[hostEnd:])
		return pathRules(dst, &p, hostEnd, q, pct || other), p, true
	}
	// rest is its own unescaped form (it holds no '%'), so its first '?',
	// which scanRest found, begins the query.
	dst = append(dst, rest...)
	return pathRules(dst, &p, hostEnd, q, dirty), p, true
}

// scanRest returns the index of the first '?' in s, or -1; whether s holds
// a '%'; and whether it holds another byte to escape (<= 0x20, >= 0x7F or
// '#'), in one pass of eight bytes at a time. Together the two are
// [anyEscape]. A zero byte of x^'?' is found as in [escapeBits]: the
// lowest byte flagged is exact, as a borrow only flags bytes above a zero
// byte.
func scanRest[T string | []byte](s T) (q int, pct, other bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := len(s)
	q = -1
	if n < 8 {
		for i := 0; i < n; i++ {
			c := s[i]
			pct = pct || c == '%'
			other = other || c != '%' && escapeSet[c]
			if c == '?' && q < 0 {
				q = i
			}
		}
		return q, pct, other
	}
	var mp, mo uint64
	for i := 0; i+8 <= n; i += 8 {
		x := load64(s[i:])
		if q < 0 {
			if z := (x ^ ones*'?' - ones) &^ (x ^ ones*'?') & highs; z != 0 {
				q = i + bits.TrailingZeros64(z)/8
			}
		}
		mp |= (x ^ ones*'%' - ones) &^ (x ^ ones*'%')
		mo |= otherEscapeBits(x)
	}
	// The last eight bytes, which may overlap bytes tested.
	x := load64(s[n-8:])
	if q < 0 {
		if z := (x ^ ones*'?' - ones) &^ (x ^ ones*'?') & highs; z != 0 {
			q = n - 8 + bits.TrailingZeros64(z)/8
		}
	}
	mp |= (x ^ ones*'%' - ones) &^ (x ^ ones*'%')
	mo |= otherEscapeBits(x)
	return q, mp&highs != 0, mo&highs != 0
}

// otherEscapeBits is [escapeBits] without its test for '%': a high bit is
// set in some byte if and only if a byte of x is <= 0x20, >= 0x7F or '#'.
func otherEscapeBits(x uint64) uint64 {
	const ones = 0x0101010101010101
	return x | (x + ones) | (x - ones*0x21) | (x ^ ones*'#' - ones)
}

// A fastKind is a set of kinds of authority byte, for appendCanonicalFast.
type fastKind uint16

const (
	fastDot       fastKind = 1 << iota // '.'
	fastDotRun                         // '.' after '.' (fastDot<<1, set by the scan)
	fastNotIPv4                        // a byte that no IPv4 address holds
	fastCut                            // '@' or ':', which end the userinfo or begin the port
	fastColon                          // ':'
	fastHost                           // '[', ']' or a byte >= 0x80, which need canonHost
	fastPercent                        // '%'
	fastBail                           // a byte <= 0x20 or DEL: the full path
	fastEnd                            // '/', '\\', '?' or '#', which end the authority
	fastForbidden                      // any other forbidden domain code point ('<', '>', '^', '|')
)

// fastKinds[c] is the kind of the authority byte c.
var fastKinds = func() (t [256]fastKind) {
	for c := range t {
		k := hostKinds[c]
		if k&dot != 0 {
			t[c] |= fastDot
		}
		if k&notIPv4 != 0 {
			t[c] |= fastNotIPv4
		}
		switch {
		case isDelim(byte(c)) || c == '#':
			t[c] |= fastEnd
		case c == '@':
			t[c] |= fastCut
		case c == ':':
			t[c] |= fastCut | fastColon
		case c == '[' || c == ']' || c >= 0x80:
			t[c] |= fastHost
		case c == '%':
			t[c] |= fastPercent
		case mustEscape(byte(c)):
			t[c] |= fastBail
		case forbiddenDomain[c]:
			t[c] |= fastForbidden
		}
	}
	return t
}()

// fastLower[c] is [host.Lower] of c (host step 5), as a table for the scan.
var fastLower = func() (t [256]byte) {
	for c := range t {
		t[c] = host.Lower(byte(c))
	}
	return t
}()
