// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package listdiff

import (
	"bytes"
	"slices"
	"testing"
)

// h returns 1-byte "hashes" widened to 4, sorted as given.
func h(vs ...byte) []byte {
	var b []byte
	for _, v := range vs {
		b = append(b, 0, 0, 0, v)
	}
	return b
}

// Diff and Apply: the removals are indices into the old sorted list, the
// additions what is new, and apply of both gives the new list back.
func TestDiffApply(t *testing.T) {
	tests := []struct {
		name     string
		old, cur []byte
		wantRems []uint32
		wantAdds []byte
	}{
		// Nothing to nothing.
		{name: "empty"},
		// A first list: additions only.
		{name: "from empty", cur: h(1, 2), wantAdds: h(1, 2)},
		// Everything removed.
		{name: "to empty", old: h(1, 2, 3), wantRems: []uint32{0, 1, 2}},
		// No change.
		{name: "same", old: h(1, 2), cur: h(1, 2)},
		// Interleaved: removals point into old, additions fall between.
		{name: "interleaved", old: h(2, 4, 6, 8), cur: h(1, 4, 5, 8, 9), wantRems: []uint32{0, 2}, wantAdds: h(1, 5, 9)},
		// The first and last replaced.
		{name: "ends", old: h(1, 5, 9), cur: h(0, 5, 10), wantRems: []uint32{0, 2}, wantAdds: h(0, 10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rems, adds := Diff(tt.old, tt.cur, 4)
			if !slices.Equal(rems, tt.wantRems) || !bytes.Equal(adds, tt.wantAdds) {
				t.Errorf("Diff = %v %x, want %v %x", rems, adds, tt.wantRems, tt.wantAdds)
			}
			if got := Apply(tt.old, rems, adds, 4); !bytes.Equal(got, tt.cur) {
				t.Errorf("Apply = %x, want %x", got, tt.cur)
			}
		})
	}
}

// Limit keeps the removals first, then the smallest additions.
func TestLimit(t *testing.T) {
	tests := []struct {
		name     string
		rems     []uint32
		adds     []byte
		max      int
		wantRems []uint32
		wantAdds []byte
		wantCut  bool
	}{
		// 0 is no limit.
		{name: "no limit", rems: []uint32{0, 1}, adds: h(1, 2), wantRems: []uint32{0, 1}, wantAdds: h(1, 2)},
		// Exactly at the limit: nothing cut.
		{name: "at limit", rems: []uint32{0}, adds: h(1, 2), max: 3, wantRems: []uint32{0}, wantAdds: h(1, 2)},
		// Over: the removals stay, the largest additions go.
		{name: "additions cut", rems: []uint32{0}, adds: h(1, 2, 3), max: 3, wantRems: []uint32{0}, wantAdds: h(1, 2), wantCut: true},
		// More removals than the limit: no additions at all.
		{name: "removals cut", rems: []uint32{0, 1, 2}, adds: h(1), max: 2, wantRems: []uint32{0, 1}, wantAdds: h(), wantCut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rems, adds, cut := Limit(tt.rems, tt.adds, 4, tt.max)
			if !slices.Equal(rems, tt.wantRems) || !bytes.Equal(adds, tt.wantAdds) || cut != tt.wantCut {
				t.Errorf("Limit = %v %x %v, want %v %x %v", rems, adds, cut, tt.wantRems, tt.wantAdds, tt.wantCut)
			}
		})
	}
}
