// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

import (
	"strconv"
	"strings"
	"testing"
)

func TestProfile(t *testing.T) {
	tests := []struct {
		name, in, want string
		wantErr        bool
	}{
		// Uppercase ASCII is lowercased by the mapping.
		{"ascii", "WWW.Example.COM", "www.example.com", false},
		// No STD3 rules: "_" is valid, as in a browser.
		{"underscore", "_dmarc.example.com", "_dmarc.example.com", false},
		// No CheckHyphens: "--" at positions 3 and 4 of a non-ACE label is valid.
		{"hyphens34", "in--trouble.com", "in--trouble.com", false},
		// No CheckHyphens: a leading or trailing hyphen is valid.
		{"hyphenEnds", "-a-.com", "-a-.com", false},
		// Non-transitional: "ß" is kept, not mapped to "ss".
		{"sharpS", "faß.de", "xn--fa-hia.de", false},
		// UTS #46 mapping: fullwidth letters and U+3002 as a dot.
		{"fullwidth", "ＥＸＡＭＰＬＥ。com", "example.com", false},
		// CheckJoiners: a ZWJ out of context (xn--ab-m1t is "a\u200db").
		{"joiner", "xn--ab-m1t.com", "", true},
		// CheckJoiners on a Unicode input too.
		{"joinerUnicode", "a\u200db.com", "", true},
		// An A-label that is not NFC ("example" + U+0301... decoded) is invalid.
		{"notNFC", "xn--example-tge.com", "", true},
		// CheckBidi: a label mixing right-to-left and a leading digit.
		{"bidi", "0\u05d0.com", "", true},
		// No DNS length check: a 64-byte label passes.
		{"longLabel", strings.Repeat("a", 64) + ".com", strings.Repeat("a", 64) + ".com", false},
		// No DNS length check: an empty label passes.
		{"emptyLabel", "a..com", "a..com", false},
		// Invalid Punycode is an error.
		{"badPunycode", "xn--99999a.com", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Profile.ToASCII(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Profile.ToASCII(%q) = %q, %v; want error %v", tt.in, got, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("Profile.ToASCII(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestForbidden(t *testing.T) {
	// The list of the WHATWG URL standard: forbidden host code points, C0
	// controls, "%" and DEL.
	want := map[byte]bool{
		' ': true, '#': true, '%': true, '/': true, ':': true, '<': true, '>': true,
		'?': true, '@': true, '[': true, '\\': true, ']': true, '^': true, '|': true, 0x7F: true,
	}
	for c := 0; c < 0x20; c++ {
		want[byte(c)] = true
	}
	for c := 0; c < 256; c++ {
		if got := Forbidden(byte(c)); got != want[byte(c)] {
			t.Errorf("Forbidden(%#02x) = %v; want %v", c, got, want[byte(c)])
		}
	}
}

// predicateTest is a row of a test of a predicate on strings.
type predicateTest struct {
	in   string
	want bool
}

// checkPredicate runs each row through f, called fname in failures.
func checkPredicate(t *testing.T, fname string, f func(string) bool, tests []predicateTest) {
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := f(tt.in); got != tt.want {
				t.Errorf("%s(%q) = %v; want %v", fname, tt.in, got, tt.want)
			}
		})
	}
}

func TestIsASCII(t *testing.T) {
	checkPredicate(t, "IsASCII", IsASCII, []predicateTest{
		// The empty string is ASCII.
		{"", true},
		// A short ASCII string, under one word.
		{"abc", true},
		// A long ASCII string, over several words.
		{strings.Repeat("example.", 5), true},
		// A non-ASCII byte in the word loop.
		{"abcdefg\x80xyz", false},
		// A non-ASCII byte in the tail.
		{"abcdefghij\xff", false},
		// A UTF-8 letter.
		{"é", false},
		// DEL is ASCII.
		{"\x7f", true},
	})
}

func TestLower(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := byte(c)
		if 'A' <= c && c <= 'Z' {
			want = byte(c) + 32
		}
		if got := Lower(byte(c)); got != want {
			t.Errorf("Lower(%#02x) = %#02x; want %#02x", c, got, want)
		}
	}
}

func TestEqualFold(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		// Both sides are folded.
		{"Example.COM", "eXAMPLE.com", true},
		// Lengths differ.
		{"a", "ab", false},
		// Non-letters must match exactly.
		{"a-b", "a_b", false},
		// Non-ASCII bytes are not folded (no Unicode case folding).
		{"É", "é", false},
		// "@" (0x40) and "`" (0x60) differ by the case bit but are not letters.
		{"@", "`", false},
		// Empty strings.
		{"", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			if got := EqualFold(tt.a, tt.b); got != tt.want {
				t.Errorf("EqualFold(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
			}
			if got := HasPrefixFold(tt.a+"rest", tt.b); got != tt.want {
				t.Errorf("HasPrefixFold(%q, %q) = %v; want %v", tt.a+"rest", tt.b, got, tt.want)
			}
		})
	}
}

func TestPort(t *testing.T) {
	tests := []struct {
		in     string
		want   int
		wantOK bool
	}{
		// An ordinary port.
		{"8080", 8080, true},
		// Port 0 is a port.
		{"0", 0, true},
		// The largest port.
		{"65535", 65535, true},
		// One above it.
		{"65536", 0, false},
		// Leading zeros are allowed, however many.
		{"0000000000000000000000443", 443, true},
		// Empty is not a port; callers treat it as no port.
		{"", 0, false},
		// A sign is not a digit.
		{"+80", 0, false},
		// Nor is a space.
		{"80 ", 0, false},
		// A huge value does not overflow into a small one.
		{"18446744073709551696", 0, false},
		// A non-ASCII digit is not a digit.
		{"８０", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := Port(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Port(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestEndsInANumber(t *testing.T) {
	checkPredicate(t, "EndsInANumber", EndsInANumber, []predicateTest{
		// A dotted-decimal IPv4 address.
		{"1.2.3.4", true},
		// One number is an IPv4 address too.
		{"3232235777", true},
		// A hexadecimal last label (from ampcache's former table).
		{"example.0x7f", true},
		// The root dot is removed first.
		{"1.2.3.4.", true},
		// A trailing dot is dropped first.
		{"example.1.", true},
		// Only one trailing dot is dropped.
		{"example.1..", false},
		// Hexadecimal.
		{"example.0x1F", true},
		// "0X" in either case.
		{"0Xa", true},
		// "0x" alone parses as zero.
		{"a.0x", true},
		// Not hexadecimal.
		{"a.0xg", false},
		// All digits, though not valid octal: still a number, so the parser fails later.
		{"a.09", true},
		// A letter in the last label.
		{"1.2.3.com", false},
		// A number in an earlier label only.
		{"1.example", false},
		// The empty host.
		{"", false},
		// A lone dot.
		{".", false},
		// Digits then a letter.
		{"a.1a", false},
	})
}

// TestHex checks IsHex and Unhex on every byte against strconv, which reads
// a hex digit in either case.
func TestHex(t *testing.T) {
	for c := 0; c < 256; c++ {
		v, err := strconv.ParseUint(string(rune(c)), 16, 8)
		if c >= 0x80 {
			err = strconv.ErrSyntax // not one ASCII byte
		}
		if got := IsHex(byte(c)); got != (err == nil) {
			t.Errorf("IsHex(%#x) = %v; want %v", c, got, err == nil)
		}
		if err == nil && uint64(Unhex(byte(c))) != v {
			t.Errorf("Unhex(%q) = %d; want %d", byte(c), Unhex(byte(c)), v)
		}
	}
}
