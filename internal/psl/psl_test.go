// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package psl

import (
	"net/netip"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/publicsuffix"
)

// lenTests are checked against x/net's PublicSuffix, which is the oracle:
// want is what it returns today.
var lenTests = []struct {
	in   string
	want string
}{
	// Empty input: no rule, the default rule gives "".
	{"", ""},
	// A known TLD alone.
	{"com", "com"},
	// The spec's example host (safe-browsing-notes.md §2).
	{"a.b.example.com", "com"},
	// A two-level ICANN suffix: the spec's example.co.uk row.
	{"example.co.uk", "co.uk"},
	// A public suffix by itself.
	{"co.uk", "co.uk"},
	// Private section: github.io is a public suffix, so the PSL's private
	// entries are used, as browsers use them.
	{"a.b.github.io", "github.io"},
	// Private section: blogspot.com too; a tenant is its own site.
	{"tenant.blogspot.com", "blogspot.com"},
	// A single label that is no TLD: default rule "*".
	{"localhost", "localhost"},
	// An unlisted TLD: default rule "*".
	{"www.example.zzzz", "zzzz"},
	// A wildcard rule: *.ck.
	{"www.foo.ck", "foo.ck"},
	// An exception to a wildcard: !www.ck.
	{"www.www.ck", "ck"},
	// An IPv4 address is its own suffix, as in x/net.
	{"1.2.3.4", "1.2.3.4"},
	// Digits and dots that are no IPv4 address.
	{"1.2.3.4.5", "5"},
	// An IPv6 address is its own suffix, as in x/net.
	{"::1", "::1"},
	// Punycode TLD.
	{"example.xn--p1ai", "xn--p1ai"},
	// Label longer than any in the table.
	{"x." + strings.Repeat("a", 100), strings.Repeat("a", 100)},
}

func TestLen(t *testing.T) {
	for _, tt := range lenTests {
		t.Run(tt.in, func(t *testing.T) {
			ps, _ := publicsuffix.PublicSuffix(tt.in)
			if ps != tt.want {
				t.Fatalf("x/net PublicSuffix(%q) = %q, table says %q: fix the table", tt.in, ps, tt.want)
			}
			if got := Len(tt.in); got != len(tt.want) {
				t.Errorf("Len(%q) = %d, want %d (%q)", tt.in, got, len(tt.want), tt.want)
			}
			if got := Len([]byte(tt.in)); got != len(tt.want) {
				t.Errorf("Len([]byte(%q)) = %d, want %d", tt.in, got, len(tt.want))
			}
			if _, err := netip.ParseAddr(tt.in); err != nil {
				if got := NameLen(tt.in); got != len(tt.want) {
					t.Errorf("NameLen(%q) = %d, want %d (%q)", tt.in, got, len(tt.want), tt.want)
				}
			}
		})
	}
}

// TestVersion checks that the tables come from the x/net that go.mod
// requires, so that Len and x/net's PublicSuffix read the same list.
func TestVersion(t *testing.T) {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if want := "golang.org/x/net " + xnetVersion + "\n"; !strings.Contains(string(b), want) {
		t.Errorf("go.mod does not require %q: run go generate in internal/psl", strings.TrimSpace(want))
	}
}

// TestEdges checks that every edge of the tree is found through the hash
// table, and that the table stays at most half full.
func TestEdges(t *testing.T) {
	tab := edges()
	used := 0
	for _, v := range tab {
		if v != 0 {
			used++
		}
	}
	if used > len(tab)/2 {
		t.Errorf("edge table %d of %d slots full", used, len(tab))
	}
	var walk func(parent, lo, hi uint32)
	walk = func(parent, lo, hi uint32) {
		for f := lo; f < hi; f++ {
			if got := lookup(tab, parent, nodeLabel(f), lo, hi); got != f {
				t.Fatalf("lookup(%d, %q) = %d, want %d", parent, nodeLabel(f), got, f)
			}
			clo, chi, _, _ := childInfo(f)
			walk(f, clo, chi)
		}
	}
	walk(root, 0, numTLD)
}

func TestNoAllocs(t *testing.T) {
	b := []byte("a.b.www.example.co.uk")
	if n := testing.AllocsPerRun(1000, func() { Len(b) }); n != 0 {
		t.Errorf("Len([]byte) allocates %v times", n)
	}
	if n := testing.AllocsPerRun(1000, func() { Len("tenant.blogspot.com") }); n != 0 {
		t.Errorf("Len(string) allocates %v times", n)
	}
}

func FuzzLen(f *testing.F) {
	for _, tt := range lenTests {
		f.Add(tt.in)
	}
	// More private-section and wildcard shapes.
	for _, s := range []string{"a.appspot.com", "x.y.kawasaki.jp", "city.kawasaki.jp", "a.b.c.d.e.f.com", "1.2.3.4.in-addr.arpa", "[::1]", "a..b.com", ".com", "com.", "ÿ.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, _ := publicsuffix.PublicSuffix(s)
		if got := Len(s); got != len(ps) {
			t.Fatalf("Len(%q) = %d, x/net says %q", s, got, ps)
		}
		if got := Len([]byte(s)); got != len(ps) {
			t.Fatalf("Len([]byte(%q)) = %d, x/net says %q", s, got, ps)
		}
		if _, err := netip.ParseAddr(s); err != nil {
			if got := NameLen(s); got != len(ps) {
				t.Fatalf("NameLen(%q) = %d, x/net says %q", s, got, ps)
			}
		}
	})
}

var sink int

func BenchmarkLen(b *testing.B) {
	b.Run("psl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink += Len("a.b.www.example.co.uk")
		}
	})
	b.Run("x-net", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ps, _ := publicsuffix.PublicSuffix("a.b.www.example.co.uk")
			sink += len(ps)
		}
	})
}

// TestMaxLabels checks MaxLabels against the table: the deepest rule, plus
// one label for a wildcard.
func TestMaxLabels(t *testing.T) {
	var walk func(lo, hi uint32, depth int) int
	walk = func(lo, hi uint32, depth int) int {
		most := 0
		for f := lo; f < hi; f++ {
			clo, chi, _, wildcard := childInfo(f)
			d := depth
			if wildcard {
				d++
			}
			most = max(most, d, walk(clo, chi, depth+1))
		}
		return most
	}
	if got := walk(0, numTLD, 1); got != MaxLabels {
		t.Errorf("the deepest public suffix has %d labels, MaxLabels is %d", got, MaxLabels)
	}
}
