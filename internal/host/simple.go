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

// Known reports whether r is a code point whose handling by [Profile] this
// package knows exactly, so that a host made of such code points needs no
// pass of UTS #46 (see [KnownValid]): a lowercase ASCII letter, an ASCII
// digit, "-", a [Simple] code point, an Arabic letter that UTS #46 marks
// valid and leaves unchanged (U+0620 to U+06FF, less the marks, tatweel,
// punctuation and U+0675 to U+0678), an Arabic-Indic digit (U+0660 to
// U+0669) or an extended Arabic-Indic digit (U+06F0 to U+06F9), or one of
// [knownExtra]: the letters of Latin Extended-A and -B, IPA Extensions,
// Latin Extended Additional, Greek, Cyrillic, Armenian, Hebrew and Georgian,
// and the Thai letters and digits, that UTS #46 marks valid and leaves
// unchanged. Each is valid under UTS #46 and maps to itself, none is a
// combining mark or a joiner, and none composes under NFC with the code
// point before it, so no two of them compose. TestKnown checks each
// non-ASCII one against Profile.
func Known(r rune) bool {
	if uint32(r) < uint32(len(knownClasses)) {
		return knownClasses[r] != 0
	}
	return Simple(r)
}

// knownExtra are the code points that [Known] accepts besides ASCII,
// Simple's and the Arabic ones, as runs from lo to hi in steps of step (2
// where lowercase and uppercase letters alternate), with their bidi class:
// Hebrew letters are R, which the Bidi Rule treats as AL, and the others L.
var knownExtra = [...]struct {
	lo, hi, step rune
	class        bidiClass
}{
	// Latin Extended-A and -B: the lowercase letters and the letters
	// without case that UTS #46 leaves as they are.
	{0x0101, 0x0131, 2, classL}, {0x0135, 0x0137, 2, classL}, {0x0138, 0x013E, 2, classL},
	{0x0142, 0x0148, 2, classL}, {0x014B, 0x0177, 2, classL}, {0x017A, 0x0180, 2, classL},
	{0x0183, 0x0185, 2, classL}, {0x0188, 0x0188, 1, classL}, {0x018C, 0x018D, 1, classL},
	{0x0192, 0x0192, 1, classL}, {0x0195, 0x0195, 1, classL}, {0x0199, 0x019B, 1, classL},
	{0x019E, 0x019E, 1, classL}, {0x01A1, 0x01A5, 2, classL}, {0x01A8, 0x01AA, 2, classL},
	{0x01AB, 0x01AD, 2, classL}, {0x01B0, 0x01B0, 1, classL}, {0x01B4, 0x01B6, 2, classL},
	{0x01B9, 0x01BB, 1, classL}, {0x01BD, 0x01C3, 1, classL}, {0x01CE, 0x01DC, 2, classL},
	{0x01DD, 0x01EF, 2, classL}, {0x01F0, 0x01F0, 1, classL}, {0x01F5, 0x01F5, 1, classL},
	{0x01F9, 0x0233, 2, classL}, {0x0234, 0x0239, 1, classL}, {0x023C, 0x023C, 1, classL},
	{0x023F, 0x0240, 1, classL}, {0x0242, 0x0242, 1, classL}, {0x0247, 0x024F, 2, classL},
	// IPA Extensions.
	{0x0250, 0x02AF, 1, classL},
	// Greek letters outside ά to ώ.
	{0x0371, 0x0373, 2, classL}, {0x0377, 0x0377, 1, classL}, {0x037B, 0x037D, 1, classL},
	{0x0390, 0x0390, 1, classL}, {0x03D7, 0x03EF, 2, classL}, {0x03F3, 0x03F3, 1, classL},
	{0x03F8, 0x03F8, 1, classL}, {0x03FB, 0x03FC, 1, classL},
	// Cyrillic and Cyrillic Supplement lowercase letters outside а to џ.
	{0x0461, 0x0481, 2, classL}, {0x048B, 0x04BF, 2, classL}, {0x04C2, 0x04CE, 2, classL},
	{0x04CF, 0x052F, 2, classL},
	// Armenian lowercase letters.
	{0x0559, 0x0559, 1, classL}, {0x0560, 0x0586, 1, classL}, {0x0588, 0x0588, 1, classL},
	// Hebrew letters.
	{0x05D0, 0x05EA, 1, classAL}, {0x05EF, 0x05F2, 1, classAL},
	// Thai letters and digits, without the marks.
	{0x0E01, 0x0E30, 1, classL}, {0x0E32, 0x0E32, 1, classL}, {0x0E40, 0x0E46, 1, classL},
	{0x0E50, 0x0E59, 1, classL},
	// Georgian (Mkhedruli).
	{0x10D0, 0x10FA, 1, classL}, {0x10FD, 0x10FF, 1, classL},
	// Latin Extended Additional lowercase letters (Vietnamese among them).
	{0x1E01, 0x1E95, 2, classL}, {0x1E96, 0x1E99, 1, classL}, {0x1E9C, 0x1E9D, 1, classL},
	{0x1E9F, 0x1EFF, 2, classL},
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
