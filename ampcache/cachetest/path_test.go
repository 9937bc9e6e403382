package cachetest

import (
	"regexp"
	"strings"
	"testing"
)

// slowServing is the oracle for parseServing: the serving types of the
// spec's "URL Path" this cache serves, as one regular expression.
var slowServing = regexp.MustCompile(`(?s)^/(c|v|i|r|ii/w[1-9][0-9]*)(/.*)$`)

func TestParseServing(t *testing.T) {
	tests := []struct {
		in       string
		want     string // serving dir, "" for not ok
		document bool
		rest     string
	}{
		// spec "URL Path": /c, Content, an AMP document.
		{in: "/c/s/example.com/", want: "c", document: true, rest: "/s/example.com/"},
		// spec "URL Path": /v, Viewer, an AMP document.
		{in: "/v/s/example.com/", want: "v", document: true, rest: "/s/example.com/"},
		// spec "URL Path": /i, Image.
		{in: "/i/s/example.com/a.png", want: "i", rest: "/s/example.com/a.png"},
		// spec "URL Path": /ii/w800, Image with a maximum width.
		{in: "/ii/w800/s/example.com/a.png", want: "ii/w800", rest: "/s/example.com/a.png"},
		// r, Resource, for fonts and other subresources (issue 4).
		{in: "/r/s/example.com/f.woff2", want: "r", rest: "/s/example.com/f.woff2"},
		// An http publisher URL has no /s.
		{in: "/c/example.com/", want: "c", document: true, rest: "/example.com/"},
		// spec "URL Path": /wp, Web Package, is not served by this cache.
		{in: "/wp/s/example.com/"},
		// spec "URL Path": /cert, Certificate, is not served by this cache.
		{in: "/cert/s/example.com/"},
		// A serving type alone names nothing.
		{in: "/c"},
		// The root names nothing.
		{in: "/"},
		// Empty path.
		{in: ""},
		// Serving types are lowercase.
		{in: "/C/s/example.com/"},
		// ii without a width.
		{in: "/ii/s/example.com/"},
		// A width must not start with 0.
		{in: "/ii/w0/s/example.com/"},
		// A large width, as ampcache.ImageMaxWidth makes it.
		{in: "/ii/w100000/x", want: "ii/w100000", rest: "/x"},
		// A negative width.
		{in: "/ii/w-1/x"},
		// A width that is not a number.
		{in: "/ii/wide/x"},
		// A relative path.
		{in: "c/s/example.com/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, rest, ok := parseServing(tt.in)
			if ok != (tt.want != "") || s.dir != tt.want || s.document != tt.document || rest != tt.rest {
				t.Errorf("parseServing(%q) = %+v, %q, %v; want %q, %v, %q", tt.in, s, rest, ok, tt.want, tt.document, tt.rest)
			}
			checkServingOracle(t, tt.in)
		})
	}
}

// checkServingOracle checks parseServing against slowServing.
func checkServingOracle(t *testing.T, in string) {
	t.Helper()
	s, rest, ok := parseServing(in)
	m := slowServing.FindStringSubmatch(in)
	if ok != (m != nil) || (ok && (s.dir != m[1] || rest != m[2])) {
		t.Errorf("parseServing(%q) = %+v, %q, %v; oracle %q", in, s, rest, ok, m)
	}
}

func TestSplitCacheHost(t *testing.T) {
	domains := []string{"cdn.ampproject.org", "www.bing-amp.com"}
	tests := []struct {
		in             string
		prefix, domain string
		ok             bool
	}{
		// spec "Domain Name Prefix": example-com.cdn.ampproject.org.
		{in: "example-com.cdn.ampproject.org", prefix: "example-com", domain: "cdn.ampproject.org", ok: true},
		// The second registered cache.
		{in: "example-com.www.bing-amp.com", prefix: "example-com", domain: "www.bing-amp.com", ok: true},
		// The cache domain itself has an empty prefix.
		{in: "cdn.ampproject.org", domain: "cdn.ampproject.org", ok: true},
		// Case, port and final dot are ignored.
		{in: "Example-COM.cdn.AMPproject.org.:443", prefix: "example-com", domain: "cdn.ampproject.org", ok: true},
		// A dotted prefix is returned whole, for the prefix check to refuse.
		{in: "a.b.cdn.ampproject.org", prefix: "a.b", domain: "cdn.ampproject.org", ok: true},
		// A look-alike domain is not the cache.
		{in: "evilcdn.ampproject.org"},
		// Not a cache at all.
		{in: "www.example.com"},
		// Empty host.
		{in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, d, ok := splitCacheHost(tt.in, domains)
			if p != tt.prefix || d != tt.domain || ok != tt.ok {
				t.Errorf("splitCacheHost(%q) = %q, %q, %v; want %q, %q, %v", tt.in, p, d, ok, tt.prefix, tt.domain, tt.ok)
			}
		})
	}
}

func TestStripCacheOnly(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		// spec "URL Path": amp-live-list's amp_latest_update_time is not passed to the origin.
		{in: "amp_latest_update_time=1500000000", want: ""},
		// The runtime's cache-only parameters, among the publisher's, whose order is kept.
		{in: "b=2&amp_js_v=0.1&a=1&usqp=mq331AQ&amp_gsa=1&amp_r=x&amp_kit=1&c", want: "b=2&a=1&c"},
		// Every amp_js_ name.
		{in: "amp_js_anything=1&x=1", want: "x=1"},
		// Names are compared unescaped.
		{in: "amp%5Fr=1&x=%41", want: "x=%41"},
		// A publisher parameter that only starts like a cache-only one.
		{in: "amp_rx=1&usqpx=2&amp_js=3", want: "amp_rx=1&usqpx=2&amp_js=3"},
		// Empty parameters and bytes are kept as they are.
		{in: "a=1&&b=%zz", want: "a=1&&b=%zz"},
		// No query.
		{in: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := stripCacheOnly(tt.in); got != tt.want {
				t.Errorf("stripCacheOnly(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func BenchmarkStripCacheOnly(b *testing.B) {
	b.ReportAllocs()
	q := "q=amp&amp_js_v=0.1&usqp=mq331AQ&page=" + strings.Repeat("2", 10)
	for b.Loop() {
		stripCacheOnly(q)
	}
}
