// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// entriesFrom returns the entries of ss, sorted in byte order.
func entriesFrom(ss []string) entries {
	ss = slices.Clone(ss)
	slices.Sort(ss)
	var e entries
	for _, s := range ss {
		e.hashes = append(e.hashes, s...)
		e.lengths = append(e.lengths, uint8(len(s)))
	}
	return e
}

// stringsOf returns the entries of e, in order.
func stringsOf(e entries) []string {
	var out []string
	for c := (cursor{e: e}); !c.done(); c.next() {
		out = append(out, string(c.at()))
	}
	return out
}

// randomEntries returns n distinct random entries of 4 to 32 bytes, most
// of 4, none a prefix of another, drawn from r.
func randomEntries(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		l := 4
		if r.IntN(4) == 0 {
			l = 4 + r.IntN(29)
		}
		b := make([]byte, l)
		for i := range b {
			b[i] = byte(r.IntN(4)) // few values, so that prefixes and neighbours meet
		}
		s := string(b)
		clash := false
		for o := range seen {
			if strings.HasPrefix(o, s) || strings.HasPrefix(s, o) {
				clash = true
				break
			}
		}
		if !clash {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// TestEntriesDiff: diffEntries, applyEntries, appliedEntriesSum and
// limitUpdate against a model that works on sorted strings: applying
// the diff of old to cur to old gives cur, and a chunk of it gives a
// state whose checksum appliedEntriesSum computes without building it.
func TestEntriesDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		pool := randomEntries(r, 40)
		var old, cur []string
		for _, s := range pool {
			switch r.IntN(3) {
			case 0:
				old = append(old, s)
			case 1:
				cur = append(cur, s)
			default:
				old, cur = append(old, s), append(cur, s)
			}
		}
		oe, ce := entriesFrom(old), entriesFrom(cur)
		rem, add := diffEntries(oe, ce)
		// The model: the removals are the indices of old's entries not in
		// cur; the additions cur's entries not in old.
		os := stringsOf(oe)
		var wantRem []uint32
		for i, s := range os {
			if !slices.Contains(cur, s) {
				wantRem = append(wantRem, uint32(i))
			}
		}
		var wantAdd []string
		for _, s := range stringsOf(ce) {
			if !slices.Contains(old, s) {
				wantAdd = append(wantAdd, s)
			}
		}
		if !slices.Equal(rem, wantRem) || !slices.Equal(stringsOf(add), wantAdd) {
			t.Fatalf("round %d: diff %v %q, want %v %q", round, rem, stringsOf(add), wantRem, wantAdd)
		}
		got := applyEntries(oe, rem, add)
		if !slices.Equal(stringsOf(got), stringsOf(ce)) || !slices.Equal(got.lengths, ce.lengths) {
			t.Fatalf("round %d: applied %q, want %q", round, stringsOf(got), stringsOf(ce))
		}
		if sum := appliedEntriesSum(oe, rem, add); sum != sha256.Sum256(ce.hashes) {
			t.Fatalf("round %d: appliedEntriesSum is not the checksum of cur", round)
		}
		// A chunk: the removals first, then the smallest additions.
		limit := 1 + r.IntN(len(rem)+add.n()+1)
		crem, cadd, cut := limitUpdate(rem, add, limit)
		if n := len(crem) + cadd.n(); n > limit || cut != (len(rem)+add.n() > limit) {
			t.Fatalf("round %d: limit %d: %d entries, cut %v", round, limit, n, cut)
		}
		if cadd.n() > 0 && len(crem) != len(rem) {
			t.Fatalf("round %d: additions before every removal", round)
		}
		mid := applyEntries(oe, crem, cadd)
		if sum := appliedEntriesSum(oe, crem, cadd); sum != sha256.Sum256(mid.hashes) {
			t.Fatalf("round %d: appliedEntriesSum of a chunk is not its checksum", round)
		}
		want := slices.DeleteFunc(slices.Clone(os), func(s string) bool {
			i := slices.Index(os, s)
			return slices.Contains(crem, uint32(i))
		})
		want = append(want, stringsOf(cadd)...)
		slices.Sort(want)
		if !slices.Equal(stringsOf(mid), want) {
			t.Fatalf("round %d: chunk state %q, want %q", round, stringsOf(mid), want)
		}
		for i := 1; i < len(want); i++ {
			if strings.HasPrefix(want[i], want[i-1]) {
				t.Fatalf("round %d: chunk state holds %x, a prefix of %x", round, want[i-1], want[i])
			}
		}
	}
}

// TestEntriesHeadTail: head and tail split entries where they say.
func TestEntriesHeadTail(t *testing.T) {
	e := entriesFrom([]string{"aaaa", "bbbbbbbb", "cccc", "dddddddddddddddd"})
	tests := []struct {
		k          int
		head, tail []string
	}{
		// Nothing, then everything.
		{0, nil, []string{"aaaa", "bbbbbbbb", "cccc", "dddddddddddddddd"}},
		// Across a long entry.
		{2, []string{"aaaa", "bbbbbbbb"}, []string{"cccc", "dddddddddddddddd"}},
		// Everything, then nothing.
		{4, []string{"aaaa", "bbbbbbbb", "cccc", "dddddddddddddddd"}, nil},
	}
	for _, tt := range tests {
		if got := stringsOf(e.head(tt.k)); !slices.Equal(got, tt.head) {
			t.Errorf("head(%d) = %q, want %q", tt.k, got, tt.head)
		}
		if got := stringsOf(e.tail(tt.k)); !slices.Equal(got, tt.tail) {
			t.Errorf("tail(%d) = %q, want %q", tt.k, got, tt.tail)
		}
	}
}
