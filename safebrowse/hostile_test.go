// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// hostileCorpus returns n URLs of the hostile mix that URL → hashes is
// judged on, the same on every run (a fixed PCG seed). Each
// trait is drawn on its own, so a URL may have several:
//
//   - about half hold percent-escapes: in the scheme (an eighth of those,
//     which decision g reads again), the host, the path or the query, a
//     third of the escapes escaped twice ("%2541");
//   - a fifth have dot segments and doubled slashes in the path;
//   - about half have a query, a quarter of those an escaped URL in it;
//   - one in nine has an IPv6 literal (IPv4-mapped, NAT64, runs of zeros,
//     upper case);
//   - one in thirteen an odd IPv4 form (octal, hex, one to three parts);
//   - one in nine is longer than 150 bytes, and the others are not.
//
// The rest are names under common public suffixes, a few in upper case or
// with a userinfo, a port or a fragment. Every URL canonicalises without
// error. TestHostileCorpus checks the shares.
func hostileCorpus(n int) []string {
	g := hostileGen{rand.New(rand.NewPCG(24, 2026))}
	// Each trait is given to its share of the URLs exactly, at places
	// drawn at random.
	trait := func(k int) []bool {
		t := make([]bool, n)
		for i := range n / k {
			t[i] = true
		}
		g.r.Shuffle(n, func(i, j int) { t[i], t[j] = t[j], t[i] })
		return t
	}
	escaped, dots, query := trait(2), trait(5), trait(2)
	ipv6, ipv4, long := trait(9), trait(13), trait(9)
	urls := make([]string, n)
	for i := range urls {
		kind := hostName
		switch {
		case ipv6[i]:
			kind = hostIPv6
		case ipv4[i]:
			kind = hostIPv4
		}
		// Draw until the length agrees with long.
		for {
			if u := g.url(kind, escaped[i], dots[i], query[i], long[i]); long[i] == (len(u) > 150) {
				urls[i] = u
				break
			}
		}
	}
	return urls
}

// The kinds of host of [hostileCorpus].
const (
	hostName = iota
	hostIPv6
	hostIPv4
)

// hostileGen draws the URLs of [hostileCorpus].
type hostileGen struct{ r *rand.Rand }

var (
	hostileDomains = []string{"example.com", "google.com", "paypal.com", "bbc.co.uk", "amazon.co.jp",
		"github.io", "wikipedia.org", "login-verify.xyz", "secure-update.info", "spiegel.de",
		"news.com.au", "blogspot.com", "bit.ly", "mail.ru", "s3.amazonaws.com"}
	hostileSubs  = []string{"", "www.", "www.", "m.", "cdn.", "login.", "accounts.", "a.b.c.", "static.img1."}
	hostileWords = []string{"index", "news", "article", "2026", "products", "item", "search", "user",
		"login", "wp-content", "uploads", "images", "js", "download", "files", "view", "p", "a1b2c3d4"}
	hostileFiles  = []string{"index.html", "page.php", "app.js", "logo.png", "doc.pdf", "setup.exe", "invoice.zip"}
	hostileParams = []string{"utm_source=newsletter", "id=12345", "q=free+gift+card", "ref=home",
		"session=8f14e45fceea167a", "lang=en", "page=2", "token=eyJhbGciOiJIUzI1NiJ9", "a=b/c"}
)

func (g hostileGen) one(k int) bool         { return g.r.IntN(k) == 0 }
func (g hostileGen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// escape escapes each byte of s that is not in keep with probability 1/k,
// and the '%' of a third of those escapes again. It escapes one byte at
// least, so s must hold a byte not in keep.
func (g hostileGen) escape(s, keep string, k int) string {
	var b strings.Builder
	for {
		for i := 0; i < len(s); i++ {
			switch {
			case strings.IndexByte(keep, s[i]) >= 0 || !g.one(k):
				b.WriteByte(s[i])
			case g.one(3):
				fmt.Fprintf(&b, "%%25%02X", s[i])
			default:
				fmt.Fprintf(&b, "%%%02X", s[i])
			}
		}
		if b.Len() > len(s) {
			return b.String() // at least one escape
		}
		b.Reset()
	}
}

// ipv6 draws a bracketed IPv6 literal.
func (g hostileGen) ipv6() string {
	a, b, c, d := g.r.IntN(256), g.r.IntN(256), g.r.IntN(256), g.r.IntN(256)
	x, y := g.r.IntN(1<<16), 1+g.r.IntN(1<<16-1)
	switch g.r.IntN(8) {
	case 0: // IPv4-mapped, dotted
		return fmt.Sprintf("[::ffff:%d.%d.%d.%d]", a, b, c, d)
	case 1: // IPv4-mapped, in hex, upper case
		return fmt.Sprintf("[0:0:0:0:0:FFFF:%02X%02X:%02X%02X]", a, b, c, d)
	case 2: // NAT64
		return fmt.Sprintf("[64:ff9b::%d.%d.%d.%d]", a, b, c, d)
	case 3: // NAT64 in full
		return fmt.Sprintf("[64:FF9B:0:0:0:0:%02x%02x:%02x%02x]", a, b, c, d)
	case 4: // two runs of zeros, upper case
		return fmt.Sprintf("[2001:DB8:0:0:%X:0:0:%X]", x, y)
	case 5:
		return fmt.Sprintf("[2001:db8::%x:0:0:%x]", x, y)
	case 6:
		return fmt.Sprintf("[fe80:0000:0000:0000:%04x:%x:0:1]", x, y)
	default:
		return fmt.Sprintf("[::%x:%x]", x, y)
	}
}

// ipv4 draws an IPv4 address in a form other than dotted decimal.
func (g hostileGen) ipv4() string {
	a := [4]int{1 + g.r.IntN(223), g.r.IntN(256), g.r.IntN(256), 1 + g.r.IntN(254)}
	switch g.r.IntN(6) {
	case 0: // octal
		return fmt.Sprintf("0%o.0%o.0%o.0%o", a[0], a[1], a[2], a[3])
	case 1: // hex
		return fmt.Sprintf("0x%X.0x%x.0x%x.0X%X", a[0], a[1], a[2], a[3])
	case 2: // one part, decimal or hex
		v := a[0]<<24 | a[1]<<16 | a[2]<<8 | a[3]
		if g.one(2) {
			return fmt.Sprintf("0x%08x", v)
		}
		return fmt.Sprint(v)
	case 3: // two parts
		return fmt.Sprintf("%d.%d", a[0], a[1]<<16|a[2]<<8|a[3])
	case 4: // three parts, octal among them
		return fmt.Sprintf("%d.0%o.%d", a[0], a[1], a[2]<<8|a[3])
	default: // four parts, mixed bases
		return fmt.Sprintf("0x%x.%d.0%o.%d", a[0], a[1], a[2], a[3])
	}
}

// url draws one URL with a host of the given kind and the given traits
// (the caller checks the length).
func (g hostileGen) url(kind int, escaped, dots, query, long bool) string {
	var inScheme, inHost, inPath, inQuery bool
	if escaped {
		inScheme = g.one(8)
		for !inScheme && !inHost && !inPath && !inQuery {
			inHost, inPath, inQuery = g.one(3), g.one(2), query && g.one(2)
		}
	}

	var b strings.Builder
	scheme := "https://"
	if g.one(4) {
		scheme = "http://"
	}
	if inScheme {
		switch g.r.IntN(3) {
		case 0:
			scheme = strings.Replace(scheme, "t", "%74", 1)
		case 1:
			scheme = strings.Replace(scheme, "://", "%3A//", 1)
		default:
			scheme = strings.Replace(scheme, "://", "%3A%2F%2F", 1)
		}
	}
	b.WriteString(scheme)
	if g.one(30) {
		b.WriteString("user:pass@")
	}
	var h string
	switch kind {
	case hostIPv6:
		h = g.ipv6()
	case hostIPv4:
		h = g.ipv4()
	default:
		h = g.pick(hostileSubs) + g.pick(hostileDomains)
		if g.one(10) {
			h = strings.ToUpper(h)
		}
	}
	if inHost && h[0] != '[' {
		h = g.escape(h, "", 4)
	}
	b.WriteString(h)
	if g.one(20) {
		fmt.Fprintf(&b, ":%d", 1+g.r.IntN(65535))
	}

	var p strings.Builder
	segs := 1 + g.r.IntN(4)
	switch {
	case long && query:
		segs += 4 + g.r.IntN(6)
	case long:
		segs += 14 + g.r.IntN(8)
	}
	for i := range segs {
		p.WriteByte('/')
		p.WriteString(g.pick(hostileWords))
		if dots {
			// The first segment has one at least.
			switch g.r.IntN(4 + min(i, 1)) {
			case 0:
				p.WriteString("/.")
			case 1:
				p.WriteString("/..")
			case 2:
				p.WriteString("/")
			case 3:
				p.WriteString("/./")
			}
		}
	}
	if g.one(2) {
		p.WriteByte('/')
		p.WriteString(g.pick(hostileFiles))
	}
	path := p.String()
	if inPath {
		path = g.escape(path, "/", 5)
	}
	b.WriteString(path)

	if query {
		var q strings.Builder
		n := 1 + g.r.IntN(3)
		if long {
			n += 3 + g.r.IntN(4)
		}
		for j := range n {
			if j > 0 {
				q.WriteByte('&')
			}
			q.WriteString(g.pick(hostileParams))
		}
		if g.one(4) {
			// An escaped URL, as a redirector carries it.
			inner := "https://" + g.pick(hostileSubs) + g.pick(hostileDomains) + "/" +
				g.pick(hostileWords) + "?" + g.pick(hostileParams)
			q.WriteString("&url=")
			q.WriteString(g.escape(inner, "", 1))
		}
		qs := q.String()
		if inQuery {
			qs = g.escape(qs, "&=", 8)
		}
		b.WriteByte('?')
		b.WriteString(qs)
	}
	if g.one(15) {
		b.WriteString("#section-2")
	}
	return b.String()
}

// TestHostileCorpus checks that hostileCorpus has the mix it claims, and
// that every URL of it canonicalises.
func TestHostileCorpus(t *testing.T) {
	urls := hostileCorpus(1000)
	var escaped, dots, query, ipv6, ipv4, long int
	for _, u := range urls {
		p, err := Parse(u)
		if err != nil {
			t.Errorf("Parse(%q): %v", u, err)
			continue
		}
		// The URL unescaped, its fragment cut, and its host as written,
		// without userinfo or port.
		raw, _, _ := strings.Cut(u, "#")
		plain := string(appendUnescaped(nil, raw))
		_, rest, _ := strings.Cut(plain, "://")
		path := ""
		if i := strings.IndexAny(rest, "/?"); i >= 0 {
			rest, path = rest[:i], rest[i:]
		}
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = rest[i+1:]
		}
		if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
			rest = rest[:i]
		}
		path, _, _ = strings.Cut(path, "?")
		switch {
		case strings.HasPrefix(rest, "["):
			ipv6++
		case p.IsIP() && p.Host() != rest:
			ipv4++
		}
		if strings.Contains(raw, "%") {
			escaped++
		}
		if strings.Contains(path, "/./") || strings.Contains(path, "/../") || strings.Contains(path, "//") ||
			strings.HasSuffix(path, "/.") || strings.HasSuffix(path, "/..") {
			dots++
		}
		if strings.Contains(raw, "?") {
			query++
		}
		if len(u) > 150 {
			long++
		}
	}
	n := float64(len(urls))
	for _, c := range []struct {
		name     string
		got      int
		min, max float64
	}{
		{"escaped", escaped, 0.45, 0.55},
		{"dot segments", dots, 0.15, 0.25},
		{"query", query, 0.45, 0.6},
		{"IPv6", ipv6, 1.0/9 - 0.03, 1.0/9 + 0.03},
		{"odd IPv4", ipv4, 1.0/13 - 0.03, 1.0/13 + 0.03},
		{"long", long, 1.0/9 - 0.03, 1.0/9 + 0.03},
	} {
		s := float64(c.got) / n
		t.Logf("%s: %.3f", c.name, s)
		if s < c.min || s > c.max {
			t.Errorf("%s: %d of %d; want a share in [%.2f, %.2f]", c.name, c.got, len(urls), c.min, c.max)
		}
	}
}

// TestHostileNoAllocs checks that AppendHashes allocates nothing on any URL
// of the hostile mix when dst has room for MaxExpressions hashes.
func TestHostileNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations; run without -race")
	}
	dst := make([]Hash, 0, MaxExpressions)
	for _, in := range hostileCorpus(1000) {
		if n := testing.AllocsPerRun(10, func() { dst, _ = AppendHashes(dst[:0], in) }); n != 0 {
			t.Errorf("AppendHashes(dst, %q): %v allocs; want 0", in, n)
		}
	}
}
