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
