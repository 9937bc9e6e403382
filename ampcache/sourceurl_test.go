// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
)

var sourceURLTests = []struct {
	name    string
	in      string
	want    string
	wantErr error
}{
	// spec: "URL Format", the URL calculator's example, on the cache.
	{name: "spec calculator", in: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/index.amp.html", want: "https://amp.dev/index.amp.html"},
	// spec: "URL Path": no "/s" infix means http.
	{name: "spec http", in: "https://example-com.cdn.ampproject.org/c/example.com/a.html", want: "http://example.com/a.html"},
	// spec: "URL Path": /v, Viewer.
	{name: "spec viewer", in: "https://example-com.cdn.ampproject.org/v/s/example.com/a.html", want: "https://example.com/a.html"},
	// spec: "URL Path": /wp, Web Package.
	{name: "spec web package", in: "https://example-com.cdn.ampproject.org/wp/s/example.com/a.html", want: "https://example.com/a.html"},
	// spec: "URL Path": /cert, Certificate.
	{name: "spec certificate", in: "https://example-com.cdn.ampproject.org/cert/s/example.com/cert.cbor", want: "https://example.com/cert.cbor"},
	// spec: "URL Path": /i, Image.
	{name: "spec image", in: "https://example-com.cdn.ampproject.org/i/s/example.com/a.png", want: "https://example.com/a.png"},
	// spec: "URL Path": /ii/w800, an image with a maximum width.
	{name: "spec ii/w800", in: "https://example-com.cdn.ampproject.org/ii/w800/s/example.com/a.png", want: "https://example.com/a.png"},
	// spec: "Redirects" example, which has no serving type: not the format.
	{name: "spec redirects", in: "https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/redirect?url=https://amp.dev/index.amp.html", wantErr: ErrInvalidURL},
	// spec: "Not Found" example, which has no serving type either.
	{name: "spec not found", in: "https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/not-found", wantErr: ErrInvalidURL},
	// spec: "Invalid AMP" example, likewise.
	{name: "spec invalid AMP", in: "https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/invalid-amp", wantErr: ErrInvalidURL},
	// spec: "Server Errors" example, likewise.
	{name: "spec server errors", in: "https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/server-error", wantErr: ErrInvalidURL},
	// spec: "Redirects" example with the /c/s/ a cache URL has.
	{name: "spec redirects with /c/s/", in: "https://amp-dev.cdn.ampproject.org/c/s/amp.dev/documentation/examples/api/redirect?url=https://amp.dev/index.amp.html", want: "https://amp.dev/documentation/examples/api/redirect?url=https://amp.dev/index.amp.html"},
	// /r, Resource.
	{name: "resource", in: "https://example-com.cdn.ampproject.org/r/s/example.com/font.woff2", want: "https://example.com/font.woff2"},
	// The runtime's /a, ad landing page.
	{name: "runtime a", in: "https://example-com.cdn.ampproject.org/a/s/example.com/landing", want: "https://example.com/landing"},
	// The runtime's /ad.
	{name: "runtime ad", in: "https://example-com.cdn.ampproject.org/ad/s/example.com/ad.html", want: "https://example.com/ad.html"},
	// The runtime's test: the cache domain with no prefix.
	{name: "runtime no prefix", in: "https://cdn.ampproject.org/c/s/www.origin.com/foo/", want: "https://www.origin.com/foo/"},
	// The runtime decodes the host: a port.
	{name: "runtime port", in: "https://origin-com.cdn.ampproject.org/c/origin.com%3A81/a", want: "http://origin.com:81/a"},
	// The runtime removes amp_js_v, and keeps the other parameters in order.
	{name: "runtime amp_js_v", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/?a=1&amp_js_v=0.1&b=2", want: "https://www.example.com/?a=1&b=2"},
	// usqp, the Google cache's experiment parameter, first.
	{name: "usqp first", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?usqp=mq331AQ&b=2", want: "https://www.example.com/a?b=2"},
	// Every cache-only parameter at once: no query is left.
	{name: "all cache-only", in: "https://www-example-com.cdn.ampproject.org/v/s/www.example.com/a?amp_js_v=a6&amp_gsa=1&amp_r=x&amp_kit=1&usqp=mq331AQ", want: "https://www.example.com/a"},
	// A cache-only parameter without a value.
	{name: "no value", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?amp_gsa&b", want: "https://www.example.com/a?b"},
	// A parameter that only starts like a cache-only one is kept.
	{name: "lookalike", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?amp_react=1&usqpx=2&amp_js=3", want: "https://www.example.com/a?amp_react=1&usqpx=2&amp_js=3"},
	// The fragment is kept after the query.
	{name: "fragment", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?usqp=1&b=2#frag?usqp=1", want: "https://www.example.com/a?b=2#frag?usqp=1"},
	// A query from which nothing is removed is kept as it is.
	{name: "query as is", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?&b=%20&&", want: "https://www.example.com/a?&b=%20&&"},
	// An empty query is kept.
	{name: "empty query", in: "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a?", want: "https://www.example.com/a?"},
	// No slash after the host.
	{name: "no slash", in: "https://example-com.cdn.ampproject.org/c/s/example.com", want: "https://example.com"},
	// A query straight after the host.
	{name: "host query", in: "https://example-com.cdn.ampproject.org/c/s/example.com?q=1", want: "https://example.com?q=1"},
	// Bing's cache.
	{name: "bing", in: "https://www-example-com.www.bing-amp.com/c/s/www.example.com/a", want: "https://www.example.com/a"},
	// Case is ignored in the scheme and the cache host.
	{name: "case", in: "HTTPS://WWW-EXAMPLE-COM.CDN.AMPPROJECT.ORG/c/s/www.example.com/A", want: "https://www.example.com/A"},
	// An explicit :443.
	{name: "port 443", in: "https://www-example-com.cdn.ampproject.org:443/c/s/www.example.com/a", want: "https://www.example.com/a"},
	// No authentication: the prefix need not match the host.
	{name: "no authentication", in: "https://evil-example.cdn.ampproject.org/c/s/bank.example/login", want: "https://bank.example/login"},
	// An underscore in the subdomain, which the runtime's pattern allows.
	{name: "underscore", in: "https://a_b.cdn.ampproject.org/c/s/example.com/", want: "https://example.com/"},
	// Not a cache.
	{name: "not a cache", in: "https://www.example.com/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// A cache domain as the end of another label.
	{name: "suffix of a label", in: "https://evilcdn.ampproject.org/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// Two labels below the cache domain.
	{name: "two labels", in: "https://a.b.cdn.ampproject.org/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// http, which caches do not serve.
	{name: "http cache", in: "http://www-example-com.cdn.ampproject.org/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// Another port on the cache.
	{name: "cache port", in: "https://www-example-com.cdn.ampproject.org:8443/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// The third-party frame domain is not a cache domain.
	{name: "frame domain", in: "https://www-example-com.ampproject.net/c/s/www.example.com/", wantErr: ErrNotCacheURL},
	// Userinfo.
	{name: "userinfo", in: "https://u@www-example-com.cdn.ampproject.org/c/s/www.example.com/", wantErr: ErrInvalidURL},
	// An unknown serving type.
	{name: "unknown serving", in: "https://www-example-com.cdn.ampproject.org/x/s/www.example.com/", wantErr: ErrInvalidURL},
	// A serving type in the wrong case.
	{name: "serving case", in: "https://www-example-com.cdn.ampproject.org/C/s/www.example.com/", wantErr: ErrInvalidURL},
	// /ii without a width.
	{name: "ii no width", in: "https://www-example-com.cdn.ampproject.org/ii/s/www.example.com/", wantErr: ErrInvalidURL},
	// /ii with a zero width.
	{name: "ii w0", in: "https://www-example-com.cdn.ampproject.org/ii/w0/s/www.example.com/", wantErr: ErrInvalidURL},
	// No path.
	{name: "no path", in: "https://www-example-com.cdn.ampproject.org", wantErr: ErrInvalidURL},
	// A serving type and nothing else.
	{name: "serving only", in: "https://www-example-com.cdn.ampproject.org/c", wantErr: ErrInvalidURL},
	// "/s" and no host.
	{name: "s only", in: "https://www-example-com.cdn.ampproject.org/c/s", wantErr: ErrInvalidURL},
	// "/s/" and no host.
	{name: "s slash", in: "https://www-example-com.cdn.ampproject.org/c/s/", wantErr: ErrInvalidURL},
	// An empty host segment.
	{name: "empty host", in: "https://www-example-com.cdn.ampproject.org/c//a", wantErr: ErrInvalidURL},
	// A host without a dot, which the runtime rejects.
	{name: "host no dot", in: "https://www-example-com.cdn.ampproject.org/c/localhost/a", wantErr: ErrInvalidURL},
	// A decoded "/" in the host would change the URL.
	{name: "host slash", in: "https://www-example-com.cdn.ampproject.org/c/s/evil.com%2F@example.com/", wantErr: ErrInvalidURL},
	// Decoded userinfo in the host.
	{name: "host userinfo", in: "https://www-example-com.cdn.ampproject.org/c/s/user%40example.com/", wantErr: ErrInvalidURL},
	// An invalid percent-encoding in the host.
	{name: "host bad percent", in: "https://www-example-com.cdn.ampproject.org/c/s/example.com%zz/", wantErr: ErrInvalidURL},
	// An invalid port in the host.
	{name: "host bad port", in: "https://www-example-com.cdn.ampproject.org/c/s/example.com%3A99999/", wantErr: ErrInvalidURL},
	// An IPv4 host.
	{name: "host IPv4", in: "https://www-example-com.cdn.ampproject.org/c/192.0.2.1/", wantErr: ErrInvalidURL},
	// A "\\" after the publisher host is a path separator to a
	// browser and part of the authority (userinfo "example.com\\", host
	// evil.com) to net/url. SourceURL writes the "/" both read.
	{name: "backslash userinfo", in: "https://example-com.cdn.ampproject.org/c/s/example.com\\@evil.com/", want: "https://example.com/@evil.com/"},
	// Not a URL.
	{name: "not a URL", in: "cdn.ampproject.org/c/s/example.com/", wantErr: ErrInvalidURL},
	// Empty input.
	{name: "empty", in: "", wantErr: ErrEmpty},
	// Over 2 MiB.
	{name: "too long", in: "https://cdn.ampproject.org/c/s/example.com/" + strings.Repeat("a", 2<<20), wantErr: ErrTooLong},
}

// TestSourceURLNetURLAgrees checks, on the table, that net/url reads every
// result with the host that a browser reads, and no userinfo.
func TestSourceURLNetURLAgrees(t *testing.T) {
	for _, tt := range sourceURLTests {
		got, err := SourceURL(tt.in)
		if err != nil {
			continue
		}
		checkNetURLHost(t, got)
	}
}

// checkNetURLHost checks that net/url reads the publisher URL u, a result of
// SourceURL, with no userinfo and the host SourceURL wrote, if it reads it
// at all (it refuses a lone "%" in the path, and hosts with bytes such as
// "`", which browsers keep).
func checkNetURLHost(t *testing.T, u string) {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		return
	}
	_, after, _ := strings.Cut(u, "//")
	end := strings.IndexAny(after, "/?#")
	if end < 0 {
		end = len(after)
	}
	if err != nil || p.User != nil || p.Host != after[:end] {
		t.Errorf("url.Parse(%.200q) = %+v, %v; want host %q and no userinfo", u, p, err, after[:end])
	}
}

func TestSourceURL(t *testing.T) {
	for _, tt := range sourceURLTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SourceURL(tt.in)
			if b, err2 := AppendSourceURL([]byte("x"), tt.in); string(b) != "x"+got || (err2 == nil) != (err == nil) {
				t.Errorf("AppendSourceURL = %.200q, %v", b, err2)
			}
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("SourceURL(%.200q) = %.200q, %v; want %.200q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Errorf("error %.200q lacks the package prefix", err)
			}
			if slow, ok := slowSourceURL(tt.in); ok != (err == nil) || slow != got {
				t.Errorf("slowSourceURL = %.200q, %v; fast %.200q, %v", slow, ok, got, err)
			}
		})
	}
}

// TestSourceURLRoundTrip checks on the CacheURL table that SourceURL
// inverts CacheURL, apart from what CacheURL normalises.
func TestSourceURLRoundTrip(t *testing.T) {
	for _, tt := range cacheURLTests {
		t.Run(tt.name, func(t *testing.T) {
			checkRoundTrip(t, tt.cache, tt.in, tt.s)
		})
	}
}

// checkRoundTrip checks that if CacheURL accepts in, SourceURL gives it
// back, with its scheme and host as a URL parser serialises them and the
// default port dropped (for an input in that form, in itself), and that
// CacheURL of the result is the same cache URL.
func checkRoundTrip(t *testing.T, cache, in string, s Serving) {
	t.Helper()
	c, err := CacheURL(cache, in, s)
	if err != nil || !knownCacheDomain(strings.ToLower(cache)) || !sourceReadable(s) {
		return
	}
	back, err := SourceURL(c)
	if err != nil {
		t.Fatalf("SourceURL(CacheURL(%.200q)) = %v; cache URL %.200q", in, err, c)
	}
	u, _ := splitURL(in)
	_, q, _ := splitRest(u.rest)
	scheme := "http://"
	if u.https {
		scheme = "https://"
	}
	normal := string(appendEscaped(nil, u.rest)) == u.rest && !strings.HasPrefix(u.rest, "\\")
	if in == scheme+u.host+u.rest && isHostName(strings.TrimSuffix(u.host, "."), false) && normal && !hasCacheOnlyParam(q) && back != in {
		t.Errorf("SourceURL(CacheURL(%.200q)) = %.200q", in, back)
	}
	if hasCacheOnlyParam(q) {
		return
	}
	again, err := CacheURL(cache, back, s)
	if err != nil || again != c && !strings.HasPrefix(u.rest, "\\") {
		t.Errorf("CacheURL(SourceURL(%.200q)) = %.200q, %v", c, again, err)
	}
	// A "\" that ended the host is written "/" by SourceURL; from there on
	// the round trip is exact.
	if back2, err := SourceURL(again); err != nil || back2 != back {
		t.Errorf("SourceURL(%.200q) = %.200q, %v; want %.200q", again, back2, err, back)
	}
}

// sourceReadable reports whether SourceURL reads the serving type s; a
// cache URL with any other is not in the format it inverts.
func sourceReadable(s Serving) bool {
	if w, ok := strings.CutPrefix(string(s), "ii/w"); ok {
		return isWidth(w)
	}
	return sourceServing(string(s))
}

func hasCacheOnlyParam(query string) bool {
	if query == "" {
		return false
	}
	for p := range strings.SplitSeq(query[1:], "&") {
		if cacheOnlyParam(p) {
			return true
		}
	}
	return false
}

// slowSourceURL follows the AMP runtime's getSourceUrl and
// removeAmpJsParamsFromSearch step by step, on strings: split the path on
// "/", check the prefix, read "s", decode the host, and remove each
// cache-only parameter. Its checks on the hosts are those of the fast code.
func slowSourceURL(in string) (string, bool) {
	u, err := splitURL(in)
	if err != nil || !u.https || !u.defaultPort() || !isCacheHostSlow(u.host) {
		return "", false
	}
	path, query, fragment := splitRest(u.rest)
	// A URL parser reads "\" as "/" in the path; the bytes are kept.
	seg := strings.Split(strings.ReplaceAll(path, "\\", "/"), "/")
	if len(seg) < 3 || seg[0] != "" {
		return "", false
	}
	n := 1
	switch seg[1] {
	case "c", "v", "wp", "cert", "i", "r", "a", "ad":
	case "ii":
		if !strings.HasPrefix(seg[2], "w") || !isWidth(seg[2][1:]) {
			return "", false
		}
		n = 2
	default:
		return "", false
	}
	scheme := "http://"
	if n+1 < len(seg) && seg[n+1] == "s" {
		scheme = "https://"
		n++
	}
	if n+1 >= len(seg) || seg[n+1] == "" {
		return "", false
	}
	host, ok := appendSourceHost(nil, seg[n+1])
	if !ok {
		return "", false
	}
	used := 0
	for _, s := range seg[:n+2] {
		used += len(s) + 1
	}
	out := scheme + string(host)
	if used <= len(path) {
		rest := path[used-1:]
		if strings.HasPrefix(rest, "\\") {
			// Both a browser and net/url read "/" as the end of the host.
			rest = "/" + rest[1:]
		}
		out += rest
	}
	var kept []string
	removed := false
	if query != "" {
		for _, p := range strings.Split(query[1:], "&") {
			name, _, _ := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
			if name == "amp_gsa" || name == "amp_r" || name == "amp_kit" || name == "usqp" || name == "amp_latest_update_time" || strings.HasPrefix(name, "amp_js_") {
				removed = true
				continue
			}
			kept = append(kept, p)
		}
	}
	switch {
	case !removed:
		out += query
	case len(kept) > 0:
		out += "?" + strings.Join(kept, "&")
	}
	return out + fragment, true
}

func TestAppendSourceURLAllocs(t *testing.T) {
	const in = "https://www-example-com.cdn.ampproject.org/v/s/www.example.com/a/b.html?q=1&amp_js_v=0.1"
	dst := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(1000, func() { AppendSourceURL(dst[:0], in) }); n != 0 {
		t.Errorf("AppendSourceURL: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { SourceURL(in) }); n != 1 {
		t.Errorf("SourceURL: %v allocs, want 1", n)
	}
}

func BenchmarkSourceURL(b *testing.B) {
	for _, bb := range []struct{ name, in string }{
		{"plain", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a/b.html?q=1"},
		{"params", "https://www-example-com.cdn.ampproject.org/v/s/www.example.com/a/b.html?q=1&amp_js_v=0.1&usqp=mq331AQ"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				SourceURL(bb.in)
			}
		})
	}
}

// FuzzSourceURL checks that SourceURL never panics, that it agrees with the
// slow oracle, and that a result is an http or https URL.
func FuzzSourceURL(f *testing.F) {
	for _, tt := range sourceURLTests {
		f.Add(tt.in)
	}
	for _, c := range wpt.Cases(f) {
		f.Add(c.Input)
		if u, err := CacheURL(google, c.Input, Viewer); err == nil {
			f.Add(u)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := SourceURL(in)
		slow, ok := slowSourceURL(in)
		if ok != (err == nil) || slow != got {
			t.Fatalf("SourceURL(%q) = %q, %v; slow oracle %q, %v", in, got, err, slow, ok)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
			return
		}
		if !strings.HasPrefix(got, "http://") && !strings.HasPrefix(got, "https://") {
			t.Fatalf("SourceURL(%q) = %q", in, got)
		}
		checkNetURLHost(t, got)
	})
}

// isCacheHostSlow reports whether h is a built-in cache domain or one label
// of [A-Za-z0-9_-]{1,63} below it, in any case, by regular expression.
func isCacheHostSlow(h string) bool {
	return cacheHostPattern.MatchString(h)
}

var cacheHostPattern = regexp.MustCompile(`(?i)^([a-z0-9_-]{1,63}\.)?(cdn\.ampproject\.org|www\.bing-amp\.com)$`)

func TestParseCacheURL(t *testing.T) {
	tests := []struct {
		in, want string
		s        Serving
		wantErr  error
	}{
		// spec "URL Path": /c, with the https infix.
		{in: "https://example-com.cdn.ampproject.org/c/s/example.com/a", want: "https://example.com/a", s: Content},
		// spec "URL Path": /ii/w800, a serving type of two segments.
		{in: "https://example-com.cdn.ampproject.org/ii/w800/example.com/a.png", want: "http://example.com/a.png", s: "ii/w800"},
		// A backslash between the segments is a "/", as in a URL parser.
		{in: `https://example-com.cdn.ampproject.org/ii\w800/example.com/a.png`, want: "http://example.com/a.png", s: "ii/w800"},
		// The spec's amp_latest_update_time is cache-only, escaped or not.
		{in: "https://example-com.cdn.ampproject.org/c/s/example.com/?a=1&amp_latest_update_time=2&amp%5Fr=3", want: "https://example.com/?a=1", s: Content},
		// "ii" that ends the path, found by FuzzParseServing (a panic).
		{in: "https://example-com.cdn.ampproject.org/ii", wantErr: ErrInvalidServing},
		// Not on a cache.
		{in: "https://example.com/c/s/example.com/", wantErr: ErrNotCacheURL},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, s, err := defaultRegistry.ParseCacheURL(tt.in)
			if got != tt.want || s != tt.s || !errors.Is(err, tt.wantErr) {
				t.Errorf("ParseCacheURL(%q) = %q, %q, %v; want %q, %q, %v", tt.in, got, s, err, tt.want, tt.s, tt.wantErr)
			}
		})
	}
}

func TestSplitCacheHost(t *testing.T) {
	tests := []struct {
		in, prefix, domain string
		ok                 bool
	}{
		// One label below a cache domain.
		{"www-example-com.cdn.ampproject.org", "www-example-com", "cdn.ampproject.org", true},
		// In any case, with a root dot; the prefix as given.
		{"WWW-Example-COM.CDN.ampproject.org.", "WWW-Example-COM", "cdn.ampproject.org", true},
		// The cache domain itself.
		{"www.bing-amp.com", "", "www.bing-amp.com", true},
		// Two labels below: not a cache host.
		{"a.b.cdn.ampproject.org", "", "", false},
		// "_" is in the runtime's pattern.
		{"a_b.cdn.ampproject.org", "a_b", "cdn.ampproject.org", true},
		// A label of 64 bytes.
		{strings.Repeat("a", 64) + ".cdn.ampproject.org", "", "", false},
		// Another domain.
		{"example.com", "", "", false},
		// A suffix without a dot before it.
		{"xcdn.ampproject.org", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, c, ok := defaultRegistry.SplitCacheHost(tt.in)
			if p != tt.prefix || c.CacheDomain != tt.domain || ok != tt.ok {
				t.Errorf("SplitCacheHost(%q) = %q, %q, %v; want %q, %q, %v", tt.in, p, c.CacheDomain, ok, tt.prefix, tt.domain, tt.ok)
			}
			if ok != isCacheHostSlow(strings.TrimSuffix(tt.in, ".")) {
				t.Errorf("SplitCacheHost(%q) disagrees with the oracle", tt.in)
			}
		})
	}
}
