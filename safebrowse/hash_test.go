// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/internal/wpt"
)

// hashTests give full hashes computed independently of Go, with
// `printf '%s' EXPR | sha256sum` (GNU coreutils 9).
var hashTests = []struct {
	name string
	in   string
	// want is the hash of the first expression, the exact host and path
	// with query.
	want string
}{
	// spec: the first expression of "http://a.b.com/1/2.html?param=1".
	{"spec a.b.com", "http://a.b.com/1/2.html?param=1", "2fcd902cb93d9b26a41809849b981b556b6da9756e5f1a3adcb2ca768aadbec6"},
	// spec: "http://example.co.uk/1", its first expression example.co.uk/1.
	{"spec example.co.uk", "http://example.co.uk/1", "5560b8e9ec95e4dc41dccfb098ad21a0a7c9fb212c0f338962f3bf5223cff777"},
	// The root of example.co.uk, the second expression of the row above.
	{"example.co.uk root", "http://example.co.uk/", "8b933ddfb8036913668ac16c2ae44f9379f0d425bebdb7f327394f4bb0cd7660"},
	// No duplicates for http://a.com/: one expression, one hash.
	{"a.com root", "http://a.com/", "eb997b83b4d2b0cffba62e04fc26414c226990d75d697b814fcc60cc47d11873"},
}

func TestHashes(t *testing.T) {
	for _, tt := range hashTests {
		t.Run(tt.name, func(t *testing.T) {
			hs, err := Hashes(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := hs[0].String(); got != tt.want {
				t.Errorf("Hashes(%q)[0] = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestHashesMatchExpressions checks that Hashes is sha256.Sum256 of each
// expression, in the order of Expressions, for every row of both tables.
func TestHashesMatchExpressions(t *testing.T) {
	for _, tt := range expressionsTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []HostRule{HostsV5, HostsV4} {
				checkHashes(t, r, tt.in)
			}
		})
	}
}

func checkHashes(t *testing.T, r HostRule, in string) {
	t.Helper()
	exprs, err1 := r.Expressions(in)
	hs, err2 := r.Hashes(in)
	if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Fatalf("%v %q: Expressions error %v, Hashes error %v", r, in, err1, err2)
	}
	if len(hs) != len(exprs) {
		t.Fatalf("%v %q: %d hashes for %d expressions", r, in, len(hs), len(exprs))
	}
	for i, e := range exprs {
		if want := Hash(sha256.Sum256([]byte(e))); hs[i] != want {
			t.Fatalf("%v %q: hash %d is %s, want sha256(%q) = %s", r, in, i, hs[i], e, want)
		}
	}
	// The parsed form gives the same expressions and hashes.
	u, err := Parse(in)
	if (err == nil) != (err1 == nil) {
		t.Fatalf("Parse(%q) error %v, Expressions error %v", in, err, err1)
	}
	if got := slices.Collect(u.Expressions(r)); !slices.Equal(got, exprs) {
		t.Fatalf("%v Parse(%q).Expressions = %q, want %q", r, in, got, exprs)
	}
	if got := u.AppendHashes(nil, r); !slices.Equal(got, hs) {
		t.Fatalf("%v Parse(%q).AppendHashes = %v, want %v", r, in, got, hs)
	}
	// AppendHashes appends after what dst holds, and leaves dst alone on error.
	prev := []Hash{{1}}
	got, err := r.AppendHashes(prev, in)
	if err != nil {
		if len(got) != 1 || got[0] != prev[0] {
			t.Fatalf("%v AppendHashes(%q) changed dst on error", r, in)
		}
		return
	}
	if got[0] != prev[0] || !slices.Equal(got[1:], hs) {
		t.Fatalf("%v AppendHashes(%q) = %v, want %v after %v", r, in, got, hs, prev)
	}
}

func TestHashPrefix(t *testing.T) {
	h := Hash(sha256.Sum256([]byte("a.b.com/1/2.html?param=1")))
	for _, tt := range []struct {
		in   PrefixLen
		want string
	}{
		// hashes.search carries 4 bytes.
		{Prefix4, "2fcd902c"},
		// 8 bytes.
		{Prefix8, "2fcd902cb93d9b26"},
		// mcrx-16b.
		{Prefix16, "2fcd902cb93d9b26a41809849b981b55"},
		// The full hash.
		{Prefix32, "2fcd902cb93d9b26a41809849b981b556b6da9756e5f1a3adcb2ca768aadbec6"},
		// A length over 32 gives the whole hash, never a panic.
		{255, "2fcd902cb93d9b26a41809849b981b556b6da9756e5f1a3adcb2ca768aadbec6"},
		// Zero gives nothing.
		{0, ""},
	} {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			if got := fmt.Sprintf("%x", h.Prefix(tt.in)); got != tt.want {
				t.Errorf("Prefix(%d) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestListPrefixLen(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    PrefixLen
		wantErr error
	}{
		// Chromium's lists, each by its suffix.
		{"mw-4b", Prefix4, nil},
		{"se-4b", Prefix4, nil},
		{"uws-4b", Prefix4, nil},
		{"sus-4b", Prefix4, nil},
		{"bi-4b", Prefix4, nil},
		{"mcrx-16b", Prefix16, nil},
		{"gc-32b", Prefix32, nil},
		{"csda-32b", Prefix32, nil},
		{"csdda-32b", Prefix32, nil},
		// The spec allows 8-byte prefixes too.
		{"xx-8b", Prefix8, nil},
		// A name with a dash inside: the last dash counts.
		{"a-b-16b", Prefix16, nil},
		// Empty name.
		{"", 0, ErrListName},
		// No suffix.
		{"se", 0, ErrListName},
		// A suffix alone, without a name.
		{"-4b", 0, ErrListName},
		// An unknown length.
		{"se-5b", 0, ErrListName},
		// Upper case is not a list name.
		{"se-4B", 0, ErrListName},
		// The suffix must end the name.
		{"se-4b-x", 0, ErrListName},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ListPrefixLen(tt.in)
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Errorf("ListPrefixLen(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.in)) {
				t.Errorf("error %q does not quote the input", err)
			}
		})
	}
}

// TestNoAllocs checks that AppendHashes does not allocate on ASCII URLs
// when dst has room, under both host rules.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations; run without -race")
	}
	dst := make([]Hash, 0, MaxExpressions)
	for _, in := range []string{
		"http://a.b.com/1/2.html?param=1",
		"https://www.example.co.uk/a/b/c/d/e.html?utm_source=x&id=42",
		"http://a.b.c.d.e.f.g.example.github.io/1/2/3/4/5/6?q",
		"http://1.2.3.4/1/",
	} {
		u, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []HostRule{HostsV5, HostsV4} {
			if n := testing.AllocsPerRun(1000, func() { dst, _ = r.AppendHashes(dst[:0], in) }); n != 0 {
				t.Errorf("%v AppendHashes(dst, %q) allocates %v times", r, in, n)
			}
			if n := testing.AllocsPerRun(1000, func() { dst = u.AppendHashes(dst[:0], r) }); n != 0 {
				t.Errorf("%v URL.AppendHashes(dst) of %q allocates %v times", r, in, n)
			}
			if n := testing.AllocsPerRun(1000, func() {
				for e := range u.Expressions(r) {
					dst = append(dst[:0], Hash{byte(len(e))})
				}
			}); n != 0 {
				t.Errorf("%v URL.Expressions of %q allocates %v times", r, in, n)
			}
		}
	}
}

func TestURLZeroHashes(t *testing.T) {
	var u URL
	for e := range u.Expressions(HostsV5) {
		t.Errorf("zero URL has expression %q", e)
	}
	if got := u.AppendHashes([]Hash{{1}}, HostsV5); len(got) != 1 {
		t.Errorf("zero URL has hashes %v", got)
	}
}

// TestURLExpressionsBreak checks that the iterator stops when asked.
func TestURLExpressionsBreak(t *testing.T) {
	u, err := Parse("http://a.b.c.d.e.f.com/1.html")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for e := range u.Expressions(HostsV5) {
		if got = append(got, e); len(got) == 3 {
			break
		}
	}
	if want := []string{"a.b.c.d.e.f.com/1.html", "a.b.c.d.e.f.com/", "c.d.e.f.com/1.html"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHashesLinear checks that URL to hashes costs linear time: thirty
// expressions of a long URL hash at most thirty times its length.
func TestHashesLinear(t *testing.T) {
	checkLinear(t, 20000, 20*time.Millisecond, func(n int) time.Duration {
		in := "http://" + strings.Repeat("a.", n/2) + "example.com" + strings.Repeat("/b", n/2) + "?" + strings.Repeat("q", n)
		dst := make([]Hash, 0, MaxExpressions)
		start := time.Now()
		for range 5 {
			var err error
			if dst, err = AppendHashes(dst[:0], in); err != nil {
				t.Fatal(err)
			}
			if len(dst) != MaxExpressions {
				t.Fatalf("%d hashes, want %d", len(dst), MaxExpressions)
			}
		}
		return time.Since(start)
	})
}

func FuzzHashes(f *testing.F) {
	for _, tt := range expressionsTests {
		f.Add(tt.in)
	}
	wpt.AddInputs(f)
	f.Fuzz(func(t *testing.T, in string) {
		for _, r := range []HostRule{HostsV5, HostsV4} {
			checkHashes(t, r, in)
		}
	})
}

// benchCorpus returns n realistic URLs, the same on every run: mostly
// https, hosts under common and multi-label public suffixes and hosting
// platforms, one to five path segments, often a file, often a query with
// tracking parameters, a few IP addresses, ports, fragments and escapes.
func benchCorpus(n int) []string {
	rng := rand.New(rand.NewPCG(6, 2026))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	domains := []string{
		"google.com", "youtube.com", "facebook.com", "wikipedia.org", "amazon.com", "amazon.co.uk",
		"amazon.co.jp", "bbc.co.uk", "nytimes.com", "github.com", "reddit.com", "twitter.com",
		"linkedin.com", "microsoft.com", "apple.com", "example.com", "example.net", "paypal.com",
		"yahoo.co.jp", "baidu.com", "news.com.au", "gov.uk", "mail.ru", "naver.com", "bit.ly",
		"dropbox.com", "shopify.com", "cloudfront.net", "s3.amazonaws.com", "blogspot.com",
		"github.io", "herokuapp.com", "appspot.com", "wordpress.com", "tumblr.com", "medium.com",
		"stackoverflow.com", "cnn.com", "spiegel.de", "lemonde.fr", "corriere.it", "elpais.es",
		"uol.com.br", "gob.mx", "ac.jp", "edu.au", "zzz-phish.top", "login-verify.xyz", "secure-update.info",
	}
	subs := []string{"", "", "www.", "www.", "www.", "m.", "cdn.", "api.", "mail.", "news.", "shop.",
		"static.img1.", "en.", "login.", "accounts.", "a.b.c.", "tenant.", "user123.", "docs."}
	words := []string{"index", "news", "article", "2026", "11", "22", "products", "item", "search",
		"user", "profile", "login", "wp-content", "uploads", "images", "static", "js", "css", "en",
		"category", "world", "sports", "tech", "download", "files", "view", "watch", "p", "a1b2c3d4"}
	files := []string{"index.html", "page.php", "app.js", "logo.png", "style.css", "article.html",
		"default.aspx", "doc.pdf", "setup.exe", "invoice.zip"}
	params := []string{"utm_source=newsletter", "utm_medium=email", "utm_campaign=black_friday",
		"id=12345", "q=free+gift+card", "ref=home", "session=8f14e45fceea167a", "lang=en",
		"page=2", "v=dQw4w9WgXcQ", "token=eyJhbGciOiJIUzI1NiJ9", "redirect=https%3A%2F%2Fexample.com%2F"}
	urls := make([]string, n)
	for i := range urls {
		var b strings.Builder
		if rng.IntN(100) < 85 {
			b.WriteString("https://")
		} else {
			b.WriteString("http://")
		}
		switch x := rng.IntN(100); {
		case x < 3:
			fmt.Fprintf(&b, "%d.%d.%d.%d", 1+rng.IntN(223), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
		default:
			b.WriteString(pick(subs))
			b.WriteString(pick(domains))
		}
		if rng.IntN(100) < 2 {
			b.WriteString(":8080")
		}
		for range rng.IntN(5) {
			b.WriteByte('/')
			b.WriteString(pick(words))
		}
		switch x := rng.IntN(100); {
		case x < 40:
			b.WriteByte('/')
			b.WriteString(pick(files))
		case x < 70:
			b.WriteByte('/')
		}
		if rng.IntN(100) < 40 {
			for j := range 1 + rng.IntN(4) {
				if j == 0 {
					b.WriteByte('?')
				} else {
					b.WriteByte('&')
				}
				b.WriteString(pick(params))
			}
		}
		if rng.IntN(100) < 5 {
			b.WriteString("#section-2")
		}
		urls[i] = b.String()
	}
	return urls
}

var sinkHash Hash

// hashCorpora are the corpora of the URL → hashes benchmarks: the hostile
// mix (hostileCorpus: escapes, dot segments, IPv6 and odd IPv4
// hosts, long URLs), the shared canonicalisation corpus
// testdata/sbcorpus.txt (escapes, IP hosts, IDN, long queries), and
// benchCorpus, the URLs a link scanner meets most (plain hosts, tracking
// queries).
func hashCorpora(b *testing.B) []struct {
	name string
	urls []string
} {
	return []struct {
		name string
		urls []string
	}{
		{"corpus=hostile", hostileCorpus(1000)},
		{"corpus=sbcorpus", corpus(b)},
		{"corpus=links", benchCorpus(1000)},
	}
}

// BenchmarkHashes measures URL to hashes against its floor, SHA-256 over
// the same expressions computed in advance, in the same run. Each op is one
// URL of a corpus of [hashCorpora], which are looped through in order.
func BenchmarkHashes(b *testing.B) {
	for _, c := range hashCorpora(b) {
		b.Run(c.name, func(b *testing.B) { benchHashes(b, c.urls) })
	}
}

// hashInputs returns the URLs of all that canonicalise, the expressions of
// each, and each parsed.
func hashInputs(all []string) (urls []string, exprs [][][]byte, parsed []URL) {
	for _, u := range all {
		es, err := Expressions(u)
		if err != nil {
			continue // every row measures the same URLs
		}
		urls = append(urls, u)
		var bs [][]byte
		for _, e := range es {
			bs = append(bs, []byte(e))
		}
		exprs = append(exprs, bs)
		pu, _ := Parse(u)
		parsed = append(parsed, pu)
	}
	return urls, exprs, parsed
}

// BenchmarkHashesFloor measures AppendHashes as a ratio to its floor,
// sha256.Sum256 over the same expressions computed in advance, on each
// corpus of [hashCorpora], in the same run. Each op is one pass over the
// corpus through each. A shared machine's speed wanders by tens of
// percent within a second, so the two alternate every floorChunk URLs, in
// alternating order, and each chunk is timed by the wall clock; the ratio
// of a pass is the sum of its chunks' times, and "x-floor" is the median
// of the passes' ratios, which a preemption during one chunk moves
// little. It also reports the CPU time per URL of the benchmark's thread
// for each, "ns/URL" and "floor-ns/URL" (wall time where there is none).
func BenchmarkHashesFloor(b *testing.B) {
	for _, c := range hashCorpora(b) {
		b.Run(c.name, func(b *testing.B) {
			urls, exprs, _ := hashInputs(c.urls)
			dst := make([]Hash, 0, MaxExpressions)
			ours := func(i, j int) {
				for _, u := range urls[i:j] {
					dst, _ = AppendHashes(dst[:0], u)
				}
			}
			floor := func(i, j int) {
				for _, es := range exprs[i:j] {
					for _, e := range es {
						sinkHash = sha256.Sum256(e)
					}
				}
			}
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpuOurs, cpuFloor time.Duration
			ratios := make([]float64, 0, 4096) // before b.Loop, which resets the counts
			timed := func(f func(i, j int), i, j int) time.Duration {
				t0 := time.Now()
				f(i, j)
				return time.Since(t0)
			}
			odd := false
			for b.Loop() {
				var tOurs, tFloor time.Duration
				c0, ok0 := threadCPU()
				for i := 0; i < len(urls); i += floorChunk {
					j := min(i+floorChunk, len(urls))
					if odd {
						tOurs += timed(ours, i, j)
						tFloor += timed(floor, i, j)
					} else {
						tFloor += timed(floor, i, j)
						tOurs += timed(ours, i, j)
					}
					odd = !odd
				}
				c1, ok1 := threadCPU()
				ratios = append(ratios, float64(tOurs)/float64(tFloor))
				// Split the pass's CPU time as the wall clock did.
				cpu := tOurs + tFloor
				if ok0 && ok1 {
					cpu = c1 - c0
				}
				share := float64(tOurs) / float64(tOurs+tFloor)
				cpuOurs += time.Duration(share * float64(cpu))
				cpuFloor += cpu - time.Duration(share*float64(cpu))
			}
			n := float64(b.N * len(urls))
			b.ReportMetric(float64(cpuOurs.Nanoseconds())/n, "ns/URL")
			b.ReportMetric(float64(cpuFloor.Nanoseconds())/n, "floor-ns/URL")
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x-floor")
		})
	}
}

// floorChunk is how many URLs BenchmarkHashesFloor times at once.
const floorChunk = 50

func benchHashes(b *testing.B, all []string) {
	urls, exprs, parsed := hashInputs(all)
	b.Run("floor=sha256", func(b *testing.B) {
		benchEach(b, len(exprs), func(i int) {
			for _, e := range exprs[i] {
				sinkHash = sha256.Sum256(e)
			}
		})
	})
	dst := make([]Hash, 0, MaxExpressions)
	b.Run("AppendHashes", func(b *testing.B) {
		benchEach(b, len(urls), func(i int) { dst, _ = AppendHashes(dst[:0], urls[i]) })
	})
	b.Run("AppendHashes-v4", func(b *testing.B) {
		benchEach(b, len(urls), func(i int) { dst, _ = HostsV4.AppendHashes(dst[:0], urls[i]) })
	})
	b.Run("URL.AppendHashes", func(b *testing.B) {
		benchEach(b, len(parsed), func(i int) { dst = parsed[i].AppendHashes(dst[:0], HostsV5) })
	})
	b.Run("Hashes", func(b *testing.B) {
		benchEach(b, len(urls), func(i int) { Hashes(urls[i]) })
	})
	b.Run("Expressions", func(b *testing.B) {
		benchEach(b, len(urls), func(i int) { Expressions(urls[i]) })
	})
}

// benchEach runs f(0), f(1), ... f(n-1), f(0), ... as the ops of b. Beside
// the wall time it reports the CPU time of the benchmark's thread per op,
// "cpu-ns/op", which is steadier on a shared machine.
func benchEach(b *testing.B, n int, f func(i int)) {
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPU()
	i := 0
	for b.Loop() {
		f(i)
		if i++; i == n {
			i = 0
		}
	}
	if end, ok2 := threadCPU(); ok && ok2 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
