// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

import "unicode/utf8"

// Simple reports whether r is one of the letters of common scripts that a
// host may hold without a pass of UTS #46 under [Profile]: Latin-1
// lowercase letters (ß to ÿ, but not ÷), Greek lowercase letters with and
// without tonos (ά to ώ), Cyrillic lowercase letters (а to џ), Hiragana (ぁ
// to ゖ), Katakana (ァ to ヺ), Hangul syllables (가 to 힣) and the CJK
// unified ideographs of Unicode 1.1 (一 to 龥).
//
// Each is valid under UTS #46 and maps to itself; none is a combining mark
// or a joiner; each is a starter of bidi class L; and no two of them
// compose under NFC. So a label made only of such code points and of
// lowercase ASCII letters, digits and "-" passes every check that Profile
// makes on a Unicode label, and its ASCII form is "xn--" and its Punycode
// (RFC 3492), or the label itself when it is all ASCII (and does not begin
// "xn--", which Profile decodes and checks). TestSimpleIDN checks each
// accepted code point against Profile.
func Simple(r rune) bool {
	switch {
	case r < 0xDF:
		return false
	case r <= 0xFF:
		return r != 0xF7
	case r < 0x3AC:
		return false
	case r <= 0x3CE:
		return true
	case r < 0x430:
		return false
	case r <= 0x45F:
		return true
	case r < 0x3041:
		return false
	case r <= 0x3096:
		return true
	case r < 0x30A1:
		return false
	case r <= 0x30FA:
		return true
	case r < 0x4E00:
		return false
	case r <= 0x9FA5:
		return true
	case r < 0xAC00:
		return false
	}
	return r <= 0xD7A3
}

// Known reports whether r is a code point whose handling by [Profile] this
// package knows exactly, so that a host made of such code points needs no
// pass of UTS #46 (see [KnownValid]): a lowercase ASCII letter, an ASCII
// digit, "-", a [Simple] code point, an Arabic letter that UTS #46 marks
// valid and leaves unchanged (U+0620 to U+06FF, less the marks, tatweel,
// punctuation and U+0675 to U+0678), an Arabic-Indic digit (U+0660 to
// U+0669) or an extended Arabic-Indic digit (U+06F0 to U+06F9). Each is
// valid under UTS #46 and maps to itself, none is a combining mark or a
// joiner, and no two of them compose under NFC. TestKnown checks each
// non-ASCII one against Profile.
func Known(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClasses[r] != 0
	}
	return Simple(r) || arabicClass(r) != 0
}

// KnownValid reports what [Profile].ToUnicode does with the domain u
// without running it, when u is made of non-empty labels separated by "."
// (no other dot), none beginning "xn--", of code points that [Known]
// accepts: then known is true, and valid reports whether ToUnicode returns
// u itself and no error. Such a u is already mapped and in NFC, and its
// labels pass every check but one: when some code point is AL or AN (a
// Bidi domain name), every label must satisfy [BidiRule]. For any other u,
// known is false.
func KnownValid(u string) (valid, known bool) {
	valid, _, known = KnownValidBidi(u)
	return valid, known
}

// KnownValidBidi is [KnownValid], and also reports whether u, when known,
// is a Bidi domain name: whether some code point is AL or AN, so that the
// Bidi Rule applies to each label.
func KnownValidBidi(u string) (valid, bidi, known bool) {
	rtl, bidiOK := false, true
	var b bidiLabel
	start := 0
	for i := 0; ; {
		if i == len(u) || u[i] == '.' {
			if i == start || i-start >= 4 && u[start:start+4] == "xn--" {
				return false, false, false
			}
			bidiOK = bidiOK && b.ok()
			if i == len(u) {
				break
			}
			b = bidiLabel{}
			i++
			start = i
			continue
		}
		c, size := classAt(u[i:])
		if c == 0 {
			return false, false, false
		}
		rtl = rtl || c >= classAL
		b.next(c)
		i += size
	}
	return !rtl || bidiOK, rtl, true
}
