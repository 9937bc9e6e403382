// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

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
