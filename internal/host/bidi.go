// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

import "unicode/utf8"

// A bidiClass is the bidi class (Unicode Standard Annex #9) of a code point
// that [Known] accepts: one of the five classes that such code points have.
// Zero means the code point is not known.
type bidiClass uint8

const (
	classL  bidiClass = 1 + iota // left to right
	classEN                      // European number
	classES                      // European separator
	classAL                      // Arabic letter, or right to left (R), which the Bidi Rule treats alike
	classAN                      // Arabic number
)

// asciiClasses are the classes of the ASCII code points that Known accepts:
// lowercase letters (L), digits (EN) and "-" (ES).
var asciiClasses = func() (t [utf8.RuneSelf]bidiClass) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = classL
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = classEN
	}
	t['-'] = classES
	return t
}()

// knownClasses are the classes of the code points below U+2000 that Known
// accepts, and 0 for the others: ASCII, Simple's, the Arabic ones and
// knownExtra's, in one table, so that classAt looks each up once.
var knownClasses = func() (t [0x2000]bidiClass) {
	copy(t[:], asciiClasses[:])
	for r := rune(utf8.RuneSelf); r < rune(len(t)); r++ {
		if Simple(r) {
			t[r] = classL
		} else {
			t[r] = arabicClass(r)
		}
	}
	for _, e := range knownExtra {
		for r := e.lo; r <= e.hi; r += e.step {
			t[r] = e.class
		}
	}
	return t
}()

// arabicClass returns the class of an Arabic code point that Known accepts,
// and 0 for any other code point. The letters are the Arabic letters of
// the Arabic block (general category Lo, bidi class AL) that UTS #46 marks
// valid and that no mapping changes; the Arabic-Indic digits are AN and
// the extended Arabic-Indic digits EN. Marks (harakat, madda, hamza above
// and below), tatweel, punctuation and the letters that UTS #46 maps
// (U+0675 to U+0678) are left out: TestKnown checks each against Profile.
func arabicClass(r rune) bidiClass {
	switch {
	case r < 0x0620 || r > 0x06FF:
		return 0
	case r <= 0x063F, 0x0641 <= r && r <= 0x064A:
		return classAL
	case 0x0660 <= r && r <= 0x0669:
		return classAN
	case 0x066E <= r && r <= 0x066F, 0x0671 <= r && r <= 0x0674, 0x0679 <= r && r <= 0x06D3, r == 0x06D5,
		0x06EE <= r && r <= 0x06EF, 0x06FA <= r && r <= 0x06FC, r == 0x06FF:
		return classAL
	case 0x06F0 <= r && r <= 0x06F9:
		return classEN
	}
	return 0
}

// classAt returns the class of the code point at the start of s, which is
// not empty, and its length in bytes; the class is 0 when [Known] does not
// accept it (invalid UTF-8 included).
func classAt(s string) (bidiClass, int) {
	c := s[0]
	if c < utf8.RuneSelf {
		return asciiClasses[c], 1
	}
	// Two bytes (U+0080 to U+07FF: Latin, Greek, Cyrillic, Armenian,
	// Hebrew, Arabic), decoded inline.
	if 0xC2 <= c && c < 0xE0 {
		if len(s) < 2 || s[1]&0xC0 != 0x80 {
			return 0, 1
		}
		return knownClasses[rune(c&0x1F)<<6|rune(s[1]&0x3F)], 2
	}
	r, size := utf8.DecodeRuneInString(s)
	if uint32(r) < uint32(len(knownClasses)) {
		return knownClasses[r], size
	}
	if Simple(r) {
		return classL, size
	}
	return 0, size
}

// A bidiLabel follows one label through the Bidi Rule, a code point at a
// time, as [BidiRule] states it.
type bidiLabel struct {
	allowed, final uint8 // classes allowed, and allowed last, after the first
	seen           uint8 // classes seen
	last           bidiClass
	bad            bool // a code point broke the rule
}

func (b *bidiLabel) next(c bidiClass) {
	switch {
	case b.seen == 0:
		switch c {
		case classL:
			b.allowed, b.final = 1<<classL|1<<classEN|1<<classES, 1<<classL|1<<classEN
		case classAL:
			b.allowed, b.final = 1<<classAL|1<<classEN|1<<classAN|1<<classES, 1<<classAL|1<<classEN|1<<classAN
		default:
			b.bad = true
		}
	case b.allowed&(1<<c) == 0:
		b.bad = true
	}
	b.seen |= 1 << c
	b.last = c
}

// ok reports whether the label so far satisfies the Bidi Rule.
func (b *bidiLabel) ok() bool {
	const enAN = 1<<classEN | 1<<classAN
	return b.seen == 0 || !b.bad && b.final&(1<<b.last) != 0 && b.seen&enAN != enAN
}

// BidiRule reports whether label, made of code points that [Known]
// accepts, satisfies the Bidi Rule of RFC 5893 section 2, as UTS #46
// CheckBidi (and so [Profile]) applies it to each label of a Bidi domain
// name, in the form golang.org/x/text/secure/bidirule checks it:
//   - the first code point is L (an LTR label) or AL (an RTL label);
//   - an LTR label holds only L, EN and ES, and ends with L or EN;
//   - an RTL label holds only AL, EN, AN and ES, and ends with AL, EN or AN;
//   - no label holds both EN and AN.
//
// The empty label satisfies it. A label with a code point that Known does
// not accept does not.
func BidiRule(label string) bool {
	var b bidiLabel
	for i := 0; i < len(label); {
		c, size := classAt(label[i:])
		if c == 0 {
			return false
		}
		b.next(c)
		i += size
	}
	return b.ok()
}
