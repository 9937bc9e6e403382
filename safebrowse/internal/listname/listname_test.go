// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package listname

import "testing"

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
