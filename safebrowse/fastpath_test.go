// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
)

// fastPathTests are inputs at the edges of appendCanonicalFast: each row
// says whether the fast path takes it; either way the result must be the
// full path's.
var fastPathTests = []struct {
	name string
	in   string
	fast bool
}{
	// The common case: lowercase scheme and host, a path.
	{"plain", "http://a.example/x/y", true},
	// https, and a query kept as it is.
	{"https with query", "https://a.example/p?q=1&r=/./..//", true},
	// An empty query.
	{"empty query", "http://a.example/p?", true},
	// No path: the path is "/".
	{"no path", "http://a.example", true},
	// A query right after the host: the path is "/".
	{"query after host", "http://a.example?q", true},
	// Upper case in the host is lowercased.
	{"upper-case host", "http://A.EXAMPLE.Com/X", true},
	// A port is dropped.
	{"port", "http://a.example:8080/x", true},
	// An empty port is no port.
	{"empty port", "http://a.example:/x", true},
	// The largest port.
	{"port 65535", "http://a.example:65535", true},
	// Leading zeros in a port.
	{"port leading zeros", "http://a.example:0000000000080/", true},
	// A port over 65535 is an error, from the full path.
	{"port 65536", "http://a.example:65536/", false},
	// A port that is not digits is an error, from the full path.
	{"port not digits", "http://a.example:8x/", false},
	// Two colons.
	{"two colons", "http://a.example:1:2/", false},
	// A path to resolve, in the fast path.
	{"dot segments", "http://a.example/a/./b/../c//d", true},
	// A backslash that ends the authority.
	{"backslash", `http://a.example\a\..\b`, true},
	// A final "/..".
	{"final dot-dot", "http://a.example/a/..", true},
	// An IPv4 address in dotted decimal.
	{"IPv4", "http://192.168.1.2/", true},
	// An IPv4 address as one number.
	{"IPv4 number", "http://3279880203/", true},
	// An IPv4 address in hex and octal parts.
	{"IPv4 hex octal", "http://0xC0.0250.1/", true},
	// A host of hex digits that is no IPv4 address.
	{"hex name", "http://cafe.be/", true},
	// Too many parts for IPv4: a name.
	{"five parts", "http://1.2.3.4.5/", true},
	// A leading dot, trimmed by the host rules.
	{"leading dot", "http://.a.example/", true},
	// A trailing dot.
	{"trailing dot", "http://a.example./", true},
	// A run of dots.
	{"dot run", "http://a..example/", true},
	// A trailing dot before a port.
	{"trailing dot and port", "http://a.example.:80/", true},
	// Only a dot: no host, an error from the full path.
	{"only a dot", "http://./", false},
	// An empty host.
	{"empty host", "http:///x", false},
	// An empty host before a port.
	{"empty host and port", "http://:80/", false},
	// A userinfo.
	{"userinfo", "http://u:p@a.example/", true},
	// A userinfo, its last '@', and a port.
	{"userinfo and port", "http://u@v:p@A.example:8080/x", true},
	// A userinfo and no host.
	{"userinfo no host", "http://u@/x", false},
	// A userinfo and a bad port.
	{"userinfo bad port", "http://u:1@a.example:1x/", false},
	// An IPv6 address.
	{"IPv6", "http://[::1]/", true},
	// An IPv6 address and a port.
	{"IPv6 and port", "http://[::FFFF:1.2.3.4]:80/x", true},
	// Brackets that hold no IPv6 address: an error.
	{"bad IPv6", "http://[x]/", false},
	// Unclosed brackets.
	{"unclosed bracket", "http://[::1/", false},
	// A bracket inside a name.
	{"bracket in name", "http://a]b/", true},
	// A fragment.
	{"fragment", "http://a.example/#f", true},
	// A fragment right after the host.
	{"fragment after host", "http://a.example#f", true},
	// A fragment that holds bytes to escape, a tab and a '%'.
	{"fragment with escapes", "http://a.example/p?q#f%41 \x80", true},
	// A tab in the fragment, which step 1 removes: the full path.
	{"tab in fragment", "http://a.example/p#f\tg", false},
	// A fragment after a userinfo: the '@' in it is not the last.
	{"fragment after userinfo", "http://u@a.example#@b.example/", true},
	// A trailing space after a fragment, trimmed: the full path.
	{"fragment and space", "http://a.example/#f ", false},
	// A space before the fragment, escaped.
	{"space before fragment", "http://a.example/ #f", true},
	// A non-ASCII host.
	{"IDN", "http://ñ.example/", true},
	// A host of common letters, upper-case ASCII among them.
	{"IDN upper case", "http://MÜNCHEN.example/", true},
	// A host that is not valid UTF-8, kept and escaped.
	{"invalid UTF-8 host", "http://\xc3\x28.example/", true},
	// A host that UTS #46 maps to a forbidden code point.
	{"full-width solidus", "http://a／b.example/", true},
	// Non-ASCII in the path.
	{"non-ASCII path", "http://a.example/ñ", true},
	// An escape in the path.
	{"escape in path", "http://a.example/%41", true},
	// An escape in the host.
	{"escape in host", "http://%61.example/", true},
	// A space in the query, escaped.
	{"space", "http://a.example/?a b", true},
	// A leading space.
	{"leading space", " http://a.example/", false},
	// A tab.
	{"tab", "http://a.exa\tmple/", false},
	// DEL, escaped.
	{"DEL", "http://a.example/\x7f", true},
	// An upper-case scheme.
	{"upper-case scheme", "HTTP://a.example/", false},
	// Another scheme.
	{"ftp", "ftp://a.example/", false},
	// No scheme.
	{"no scheme", "a.example/", false},
	// Scheme only.
	{"scheme only", "http://", false},
	// Escapes repeated, in the path.
	{"nested escapes", "http://a.example/%252541", true},
	// An escaped '?' in the path begins the query once unescaped.
	{"escaped question mark", "http://a.example/a%3Fb/../c", true},
	// An escaped '#' in the path is a byte, escaped again.
	{"escaped hash", "http://a.example/a%23b", true},
	// An escaped non-ASCII host.
	{"escaped IDN host", "http://%C3%B1.EXAMPLE/", true},
	// An escaped host, a userinfo and a port.
	{"escaped host userinfo port", "http://u%40v@%41.example:80/%7e", true},
	// An escaped '/' in the userinfo: the host as read is valid (decision b stays).
	{"escaped slash in userinfo", "http://good.com%2F@evil.com/", true},
	// An escaped '/' in the host: decision g, the full path.
	{"escaped slash in host", "http://a%2Fb.example/", false},
	// An escaped ':' in the host.
	{"escaped colon in host", "http://a%3A80/", false},
	// A forbidden code point in the host, with an escape in the path.
	{"forbidden code point and escape", "http://a<b/%41", false},
	// An escaped IPv6 address, valid as read.
	{"escaped IPv6", "http://[%3A%3A1]/", true},
	// An escaped port.
	{"escaped port", "http://a.example:%38%30/", false},
	// An escaped host and a bad port.
	{"escaped host bad port", "http://%41.example:99999/", false},
	// An escape that decodes to a space in the host.
	{"escaped space in host", "http://a%20b/", false},
	// A tab in the path.
	{"tab in path", "http://a.example/a\tb", false},
	// A trailing space.
	{"trailing space", "http://a.example/a ", false},
	// A trailing control byte.
	{"trailing control", "http://a.example/a\x01", false},
	// A control byte inside the path, escaped.
	{"control in path", "http://a.example/a\x01b", true},
	// A space in the host.
	{"space in host", "http://a b/", false},
	// A port after a userinfo.
	{"userinfo then port", "http://u@a.example:80/", true},
	// A colon in the userinfo, and a port.
	{"colon in userinfo", "http://u:p@a.example:80/", true},
	// A port of digits, then a userinfo: the port was the password.
	{"digits before userinfo", "http://u:80@a.example/", true},
	// A port after an escaped host.
	{"escaped host and port", "http://%41.example:80/", true},
	// A port after an escaped userinfo and host.
	{"escaped userinfo host and port", "http://%75@%41.example:8080", true},
	// An escape after a port's digits.
	{"escape in port", "http://a.example:80%41/", false},
	// A port over 65535 in many digits.
	{"long port", "http://a.example:6553500000000000000000000/", false},
	// A port then a fragment.
	{"port then fragment", "http://a.example:80#f", true},
	// A trailing dot before a port.
	{"dot before port", "http://a.:80/", true},
	// Only a port.
	{"only a port", "http://:80/", false},
	// A forbidden domain code point that needs no escape is kept.
	{"forbidden code point", "http://a<b.example/", true},

	// The hostile mix (hostileCorpus).
	// An escaped ':' after the scheme: decision g, the full path.
	{"escaped scheme colon", "https%3A//a.example/p", false},
	// An escaped scheme and slashes.
	{"escaped scheme slashes", "http%3A%2F%2Fa.example/p?q", false},
	// An escaped letter in the scheme.
	{"escaped scheme letter", "h%74tps://a.example/", false},
	// A host escaped twice.
	{"host escaped twice", "https://%2577ww.ex%61mple.com/", true},
	// A path escaped twice, with dot segments once unescaped.
	{"path escaped twice", "https://a.example/%252E%252E/b/%2E/c//d", true},
	// An escaped '%' before hex digits: one escape once unescaped again.
	{"escape forms an escape", "https://a.example/%2541%25%34%31", true},
	// A query holding an escaped URL.
	{"escaped URL in query", "https://a.example/r?url=https%3A%2F%2Fb.example%2Fx%3Fa%3D1%26b%3D2", true},
	// An escaped host in upper case, with a userinfo and a port.
	{"escaped upper-case host", "http://u:p@%57WW.EXAMPLE.COM:8080/x", true},
	// An IPv4-mapped IPv6 address in hex, upper case.
	{"mapped hex", "https://[0:0:0:0:0:FFFF:C0A8:0101]/", true},
	// A NAT64 address.
	{"NAT64", "https://[64:ff9b::192.0.2.33]:443/x", true},
	// Two runs of zeros, the first and longest made "::".
	{"zero runs", "https://[2001:DB8:0:0:1:0:0:1]/", true},
	// Runs of zeros of equal length: the first is "::".
	{"tied zero runs", "https://[2001:0:0:1:0:0:1:1]/", true},
	// An octal IPv4 address.
	{"octal IPv4", "https://0300.0250.01.01/", true},
	// A hex IPv4 address in one part.
	{"hex IPv4 one part", "https://0xC0A80101/", true},
	// An IPv4 address in three parts, one octal.
	{"IPv4 three parts", "https://192.0250.257/", true},
	// An escaped odd IPv4 address.
	{"escaped octal IPv4", "https://%30300.0250.01.01/", true},
	// An odd IPv4 address before an escaped path.
	{"hex IPv4 escaped path", "https://0xC0.0xA8.1.1/%2E%2E/a%2Fb", true},
	// An upper-case host, a userinfo and a port before an escaped query.
	{"userinfo port escaped query", "http://u:p@WWW.A.EXAMPLE:80/x?u=%68ttp%3A%2F%2Fb", true},
	// Runs of dots in the host before an escaped path.
	{"dot runs escaped path", "http://.a..example./%7Ex", true},
	// An escaped '%' in the path, escaped again.
	{"escaped percent in path", "http://a.example/%25zz%2", true},
	// A bracketed host before an escaped path: the host is checked.
	{"IPv6 escaped path", "http://[::1]/%41", true},
	// Brackets that hold no IPv6 address, and an escaped path.
	{"bad IPv6 escaped path", "http://[x]/%41", false},
	// A bracket inside a name, and an escaped path: decision g.
	{"bracket in name escaped path", "http://a]b/%41", false},
	// A non-ASCII host and an escaped path.
	{"IDN escaped path", "http://ñ.example/%41", true},
	// A port that is no port, and an escaped path: an error.
	{"bad port escaped path", "http://a.example:8x/%41", false},
}

// TestFastPath checks, on its rows, the canonicalisation rows, the
// benchmark corpus and the web-platform-tests URL suite, that
// appendCanonicalFast gives the full path's result, byte for byte and with
// the same parts, whenever it takes an input, and that it never takes one
// that the full path rejects.
func TestFastPath(t *testing.T) {
	for _, tt := range fastPathTests {
		t.Run(tt.name, func(t *testing.T) {
			if fast := checkFastPath(t, tt.in); fast != tt.fast {
				t.Errorf("appendCanonicalFast(%q) took it: %v; want %v", tt.in, fast, tt.fast)
			}
		})
	}
	sets := []struct {
		name string
		in   []string
		min  float64 // the least share of inputs the fast path must take
	}{
		{"canonicalisation rows", canonRowInputs(), 0},
		// The benchmark's URLs: the fast path is what makes it fast.
		{"sbcorpus", corpus(t), 0.9},
		// The hostile mix: an escaped scheme, escapes that
		// decode to '%', IPv6 and odd IPv4 hosts take the full path.
		{"hostile", hostileCorpus(1000), 0.9},
		{"wpt", wpt.Inputs(t), 0},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			fast := 0
			for _, in := range set.in {
				if checkFastPath(t, in) {
					fast++
				}
			}
			t.Logf("%d of %d inputs took the fast path", fast, len(set.in))
			if float64(fast) < set.min*float64(len(set.in)) {
				t.Errorf("%d of %d inputs took the fast path; want at least %.0f%%", fast, len(set.in), 100*set.min)
			}
		})
	}
}

// canonRowInputs returns the inputs of the canonicalisation table rows.
func canonRowInputs() []string {
	var in []string
	for _, tt := range allCanonTests() {
		in = append(in, tt.in)
	}
	return in
}

// FuzzFastPath checks appendCanonicalFast against the full path.
func FuzzFastPath(f *testing.F) {
	fuzzCorpus(f)
	for _, tt := range fastPathTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkFastPath(t, in) })
}

// checkFastPath checks appendCanonicalFast against the full path on in,
// and reports whether the fast path took it.
func checkFastPath(t *testing.T, in string) bool {
	t.Helper()
	// Separate buffers, each with room for the result: each path writes
	// its spare capacity, and the fast path declines rather than grow dst.
	buf := func() []byte { return append(make([]byte, 0, 3*len(in)+64), 'x') }
	want, wp, werr := appendCanonicalMode(buf(), in, readRaw)
	got, gp, ok := appendCanonicalFast(buf(), in)
	if !ok {
		if string(got) != "x" {
			t.Fatalf("appendCanonicalFast(%q) declined, returning %q; want the dst it was given", in, got)
		}
		return false
	}
	if werr != nil {
		t.Fatalf("appendCanonicalFast(%q) = %q; the full path gives error %v", in, got, werr)
	}
	if string(got) != string(want) || gp != wp {
		t.Fatalf("appendCanonicalFast(%q) = %q, %+v\nfull path            = %q, %+v", in, got, gp, want, wp)
	}
	return true
}

// FuzzScanRest checks scanRest against strings.IndexByte and the escape
// set, byte by byte, on a string and on the same bytes.
func FuzzScanRest(f *testing.F) {
	for _, s := range []string{"", "?", "a?b", "/path/to/x?q=1", "/p\x80?", "01234567?", "0123456?#", "/a/b/c/d/e/f/g/h/i/j?k%",
		"?\x00", "/a%b", "/abcdefgh%41?x", "/abcdefgh?%41", "/abcdefg\"#", "/abcdefgh\x7f%", "%%%%%%%%%", "/abcdefg$%&'()*+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, pct, other := scanRest(s)
		if want := strings.IndexByte(s, '?'); q != want {
			t.Fatalf("scanRest(%q): '?' at %d; want %d", s, q, want)
		}
		if want := strings.IndexByte(s, '%') >= 0; pct != want {
			t.Fatalf("scanRest(%q): '%%' %v; want %v", s, pct, want)
		}
		if want := countEscapes([]byte(strings.ReplaceAll(s, "%", ""))) > 0; other != want {
			t.Fatalf("scanRest(%q): other escape %v; want %v", s, other, want)
		}
		if q2, pct2, other2 := scanRest([]byte(s)); q2 != q || pct2 != pct || other2 != other {
			t.Fatalf("scanRest(%q) = %d, %v, %v; on []byte %d, %v, %v", s, q, pct, other, q2, pct2, other2)
		}
	})
}

// TestFastPathAllocs checks that the fast path, which copies a userinfo
// and a port before it drops them, does not grow a dst that has room for
// the result, as the full path does not.
func TestFastPathAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations; run without -race")
	}
	for _, in := range []string{
		"http://a-long-user:and-a-long-password@a.example/",
		"http://a.example:0000000000000000080/",
		"http://u:p@[::1]:80/",
		"http://%41.example:80/x",
	} {
		want, err := Canonicalize(in)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, 0, len(want))
		if n := testing.AllocsPerRun(10, func() { AppendCanonical(dst, in) }); n != 0 {
			t.Errorf("AppendCanonical(%d-byte dst, %q): %v allocs; want 0", len(want), in, n)
		}
	}
}
