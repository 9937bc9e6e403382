// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"net/netip"
	"regexp"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/wpt"
)

// fuzzSeeds are the seeds of the fuzz targets, beyond the table rows, the
// benchmark corpus and the inputs of wpt-urltestdata.json.
var fuzzSeeds = []string{
	// Nested escapes, the quadratic case of a naive loop.
	"http://a.com/%2525252525252525",
	// An escape split by a LF.
	"http://a.com/%2\n5%3\t2",
	// Escapes that create delimiters in the host.
	"http://a%2Fb%3Fc%40d%3Ae%5Cf/",
	// Userinfo, port and backslashes together.
	`http://u:p@[::1]:80\a\..\b`,
	// A full-width host.
	"http://ｅｘａｍｐｌｅ．ｃｏｍ/",
	// Mapped IPv6 written in hex, with a port.
	"http://[::FFFF:7f00:1]:1/",
	// A trailing dot after an IPv4 address in a bracketed host.
	"http://[::1.2.3.4.]/",
	// Only dots and slashes.
	"http://..//..//",
	// Invalid UTF-8 in the host.
	"http://\xc3\x28.com/",
	// An escaped scheme, with a port (decision g).
	"ht%74p://a.com:8080/x",
	// An escaped scheme, authority and port.
	"http%3A%2F%2Fa.com%3A8x/",
	// A valid host after an escaped '/' in the userinfo (decision b stays).
	"http://a.com%2F@b.com/",
	// Scheme-relative, with a bad port.
	"//a.com:65536/",
}

// fuzzCorpus adds every seed to f: the fuzz seeds, the table rows, the
// benchmark corpora (sbcorpus and the first 200 URLs of the hostile mix)
// and the inputs of the web-platform-tests URL suite.
func fuzzCorpus(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, tt := range allCanonTests() {
		if len(tt.in) < 4096 {
			f.Add(tt.in)
		}
	}
	for _, s := range corpus(f) {
		f.Add(s)
	}
	for _, s := range hostileCorpus(200) {
		f.Add(s)
	}
	wpt.AddInputs(f)
}

// FuzzCanonicalize checks the properties every canonical URL has: nothing
// panics, Canonicalize is idempotent, the output holds no byte <= 0x20 or
// >= 0x7F, every '%' starts an uppercase escape, and AppendCanonical and
// Parse agree with Canonicalize.
func FuzzCanonicalize(f *testing.F) {
	fuzzCorpus(f)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Canonicalize(in)
		if err != nil {
			if got != "" {
				t.Fatalf("Canonicalize(%q) = %q, %v; want \"\" with the error", in, got, err)
			}
			if !strings.HasPrefix(err.Error(), "safebrowse: ") || sentinelOf(err) == err {
				t.Fatalf("Canonicalize(%q): error %q has no prefix or sentinel", in, err)
			}
			return
		}
		checkCanonical(t, in, got)
		again, err := Canonicalize(got)
		if err != nil || again != got {
			t.Fatalf("Canonicalize(%q) = %q; Canonicalize of that = %q, %v; want it unchanged", in, got, again, err)
		}
		b, err := AppendCanonical([]byte("x"), in)
		if err != nil || string(b) != "x"+got {
			t.Fatalf("AppendCanonical(%q) = %q, %v; want %q", in, b, err, "x"+got)
		}
		u, err := Parse(in)
		if err != nil || u.String() != got {
			t.Fatalf("Parse(%q) = %q, %v; want %q", in, u, err, got)
		}
		checkURL(t, u)
	})
}

// FuzzCanonicalizeOracle checks the fast code against the slow oracle,
// which follows the spec's steps literally.
func FuzzCanonicalizeOracle(f *testing.F) {
	fuzzCorpus(f)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Canonicalize(in)
		want, werr := canonicalSlow(in)
		if got != want || sentinelOf(err) != sentinelOf(werr) {
			t.Fatalf("Canonicalize(%q) = %q, %v\ncanonicalSlow = %q, %v", in, got, err, want, werr)
		}
	})
}

// TestHostileOracle checks the fast code against the slow oracle on the
// hostile mix (hostileCorpus), whose URLs exercise every branch of the fast
// path and of the full path: escapes in every part and escaped twice, dot
// segments, IPv6 and odd IPv4 hosts, long URLs.
func TestHostileOracle(t *testing.T) {
	for _, in := range hostileCorpus(1000) {
		got, err := Canonicalize(in)
		want, werr := canonicalSlow(in)
		if got != want || sentinelOf(err) != sentinelOf(werr) {
			t.Errorf("Canonicalize(%q) = %q, %v\ncanonicalSlow = %q, %v", in, got, err, want, werr)
		}
	}
}

// checkCanonical checks the form of a canonical URL.
func checkCanonical(t *testing.T, in, got string) {
	t.Helper()
	for i := 0; i < len(got); i++ {
		c := got[i]
		if c <= 0x20 || c >= 0x7f || c == '#' {
			t.Fatalf("Canonicalize(%q) = %q: byte %#x at %d", in, got, c, i)
		}
		if c == '%' && (i+2 >= len(got) || !isUpperHex(got[i+1]) || !isUpperHex(got[i+2])) {
			t.Fatalf("Canonicalize(%q) = %q: '%%' at %d starts no uppercase escape", in, got, i)
		}
	}
	i := strings.Index(got, "://")
	if i <= 0 || !strings.Contains(got[i+3:], "/") {
		t.Fatalf("Canonicalize(%q) = %q: no scheme://host/", in, got)
	}
}

func isUpperHex(c byte) bool { return isDigit(c) || 'A' <= c && c <= 'F' }

// schemePrefix matches a scheme and its colon at the start of a URL.
var schemePrefix = regexp.MustCompile(`(?s)^[A-Za-z][A-Za-z0-9+.\-]*:`)

// FuzzEscapedScheme checks the property of decision g: it never changes the
// result for an input whose scheme is not escaped and whose host, as read,
// is a valid host. Both conditions are judged here independently of the
// fast code: the scheme is escaped when the unescaped input begins with a
// scheme that the input does not spell out; the host as read (by the slow
// oracle's reading) is valid when, percent-decoded once as a browser
// decodes it, it is an IPv6 address in brackets, or a non-empty name that
// passes UTS #46 and holds no forbidden domain code point.
func FuzzEscapedScheme(f *testing.F) {
	fuzzCorpus(f)
	f.Fuzz(func(t *testing.T, in string) { checkDecisionG(t, in) })
}

// checkDecisionG checks FuzzEscapedScheme's property on in, and reports
// whether in met its conditions.
func checkDecisionG(t *testing.T, in string) bool {
	t.Helper()
	s, ok := stepsOneTwoSlow(in)
	if !ok {
		return false
	}
	u := unescapeSlow(s)
	if sc := schemePrefix.FindString(u); sc != "" && !strings.HasPrefix(s, sc) {
		return false // the scheme is escaped
	}
	host, ok := hostAsReadSlow(s)
	if !ok || !browserHost(host) {
		return false
	}
	got, err := Canonicalize(in)
	b, _, werr := appendCanonicalMode(nil, in, readNoReparse)
	if got != string(b) || sentinelOf(err) != sentinelOf(werr) {
		t.Fatalf("Canonicalize(%q) = %q, %v; without decision g %q, %v (host as read %q)", in, got, err, b, werr, host)
	}
	return true
}

// TestDecisionGConditions checks that FuzzEscapedScheme's conditions hold
// for the rows on the browser's side of decision g's line, and fail for the
// rows where the decision applies, so that the property is not empty.
func TestDecisionGConditions(t *testing.T) {
	for _, tt := range escapedSchemeTests {
		t.Run(tt.rule+"/"+tt.in, func(t *testing.T) {
			want := tt.rule == "decision g: valid host"
			if got := checkDecisionG(t, tt.in); got != want {
				t.Errorf("conditions of the property hold: %v; want %v", got, want)
			}
		})
	}
}

// stepsOneTwoSlow trims in, removes tab, CR and LF, and cuts the fragment.
func stepsOneTwoSlow(in string) (string, bool) {
	if len(in) > maxURLLen {
		return "", false
	}
	s := trimSpace(in)
	s = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(s)
	s, _, _ = strings.Cut(s, "#")
	return s, s != ""
}

// hostAsReadSlow returns the host of s as the slow oracle reads it,
// before unescaping, or false if s has a non-hierarchical scheme.
func hostAsReadSlow(s string) (string, bool) {
	_, rest, _, ok := schemeSlow(s)
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(rest, `/\?`); i >= 0 {
		rest = rest[:i]
	}
	host, _ := slowHostOfAuthority(rest)
	return host, true
}

// browserHost reports whether a browser accepts the host h as read: h,
// percent-decoded once, is an IPv6 address in brackets, or a non-empty name
// that passes UTS #46 and holds no forbidden domain code point (WHATWG URL
// standard, host parsing).
func browserHost(h string) bool {
	d := slowEscape.ReplaceAllStringFunc(h, func(e string) string {
		return string([]byte{host.Unhex(e[1])<<4 | host.Unhex(e[2])})
	})
	if strings.HasPrefix(d, "[") {
		a, err := netip.ParseAddr(strings.TrimSuffix(d[1:], "]"))
		return strings.HasSuffix(d, "]") && err == nil && a.Is6() && a.Zone() == ""
	}
	a, err := host.Profile.ToASCII(d)
	if err != nil || a == "" {
		return false
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; c <= 0x20 || c >= 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return false
		}
	}
	return true
}
