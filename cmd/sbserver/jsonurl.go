// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// errNotUTF8 is the error of a URL that is not valid UTF-8: encoding/json
// would silently turn its bad bytes into U+FFFD, and the verdict would be
// that of another string.
var errNotUTF8 = errors.New("sbserver: URL is not valid UTF-8")

// A jsonURL is a URL in a JSON request, with whether its JSON string was
// valid UTF-8 (no invalid byte, no lone surrogate escape).
type jsonURL struct {
	s     string
	valid bool
}

func (u *jsonURL) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &u.s); err != nil {
		return err
	}
	u.valid = validJSONString(b)
	return nil
}

// validJSONString reports whether the JSON string literal b (quotes
// included, already checked by the decoder) is valid UTF-8 once decoded:
// every byte sequence is UTF-8 and every \u escape of a surrogate is half
// of a pair.
func validJSONString(b []byte) bool {
	if len(b) < 2 || b[0] != '"' {
		return true // null
	}
	b = b[1 : len(b)-1]
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\' && i+1 < len(b) && b[i+1] == 'u':
			r, ok := hex4(b[i+2:])
			if !ok {
				return false
			}
			i += 6
			if !utf8.ValidRune(r) { // a surrogate: a low one must follow
				if r >= 0xDC00 || i+1 >= len(b) || b[i] != '\\' || b[i+1] != 'u' {
					return false
				}
				lo, ok := hex4(b[i+2:])
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return false
				}
				i += 6
			}
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			i += n
		}
	}
	return true
}

// hex4 reads the 4 hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
