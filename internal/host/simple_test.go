// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/punycode"
)

// simpleRanges are the ranges of code points that Simple accepts, as its
// doc comment lists them.
var simpleRanges = [][2]rune{
	// Latin-1 lowercase letters, ß to ö and ø to ÿ.
	{0xDF, 0xF6}, {0xF8, 0xFF},
	// Greek lowercase letters, ά to ώ.
	{0x3AC, 0x3CE},
	// Cyrillic lowercase letters, а to џ.
	{0x430, 0x45F},
	// Hiragana and Katakana.
	{0x3041, 0x3096}, {0x30A1, 0x30FA},
	// CJK unified ideographs of Unicode 1.1.
	{0x4E00, 0x9FA5},
	// Hangul syllables.
	{0xAC00, 0xD7A3},
}

func inSimpleRanges(r rune) bool {
	for _, rg := range simpleRanges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	return false
}

// TestSimpleSet checks that Simple accepts exactly simpleRanges, over every
// code point.
func TestSimpleSet(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune+1; r++ {
		if got, want := Simple(r), inSimpleRanges(r); got != want {
			t.Fatalf("Simple(%U) = %v; want %v", r, got, want)
		}
	}
}

// TestSimpleIDN checks every code point that Simple accepts against x/net/idna
// (Profile): in each position of a label, beside lowercase ASCII letters,
// digits and "-", and beside the other accepted code points, a host of them
// is valid, unchanged by ToUnicode, and its ASCII form is each non-ASCII
// label's Punycode after "xn--".
func TestSimpleIDN(t *testing.T) {
	// ascii is the ASCII form of h when Simple's rule holds: what a caller
	// that skips x/net computes.
	ascii := func(h string) string {
		labels := strings.Split(h, ".")
		for i, l := range labels {
			if IsASCII(l) {
				continue
			}
			p, err := punycode.Encode(l)
			if err != nil {
				t.Fatalf("punycode.Encode(%q): %v", l, err)
			}
			labels[i] = "xn--" + p
		}
		return strings.Join(labels, ".")
	}
	check := func(h string) {
		t.Helper()
		if u, err := Profile.ToUnicode(h); err != nil || u != h {
			t.Fatalf("Profile.ToUnicode(%q) = %q, %v; want it unchanged", h, u, err)
		}
		want := ascii(h)
		if a, err := Profile.ToASCII(h); err != nil || a != want {
			t.Fatalf("Profile.ToASCII(%q) = %q, %v; want %q", h, a, err, want)
		}
	}
	// One code point of each range, and the ends of each, as neighbours.
	var reps []rune
	for _, rg := range simpleRanges {
		reps = append(reps, rg[0], (rg[0]+rg[1])/2, rg[1])
	}
	var all []rune
	for _, rg := range simpleRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			all = append(all, r)
		}
	}
	for _, r := range all {
		s := string(r)
		// Alone; first, last and in the middle of a label, beside ASCII.
		check(s)
		check("a." + s + "-0.com")
		check("x-" + s + "9.y")
		check("0" + s + "z")
		// Before and after a representative of every range.
		var b strings.Builder
		for _, p := range reps {
			b.WriteRune(p)
			b.WriteRune(r)
		}
		b.WriteString(".x")
		check(b.String())
	}
	// Each accepted code point after the one before it, in both orders,
	// in labels of 16 code points.
	for _, order := range [][]rune{all, reversed(all)} {
		for i := 0; i < len(order); i += 15 {
			j := min(i+16, len(order))
			check(string(order[i:j]) + ".de")
		}
	}
	// Just outside each range.
	for _, rg := range simpleRanges {
		for _, r := range []rune{rg[0] - 1, rg[1] + 1} {
			if Simple(r) {
				t.Errorf("Simple(%U) = true", r)
			}
		}
	}
}

func reversed(rs []rune) []rune {
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = r
	}
	return out
}

// knownRanges are the non-ASCII code points that Known accepts besides
// Simple's, as its doc comment lists them.
var knownRanges = [][2]rune{
	// Arabic letters.
	{0x0620, 0x063F}, {0x0641, 0x064A}, {0x066E, 0x066F}, {0x0671, 0x0674},
	{0x0679, 0x06D3}, {0x06D5, 0x06D5}, {0x06EE, 0x06EF}, {0x06FA, 0x06FC},
	{0x06FF, 0x06FF},
	// Arabic-Indic digits and extended Arabic-Indic digits.
	{0x0660, 0x0669}, {0x06F0, 0x06F9},
	// Hebrew letters.
	{0x05D0, 0x05EA}, {0x05EF, 0x05F2},
	// IPA Extensions.
	{0x0250, 0x02AF},
	// Armenian lowercase letters.
	{0x0559, 0x0559}, {0x0560, 0x0586}, {0x0588, 0x0588},
	// Thai letters and digits.
	{0x0E01, 0x0E30}, {0x0E32, 0x0E32}, {0x0E40, 0x0E46}, {0x0E50, 0x0E59},
	// Georgian.
	{0x10D0, 0x10FA}, {0x10FD, 0x10FF},
}

// knownAlternating are the runs of Known's lowercase letters in the Latin,
// Greek and Cyrillic blocks where upper and lower case alternate: every
// other code point from the first to the last, and single letters.
var knownAlternating = [][2]rune{
	// Latin Extended-A and -B.
	{0x0101, 0x0131}, {0x0135, 0x0137}, {0x0138, 0x013E}, {0x0142, 0x0148}, {0x014B, 0x0177},
	{0x017A, 0x0180}, {0x0183, 0x0185}, {0x0188, 0x0188}, {0x018C, 0x018C}, {0x018D, 0x018D},
	{0x0192, 0x0192}, {0x0195, 0x0195}, {0x0199, 0x019B}, {0x019A, 0x019A}, {0x019E, 0x019E},
	{0x01A1, 0x01A5}, {0x01A8, 0x01AA}, {0x01AB, 0x01AD}, {0x01B0, 0x01B0}, {0x01B4, 0x01B6},
	{0x01B9, 0x01BB}, {0x01BA, 0x01BA}, {0x01BD, 0x01C3}, {0x01BE, 0x01C2}, {0x01CE, 0x01DC},
	{0x01DD, 0x01EF}, {0x01F0, 0x01F0}, {0x01F5, 0x01F5}, {0x01F9, 0x0233}, {0x0234, 0x0238},
	{0x0235, 0x0239}, {0x023C, 0x023C}, {0x023F, 0x023F}, {0x0240, 0x0240}, {0x0242, 0x0242},
	{0x0247, 0x024F},
	// Greek.
	{0x0371, 0x0373}, {0x0377, 0x0377}, {0x037B, 0x037D}, {0x037C, 0x037C}, {0x0390, 0x0390},
	{0x03D7, 0x03EF}, {0x03F3, 0x03F3}, {0x03F8, 0x03F8}, {0x03FB, 0x03FB}, {0x03FC, 0x03FC},
	// Cyrillic and Cyrillic Supplement.
	{0x0461, 0x0481}, {0x048B, 0x04BF}, {0x04C2, 0x04CE}, {0x04CF, 0x052F},
	// Latin Extended Additional.
	{0x1E01, 0x1E95}, {0x1E96, 0x1E98}, {0x1E97, 0x1E99}, {0x1E9C, 0x1E9C}, {0x1E9D, 0x1E9D},
	{0x1E9F, 0x1EFF},
}

func inKnownRanges(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', '0' <= r && r <= '9', r == '-':
		return true
	}
	for _, rg := range knownRanges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	for _, rg := range knownAlternating {
		if rg[0] <= r && r <= rg[1] && (r-rg[0])%2 == 0 {
			return true
		}
	}
	return inSimpleRanges(r)
}

// TestKnownSet checks that Known accepts exactly its ranges, over every
// code point.
func TestKnownSet(t *testing.T) {
	for r := rune(-1); r <= utf8.MaxRune+1; r++ {
		if got, want := Known(r), inKnownRanges(r); got != want {
			t.Fatalf("Known(%U) = %v; want %v", r, got, want)
		}
	}
}

// knownProbes are label templates for TestKnown: "X" stands for the code
// point under test. Beside letters and digits of each class (L, EN, AN,
// ES, AL) and in Bidi domain names, they tell apart every bidi class a
// code point might have, so KnownValid agreeing with Profile on all of
// them checks the class that BidiRule gives it.
var knownProbes = []string{
	"X", "XX", "aX", "Xa", "1X", "X1", "-X", "X-", "a-X", "X-1",
	"\u0628X", "X\u0628", "\u0628-X", "\u0628X1", "\u0628X\u0660", "\u0628X\u06F0",
	"\u0660X", "X\u0660", "\u06F0X", "X\u06F0", "\u0628\u0660X", "\u0628\u06F0X", "\u0628\u0660X\u0628",
	"X.com", "a.X", "X.\u0628", "\u0628.X", "aX.\u0628", "1X.\u0628", "\u0628X.a1", "X1.\u0628\u0628",
	"ü\u0628X", "X日本",
	// Hebrew letters are R, which the Bidi Rule treats as AL.
	"\u05D0X", "X\u05D0", "\u05D0X\u0660", "\u05D0X1", "X.\u05D0", "\u05D0.X",
}

// TestKnown checks KnownValid against Profile.ToUnicode for every non-ASCII
// code point that Known accepts, in each of knownProbes, and for a valid
// host that Profile.ToASCII writes each non-ASCII label as "xn--" and its
// Punycode.
func TestKnown(t *testing.T) {
	check := func(h string) {
		t.Helper()
		valid, known := KnownValid(h)
		if !known {
			t.Fatalf("KnownValid(%q): not known", h)
		}
		u, err := Profile.ToUnicode(h)
		if got := err == nil && u == h; got != valid {
			t.Fatalf("KnownValid(%q) = %v; Profile.ToUnicode gives %q, %v", h, valid, u, err)
		}
		if u != h {
			t.Fatalf("Profile.ToUnicode(%q) = %q: a known code point was mapped", h, u)
		}
		if !valid {
			return
		}
		var want []string
		for _, l := range strings.Split(h, ".") {
			if !IsASCII(l) {
				p, _ := punycode.Encode(l)
				l = "xn--" + p
			}
			want = append(want, l)
		}
		if a, err := Profile.ToASCII(h); err != nil || a != strings.Join(want, ".") {
			t.Fatalf("Profile.ToASCII(%q) = %q, %v; want %q", h, a, err, strings.Join(want, "."))
		}
	}
	n := 0
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !Known(r) {
			continue
		}
		if Simple(r) && r%64 != 0 {
			continue // TestSimpleIDN checks every one of them
		}
		n++
		for _, p := range knownProbes {
			check(strings.ReplaceAll(p, "X", string(r)))
		}
	}
	t.Logf("%d code points in %d probes each", n, len(knownProbes))
}

// TestKnownValid checks KnownValid's answer on hosts it must leave to
// x/net, and on Bidi domain names of several labels.
func TestKnownValid(t *testing.T) {
	tests := []struct {
		in               string
		valid, wantKnown bool
	}{
		// ASCII and Simple letters: no Bidi domain name.
		{"bücher-café.de", true, true},
		{"1abc.com", true, true},
		// The Arabic host of the benchmarks.
		{"مثال.إختبار", true, true},
		// A Bidi domain name: each label satisfies the Bidi Rule.
		{"1abc.مثال", false, true},
		{"abc.مثال", true, true},
		{"abc-.مثال", false, true},
		// Arabic-Indic digits make a Bidi domain name too.
		{"a.\u0660\u0661", false, true},
		{"a.\u0628\u0660", true, true},
		// An empty label, an "xn--" label, upper case, a mapped dot, a
		// mark, "_": left to x/net.
		{"a..b", false, false},
		{".a", false, false},
		{"a.", false, false},
		{"", false, false},
		{"xn--tda.de", false, false},
		{"Bücher.de", false, false},
		{"a\u3002b", false, false},
		{"\u0628\u064B", false, false},
		{"_dmarc.de", false, false},
		// Invalid UTF-8: a stray byte, a two-byte sequence cut short or
		// with a bad second byte, an overlong encoding.
		{"a\xff.de", false, false},
		{"a\xd8", false, false},
		{"\xd8\x28.de", false, false},
		{"\xc1\xbf.de", false, false},
		{"\xc3\xa0\xc3", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			valid, known := KnownValid(tt.in)
			if valid != tt.valid || known != tt.wantKnown {
				t.Errorf("KnownValid(%q) = %v, %v; want %v, %v", tt.in, valid, known, tt.valid, tt.wantKnown)
			}
		})
	}
}

// FuzzKnownValid checks KnownValid against Profile.ToUnicode on any host it
// says it knows.
func FuzzKnownValid(f *testing.F) {
	for _, s := range []string{"bücher.de", "مثال.إختبار", "1abc.مثال", "a.\u0660\u06F0", "\u0628-1.x", "日本.\u0628"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		valid, known := KnownValid(h)
		if !known {
			return
		}
		u, err := Profile.ToUnicode(h)
		if got := err == nil && u == h; got != valid {
			t.Fatalf("KnownValid(%q) = %v; Profile.ToUnicode gives %q, %v", h, valid, u, err)
		}
	})
}
