// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/punycode"
)

// canonHost canonicalises, in place, the unescaped host dst[start:end] by
// the Safe Browsing host rules, and returns the buffer, the new end of the
// host, and whether the host is an IP literal. The rest of dst moves with
// the end of the host. An empty result means the URL has no host.
//
// The rules, in order:
//   - steps 1 and 2: remove leading and trailing dots, collapse runs of dots;
//   - step 5, brought forward: lowercase ASCII letters (IPv4 and IPv6
//     parsing ignore case, so the order does not matter);
//   - a host with a byte >= 0x80 goes through UTS #46 (see [idnaHost]), and
//     steps 1 and 2 run again on its result; a host of common letters is
//     encoded directly, with the same result (see [appendSimpleIDN]);
//   - step 4: a host in brackets must be an IPv6 address (see [appendIPv6]);
//   - step 3: a host that parses as IPv4 is written in dotted decimal (see
//     [parseIPv4]).
func canonHost(dst []byte, start, end int) ([]byte, int, bool, error) {
	n, kind := trimDots(dst[start:end], true)
	dst = splice(dst, start+n, end, nil)
	end = start + n
	h := dst[start:end]
	if n == 0 {
		return dst, end, false, nil
	}

	if kind&nonASCII != 0 {
		var ace [maxSimpleIDN]byte
		if a, ok := appendSimpleIDN(ace[:0], h); ok {
			// Common letters only: punycode, and no trimming is needed.
			dst = splice(dst, start, end, a)
			end = start + len(a)
			h = dst[start:end]
			kind = notIPv4 // an "xn--" label
		} else if a, ok := idnaHost(h); ok {
			dst = splice(dst, start, end, []byte(a))
			end = start + len(a)
			n, kind = trimDots(dst[start:end], false)
			dst = splice(dst, start+n, end, nil)
			end = start + n
			h = dst[start:end]
			if n == 0 {
				return dst, end, false, nil
			}
		}
	}

	if h[0] == '[' {
		if h[len(h)-1] != ']' {
			return dst, end, false, ErrInvalidHost
		}
		a, ok := parseIPv6(h[1 : len(h)-1])
		if !ok {
			return dst, end, false, ErrInvalidHost
		}
		var buf [64]byte
		b := appendIPv6(buf[:0], a)
		dst = splice(dst, start, end, b)
		return dst, start + len(b), true, nil
	}
	if kind&notIPv4 != 0 {
		return dst, end, false, nil
	}
	if a, ok := parseIPv4(h); ok {
		var buf [16]byte
		b := appendIPv4(buf[:0], a)
		dst = splice(dst, start, end, b)
		return dst, start + len(b), true, nil
	}
	return dst, end, false, nil
}

// trimDots applies steps 1 and 2 of the Safe Browsing host rules to h in
// place, removing leading and trailing dots and collapsing runs of dots,
// lowercases ASCII letters when lowerCase is set (step 5), and returns the
// new length and the kinds of byte seen.
func trimDots(h []byte, lowerCase bool) (int, hostKind) {
	// Most hosts are already in form: no dot at either end, no run of
	// dots, no upper case. Test that first, without writing or branching
	// on each byte.
	var all, prev hostKind
	for _, c := range h {
		k := hostKinds[c]
		all |= k | prev&k&dot<<1 // dotRun
		prev = k
	}
	if len(h) > 0 && h[0] != '.' && h[len(h)-1] != '.' && all&(dotRun|upperCase) == 0 {
		return len(h), all & (nonASCII | notIPv4)
	}
	n := 0
	var kind hostKind
	for _, c := range h {
		if c == '.' && (n == 0 || h[n-1] == '.') {
			continue
		}
		if lowerCase {
			c = host.Lower(c)
		}
		kind |= hostKinds[c]
		h[n] = c
		n++
	}
	if n > 0 && h[n-1] == '.' {
		n--
	}
	return n, kind & (nonASCII | notIPv4)
}

// A hostKind is a set of kinds of host byte.
type hostKind uint8

const (
	nonASCII  hostKind = 1 << iota // a byte >= 0x80
	notIPv4                        // a byte that no IPv4 address holds
	upperCase                      // an ASCII upper-case letter
	dot                            // '.'
	dotRun                         // '.' after '.' (set by trimDots, never in hostKinds)
)

// hostKinds[c] is the kind of the host byte c.
var hostKinds = func() (t [256]hostKind) {
	for c := range t {
		if c >= 0x80 {
			t[c] |= nonASCII
		}
		if !host.IsHex(byte(c)) && c != '.' && c != 'x' && c != 'X' {
			t[c] |= notIPv4
		}
		if 'A' <= c && c <= 'Z' {
			t[c] |= upperCase
		}
		if c == '.' {
			t[c] |= dot
		}
	}
	return t
}()

// idnaHost converts the host h, which holds a byte >= 0x80, to ASCII with
// the WHATWG URL standard's "domain to ASCII" ([host.Profile]: UTS #46
// ToASCII, non-transitional, with CheckBidi and CheckJoiners, without
// UseSTD3ASCIIRules, CheckHyphens or VerifyDnsLength), as a browser does,
// and reports whether it could. It cannot when h is not valid UTF-8, fails
// UTS #46, or maps to a forbidden domain code point of the WHATWG URL
// standard ([host.Forbidden]), as U+FF0F FULLWIDTH SOLIDUS maps to '/': a
// browser rejects such a host. The caller then keeps (and escapes) the
// bytes of h.
func idnaHost(h []byte) (string, bool) {
	if !utf8.Valid(h) {
		return "", false
	}
	a, err := host.Profile.ToASCII(string(h))
	if err != nil {
		return "", false
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; c >= 0x80 || host.Forbidden(c) {
			return "", false
		}
	}
	return a, true
}

// maxSimpleIDN bounds the ASCII form that appendSimpleIDN writes on the
// stack; a longer host goes through [idnaHost].
const maxSimpleIDN = 256

// appendSimpleIDN appends to dst the result of UTS #46 ToASCII under
// [host.Profile] for the host h, which holds a byte >= 0x80, when every
// label of h is either lowercase ASCII letters, digits and '-' (not
// beginning "xn--") or a run of code points that [simpleIDNRune] accepts,
// and reports whether it did. Such code points are valid under UTS #46 and
// unchanged by its mapping, none is a combining mark, a joiner or of a
// right-to-left script, and no two of them compose under NFC: so ToASCII
// checks nothing that can fail, and only encodes each label with a byte
// >= 0x80 as "xn--" and its Punycode (RFC 3492). Any other host is left to
// x/net/idna. TestSimpleIDN checks each accepted code point against it.
func appendSimpleIDN(dst, h []byte) ([]byte, bool) {
	orig := len(dst)
	for len(h) > 0 {
		label := h
		if i := bytesIndexDot(h); i >= 0 {
			label, h = h[:i], h[i+1:]
		} else {
			h = nil
		}
		ascii := true
		for i := 0; i < len(label); {
			c := label[i]
			if c < utf8.RuneSelf {
				if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
					return dst[:orig], false
				}
				i++
				continue
			}
			r, size := utf8.DecodeRune(label[i:])
			if !simpleIDNRune(r) {
				return dst[:orig], false
			}
			ascii = false
			i += size
		}
		if len(dst) > orig {
			dst = append(dst, '.')
		}
		if ascii {
			if len(label) >= 4 && string(label[:4]) == "xn--" {
				return dst[:orig], false // x/net checks its Punycode
			}
			dst = append(dst, label...)
			continue
		}
		if cap(dst)-len(dst) < len("xn--")+2*len(label)+1 {
			return dst[:orig], false // keep to the caller's buffer
		}
		dst = append(dst, "xn--"...)
		var err error
		if dst, err = punycode.AppendEncode(dst, string(label)); err != nil {
			return dst[:orig], false
		}
	}
	return dst, len(dst) > orig
}

// bytesIndexDot returns the index of the first '.' in b, or -1.
func bytesIndexDot(b []byte) int {
	for i, c := range b {
		if c == '.' {
			return i
		}
	}
	return -1
}

// simpleIDNRune reports whether r is one of the letters of common scripts
// that [appendSimpleIDN] encodes itself: the rule is [host.Simple]'s.
func simpleIDNRune(r rune) bool {
	return host.Simple(r)
}

// parseIPv4 parses h as an IPv4 address as the WHATWG URL standard's IPv4
// parser does, which handles every legal encoding (step 3 of the Safe
// Browsing host rules): one to four dot-separated parts, each decimal, hex
// after "0x" or "0X" (empty hex is 0), or octal after a leading "0"; every
// part but the last is a byte, and the last fills the bytes that remain
// ("3279880203" is 195.127.0.11, "1.2.3" is 1.2.0.3).
//
// It reports false where a browser fails the parse: a part that is not a
// number in its base, a part but the last above 255, a last part too large
// for the bytes that remain, or more than four parts. The caller then treats
// h as a host name, as Chromium's Safe Browsing code does. h has no empty
// part: steps 1 and 2 removed them.
func parseIPv4(h []byte) (a [4]byte, ok bool) {
	var v [4]uint64
	n := 0
	for i := 0; i <= len(h); {
		if n == 4 {
			return a, false
		}
		j := i
		for j < len(h) && h[j] != '.' {
			j++
		}
		x, ok := parseIPv4Part(h[i:j])
		if !ok {
			return a, false
		}
		v[n] = x
		n++
		i = j + 1
	}
	for k := 0; k < n-1; k++ {
		if v[k] > 255 {
			return a, false
		}
		a[k] = byte(v[k])
	}
	last := v[n-1]
	if last >= 1<<(8*(5-n)) {
		return a, false
	}
	for k := 3; k >= n-1; k-- {
		a[k] = byte(last)
		last >>= 8
	}
	return a, true
}

// parseIPv4Part parses one part of an IPv4 address (see [parseIPv4]). It
// fails on a value of 2³² or more, so that it cannot overflow.
func parseIPv4Part(p []byte) (uint64, bool) {
	if len(p) == 0 {
		return 0, false
	}
	base := uint64(10)
	if len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') {
		base, p = 16, p[2:]
	} else if len(p) >= 2 && p[0] == '0' {
		base, p = 8, p[1:]
	}
	var v uint64
	for _, c := range p {
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case base == 16 && host.IsHex(c):
			d = uint64(host.Unhex(c))
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		v = v*base + d
		if v > 1<<32 {
			return 0, false
		}
	}
	return v, true
}

// appendIPv4 appends a in dotted decimal.
func appendIPv4(b []byte, a [4]byte) []byte {
	for i, x := range a {
		if i > 0 {
			b = append(b, '.')
		}
		switch {
		case x >= 100:
			b = append(b, '0'+x/100, '0'+x/10%10, '0'+x%10)
		case x >= 10:
			b = append(b, '0'+x/10, '0'+x%10)
		default:
			b = append(b, '0'+x)
		}
	}
	return b
}

// parseIPv6 parses s, the text inside the brackets of a host, as an IPv6
// address, as the WHATWG URL standard's IPv6 parser does: hex pieces of at
// most four digits, at most one "::", and an optional dotted-decimal IPv4
// address in the last 32 bits (no leading zeros). Zones are not allowed.
func parseIPv6(s []byte) (a [16]byte, ok bool) {
	var pieces [8]uint16
	idx, compress, i := 0, -1, 0
	if len(s) > 0 && s[0] == ':' {
		if len(s) < 2 || s[1] != ':' {
			return a, false
		}
		i, idx, compress = 2, 1, 1
	}
	for i < len(s) {
		if idx == 8 {
			return a, false
		}
		if s[i] == ':' {
			if compress != -1 {
				return a, false
			}
			i++
			idx++
			compress = idx
			continue
		}
		v, n := uint16(0), 0
		for n < 4 && i < len(s) {
			d := unhex[s[i]]
			if d >= 16 {
				break
			}
			v = v<<4 | uint16(d)
			i++
			n++
		}
		if i < len(s) && s[i] == '.' {
			// An IPv4 address in the last two pieces.
			if n == 0 || idx > 6 {
				return a, false
			}
			i -= n
			seen := 0
			for i < len(s) {
				if seen > 0 {
					if s[i] != '.' || seen == 4 {
						return a, false
					}
					i++
				}
				if i == len(s) || !isDigit(s[i]) {
					return a, false
				}
				piece := -1
				for i < len(s) && isDigit(s[i]) {
					d := int(s[i] - '0')
					switch piece {
					case -1:
						piece = d
					case 0:
						return a, false
					default:
						piece = piece*10 + d
					}
					if piece > 255 {
						return a, false
					}
					i++
				}
				pieces[idx] = pieces[idx]<<8 | uint16(piece)
				seen++
				if seen == 2 || seen == 4 {
					idx++
				}
			}
			if seen != 4 {
				return a, false
			}
			break
		}
		if i < len(s) {
			if s[i] != ':' {
				return a, false
			}
			i++
			if i == len(s) {
				return a, false
			}
		}
		pieces[idx] = v
		idx++
	}
	if compress != -1 {
		swaps := idx - compress
		idx = 7
		for idx != 0 && swaps > 0 {
			pieces[idx], pieces[compress+swaps-1] = pieces[compress+swaps-1], pieces[idx]
			idx--
			swaps--
		}
	} else if idx != 8 {
		return a, false
	}
	for k, x := range pieces {
		a[2*k], a[2*k+1] = byte(x>>8), byte(x)
	}
	return a, true
}

// appendIPv6 appends the canonical form of the IPv6 address a, by step 4 of
// the Safe Browsing host rules: an IPv4-mapped address (::ffff:0:0/96) or a
// NAT64 address of the well-known prefix 64:ff9b::/96 becomes the IPv4
// address in its last 32 bits; any other is written in brackets in RFC 5952
// form (section 4: lowercase, no leading zeros, the longest run of two or
// more zero pieces, the first if tied, as "::"), as net/netip writes it.
func appendIPv6(b []byte, a [16]byte) []byte {
	var mapped = [12]byte{10: 0xff, 11: 0xff}
	var nat64 = [12]byte{0: 0x00, 1: 0x64, 2: 0xff, 3: 0x9b}
	if [12]byte(a[:12]) == mapped || [12]byte(a[:12]) == nat64 {
		return appendIPv4(b, [4]byte(a[12:]))
	}
	var p [8]uint16
	for i := range p {
		p[i] = uint16(a[2*i])<<8 | uint16(a[2*i+1])
	}
	// The longest run of zero pieces, [zs, ze), if it has two or more.
	zs, ze := 8, 8
	for i := 0; i < 8; {
		if p[i] != 0 {
			i++
			continue
		}
		j := i + 1
		for j < 8 && p[j] == 0 {
			j++
		}
		if j-i >= 2 && j-i > ze-zs {
			zs, ze = i, j
		}
		i = j
	}
	b = append(b, '[')
	for i := 0; i < 8; i++ {
		if i == zs {
			b = append(b, ':', ':')
			i = ze
			if i == 8 {
				break
			}
		} else if i > 0 {
			b = append(b, ':')
		}
		b = appendHex16(b, p[i])
	}
	return append(b, ']')
}

// appendHex16 appends x in lowercase hex without leading zeros.
func appendHex16(b []byte, x uint16) []byte {
	const digits = "0123456789abcdef"
	switch {
	case x >= 0x1000:
		return append(b, digits[x>>12], digits[x>>8&15], digits[x>>4&15], digits[x&15])
	case x >= 0x100:
		return append(b, digits[x>>8], digits[x>>4&15], digits[x&15])
	case x >= 0x10:
		return append(b, digits[x>>4], digits[x&15])
	}
	return append(b, digits[x])
}
