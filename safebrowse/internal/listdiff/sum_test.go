// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package listdiff

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// Sum is the SHA-256 of what Apply builds, for updates small and past
// Sum's buffer.
func TestSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sorted := func(n int) []byte {
		vs := make([]uint32, n)
		for i := range vs {
			vs[i] = r.Uint32()
		}
		slices.Sort(vs)
		vs = slices.Compact(vs)
		var b []byte
		for _, v := range vs {
			b = binary.BigEndian.AppendUint32(b, v)
		}
		return b
	}
	big := sorted(20000)
	tests := []struct {
		name     string
		old, cur []byte
	}{
		// Nothing at all.
		{"empty", nil, nil},
		// A first list.
		{"from empty", nil, h(1, 2, 3)},
		// Everything removed.
		{"to empty", h(1, 2, 3), nil},
		// Interleaved removals and additions.
		{"interleaved", h(2, 4, 6, 8), h(1, 4, 5, 8, 9)},
		// Past the 32 KiB buffer, half removed and half added.
		{"large", big, append(slices.Clone(big[:len(big)/2]), sorted(5000)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := tt.cur
			if tt.name == "large" {
				cur = sortHashes(cur)
			}
			rem, add := Diff(tt.old, cur, 4)
			if got, want := Sum(tt.old, rem, add, 4), sha256.Sum256(Apply(tt.old, rem, add, 4)); got != want {
				t.Errorf("Sum = %x, want %x", got, want)
			}
			if got, want := Sum(tt.old, rem, add, 4), sha256.Sum256(cur); got != want {
				t.Errorf("Sum = %x, want the new list's %x", got, want)
			}
		})
	}
}

// sortHashes sorts 4-byte hashes and drops duplicates.
func sortHashes(b []byte) []byte {
	vs := make([]uint32, 0, len(b)/4)
	for i := 0; i < len(b); i += 4 {
		vs = append(vs, binary.BigEndian.Uint32(b[i:]))
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	out := make([]byte, 0, len(b))
	for _, v := range vs {
		out = binary.BigEndian.AppendUint32(out, v)
	}
	return out
}
