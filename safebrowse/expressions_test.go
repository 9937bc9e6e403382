// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/internal/wpt"
	"golang.org/x/net/publicsuffix"
)

// slowExpressions builds the expressions of a canonical URL literally, step
// by step as "Host-suffix / path-prefix expressions" in the spec words them:
// split the host into labels, take the eTLD+1 from
// publicsuffix.EffectiveTLDPlusOne (v5) or the last five labels (v4), split
// the path into components, then combine every host with every path.
func slowExpressions(r HostRule, host, path, query string, hasQuery, ip bool) []string {
	hosts := []string{host}
	if !ip {
		labels := strings.Split(host, ".")
		least := 0 // number of labels of the shortest suffix
		switch r {
		case HostsV4:
			if !slices.Contains(labels, "") {
				least = 2
			}
		default:
			if etld1, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
				least = len(strings.Split(etld1, "."))
			}
		}
		if least > 0 {
			// Up to four hosts, from the eTLD+1 upwards, not the exact host;
			// listed longest first.
			for n := min(least+3, len(labels)-1); n >= least; n-- {
				hosts = append(hosts, strings.Join(labels[len(labels)-n:], "."))
			}
		}
	}

	var paths []string
	if hasQuery {
		paths = append(paths, path+"?"+query)
	}
	paths = append(paths, path)
	components := strings.Split(path[1:], "/")
	// The four paths from the root: "/" and then the components before the
	// last one, one at a time, each with a trailing slash.
	for i := 0; i < 4 && i < len(components); i++ {
		prefix := "/"
		if i > 0 {
			prefix += strings.Join(components[:i], "/") + "/"
		}
		if !slices.Contains(paths, prefix) {
			paths = append(paths, prefix)
		}
	}

	var out []string
	for _, h := range hosts {
		for _, p := range paths {
			out = append(out, h+p)
		}
	}
	return out
}

// expandString runs the fast expansion on a canonical host and path (with
// an optional "?query"), without canonicalising.
func expandString(r HostRule, host, pathQuery string, ip bool) []string {
	buf := []byte("http://" + host + pathQuery)
	p := parts{hostStart: len("http://"), hostEnd: len("http://") + len(host), end: len(buf), ip: ip}
	p.pathEnd = p.end
	if i := strings.IndexByte(pathQuery, '?'); i >= 0 {
		p.pathEnd = p.hostEnd + i
		p.hasQuery = true
	}
	e := expand(r, buf, p)
	var out []string
	for _, h := range e.hosts[:e.nh] {
		for _, end := range e.paths[:e.np] {
			out = append(out, string(buf[h:end]))
		}
	}
	return out
}

func slowExpandString(r HostRule, host, pathQuery string, ip bool) []string {
	path, query, hasQuery := strings.Cut(pathQuery, "?")
	return slowExpressions(r, host, path, query, hasQuery, ip)
}

// expandTests exercise each rule on a canonical host and path, whatever the
// canonicaliser does. Expected lists are exact, in order.
var expandTests = []struct {
	name      string
	rule      HostRule
	host      string
	pathQuery string
	ip        bool
	want      []string
}{
	// spec: example "http://a.b.com/1/2.html?param=1".
	{"spec a.b.com/1/2.html?param=1", HostsV5, "a.b.com", "/1/2.html?param=1", false, []string{
		"a.b.com/1/2.html?param=1", "a.b.com/1/2.html", "a.b.com/", "a.b.com/1/",
		"b.com/1/2.html?param=1", "b.com/1/2.html", "b.com/", "b.com/1/",
	}},
	// spec: example "http://a.b.c.d.e.f.com/1.html"; b.c.d.e.f.com is skipped.
	{"spec a.b.c.d.e.f.com/1.html", HostsV5, "a.b.c.d.e.f.com", "/1.html", false, []string{
		"a.b.c.d.e.f.com/1.html", "a.b.c.d.e.f.com/",
		"c.d.e.f.com/1.html", "c.d.e.f.com/",
		"d.e.f.com/1.html", "d.e.f.com/",
		"e.f.com/1.html", "e.f.com/",
		"f.com/1.html", "f.com/",
	}},
	// spec: example "http://1.2.3.4/1/"; an IP address has no suffixes.
	{"spec 1.2.3.4/1/", HostsV5, "1.2.3.4", "/1/", true, []string{"1.2.3.4/1/", "1.2.3.4/"}},
	// spec: example "http://example.co.uk/1"; v5 never gives co.uk.
	{"spec example.co.uk/1", HostsV5, "example.co.uk", "/1", false, []string{"example.co.uk/1", "example.co.uk/"}},
	// v4 rule on the same URL: co.uk is the last two labels (notes §2).
	{"v4 example.co.uk/1", HostsV4, "example.co.uk", "/1", false, []string{
		"example.co.uk/1", "example.co.uk/", "co.uk/1", "co.uk/",
	}},
	// v4 on the spec's a.b.c.d.e.f.com: the last five labels, down to two.
	{"v4 a.b.c.d.e.f.com/1.html", HostsV4, "a.b.c.d.e.f.com", "/1.html", false, []string{
		"a.b.c.d.e.f.com/1.html", "a.b.c.d.e.f.com/",
		"c.d.e.f.com/1.html", "c.d.e.f.com/",
		"d.e.f.com/1.html", "d.e.f.com/",
		"e.f.com/1.html", "e.f.com/",
		"f.com/1.html", "f.com/",
	}},
	// v5 on a deep host under co.uk: four suffixes from the eTLD+1 up.
	{"deep under co.uk", HostsV5, "a.b.c.d.e.example.co.uk", "/", false, []string{
		"a.b.c.d.e.example.co.uk/", "c.d.e.example.co.uk/", "d.e.example.co.uk/", "e.example.co.uk/", "example.co.uk/",
	}},
	// v4 on the same host: the last five labels, down to co.uk.
	{"v4 deep under co.uk", HostsV4, "a.b.c.d.e.example.co.uk", "/", false, []string{
		"a.b.c.d.e.example.co.uk/", "d.e.example.co.uk/", "e.example.co.uk/", "example.co.uk/", "co.uk/",
	}},
	// Hosts, at most 5: the exact host and four suffixes, on a deep host.
	{"hosts at most 5", HostsV5, "a.b.c.d.e.f.g.example.com", "/", false, []string{
		"a.b.c.d.e.f.g.example.com/", "e.f.g.example.com/", "f.g.example.com/", "g.example.com/", "example.com/",
	}},
	// eTLD+1 with private section: a.b.github.io stops at b.github.io.
	{"psl private github.io", HostsV5, "a.b.github.io", "/", false, []string{"a.b.github.io/", "b.github.io/"}},
	// Private section: tenant.blogspot.com is its own eTLD+1.
	{"psl private blogspot.com", HostsV5, "tenant.blogspot.com", "/", false, []string{"tenant.blogspot.com/"}},
	// The same host under v4 goes down to blogspot.com.
	{"v4 blogspot.com", HostsV4, "tenant.blogspot.com", "/", false, []string{"tenant.blogspot.com/", "blogspot.com/"}},
	// A host that is itself a public suffix has only its exact form.
	{"public suffix co.uk", HostsV5, "co.uk", "/", false, []string{"co.uk/"}},
	// A TLD alone.
	{"public suffix com", HostsV5, "com", "/a", false, []string{"com/a", "com/"}},
	// A single label: its own public suffix by the default rule.
	{"single label localhost", HostsV5, "localhost", "/", false, []string{"localhost/"}},
	// A single label under v4: the last label is never taken alone.
	{"v4 single label localhost", HostsV4, "localhost", "/", false, []string{"localhost/"}},
	// An unlisted TLD follows the default rule "*": eTLD+1 is example.zzzz.
	{"unlisted TLD", HostsV5, "a.b.example.zzzz", "/", false, []string{"a.b.example.zzzz/", "b.example.zzzz/", "example.zzzz/"}},
	// A wildcard rule: *.ck makes foo.ck a public suffix.
	{"psl wildcard *.ck", HostsV5, "a.b.foo.ck", "/", false, []string{"a.b.foo.ck/", "b.foo.ck/"}},
	// An IPv6 host has no suffixes either.
	{"IPv6 host", HostsV5, "[2001:db8::1]", "/a/b", true, []string{"[2001:db8::1]/a/b", "[2001:db8::1]/", "[2001:db8::1]/a/"}},
	// An IPv4 host under v4: still no suffixes.
	{"v4 IPv4 host", HostsV4, "1.2.3.4", "/", true, []string{"1.2.3.4/"}},
	// Paths, at most 6: the path with and without query, four prefixes.
	{"paths at most 6", HostsV5, "example.com", "/1/2/3/4/5/6.html?q", false, []string{
		"example.com/1/2/3/4/5/6.html?q", "example.com/1/2/3/4/5/6.html",
		"example.com/", "example.com/1/", "example.com/1/2/", "example.com/1/2/3/",
	}},
	// A path that ends in '/' is not repeated among the prefixes.
	{"prefix equals exact path", HostsV5, "example.com", "/1/2/3/", false, []string{
		"example.com/1/2/3/", "example.com/", "example.com/1/", "example.com/1/2/",
	}},
	// No duplicates: for http://a.com/ the exact path is "/".
	{"no duplicates a.com/", HostsV5, "a.com", "/", false, []string{"a.com/"}},
	// An empty query still gives its own "/?" expression.
	{"empty query /?", HostsV5, "a.com", "/?", false, []string{"a.com/?", "a.com/"}},
	// A query with slashes adds no prefixes.
	{"slashes in query", HostsV5, "a.com", "/x?a/b/c", false, []string{"a.com/x?a/b/c", "a.com/x", "a.com/"}},
	// At most 30 expressions: 5 hosts times 6 paths.
	{"at most 30", HostsV5, "a.b.c.d.e.f.com", "/1/2/3/4/5.html?x=1", false, func() []string {
		var out []string
		for _, h := range []string{"a.b.c.d.e.f.com", "c.d.e.f.com", "d.e.f.com", "e.f.com", "f.com"} {
			for _, p := range []string{"/1/2/3/4/5.html?x=1", "/1/2/3/4/5.html", "/", "/1/", "/1/2/", "/1/2/3/"} {
				out = append(out, h+p)
			}
		}
		return out
	}()},
	// An empty label (never canonical) gives the exact host only.
	{"empty label", HostsV5, "a..example.com", "/", false, []string{"a..example.com/"}},
}

func TestExpand(t *testing.T) {
	for _, tt := range expandTests {
		t.Run(tt.name, func(t *testing.T) {
			got := expandString(tt.rule, tt.host, tt.pathQuery, tt.ip)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%v: %s%s:\ngot  %q\nwant %q", tt.rule, tt.host, tt.pathQuery, got, tt.want)
			}
			if slow := slowExpandString(tt.rule, tt.host, tt.pathQuery, tt.ip); !slices.Equal(slow, tt.want) {
				t.Errorf("oracle %v: %s%s:\ngot  %q\nwant %q", tt.rule, tt.host, tt.pathQuery, slow, tt.want)
			}
		})
	}
}

// expressionsTests go through canonicalisation: URLs as a user passes them.
var expressionsTests = []struct {
	name    string
	in      string
	want    []string
	wantErr error
}{
	// spec: "http://a.b.com/1/2.html?param=1".
	{"spec a.b.com", "http://a.b.com/1/2.html?param=1", []string{
		"a.b.com/1/2.html?param=1", "a.b.com/1/2.html", "a.b.com/", "a.b.com/1/",
		"b.com/1/2.html?param=1", "b.com/1/2.html", "b.com/", "b.com/1/",
	}, nil},
	// spec: "http://a.b.c.d.e.f.com/1.html".
	{"spec a.b.c.d.e.f.com", "http://a.b.c.d.e.f.com/1.html", []string{
		"a.b.c.d.e.f.com/1.html", "a.b.c.d.e.f.com/",
		"c.d.e.f.com/1.html", "c.d.e.f.com/",
		"d.e.f.com/1.html", "d.e.f.com/",
		"e.f.com/1.html", "e.f.com/",
		"f.com/1.html", "f.com/",
	}, nil},
	// spec: "http://1.2.3.4/1/".
	{"spec 1.2.3.4", "http://1.2.3.4/1/", []string{"1.2.3.4/1/", "1.2.3.4/"}, nil},
	// spec: "http://example.co.uk/1".
	{"spec example.co.uk", "http://example.co.uk/1", []string{"example.co.uk/1", "example.co.uk/"}, nil},
	// Scheme is dropped; the fragment goes with canonicalisation.
	{"https and fragment", "https://www.example.com/a/b.html?x=1#top", []string{
		"www.example.com/a/b.html?x=1", "www.example.com/a/b.html", "www.example.com/", "www.example.com/a/",
		"example.com/a/b.html?x=1", "example.com/a/b.html", "example.com/", "example.com/a/",
	}, nil},
	// No duplicates for http://a.com/.
	{"no duplicates", "http://a.com/", []string{"a.com/"}, nil},
	// An empty URL is an error from canonicalisation.
	{"empty", "", nil, ErrEmpty},
}

func TestExpressions(t *testing.T) {
	for _, tt := range expressionsTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expressions(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Expressions(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Expressions(%q):\ngot  %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestHostRuleString(t *testing.T) {
	for _, tt := range []struct {
		in   HostRule
		want string
	}{
		// The two rules.
		{HostsV5, "HostsV5"},
		{HostsV4, "HostsV4"},
		// Any other value says what it is.
		{HostRule(7), "HostRule(7)"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestExpandLinear checks that a host of many labels and a path of many
// components cost linear time: expansion stops after four suffixes and
// four prefixes, and scans each byte at most a bounded number of times.
func TestExpandLinear(t *testing.T) {
	checkLinear(t, 10000, 10*time.Millisecond, func(n int) time.Duration {
		host := strings.Repeat("a.", n) + "example.com"
		buf := []byte("http://" + host + strings.Repeat("/b", n) + "?" + strings.Repeat("q", n))
		p := parts{hostStart: len("http://"), hostEnd: len("http://") + len(host), end: len(buf), hasQuery: true}
		p.pathEnd = p.hostEnd + 2*n
		start := time.Now()
		for range 20 {
			for _, r := range []HostRule{HostsV5, HostsV4} {
				if e := expand(r, buf, p); e.nh != maxHosts || e.np != maxPaths {
					t.Fatalf("%v: %d hosts, %d paths", r, e.nh, e.np)
				}
			}
		}
		return time.Since(start)
	})
}

// fuzzHost makes a canonical-looking host out of fuzz input: lower case,
// no '/', '?' or '#'.
func fuzzPathQuery(s string) string {
	path, query, hasQuery := strings.Cut(s, "?")
	path = "/" + strings.TrimPrefix(path, "/")
	if hasQuery {
		return path + "?" + query
	}
	return path
}

func FuzzExpand(f *testing.F) {
	for _, tt := range expandTests {
		f.Add(tt.host, tt.pathQuery, tt.ip, tt.rule == HostsV4)
	}
	f.Fuzz(func(t *testing.T, host, pathQuery string, ip, v4 bool) {
		if strings.ContainsAny(host, "/?") {
			return
		}
		pathQuery = fuzzPathQuery(pathQuery)
		rule := HostsV5
		if v4 {
			rule = HostsV4
		}
		got := expandString(rule, host, pathQuery, ip)
		want := slowExpandString(rule, host, pathQuery, ip)
		if !slices.Equal(got, want) {
			t.Fatalf("%v %q %q ip=%v:\nfast %q\nslow %q", rule, host, pathQuery, ip, got, want)
		}
		checkExpressions(t, host, got)
	})
}

// checkExpressions checks the fuzz properties every list of expressions
// has: at most 30, none twice, each starting with the host or a suffix of it.
func checkExpressions(t *testing.T, host string, exprs []string) {
	t.Helper()
	if len(exprs) == 0 || len(exprs) > MaxExpressions {
		t.Fatalf("%d expressions for host %q", len(exprs), host)
	}
	seen := make(map[string]bool)
	for _, e := range exprs {
		if seen[e] {
			t.Fatalf("expression %q twice in %q", e, exprs)
		}
		seen[e] = true
		h, _, _ := strings.Cut(e, "/")
		if !strings.HasSuffix(host, h) || (h != host && host[len(host)-len(h)-1] != '.') {
			t.Fatalf("expression %q does not start with host %q or a suffix of it", e, host)
		}
	}
}

// FuzzExpressions checks Expressions, through canonicalisation, against
// the oracle on the canonical host, path and query, under both host rules.
func FuzzExpressions(f *testing.F) {
	for _, tt := range expressionsTests {
		f.Add(tt.in)
	}
	for _, tt := range expandTests {
		f.Add("http://" + tt.host + tt.pathQuery)
	}
	wpt.AddInputs(f)
	f.Fuzz(func(t *testing.T, in string) {
		buf, p, cerr := appendCanonical(nil, in)
		for _, r := range []HostRule{HostsV5, HostsV4} {
			got, err := r.Expressions(in)
			if (err == nil) != (cerr == nil) {
				t.Fatalf("%v Expressions(%q) error %v, canonicalisation error %v", r, in, err, cerr)
			}
			if err != nil {
				if got != nil {
					t.Fatalf("%v Expressions(%q) = %q with error %v", r, in, got, err)
				}
				continue
			}
			host := string(buf[p.hostStart:p.hostEnd])
			path := string(buf[p.hostEnd:p.pathEnd])
			if !strings.HasPrefix(path, "/") {
				t.Fatalf("canonical %q of %q: path %q does not begin with '/'", buf, in, path)
			}
			var query string
			if p.hasQuery {
				query = string(buf[p.pathEnd+1 : p.end])
			}
			want := slowExpressions(r, host, path, query, p.hasQuery, p.ip)
			if !slices.Equal(got, want) {
				t.Fatalf("%v Expressions(%q), canonical %q:\nfast %q\nslow %q", r, in, buf, got, want)
			}
			checkExpressions(t, host, got)
		}
	})
}
