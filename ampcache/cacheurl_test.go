// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/wpt"
)

const google = "cdn.ampproject.org"

var cacheURLTests = []struct {
	name    string
	cache   string
	in      string
	s       Serving
	want    string
	wantErr error
}{
	// spec: "URL Format": pub.com maps to pub-com.cdn.ampproject.org.
	{name: "spec pub.com", cache: google, in: "https://pub.com/", s: Content, want: "https://pub-com.cdn.ampproject.org/c/s/pub.com/"},
	// spec: "URL Format", the URL calculator's example URL.
	{name: "spec calculator", cache: google, in: "https://amp.dev/index.amp.html", s: Content, want: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/index.amp.html"},
	// spec: "Redirects" example publisher URL, whose query holds a URL.
	{name: "spec redirects", cache: google, in: "https://amp.dev/documentation/examples/api/redirect?url=https://amp.dev/index.amp.html", s: Content, want: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/documentation/examples/api/redirect?url=https://amp.dev/index.amp.html"},
	// spec: "Not Found" example publisher URL.
	{name: "spec not found", cache: google, in: "https://amp.dev/documentation/examples/api/not-found", s: Content, want: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/documentation/examples/api/not-found"},
	// spec: "Invalid AMP" example publisher URL.
	{name: "spec invalid AMP", cache: google, in: "https://amp.dev/documentation/examples/api/invalid-amp", s: Content, want: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/documentation/examples/api/invalid-amp"},
	// spec: "Server Errors" example publisher URL.
	{name: "spec server errors", cache: google, in: "https://amp.dev/documentation/examples/api/server-error", s: Content, want: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/documentation/examples/api/server-error"},
	// spec: "URL Path": "/s" only if the publisher URL is https.
	{name: "spec http", cache: google, in: "http://example.com/a.html", s: Content, want: "https://example-com.cdn.ampproject.org/c/example.com/a.html"},
	// spec: "URL Path": /v, Viewer.
	{name: "spec viewer", cache: google, in: "https://example.com/a.html", s: Viewer, want: "https://example-com.cdn.ampproject.org/v/s/example.com/a.html"},
	// spec: "URL Path": /wp, Web Package.
	{name: "spec web package", cache: google, in: "https://example.com/a.html", s: WebPackage, want: "https://example-com.cdn.ampproject.org/wp/s/example.com/a.html"},
	// spec: "URL Path": /cert, Certificate.
	{name: "spec certificate", cache: google, in: "https://example.com/cert.cbor", s: Certificate, want: "https://example-com.cdn.ampproject.org/cert/s/example.com/cert.cbor"},
	// spec: "URL Path": /i, Image.
	{name: "spec image", cache: google, in: "https://example.com/a.png", s: Image, want: "https://example-com.cdn.ampproject.org/i/s/example.com/a.png"},
	// spec: "URL Path": /ii/w800, an image with a maximum width.
	{name: "spec ii/w800", cache: google, in: "https://example.com/a.png", s: ImageMaxWidth(800), want: "https://example-com.cdn.ampproject.org/ii/w800/s/example.com/a.png"},
	// /r, Resource, for fonts and other subresources.
	{name: "resource", cache: google, in: "https://example.com/font.woff2", s: Resource, want: "https://example-com.cdn.ampproject.org/r/s/example.com/font.woff2"},
	// spec: Basic Algorithm examples, as cache hosts: foo-example.com.
	{name: "spec foo-example.com", cache: google, in: "https://foo-example.com/", s: Content, want: "https://foo--example-com.cdn.ampproject.org/c/s/foo-example.com/"},
	// spec: Basic Algorithm examples: en-us.example.com.
	{name: "spec en-us.example.com", cache: google, in: "https://en-us.example.com/", s: Content, want: "https://0-en--us-example-com-0.cdn.ampproject.org/c/s/en-us.example.com/"},
	// spec: Basic Algorithm examples: xn--57hw060o.com (⚡😊.com).
	{name: "spec xn--57hw060o.com", cache: google, in: "https://xn--57hw060o.com/", s: Content, want: "https://xn---com-p33b41770a.cdn.ampproject.org/c/s/xn--57hw060o.com/"},
	// The benchmark URL, on Bing.
	{name: "bing", cache: "www.bing-amp.com", in: "https://www.example.com/a/b.html?q=1", s: Content, want: "https://www-example-com.www.bing-amp.com/c/s/www.example.com/a/b.html?q=1"},
	// Decision c: a Unicode host is in ASCII form, in the host and the path.
	{name: "c unicode host", cache: google, in: "https://點看.com", s: Content, want: "https://xn---com-k47jg78q.cdn.ampproject.org/c/s/xn--c1yn36f.com"},
	// Decision c: the Unicode form of the spec's ⚡😊.com.
	{name: "c emoji host", cache: google, in: "https://⚡😊.com/", s: Content, want: "https://xn---com-p33b41770a.cdn.ampproject.org/c/s/xn--57hw060o.com/"},
	// Decision c: the lead's DomainPrefix example bücher.de, as a URL.
	{name: "c bücher.de", cache: google, in: "https://bücher.de/", s: Content, want: "https://xn--bcher-de-65a.cdn.ampproject.org/c/s/xn--bcher-kva.de/"},
	// Decision c: an A-label host is kept as it is.
	{name: "c A-label host", cache: google, in: "https://xn--bcher-kva.de/", s: Content, want: "https://xn--bcher-de-65a.cdn.ampproject.org/c/s/xn--bcher-kva.de/"},
	// Decision c: a Unicode host in upper case is mapped to lower case.
	{name: "c unicode upper", cache: google, in: "https://BÜCHER.de/", s: Content, want: "https://xn--bcher-de-65a.cdn.ampproject.org/c/s/xn--bcher-kva.de/"},
	// Decision c: a Unicode host that fails IDNA.
	{name: "c invalid IDN", cache: google, in: "https://a\u200db.com/", s: Content, wantErr: ErrInvalidHost},
	// Decision c: the host is lowercased, as a URL parser serialises it.
	{name: "c uppercase host", cache: google, in: "https://WWW.Example.COM/Path", s: Content, want: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/Path"},
	// Decision c: a percent-encoded host is decoded, as a URL parser does.
	{name: "c percent host", cache: google, in: "https://%65xample.com/", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/"},
	// Decision c: a root dot is kept in the path, as a URL parser keeps it.
	{name: "c root dot", cache: google, in: "https://example.com./", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com./"},
	// Decision d: no slash after the host stays no slash.
	{name: "d no slash", cache: google, in: "https://example.com", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com"},
	// Decision d: a query straight after the host.
	{name: "d query", cache: google, in: "https://example.com?q=1", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com?q=1"},
	// Decision d: the path, query and fragment are byte for byte, but for
	// what a browser percent-encodes (here "ä").
	{name: "d bytes", cache: google, in: "https://example.com/a%2Fb/%7e/ä?q=%20&q=a+b#frag/%41", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/a%2Fb/%7e/%C3%A4?q=%20&q=a+b#frag/%41"},
	// Space, '"', '<' and '>' were copied
	// into the path unescaped.
	{name: "escape path space quote angle", cache: google, in: `https://example.com/a b"<c>`, s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/a%20b%22%3Cc%3E"},
	// '`' is escaped in the path and the fragment, not in the query.
	{name: "escape backtick", cache: google, in: "https://example.com/`?`#`", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/%60?`#%60"},
	// the query escapes space, '"', '<', '>' and non-ASCII bytes.
	{name: "escape query", cache: google, in: `https://example.com/?q=a b"<>é`, s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/?q=a%20b%22%3C%3E%C3%A9"},
	// a lone "%" stays as it is, as in a browser.
	{name: "escape lone percent", cache: google, in: "https://example.com/100%?a=%zz#%", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/100%?a=%zz#%"},
	// "#" and "?" in the fragment stay.
	{name: "escape fragment delimiters", cache: google, in: "https://example.com/#a?b#c d", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/#a?b#c%20d"},
	// Invalid UTF-8 in the host was read as U+FFFD.
	{name: "invalid host UTF-8", cache: google, in: "https://ex%FFample.com/", s: Content, wantErr: ErrInvalidHost},
	// An A-label with a joiner out of context.
	{name: "invalid A-label joiner", cache: google, in: "https://xn--ab-m1t.com/", s: Content, wantErr: ErrInvalidHost},
	// An A-label that is not NFC.
	{name: "invalid A-label not NFC", cache: google, in: "https://xn--example-tge.com/", s: Content, wantErr: ErrInvalidHost},
	// the same A-label in upper case.
	{name: "invalid A-label upper", cache: google, in: "https://XN--AB-M1T.com/", s: Content, wantErr: ErrInvalidHost},
	// "--" at positions 3 and 4 is valid, as in a browser
	// (no CheckHyphens); its prefix is the fallback.
	{name: "valid in--trouble", cache: google, in: "https://in--trouble.com/", s: Content, want: "https://" + FallbackPrefix("in--trouble.com") + ".cdn.ampproject.org/c/s/in--trouble.com/"},
	// "_" is valid (no STD3 rules), in a
	// Unicode host too, where CacheURL used to refuse it.
	{name: "valid _dmarc unicode", cache: google, in: "https://_dmarc.例.com/", s: Content, want: "https://" + FallbackPrefix("_dmarc.xn--fsq.com") + ".cdn.ampproject.org/c/s/_dmarc.xn--fsq.com/"},
	// "in--trouble" in a Unicode host, which CacheURL used to refuse.
	{name: "valid in--trouble unicode", cache: google, in: "https://in--trouble.例.com/", s: Content, want: "https://" + FallbackPrefix("in--trouble.xn--fsq.com") + ".cdn.ampproject.org/c/s/in--trouble.xn--fsq.com/"},
	// Decision d: cache-only parameters in a publisher URL are kept.
	{name: "d cache-only params", cache: google, in: "https://example.com/?usqp=1", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/?usqp=1"},
	// Decision e: the default https port is dropped.
	{name: "e https 443", cache: google, in: "https://example.com:443/a", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/a"},
	// Decision e: the default http port is dropped.
	{name: "e http 80", cache: google, in: "http://example.com:80/a", s: Content, want: "https://example-com.cdn.ampproject.org/c/example.com/a"},
	// Decision e: a default port with leading zeros is the default port.
	{name: "e https 0443", cache: google, in: "https://example.com:0443/a", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/a"},
	// Decision e: an empty port is no port, as in a URL parser.
	{name: "e empty port", cache: google, in: "https://example.com:/a", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/a"},
	// Decision e: another port is kept, encoded as the runtime decodes it.
	{name: "e port 81", cache: google, in: "http://origin.com:81/a", s: Content, want: "https://origin-com.cdn.ampproject.org/c/origin.com%3A81/a"},
	// Decision e: port 80 is not the https default.
	{name: "e https 80", cache: google, in: "https://example.com:80/", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com%3A80/"},
	// Decision e: leading zeros of a port are dropped, as a URL parser does.
	{name: "e port 08080", cache: google, in: "https://example.com:08080/", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com%3A8080/"},
	// Decision e: a port above 65535.
	{name: "e port 65536", cache: google, in: "https://example.com:65536/", s: Content, wantErr: ErrInvalidURL},
	// Decision e: port 0, found by fuzzing (the oracle read it as none).
	{name: "e port 0", cache: google, in: "http://a.com:0/", s: Content, want: "https://a-com.cdn.ampproject.org/c/a.com%3A0/"},
	// Decision e: a port that is not a number.
	{name: "e port x", cache: google, in: "https://example.com:x/", s: Content, wantErr: ErrInvalidURL},
	// Decision f: the cache domain is lowercased.
	{name: "f cache case", cache: "CDN.AmpProject.org", in: "https://example.com/", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/"},
	// A scheme in upper case, as a URL parser accepts it.
	{name: "scheme case", cache: google, in: "HTTPS://example.com/", s: Content, want: "https://example-com.cdn.ampproject.org/c/s/example.com/"},
	// Backslashes after the scheme, read as slashes by a URL parser.
	{name: "backslashes", cache: google, in: `https:\\example.com\a`, s: Content, want: `https://example-com.cdn.ampproject.org/c/s/example.com\a`},
	// A long domain takes the fallback prefix; the path keeps the host.
	{name: "fallback", cache: google, in: "https://" + strings.Repeat("a", 60) + ".com/", s: Content, want: "https://" + FallbackPrefix(strings.Repeat("a", 60)+".com") + ".cdn.ampproject.org/c/s/" + strings.Repeat("a", 60) + ".com/"},
	// Decision a: another scheme.
	{name: "a ftp", cache: google, in: "ftp://example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: a relative URL.
	{name: "a relative", cache: google, in: "/a/b.html", s: Content, wantErr: ErrInvalidURL},
	// Decision a: a scheme-relative URL.
	{name: "a scheme-relative", cache: google, in: "//example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: one slash, which a URL parser would repair.
	{name: "a one slash", cache: google, in: "https:/example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: three slashes, which a URL parser would repair.
	{name: "a three slashes", cache: google, in: "https:///example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: no host.
	{name: "a no host", cache: google, in: "https:///", s: Content, wantErr: ErrInvalidURL},
	// Decision a: a port and no host.
	{name: "a port no host", cache: google, in: "https://:443/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: an IPv4 address is not a domain.
	{name: "a IPv4", cache: google, in: "http://192.0.2.1/", s: Content, wantErr: ErrInvalidHost},
	// Decision a: a hexadecimal IPv4 address, as a URL parser reads it.
	{name: "a IPv4 hex", cache: google, in: "http://example.0x7f/", s: Content, wantErr: ErrInvalidHost},
	// Decision a: an IPv6 address is not a domain.
	{name: "a IPv6", cache: google, in: "http://[::1]/", s: Content, wantErr: ErrInvalidHost},
	// Decision a: a host without a dot, which the runtime rejects.
	{name: "a no dot", cache: google, in: "http://s/x", s: Content, wantErr: ErrInvalidHost},
	// Decision a: a forbidden host code point.
	{name: "a forbidden", cache: google, in: "https://exa<mple.com/", s: Content, wantErr: ErrInvalidHost},
	// Decision a: an invalid percent-encoding in the host.
	{name: "a bad percent", cache: google, in: "https://%zzexample.com/", s: Content, wantErr: ErrInvalidHost},
	// Decision a: invalid Punycode in the host.
	{name: "a bad punycode", cache: google, in: "https://xn--99999a.com/", s: Content, wantErr: ErrInvalidPunycode},
	// Decision a: an empty label.
	{name: "a empty label", cache: google, in: "https://a..com/", s: Content, wantErr: ErrEmptyLabel},
	// Decision a: a control character, which a URL parser would drop.
	{name: "a tab", cache: google, in: "https://example.com/a\tb", s: Content, wantErr: ErrInvalidURL},
	// Decision a: a leading space, which a URL parser would drop.
	{name: "a space", cache: google, in: " https://example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision a: empty input.
	{name: "a empty", cache: google, in: "", s: Content, wantErr: ErrEmpty},
	// Decision a: over 2 MiB.
	{name: "a too long", cache: google, in: "https://example.com/" + strings.Repeat("a", 2<<20), s: Content, wantErr: ErrTooLong},
	// Decision b: userinfo is never copied into a cache URL.
	{name: "b userinfo", cache: google, in: "https://user:pass@example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision b: an empty userinfo.
	{name: "b empty userinfo", cache: google, in: "https://@example.com/", s: Content, wantErr: ErrInvalidURL},
	// Decision f: an empty cache domain.
	{name: "f empty cache", cache: "", in: "https://example.com/", s: Content, wantErr: ErrInvalidHost},
	// Decision f: a cache domain with a scheme.
	{name: "f cache URL", cache: "https://cdn.ampproject.org", in: "https://example.com/", s: Content, wantErr: ErrInvalidHost},
	// Decision f: an empty Serving.
	{name: "f empty serving", cache: google, in: "https://example.com/", s: "", wantErr: ErrInvalidServing},
	// Decision f: a Serving in upper case.
	{name: "f serving case", cache: google, in: "https://example.com/", s: "C", wantErr: ErrInvalidServing},
	// Decision f: a Serving with a leading slash.
	{name: "f serving slash", cache: google, in: "https://example.com/", s: "/c", wantErr: ErrInvalidServing},
	// Decision f: a Serving with a trailing slash.
	{name: "f serving trailing slash", cache: google, in: "https://example.com/", s: "c/", wantErr: ErrInvalidServing},
	// Decision f: a Serving with an empty segment.
	{name: "f serving empty segment", cache: google, in: "https://example.com/", s: "ii//w800", wantErr: ErrInvalidServing},
	// Decision f: a Serving that would need escaping.
	{name: "f serving escape", cache: google, in: "https://example.com/", s: "c?x", wantErr: ErrInvalidServing},
	// Decision f: ImageMaxWidth(0) is rejected.
	{name: "f ii/w0", cache: google, in: "https://example.com/", s: ImageMaxWidth(0), wantErr: ErrInvalidServing},
	// Decision f: ImageMaxWidth(-1) is rejected.
	{name: "f ii/w-1", cache: google, in: "https://example.com/", s: ImageMaxWidth(-1), wantErr: ErrInvalidServing},
	// Decision f: a width with a leading zero.
	{name: "f ii/w080", cache: google, in: "https://example.com/", s: "ii/w080", wantErr: ErrInvalidServing},
	// Decision f: a Serving longer than 64 bytes.
	{name: "f serving long", cache: google, in: "https://example.com/", s: Serving(strings.Repeat("c", 65)), wantErr: ErrInvalidServing},
}

func TestCacheURL(t *testing.T) {
	for _, tt := range cacheURLTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CacheURL(tt.cache, tt.in, tt.s)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("CacheURL(%q, %.80q, %q) = %.200q, %v; want %.200q, %v", tt.cache, tt.in, tt.s, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			dst := []byte("prefix")
			b, err2 := AppendCacheURL(dst, tt.cache, tt.in, tt.s)
			if string(b) != "prefix"+got || (err2 == nil) != (err == nil) {
				t.Errorf("AppendCacheURL = %.200q, %v; want %.200q, %v", b, err2, "prefix"+got, err)
			}
			if slow, ok := slowCacheURL(tt.cache, tt.in, tt.s); ok && err == nil && slow != got {
				t.Errorf("slowCacheURL = %.200q; fast %.200q", slow, got)
			}
		})
	}
}

func TestImageMaxWidth(t *testing.T) {
	for _, tt := range []struct {
		in   int
		want Serving
	}{
		// The example, and the spec's /ii/w800.
		{800, "ii/w800"},
		// The smallest width.
		{1, "ii/w1"},
	} {
		if got := ImageMaxWidth(tt.in); got != tt.want || checkServing(got) != nil {
			t.Errorf("ImageMaxWidth(%d) = %q, %v; want %q", tt.in, got, checkServing(got), tt.want)
		}
	}
}

func TestAppendCacheURLAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	n := testing.AllocsPerRun(1000, func() {
		AppendCacheURL(dst[:0], google, "https://www.example.com/a/b.html?q=1", Content)
	})
	if n != 0 {
		t.Errorf("AppendCacheURL: %v allocs, want 0", n)
	}
	n = testing.AllocsPerRun(1000, func() {
		CacheURL(google, "https://www.example.com/a/b.html?q=1", Content)
	})
	if n != 1 {
		t.Errorf("CacheURL: %v allocs, want 1", n)
	}
}

// slowCacheURL builds a cache URL as the spec's "URL Path" section says,
// with net/url for the parts, x/net/idna for the host and strings for the
// rest. It covers only URLs that net/url reads as a browser does: it
// reports false for any other input, or an input it rejects.
func slowCacheURL(cacheDomain, publisherURL string, s Serving) (string, bool) {
	if strings.ContainsAny(publisherURL, "\\%\t\n\r ") || strings.ContainsAny(string(s), "/?#") && !strings.HasPrefix(string(s), "ii/w") {
		return "", false
	}
	u, err := url.Parse(publisherURL)
	if err != nil || u.Opaque != "" || u.User != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	i := strings.Index(publisherURL, "//")
	rest := publisherURL[i+2:]
	rest = rest[len(u.Host):]
	host, err := host.Profile.ToASCII(u.Hostname())
	if err != nil || host != strings.ToLower(u.Hostname()) && strings.Contains(strings.ToLower(u.Hostname()), "xn--") {
		return "", false
	}
	prefix, err := DomainPrefix(host)
	if err != nil {
		return "", false
	}
	port := u.Port()
	if port != "" {
		// A URL parser reads the port as a number: "000" is port 0.
		if port = strings.TrimLeft(port, "0"); port == "" {
			port = "0"
		}
	}
	if port == "443" && u.Scheme == "https" || port == "80" && u.Scheme == "http" {
		port = ""
	}
	// The cache domain, then the prefix directory, then "/s" for https,
	// then the publisher URL without the protocol.
	out := "https://" + prefix + "." + strings.ToLower(cacheDomain) + "/" + string(s)
	if u.Scheme == "https" {
		out += "/s"
	}
	out += "/" + host
	if port != "" {
		out += "%3A" + port
	}
	return out + slowEscape(rest), true
}

// slowEscape percent-encodes, in the path, query and fragment rest, what
// the WHATWG URL standard's percent-encode sets for a special URL hold:
// C0 controls, space, '"', '<', '>', bytes from 0x7F, and '`' outside the
// query.
func slowEscape(rest string) string {
	path, fragment, hasFragment := strings.Cut(rest, "#")
	path, query, hasQuery := strings.Cut(path, "?")
	esc := func(s, set string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if c := s[i]; c <= ' ' || c >= 0x7F || strings.IndexByte(set, c) >= 0 {
				fmt.Fprintf(&b, "%%%02X", c)
			} else {
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	out := esc(path, "\"<>`")
	if hasQuery {
		out += "?" + esc(query, "\"<>")
	}
	if hasFragment {
		out += "#" + esc(fragment, "\"<>`")
	}
	return out
}

func BenchmarkCacheURL(b *testing.B) {
	const in = "https://www.example.com/a/b.html?q=1"
	b.Run("Append", func(b *testing.B) {
		b.ReportAllocs()
		dst := make([]byte, 0, 256)
		for b.Loop() {
			dst, _ = AppendCacheURL(dst[:0], google, in, Content)
		}
	})
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			CacheURL(google, in, Content)
		}
	})
	// The stub this package started with: net/url and DomainPrefix, the
	// approach of the Go peers; a baseline measured in the same run.
	b.Run("NetURLBaseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			netURLCacheURL(google, in, Content)
		}
	})
	b.Run("IDN", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			CacheURL(google, "https://點看.com/a/b.html?q=1", Content)
		}
	})
}

// TestCacheURLWPT runs every absolute URL of the web-platform-tests suite
// through CacheURL: none may panic, a result on an http(s) URL that a
// browser accepts has the browser's host, and the round trip holds.
func TestCacheURLWPT(t *testing.T) {
	for _, c := range wpt.Cases(t) {
		got, err := CacheURL(google, c.Input, Content)
		if err != nil {
			continue
		}
		checkCacheURLShape(t, got)
		checkRoundTrip(t, google, c.Input, Content)
		if c.Base == nil && !c.Failure && (c.Protocol == "http:" || c.Protocol == "https:") {
			if _, path, _ := strings.Cut(strings.TrimPrefix(got, "https://"), "/c/"); !strings.HasPrefix(strings.TrimPrefix(path, "s/"), c.Hostname) {
				t.Errorf("CacheURL(%q) = %q; browser host %q", c.Input, got, c.Hostname)
			}
		}
	}
}

// checkCacheURLShape checks that a cache URL is "https://", a valid domain
// prefix and a cache domain, and then a path.
func checkCacheURLShape(t *testing.T, u string) {
	t.Helper()
	host, _, _ := strings.Cut(strings.TrimPrefix(u, "https://"), "/")
	p, _, _ := strings.Cut(host, ".")
	if !strings.HasPrefix(u, "https://") || !validPrefix.MatchString(p) {
		t.Errorf("cache URL %.200q has no valid domain prefix", u)
	}
}

// FuzzCacheURL checks that CacheURL never panics, that Append and string
// forms agree, that a result has a valid prefix, that it agrees with the
// slow oracle, and that SourceURL inverts it.
func FuzzCacheURL(f *testing.F) {
	for _, tt := range cacheURLTests {
		f.Add(tt.in, string(tt.s))
	}
	for _, c := range wpt.Cases(f) {
		f.Add(c.Input, "c")
	}
	f.Fuzz(func(t *testing.T, in, s string) {
		got, err := CacheURL(google, in, Serving(s))
		b, err2 := AppendCacheURL([]byte("x"), google, in, Serving(s))
		if string(b) != "x"+got || (err == nil) != (err2 == nil) {
			t.Fatalf("AppendCacheURL = %q, %v; CacheURL = %q, %v", b, err2, got, err)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
			return
		}
		checkCacheURLShape(t, got)
		if slow, ok := slowCacheURL(google, in, Serving(s)); ok && slow != got {
			t.Fatalf("CacheURL(%q, %q) = %q; slow oracle %q", in, s, got, slow)
		}
		checkRoundTrip(t, google, in, Serving(s))
		checkNetURLParts(t, in, got)
		checkPrefixAgrees(t, in, got, Serving(s))
	})
}

// checkNetURLParts checks that net/url reads the cache URL c of the
// publisher URL in with the same path, query and fragment as in, after the
// cache's own path prefix when net/url reads in as a browser
// does (no "\\").
func checkNetURLParts(t *testing.T, in, c string) {
	t.Helper()
	pin, err := url.Parse(in)
	if err != nil || strings.Contains(in, "\\") {
		return
	}
	pc, err := url.Parse(c)
	if err != nil {
		t.Fatalf("url.Parse(CacheURL(%q) = %q): %v", in, c, err)
	}
	switch {
	case !strings.HasSuffix(pc.Path, pin.Path) || pin.Path == "" && strings.HasSuffix(c, "/") && !strings.HasSuffix(in, "/"):
		t.Errorf("CacheURL(%q) = %q: path %q; want it to end in %q", in, c, pc.Path, pin.Path)
	case fmt.Sprint(pc.Query()) != fmt.Sprint(pin.Query()):
		t.Errorf("CacheURL(%q) = %q: query %v; want %v", in, c, pc.Query(), pin.Query())
	case pc.Fragment != pin.Fragment:
		t.Errorf("CacheURL(%q) = %q: fragment %q; want %q", in, c, pc.Fragment, pin.Fragment)
	}
}

// checkPrefixAgrees checks the rules that tie CacheURL to DomainPrefix
// CacheURL serves no host that DomainPrefix refuses, and its
// subdomain is DomainPrefix of the ASCII host it writes in its path.
func checkPrefixAgrees(t *testing.T, in, c string, s Serving) {
	t.Helper()
	u, _ := splitURL(in)
	h, err := url.PathUnescape(u.host)
	if err != nil {
		t.Fatalf("CacheURL(%q) = %q, of a host that does not unescape", in, c)
	}
	if _, err := DomainPrefix(h); err != nil {
		t.Errorf("CacheURL(%q) = %q, but DomainPrefix(%q): %v", in, c, h, err)
	}
	sub, path, _ := strings.Cut(strings.TrimPrefix(c, "https://"), ".")
	_, path, _ = strings.Cut(path, "/"+string(s)+"/")
	if u.https {
		path = strings.TrimPrefix(path, "s/")
	}
	written := path[:strings.IndexAny(path+"/", "/%?#\\")]
	if want, err := DomainPrefix(written); err != nil || want != sub {
		t.Errorf("CacheURL(%q) = %q: subdomain %q; DomainPrefix(%q) = %q, %v", in, c, sub, written, want, err)
	}
}

// netURLCacheURL builds a cache URL with net/url, for BenchmarkCacheURL.
func netURLCacheURL(cacheDomain, publisherURL string, s Serving) (string, error) {
	u, err := url.Parse(publisherURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("invalid URL")
	}
	p, err := DomainPrefix(u.Hostname())
	if err != nil {
		return "", err
	}
	out := "https://" + p + "." + cacheDomain + "/" + string(s)
	if u.Scheme == "https" {
		out += "/s"
	}
	return out + "/" + u.Host + u.RequestURI(), nil
}
