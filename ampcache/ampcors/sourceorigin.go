// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"github.com/urlspec/urlspec/internal/host"
)

// sourceOriginName is the query parameter in which the AMP runtime sends
// the origin of the page (or, in AMP for Email version 1, the sender).
const sourceOriginName = "__amp_source_origin"

// sourceOrigin finds every __amp_source_origin parameter of rawQuery, in
// any form (see [isSourceOriginName]), and returns its value, unescaped as
// [net/url.QueryUnescape] does, in buf. found reports whether there was
// one; ok is false if a value is not validly escaped, does not fit in buf
// (no allowed value is that long), or differs from another one. It makes
// no allocations.
//
// Parameters are separated by "&", as net/url reads them, and also by ";",
// which net/url refuses but other parsers accept: a pair that holds ";"
// is dropped by net/url.ParseQuery, so the stricter reading hides nothing
// from next, and it leaves nothing for a parser behind next to find.
func sourceOrigin(rawQuery string, buf *[maxOriginLen]byte) (v []byte, found, ok bool) {
	var tmp [maxOriginLen]byte
	for q := rawQuery; q != ""; {
		var pair string
		pair, q = cutSeparator(q)
		name, value := pair, ""
		for i := 0; i < len(pair); i++ {
			if pair[i] == '=' {
				name, value = pair[:i], pair[i+1:]
				break
			}
		}
		if !isSourceOriginName(name) {
			continue
		}
		if !found {
			v, ok = unescape(buf[:0], value)
			if !ok {
				return nil, true, false
			}
			found = true
			continue
		}
		d, ok := unescape(tmp[:0], value)
		if !ok || string(d) != string(v) {
			return nil, true, false
		}
	}
	return v, found, true
}

// cutSeparator returns the text of q before its first "&" or ";", and
// the text after it.
func cutSeparator(q string) (pair, rest string) {
	for i := 0; i < len(q); i++ {
		if q[i] == '&' || q[i] == ';' {
			return q[:i], q[i+1:]
		}
	}
	return q, ""
}

// isSourceOriginName reports whether the query parameter name raw, once
// unescaped, is __amp_source_origin, ignoring ASCII case. It unescapes
// as net/url does ("+" is a space, "%5F" is "_"), except that a "%" not
// followed by two hexadecimal digits is kept as it is, where net/url
// drops the whole pair: a lenient parser behind next might keep it.
func isSourceOriginName(raw string) bool {
	// Each byte of the name is one byte of raw, or three ("%5F").
	if len(raw) < len(sourceOriginName) || len(raw) > 3*len(sourceOriginName) {
		return false
	}
	j := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(raw) && host.IsHex(raw[i+1]) && host.IsHex(raw[i+2]):
			c = host.Unhex(raw[i+1])<<4 | host.Unhex(raw[i+2])
			i += 2
		}
		if j == len(sourceOriginName) || host.Lower(c) != sourceOriginName[j] {
			return false
		}
		j++
	}
	return j == len(sourceOriginName)
}

// unescape appends s to dst, unescaped as net/url.QueryUnescape does: "+"
// is a space and "%XY" the byte 0xXY. ok is false if a "%" is not followed
// by two hexadecimal digits, or the result does not fit in dst's capacity.
func unescape(dst []byte, s string) (b []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if i+2 >= len(s) || !host.IsHex(s[i+1]) || !host.IsHex(s[i+2]) {
				return nil, false
			}
			c = host.Unhex(s[i+1])<<4 | host.Unhex(s[i+2])
			i += 2
		}
		if len(dst) == cap(dst) {
			return nil, false
		}
		dst = append(dst, c)
	}
	return dst, true
}

// equalFold reports whether b and s are equal ignoring ASCII case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if host.Lower(b[i]) != host.Lower(s[i]) {
			return false
		}
	}
	return true
}
