// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package listname

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestWidth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		// The lists of the v5 reference, one per width.
		{"se-4b", 4},
		{"x-8b", 8},
		{"mcrx-16b", 16},
		{"gc-32b", 32},
		// The resource form of safebrowsing.proto (decision 4).
		{"hashLists/se-4b", 4},
		{"hashLists/gc-32b", 32},
		// Nothing before the dash, with or without the prefix.
		{"-4b", 0},
		{"hashLists/-4b", 0},
		// No dash, or another suffix.
		{"se4b", 0},
		{"se-5b", 0},
		{"se-4B", 0},
		{"", 0},
		// The prefix is taken once, and only at the start.
		{"hashLists/hashLists/se-4b", 4},
		{"x/hashLists/se-4b", 4},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Width(tt.in); got != tt.want {
				t.Errorf("Width(%q) = %d; want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestTrim(t *testing.T) {
	tests := []struct{ in, want string }{
		// The resource form loses its collection.
		{"hashLists/se-4b", "se-4b"},
		// A bare name is kept.
		{"se-4b", "se-4b"},
		// Only the exact collection, case and all.
		{"hashlists/se-4b", "hashlists/se-4b"},
		{"hashLists/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Trim(tt.in); got != tt.want {
				t.Errorf("Trim(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestValid(t *testing.T) {
	long := strings.Repeat("a", MaxLen-3) + "-4b" // 64 bytes
	tests := []struct {
		in   string
		want bool
	}{
		// The lists of the v5 reference, one per width.
		{"se-4b", true},
		{"x-8b", true},
		{"mcrx-16b", true},
		{"gc-32b", true},
		// Digits and more dashes.
		{"se-new2-4b", true},
		// 64 bytes is the most.
		{long, true},
		{"a" + long, false},
		// Upper case, as Google writes no list name.
		{"Se-4b", false},
		{"SE-4B", false},
		// Other bytes than a-z, 0-9 and '-'.
		{"se_new-4b", false},
		{"se.new-4b", false},
		{"se new-4b", false},
		{"../se-4b", false},
		{"sé-4b", false},
		{"se-4b\x00", false},
		// The resource form is trimmed once before: Valid takes the bare name.
		{"hashLists/se-4b", false},
		{"hashLists/hashLists/se-4b", false},
		// No width suffix, or nothing before it.
		{"se", false},
		{"se-5b", false},
		{"-4b", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Valid(tt.in); got != tt.want {
				t.Errorf("Valid(%q) = %v; want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestValidTrimmed: the rule as the module applies it to a name read from
// the API, trimmed once: "hashLists/se-4b" is se-4b, one list named twice
// beside "se-4b", and a prefix given twice is no list.
func TestValidTrimmed(t *testing.T) {
	var kept []string
	for _, in := range []string{"se-4b", "hashLists/se-4b", "hashLists/hashLists/se-4b", "hashLists/Se-4b", "hashLists/mw-4b"} {
		if n := Trim(in); Valid(n) && !slices.Contains(kept, n) {
			kept = append(kept, n)
		}
	}
	if want := []string{"se-4b", "mw-4b"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q; want %q", kept, want)
	}
}

// ExampleValid reads list names as the API gives them: trimmed once of
// "hashLists/", then checked.
func ExampleValid() {
	for _, name := range []string{"se-4b", "hashLists/gc-32b", "Se-4b", "se_new-4b", "hashLists/hashLists/se-4b"} {
		fmt.Println(name, Valid(Trim(name)))
	}
	// Output:
	// se-4b true
	// hashLists/gc-32b true
	// Se-4b false
	// se_new-4b false
	// hashLists/hashLists/se-4b false
}

func TestValidWebRisk(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		// The four threat types of webrisk.proto.
		{"MALWARE", true},
		{"SOCIAL_ENGINEERING", true},
		{"UNWANTED_SOFTWARE", true},
		{"SOCIAL_ENGINEERING_EXTENDED_COVERAGE", true},
		// The enum's zero value names no list.
		{"THREAT_TYPE_UNSPECIFIED", false},
		// Exactly the enum's names: no other case, no prefix, no v5 name.
		{"malware", false},
		{"Malware", false},
		{"threatLists/MALWARE", false},
		{"MALWARE ", false},
		{"se-4b", false},
		{"", false},
		// v4's names that Web Risk lacks.
		{"POTENTIALLY_HARMFUL_APPLICATION", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ValidWebRisk(tt.in); got != tt.want {
				t.Errorf("ValidWebRisk(%q) = %v; want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestWebRiskListsValid: every name of WebRiskLists is valid under
// ValidWebRisk and none under Valid, in any case, so that the lists of
// the two APIs never share a name or a file.
func TestWebRiskListsValid(t *testing.T) {
	for _, n := range WebRiskLists {
		if !ValidWebRisk(n) {
			t.Errorf("ValidWebRisk(%q) = false", n)
		}
		for _, m := range []string{n, strings.ToLower(n)} {
			if Valid(m) {
				t.Errorf("Valid(%q) = true: a Web Risk name is a v5 name too", m)
			}
		}
	}
}
