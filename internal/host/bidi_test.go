// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host

import "testing"

// TestBidiRule checks BidiRule on the rules of RFC 5893 section 2, each
// with a label that passes it and one that breaks it.
func TestBidiRule(t *testing.T) {
	const (
		alef  = "\u0627" // AL
		beh   = "\u0628" // AL
		zeroA = "\u0660" // Arabic-Indic digit zero, AN
		zeroE = "\u06F0" // extended Arabic-Indic digit zero, EN
	)
	tests := []struct {
		in   string
		want bool
	}{
		// The empty label.
		{"", true},
		// Rule 1: the first character must be L, R or AL.
		{"abc", true},
		{alef + beh, true},
		{"1abc", false},
		{zeroA + alef, false},
		{zeroE + alef, false},
		{"-abc", false},
		// Rule 2: an RTL label holds only R, AL, AN, EN, ES, CS, ET, ON,
		// BN and NSM.
		{alef + "-" + beh, true},
		{alef + "1" + beh, true},
		{alef + "a", false},
		// Rule 3: an RTL label ends with R, AL, EN or AN (then NSM).
		{alef + "1", true},
		{alef + zeroA, true},
		{alef + zeroE, true},
		{alef + "-", false},
		// Rule 4: in an RTL label, EN and AN do not both appear.
		{alef + "1" + zeroA, false},
		{alef + zeroE + zeroA, false},
		{alef + zeroE + "1", true},
		// Rule 5: an LTR label holds only L, EN, ES, CS, ET, ON, BN and
		// NSM.
		{"a-1ü", true},
		{"a" + alef, false},
		{"a" + zeroA, false},
		// Rule 6: an LTR label ends with L or EN (then NSM).
		{"a1", true},
		{"a" + zeroE, true},
		{"a-", false},
		// A code point that Known does not accept.
		{"a_b", false},
		{"A", false},
		{alef + "\u064B", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := BidiRule(tt.in); got != tt.want {
				t.Errorf("BidiRule(%q) = %v; want %v", tt.in, got, tt.want)
			}
			// As one label of a Bidi domain name, Profile agrees.
			if tt.in == "" {
				return
			}
			h := tt.in + "." + alef
			_, err := Profile.ToUnicode(h)
			if _, known := KnownValid(h); known && (err == nil) != tt.want {
				t.Errorf("Profile.ToUnicode(%q): %v; BidiRule says %v", h, err, tt.want)
			}
		})
	}
}
