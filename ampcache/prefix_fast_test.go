// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/punycode"
	"github.com/urlspec/urlspec/internal/wpt"
	"golang.org/x/net/idna"
)

// The fast path of DomainPrefix decides UTS #46 validity and the Bidi
// rule itself for hosts whose code points host.Known accepts, and skips
// x/net/idna. These tests hold it to the path through x/net: the same
// prefix, or the same error, for every input.

// checkKnownPath fails t when DomainPrefix's fast path and the x/net path
// disagree on d, and reports whether the fast path is taken.
func checkKnownPath(t testing.TB, d string) {
	t.Helper()
	var fbuf, sbuf [maxLabel]byte
	fast, ferr := appendDomainPrefix(fbuf[:0], d, true)
	slow, serr := appendDomainPrefix(sbuf[:0], d, false)
	if string(fast) != string(slow) || (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
		t.Fatalf("DomainPrefix(%q) = %q, %v; through x/net/idna: %q, %v", d, fast, ferr, slow, serr)
	}
}

// tableHosts returns the hosts of every ampcache test table: the domain
// prefix table, the A-label hosts, the IDN benchmark hosts as Unicode and
// A-labels, the hosts of the CacheURL, PublisherDomain and SourceURL
// tables, and the WPT URL test hosts.
func tableHosts(tb testing.TB) []string {
	var hosts []string
	for _, tt := range prefixTests {
		hosts = append(hosts, tt.in, tt.fallbackOf)
	}
	hosts = append(hosts, aLabelHosts...)
	for _, h := range idnHosts {
		a, _ := idna.Lookup.ToASCII(h.host)
		hosts = append(hosts, h.host, a)
	}
	for _, h := range benchHosts {
		hosts = append(hosts, h.host)
	}
	addURL := func(s string) {
		if u, err := url.Parse(s); err == nil {
			hosts = append(hosts, u.Hostname())
		}
	}
	for _, tt := range cacheURLTests {
		addURL(tt.in)
		addURL(tt.want)
	}
	for _, tt := range publisherDomainTests {
		addURL(tt.in)
		hosts = append(hosts, tt.want)
	}
	for _, tt := range sourceURLTests {
		addURL(tt.in)
		addURL(tt.want)
	}
	return append(hosts, wpt.Hosts(tb)...)
}

// TestKnownPathTables compares the two paths on every host of the test
// tables, as given, in upper case, and with a root dot.
func TestKnownPathTables(t *testing.T) {
	n := 0
	for _, h := range tableHosts(t) {
		for _, d := range []string{h, strings.ToUpper(h), h + "."} {
			checkKnownPath(t, d)
			n++
		}
	}
	t.Logf("%d hosts", n)
}

// knownPositions are host templates: "X" stands for a code point that
// host.Known accepts. Each puts it in another place of a label, beside
// other scripts, digits of every kind and "-", in a Bidi domain name or
// not, so that the host is valid, invalid or needs the fallback.
var knownPositions = []string{
	"X.com", "X", "aX.de", "Xa.de", "a-X.de", "X-1.de", "1X.de", "X--a.de", "ab--X.de", "XXXX.de",
	"X.ü", "ü.X", "X.日本", "X.\u0645\u062B\u0627\u0644", "\u0645\u062B\u0627\u0644.X", "\u0628X.com", "X\u0628.com",
	"\u0628X\u0660.com", "\u0628X\u06F0.com", "\u0660X.com", "\u06F0X.com", "\u0628X1.\u0628", "\u0628-X.\u0628",
	"a.b.c.X", "X.X.X", "en-X.example.com",
	// Long hosts, whose ASCII form is measured label by label; the last
	// two are too long for a domain.
	strings.Repeat("X", 30) + ".com", strings.Repeat("X", 60) + ".com",
	strings.Repeat("1X", 40) + "." + strings.Repeat("X", 40), strings.Repeat("aX.", 40) + "ب",
}

// TestKnownPathCodePoints compares the two paths on every non-ASCII code
// point that host.Known accepts, in each of knownPositions, as Unicode and
// as A-labels. With -short it takes every eighth code point; with -race,
// which finds nothing more in this single-goroutine code and makes it ten
// times slower, every 32nd, one of each run of 32 code points, in every
// position still. .ci/run takes every one without -race.
func TestKnownPathCodePoints(t *testing.T) {
	every := rune(1)
	switch {
	case raceEnabled:
		every = 32
	case testing.Short():
		every = 8
	}
	rows := 0
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !host.Known(r) || r%every != 0 {
			continue
		}
		for _, p := range knownPositions {
			d := strings.ReplaceAll(p, "X", string(r))
			checkKnownPath(t, d)
			checkKnownPath(t, aLabels(d))
			rows += 2
		}
	}
	t.Logf("%d hosts", rows)
}

// aLabels returns d with each non-ASCII label written as "xn--" and its
// Punycode, without any UTS #46 processing.
func aLabels(d string) string {
	labels := strings.Split(d, ".")
	for i, l := range labels {
		if !host.IsASCII(l) {
			if p, err := punycode.Encode(l); err == nil {
				labels[i] = "xn--" + p
			}
		}
	}
	return strings.Join(labels, ".")
}

// TestKnownPathAllocs checks that the fast path allocates nothing for
// the IDN benchmark hosts (idnHosts and idnCorpus), Arabic and Hebrew
// included, as Unicode and as A-labels: AppendDomainPrefix makes no
// allocations, and DomainPrefix one, for its result.
func TestKnownPathAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	dst := make([]byte, 0, maxLabel)
	hosts := idnCorpus
	for _, h := range idnHosts {
		a, _ := idna.Lookup.ToASCII(h.host)
		hosts = append(hosts, h.host, a)
	}
	n := 0
	for _, in := range hosts {
		// The fast path takes a Unicode host as given, and an A-label
		// host decoded; upper case and combining marks (Devanagari,
		// Tamil, some Thai) go through x/net.
		u := in
		if host.IsASCII(in) {
			u, _ = idna.Lookup.ToUnicode(in)
		}
		if _, known := host.KnownValid(u); !known {
			continue
		}
		n++
		if n := testing.AllocsPerRun(200, func() { AppendDomainPrefix(dst[:0], in) }); n != 0 {
			t.Errorf("AppendDomainPrefix(%q): %v allocations; want 0", in, n)
		}
		if n := testing.AllocsPerRun(200, func() { DomainPrefix(in) }); n > 1 {
			t.Errorf("DomainPrefix(%q): %v allocations; want at most 1", in, n)
		}
	}
	t.Logf("%d hosts on the fast path", n)
}

// FuzzKnownPath compares the fast path with the x/net path on any input,
// as given and with its non-ASCII labels as A-labels.
func FuzzKnownPath(f *testing.F) {
	for _, h := range idnHosts {
		f.Add(h.host)
	}
	for _, s := range []string{
		"bücher-café.de", "xn--bcher-kva.xn--caf-dma", "مثال.com", "1abc.مثال", "\u0628\u0660\u06F0.x",
		"a--ü.de", "ü-.de", "日本.\u0628", "\u0628.\u0660", "xn--mgbh0fb.xn--kgbechtv", strings.Repeat("ü", 40) + ".de",
		// Scripts of knownExtra: Latin Extended, Vietnamese, Hebrew (R),
		// Thai, Georgian, Armenian.
		"łódź.pl", "tiếngviệt.vn", "עברית.co.il", "\u05D0\u0660.x", "\u05D01.\u0628", "ไทย.ไทย", "საქართველო.გე", "հայաստան.հայ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		checkKnownPath(t, d)
		checkKnownPath(t, aLabels(d))
	})
}
