// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package host holds the rules of a browser's host parser that more than
// one urlspec package needs, so that each lives once: the WHATWG URL
// standard's "domain to ASCII" profile of UTS #46, its forbidden domain code
// points, its "ends in a number" test, the port rule, and the ASCII helpers
// they rest on. It is modelled on net/http/internal/ascii.
//
// See https://url.spec.whatwg.org/#host-parsing and
// https://www.unicode.org/reports/tr46/.
package host

import (
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Profile converts a domain to ASCII as a browser's URL parser does: the
// WHATWG URL standard's "domain to ASCII" with beStrict false, which is
// UTS #46 ToASCII non-transitional (so "ß" is kept), with CheckBidi and
// CheckJoiners, and without UseSTD3ASCIIRules, CheckHyphens or
// VerifyDnsLength. So "_dmarc.example.com" and "in--trouble.com" are valid,
// and "xn--ab-m1t.com" (a joiner out of context) is not. Every option is
// spelled out, so that a change of x/net's defaults cannot change it.
//
// A caller must still reject a result holding a [Forbidden] byte, as the
// URL standard does after this step.
var Profile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.BidiRule(),
	idna.VerifyDNSLength(false),
)

// Forbidden reports whether c is a forbidden domain code point of the
// WHATWG URL standard: a C0 control, space, "#", "%", "/", ":", "<", ">",
// "?", "@", "[", "\", "]", "^", "|" or DEL. A byte >= 0x80 is not one.
func Forbidden(c byte) bool {
	if c <= ' ' || c == 0x7F {
		return true
	}
	switch c {
	case '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// IsASCII reports whether every byte of s is below 0x80.
func IsASCII(s string) bool {
	// Eight bytes at a time: a word with no high bit set in any byte.
	const high = 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&high != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Lower returns the ASCII lowercase of c; any other byte is unchanged.
func Lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// EqualFold reports whether a and b are equal under ASCII case folding,
// with both sides folded. Bytes >= 0x80 must match exactly.
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if Lower(a[i]) != Lower(b[i]) {
			return false
		}
	}
	return true
}

// IsHex reports whether c is an ASCII hex digit, as a percent-encoded
// byte ("%" followed by two of them, RFC 3986 section 2.1) needs.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// Unhex returns the value of the hex digit c; c must satisfy [IsHex].
func Unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// HasPrefixFold reports whether s begins with prefix under ASCII case
// folding, as [EqualFold] compares.
func HasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && EqualFold(s[:len(prefix)], prefix)
}

// Port returns the value of the port s, as the WHATWG URL parser reads it
// in the port state: one or more ASCII digits, leading zeros allowed, with
// a value of at most 65535. Port 0 is a port. An empty s is not ok: a
// caller that follows the URL standard treats an empty port as no port.
func Port(s string) (port int, ok bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		port = port*10 + int(c-'0')
		if port > 65535 {
			return 0, false
		}
	}
	return port, true
}

// EndsInANumber reports whether a URL parser reads the ASCII host as an
// IPv4 address: the WHATWG URL standard's "ends in a number checker". It
// drops one trailing "." (unless it is the only label), and reports
// whether the last label is all ASCII digits, or "0x" or "0X" and
// hexadecimal digits (possibly none), which the IPv4 number parser
// accepts.
func EndsInANumber(host string) bool {
	last := host
	if n := len(last); n > 0 && last[n-1] == '.' {
		last = last[:n-1]
	}
	for i := len(last) - 1; i >= 0; i-- {
		if last[i] == '.' {
			last = last[i+1:]
			break
		}
	}
	if last == "" {
		return false
	}
	digits := true
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	if len(last) < 2 || last[0] != '0' || Lower(last[1]) != 'x' {
		return false
	}
	for i := 2; i < len(last); i++ {
		c := Lower(last[i])
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
