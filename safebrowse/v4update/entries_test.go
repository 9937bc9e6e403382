// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// randomEntries returns n distinct entries in byte order, as strings,
// of 4 bytes, or when mixed of 4 to 32 (a quarter longer): each with a
// first 4 bytes of its own, so that none is a prefix of another.
func randomEntries(r *rand.Rand, n int, mixed bool) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		size := 4
		if mixed && r.IntN(4) == 0 {
			size = 5 + r.IntN(28)
		}
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if seen[string(b[:4])] {
			continue
		}
		seen[string(b[:4])] = true
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// entriesFrom returns the entries of strs, which are in byte order.
func entriesFrom(strs []string) entries {
	b := newBuilder(len(strs), 0)
	for _, s := range strs {
		b.add([]byte(s))
	}
	return b.entries()
}

// stringsOf returns the entries of e as strings.
func stringsOf(e entries) []string {
	var out []string
	for w := (walker{e: e}); w.cur() != nil; w.next() {
		out = append(out, string(w.cur()))
	}
	return out
}

// TestEntries: diff, apply, sum, limit, union and bySize against a model
// of sorted strings, for lists of 4-byte entries and of mixed lengths.
func TestEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, mixed := range []bool{false, true} {
		for round := range 40 {
			all := randomEntries(r, 300, mixed)
			var old, cur []string
			for _, s := range all {
				switch r.IntN(3) {
				case 0:
					old = append(old, s)
				case 1:
					cur = append(cur, s)
				default:
					old, cur = append(old, s), append(cur, s)
				}
			}
			if round == 0 {
				old = nil // a first list
			}
			eo, ec := entriesFrom(old), entriesFrom(cur)
			if (eo.lens == nil) != !slices.ContainsFunc(old, func(s string) bool { return len(s) != 4 }) {
				t.Fatalf("lens %v for %d entries", eo.lens != nil, len(old))
			}
			rem, add := diff(eo, ec)
			for i, x := range rem {
				if slices.Contains(cur, old[x]) || (i > 0 && rem[i-1] >= x) {
					t.Fatalf("removal %d: %x", x, old[x])
				}
			}
			for _, s := range stringsOf(add) {
				if slices.Contains(old, s) || !slices.Contains(cur, s) {
					t.Fatalf("addition %x", s)
				}
			}
			if got := stringsOf(apply(eo, rem, add)); !slices.Equal(got, cur) {
				t.Fatalf("apply: %d entries, want %d", len(got), len(cur))
			}
			if got, want := sum(eo, rem, add), sha256.Sum256([]byte(strings.Join(cur, ""))); got != want {
				t.Fatalf("sum %x, want %x", got, want)
			}
			// A chunk of k: the removals first, then the smallest additions.
			k := 1 + r.IntN(len(rem)+add.n()+1)
			cr, ca, cut := limit(rem, add, k)
			if cut != (len(rem)+add.n() > k) || len(cr)+ca.n() != min(k, len(rem)+add.n()) ||
				!slices.Equal(cr, rem[:len(cr)]) || !slices.Equal(stringsOf(ca), stringsOf(add)[:ca.n()]) || (ca.n() > 0 && len(cr) < len(rem)) {
				t.Fatalf("limit %d of %d+%d: %d+%d, cut %v", k, len(rem), add.n(), len(cr), ca.n(), cut)
			}
			// Union.
			want := slices.Compact(slices.Sorted(slices.Values(slices.Concat(old, cur))))
			if got := stringsOf(union(eo, ec)); !slices.Equal(got, want) {
				t.Fatalf("union: %d entries, want %d", len(got), len(want))
			}
			// By size: each group in byte order, of one length.
			four, longer := ec.bySize()
			var back []string
			for i := 0; i < len(four); i += 4 {
				back = append(back, string(four[i:i+4]))
			}
			for _, g := range longer {
				for i := 0; i < len(g.b); i += g.size {
					back = append(back, string(g.b[i:i+g.size]))
				}
			}
			if !slices.Equal(slices.Sorted(slices.Values(back)), cur) {
				t.Fatalf("bySize: %d entries, want %d", len(back), len(cur))
			}
		}
	}
}

// TestChunksMixed: an update of entries of mixed lengths, full then
// partial, cut into chunks, each applied by a client: the chunk states
// lead it to the list.
func TestChunksMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	all := randomEntries(r, 6000, true)
	first, second := all[:3000], append(slices.Clone(all[1000:2000]), all[4000:]...)
	slices.Sort(second)
	l := newList(v4wire.Malware, []string{"MALWARE"}, []int{0})
	c := &clientList{}
	for step, strs := range [][]string{first, second} {
		ent := entriesFrom(strs)
		v := newVersion(l.name, ent, sha256.Sum256(ent.b))
		l.loaded, l.cur, l.history = true, v, append(l.history, v)
		rice := step == 0 // RICE for the first list, RAW for the second
		chunks := 0
		for range 10 {
			chunks++
			st := l.locate(c.state)
			u, err := l.build(st, v, 1024, rice)
			if err != nil {
				t.Fatal(err)
			}
			lr, err := parseBody(u.body)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.apply(&lr); err != nil {
				t.Fatalf("list %d: %v", step, err)
			}
			if u.final {
				break
			}
		}
		if !slices.Equal(c.entries, strs) || string(c.state) != v.s || chunks < 3 {
			t.Fatalf("list %d: %d entries at state %q in %d chunks, want %d at %q", step, len(c.entries), c.state, chunks, len(strs), v.s)
		}
	}
}
