// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package punycode implements Punycode, the Bootstring encoding of Unicode
// for IDNA, as specified in RFC 3492, on one label at a time.
//
// It handles the raw encoding only: no "xn--" ACE prefix, no case folding or
// other IDNA processing, and no mixed-case annotations (section 3.4: Decode
// keeps the case of basic code points as given, and Encode writes lowercase
// digits). golang.org/x/net/idna implements the same algorithm but does not
// export it.
//
// Inputs and outputs are bounded: Decode rejects an input longer than
// [MaxLen] bytes, and Encode an input of more than MaxLen code points or an
// output longer than MaxLen bytes, with [ErrTooLong]. Decoding inserts each
// code point into the output, and encoding decodes its input into code points
// once, on the stack, then scans them once per distinct non-basic code point
// (section 6.3), so a call on n bytes takes O(n·MaxLen) time: linear in n,
// with a constant that MaxLen bounds. Since every Encode output is a valid Decode input,
// Decode(Encode(s)) == s whenever Encode succeeds.
package punycode

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// MaxLen is the longest input, in bytes, that Encode and Decode accept.
// A DNS label holds at most 63 bytes, and a whole domain name at most 253,
// so any label from a real domain name is far below it.
const MaxLen = 1024

// Errors returned by Decode and Encode.
var (
	// ErrBadDigit reports a byte in the encoded part that is not a base-36
	// digit ("a"–"z", "A"–"Z", "0"–"9"), or an encoded part that ends in the
	// middle of a variable-length integer (section 6.2).
	ErrBadDigit = errors.New("punycode: invalid digit")
	// ErrNonBasic reports a non-basic code point (a byte >= 0x80) before the
	// last delimiter of an encoded string (section 6.2).
	ErrNonBasic = errors.New("punycode: non-basic code point in basic part")
	// ErrBasicDecoded reports a basic code point (< 0x80) decoded from the
	// encoded part, which section 6.2 says to reject: a basic code point is
	// always written literally. With Punycode's parameters it cannot happen
	// (n starts at initial_n = 0x80 and never decreases, and overflow is
	// caught first); the check is kept as section 6.2 writes it.
	ErrBasicDecoded = errors.New("punycode: basic code point in encoded part")
	// ErrBadCodePoint reports a decoded value that is a surrogate or above
	// U+10FFFF, and so not a Unicode scalar value.
	ErrBadCodePoint = errors.New("punycode: decoded value is not a Unicode scalar value")
	// ErrOverflow reports an integer overflow, detected as section 6.4 says.
	ErrOverflow = errors.New("punycode: overflow")
	// ErrTooLong reports a Decode input longer than MaxLen bytes, or an
	// Encode input of more than MaxLen code points or output longer than
	// MaxLen bytes.
	ErrTooLong = errors.New("punycode: input too long")
	// ErrInvalidUTF8 reports an Encode input that is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("punycode: invalid UTF-8")
)

// Bootstring parameter values for Punycode, as specified in section 5.
const (
	base        = 36
	tmin        = 1
	tmax        = 26
	skew        = 38
	damp        = 700
	initialBias = 72
	initialN    = 0x80
	delimiter   = '-'
)

// maxInt is the "maxint" of section 6.4: the largest value the integer
// variables may hold. It is the largest int32, as in golang.org/x/net/idna,
// so that overflow is detected at the same point on every platform.
const maxInt = 1<<31 - 1

// adapt is the bias adaptation function, as specified in section 6.1.
// Its arguments are at most maxInt and positive, so it divides in uint32,
// which is cheaper than in int on 64-bit machines.
func adapt(delta, numPoints int, firstTime bool) int {
	d := uint32(delta)
	if firstTime {
		d /= damp
	} else {
		d /= 2
	}
	d += d / uint32(numPoints)
	k := 0
	for d > ((base-tmin)*tmax)/2 {
		d /= base - tmin
		k += base
	}
	return k + int((base-tmin+1)*d/(d+skew))
}

// threshold returns t for position k, clamped to [tmin, tmax], as in the
// decoding and encoding procedures of sections 6.2 and 6.3.
func threshold(k, bias int) int {
	switch {
	case k <= bias:
		return tmin
	case k >= bias+tmax:
		return tmax
	}
	return k - bias
}

// decodeDigit returns the value of a basic code point as a digit (section 5).
func decodeDigit(c byte) (int, bool) {
	switch {
	case '0' <= c && c <= '9':
		return int(c-'0') + 26, true
	case 'a' <= c && c <= 'z':
		return int(c - 'a'), true
	case 'A' <= c && c <= 'Z':
		return int(c - 'A'), true
	}
	return 0, false
}

// encodeDigit returns the lowercase basic code point for digit d, 0 <= d < 36
// (section 5).
func encodeDigit(d int) byte {
	return "abcdefghijklmnopqrstuvwxyz0123456789"[d]
}

// Decode returns the Unicode string, in UTF-8, that the Punycode string s
// encodes, as specified in section 6.2. s carries no "xn--" prefix.
func Decode(s string) (string, error) {
	var buf [MaxLen * utf8.UTFMax]byte
	b, err := AppendDecode(buf[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendDecode appends the UTF-8 string decoded from s, as generated by
// [Decode], to dst and returns the extended buffer. On error it returns dst
// unchanged. It does not allocate when dst has room.
func AppendDecode(dst []byte, s string) ([]byte, error) {
	if len(s) > MaxLen {
		return dst, ErrTooLong
	}
	// The output is built as code points, because each decoded code point
	// is inserted at an arbitrary position. It has at most one code point
	// per input byte, so a short input (any DNS label) needs no MaxLen
	// buffer, which would be cleared on every call.
	if len(s) <= shortLen {
		var out [shortLen]rune
		return decodeRunes(dst, s, out[:])
	}
	var out [MaxLen]rune
	return decodeRunes(dst, s, out[:])
}

// decodeRunes is AppendDecode with out, of at least len(s) code points, to
// build the output in.
func decodeRunes(dst []byte, s string, out []rune) ([]byte, error) {
	n := 0

	// Section 6.2: copy the code points before the last delimiter, if any,
	// failing on any non-basic code point; then skip the delimiter if any
	// code points were copied.
	in := 0
	if b := strings.LastIndexByte(s, delimiter); b > 0 {
		for i := 0; i < b; i++ {
			if s[i] >= 0x80 {
				return dst, ErrNonBasic
			}
			out[n] = rune(s[i])
			n++
		}
		in = b + 1
	}

	cp, i, bias := initialN, 0, initialBias
	for in < len(s) {
		oldi, w := i, 1
		for k := base; ; k += base {
			if in >= len(s) {
				return dst, ErrBadDigit
			}
			digit, ok := decodeDigit(s[in])
			in++
			if !ok {
				return dst, ErrBadDigit
			}
			// Section 6.4's overflow checks, "digit > (maxint - i) / w"
			// and "w > maxint / (base - t)", as products in int64, which
			// hold them (each factor is at most maxint, the other at most
			// base), without a division per digit.
			if int64(digit)*int64(w) > int64(maxInt-i) {
				return dst, ErrOverflow
			}
			i += digit * w
			t := threshold(k, bias)
			if digit < t {
				break
			}
			if int64(w)*int64(base-t) > maxInt {
				return dst, ErrOverflow
			}
			w *= base - t
		}
		bias = adapt(i-oldi, n+1, oldi == 0)
		// i and n+1 are positive and at most maxInt: divide in uint32.
		q, r := uint32(i)/uint32(n+1), uint32(i)%uint32(n+1)
		if int(q) > maxInt-cp {
			return dst, ErrOverflow
		}
		cp += int(q)
		i = int(r)
		switch {
		case cp < 0x80:
			return dst, ErrBasicDecoded
		case cp > utf8.MaxRune || (0xD800 <= cp && cp <= 0xDFFF):
			return dst, ErrBadCodePoint
		}
		// n < len(s) <= MaxLen: each code point consumed at least one byte.
		copy(out[i+1:n+1], out[i:n])
		out[i] = rune(cp)
		n++
		i++
	}
	for _, r := range out[:n] {
		dst = utf8.AppendRune(dst, r)
	}
	return dst, nil
}

// Encode returns the Punycode encoding of the UTF-8 string s, as specified
// in section 6.3, without an "xn--" prefix. Digits are written in lowercase.
// The encoding of a string with no non-basic code points is the string
// followed by a delimiter: Encode("abc") is "abc-".
func Encode(s string) (string, error) {
	var buf [2 * MaxLen]byte
	b, err := AppendEncode(buf[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendEncode appends the Punycode encoding of s, as generated by
// [Encode], to dst and returns the extended buffer. On error it returns dst
// unchanged. It does not allocate when dst has room.
func AppendEncode(dst []byte, s string) ([]byte, error) {
	orig := len(dst)
	dst, err := appendEncode(dst, s)
	if err == nil && len(dst)-orig > MaxLen {
		err = ErrTooLong
	}
	if err != nil {
		return dst[:orig], err
	}
	return dst, nil
}

// shortLen is the size of the code point buffer for an input of at most
// shortLen bytes, such as any DNS label (63 bytes): such calls do not clear
// a MaxLen buffer.
const shortLen = 64

func appendEncode(dst []byte, s string) ([]byte, error) {
	// The output has at least one byte per code point of the input, so an
	// input of more than MaxLen code points is too long: more than
	// utf8.UTFMax*MaxLen bytes always is.
	if len(s) > utf8.UTFMax*MaxLen {
		return dst, ErrTooLong
	}
	// Section 6.3 works on code points: encodeRunes decodes s once into a
	// buffer on the stack, with room for every code point of an input it
	// accepts. An input of n bytes has at most n code points.
	if len(s) <= shortLen {
		var buf [shortLen]rune
		return encodeRunes(dst, s, buf[:])
	}
	var buf [MaxLen]rune
	return encodeRunes(dst, s, buf[:])
}

// encodeRunes is appendEncode with buf, of MaxLen code points or of at
// least len(s), to decode s into.
func encodeRunes(dst []byte, s string, buf []rune) ([]byte, error) {
	// An invalid byte counts as one code point, as in
	// utf8.RuneCountInString, and is reported only after the length, so
	// that an input both too long and invalid gives ErrTooLong. A buffer
	// of len(s) code points or more is never full here, since every code
	// point takes at least one byte.
	n, basic, invalid := 0, 0, false
	for i := 0; i < len(s); n++ {
		if n == len(buf) {
			return dst, ErrTooLong
		}
		if c := s[i]; c < utf8.RuneSelf {
			buf[n] = rune(c)
			basic++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			invalid = true
		}
		buf[n] = r
		i += size
	}
	if invalid {
		return dst, ErrInvalidUTF8
	}
	runes := buf[:n]
	// Copy the basic code points in order, then a delimiter if there were
	// any.
	if basic == n {
		dst = append(dst, s...)
	} else {
		for _, r := range runes {
			if r < utf8.RuneSelf {
				dst = append(dst, byte(r))
			}
		}
	}
	if basic > 0 {
		dst = append(dst, delimiter)
	}
	// m is the smallest code point >= cp in the input. Each pass over the
	// input below also finds the next one, the smallest code point above
	// cp, so that the input is scanned once per distinct non-basic code
	// point.
	m := int(utf8.MaxRune) + 1
	for _, r := range runes {
		if int(r) >= initialN && int(r) < m {
			m = int(r)
		}
	}
	cp, delta, bias := initialN, 0, initialBias
	for h := basic; h < n; {
		// Section 6.4's "m - n > (maxint - delta) / (h + 1)", as a
		// product in int64, which holds it.
		if int64(m-cp)*int64(h+1) > int64(maxInt-delta) {
			return dst, ErrOverflow
		}
		delta += (m - cp) * (h + 1)
		cp = m
		next := int(utf8.MaxRune) + 1
		for _, r := range runes {
			c := int(r)
			if c < cp {
				if delta == maxInt {
					return dst, ErrOverflow
				}
				delta++
				continue
			}
			if c > cp {
				if c < next {
					next = c
				}
				continue
			}
			q := delta
			for k := base; ; k += base {
				t := threshold(k, bias)
				if q < t {
					break
				}
				// q-t >= 0 and q <= maxInt: divide in uint32.
				v, d := uint32(q-t), uint32(base-t)
				dst = append(dst, encodeDigit(t+int(v%d)))
				q = int(v / d)
			}
			dst = append(dst, encodeDigit(q))
			bias = adapt(delta, h+1, h == basic)
			delta = 0
			h++
		}
		delta++
		cp++
		m = next
	}
	return dst, nil
}
