package safebrowse

import (
	"strings"
	"testing"

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
}

// fuzzCorpus adds every seed to f: the fuzz seeds, the table rows, the
// benchmark corpus and the inputs of the web-platform-tests URL suite.
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
	for _, c := range wptCases(f) {
		f.Add(c.Input)
	}
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

// wptCase is one case of the browsers' URL suite (internal/wpt).
type wptCase = wpt.Case

// wptCases reads the browsers' URL suite, testdata/wpt-urltestdata.json.
func wptCases(tb testing.TB) []wptCase {
	tb.Helper()
	cases, err := wpt.Cases()
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}
