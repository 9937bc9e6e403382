// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

func TestParseAPI(t *testing.T) {
	tests := []struct {
		in      string
		want    API
		wantErr bool
	}{
		// The names, as String gives them and as flags spell them.
		{"SafeBrowsing", SafeBrowsing, false},
		{"WebRisk", WebRisk, false},
		{"safebrowsing", SafeBrowsing, false},
		{"webrisk", WebRisk, false},
		// Any case, with a '-' or '_' between words.
		{"WEBRISK", WebRisk, false},
		{"web-risk", WebRisk, false},
		{"safe_browsing", SafeBrowsing, false},
		// Nothing else: no version numbers, no empty name.
		{"v5", 0, true},
		{"web risk", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAPI(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("ParseAPI(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err == nil {
				if back, err := ParseAPI(got.String()); err != nil || back != got {
					t.Errorf("ParseAPI(%q.String()) = %v, %v", got, back, err)
				}
			}
		})
	}
	if s := API(7).String(); s != "API(7)" {
		t.Errorf("API(7).String() = %q", s)
	}
}

// TestNewWebRisk: the Config rules of the WebRisk API, each an error from
// New naming the field, and the defaults.
func TestNewWebRisk(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string // a part of the error; "" for none
	}{
		// The defaults: LocalList, the three default lists.
		{"defaults", Config{}, ""},
		{"NoStorage", Config{Mode: NoStorage}, ""},
		{"NoStorage names the threat types searched", Config{Mode: NoStorage, Lists: []string{"MALWARE"}}, ""},
		{"extended coverage", Config{Lists: []string{"SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}}, ""},
		// Web Risk has no Global Cache, and Google no gateway for it.
		{"RealTime", Config{Mode: RealTime}, "Config.Mode"},
		{"OHTTP", Config{OHTTP: &OHTTPConfig{RelayURL: "https://relay.example/"}}, "Config.OHTTP"},
		// List names are Web Risk's, exactly.
		{"v5 name", Config{Lists: []string{"se-4b"}}, "Config.Lists"},
		{"lower case", Config{Lists: []string{"malware"}}, "Config.Lists"},
		{"twice", Config{Lists: []string{"MALWARE", "MALWARE"}}, "named twice"},
		{"empty", Config{Lists: []string{}}, "Config.Lists is empty"},
		// NoStorage stores nothing.
		{"NoStorage Dir", Config{Mode: NoStorage, Dir: "x"}, "Config.Dir"},
		// The budget.
		{"negative budget", Config{MaxSearchesPerMinute: -1}, "Config.MaxSearchesPerMinute"},
		{"huge budget", Config{MaxSearchesPerMinute: MaxSearchesPerMinute + 1}, "Config.MaxSearchesPerMinute"},
		// An API the package does not know.
		{"unknown API", Config{API: 9}, "Config.API"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.APIKey = testKey
			if cfg.API == 0 {
				cfg.API = WebRisk
			}
			c, err := New(cfg)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				c.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("New = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
	// A Web Risk name under v5.
	if _, err := New(Config{APIKey: testKey, Lists: []string{"MALWARE"}}); err == nil {
		t.Error("v5 took the list MALWARE")
	}

	c, err := New(Config{APIKey: testKey, API: WebRisk})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.base != DefaultWebRiskBaseURL {
		t.Errorf("base %q, want %q", c.base, DefaultWebRiskBaseURL)
	}
	if c.API() != WebRisk {
		t.Errorf("API() = %v, want WebRisk", c.API())
	}
	var names []string
	for _, l := range c.Lists() {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, DefaultWebRiskLists) {
		t.Errorf("lists %q, want %q", names, DefaultWebRiskLists)
	}
	if got := c.requestURL(methodDiff, "threatType=MALWARE"); got != DefaultWebRiskBaseURL+"/v1/threatLists:computeDiff?key="+testKey+"&alt=proto&threatType=MALWARE" {
		t.Errorf("request URL %s", got)
	}
}

// TestWebRiskLookup: a Local List client fetches each list with its own
// computeDiff, then searches only the entries the lists hold, whole, with
// the threat types of its lists, and reports the server's threat types.
// It asks alt=proto, and reads a server that answers JSON all the same
// (decision w7).
func TestWebRiskLookup(t *testing.T) {
	t.Run("proto", func(t *testing.T) { testWebRiskLookup(t, false) })
	t.Run("json", func(t *testing.T) { testWebRiskLookup(t, true) })
}

func testWebRiskLookup(t *testing.T, json bool) {
	s := newWRServer(t)
	s.json = json
	s.add("MALWARE", "evil.example/", 4)
	s.add("SOCIAL_ENGINEERING", "phish.example/", 8, v4wire.WebRiskSocialEngineeringExtendedCoverage)
	s.add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "maybe.example/", 4)
	c, _ := newWRClient(t, s, Config{Lists: []string{"MALWARE", "SOCIAL_ENGINEERING", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if n := s.count("computeDiff"); n != 3 {
		t.Errorf("%d computeDiff requests, want one a list", n)
	}
	q := s.lastQuery()
	if q.Get("alt") != "proto" {
		t.Errorf("alt=%q, want proto", q.Get("alt"))
	}
	if got := q["constraints.supportedCompressions"]; !slices.Contains(got, "RICE") {
		t.Errorf("supportedCompressions %q, want RICE", got)
	}
	for _, p := range []string{"constraints.maxDatabaseEntries", "constraints.maxDiffEntries", "versionToken"} {
		if q.Has(p) {
			t.Errorf("%s=%q sent; want none", p, q[p])
		}
	}
	tests := []struct {
		url      string
		want     []ThreatType
		searched int // bytes of the prefix searched; 0: none
	}{
		// A 4-byte entry.
		{"http://evil.example/", []ThreatType{Malware}, 4},
		// An 8-byte entry, listed under two threat types, searched whole.
		{"http://phish.example/login", []ThreatType{SocialEngineering, SocialEngineeringExtendedCoverage}, 8},
		// Extended coverage alone.
		{"http://maybe.example/", []ThreatType{SocialEngineeringExtendedCoverage}, 4},
		// On no list: no search.
		{"http://good.example/", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			before := len(s.prefixes())
			v, err := c.Lookup(bg, tt.url)
			if err != nil {
				t.Fatal(err)
			}
			var got []ThreatType
			for _, th := range v.Threats {
				got = append(got, th.Type)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("threats %v, want %v", got, tt.want)
			}
			ps := s.prefixes()[before:]
			if tt.searched == 0 {
				if len(ps) != 0 {
					t.Errorf("searched %x", ps)
				}
				return
			}
			if len(ps) != 1 || len(ps[0]) != tt.searched {
				t.Errorf("searched %x, want one prefix of %d bytes", ps, tt.searched)
			}
			q := s.lastQuery()
			if got := q["threatTypes"]; !slices.Equal(got, []string{"MALWARE", "SOCIAL_ENGINEERING", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}) {
				t.Errorf("threatTypes %q, want the lists'", got)
			}
		})
	}
	if st := c.Stats(); st.Updates != 3 || st.Searches != 3 || st.LocalMisses != 1 {
		t.Errorf("Stats %+v: want 3 updates, 3 searches, 1 local miss", st)
	}
}

// TestWebRiskWholeEntry (decision w1): an entry matches a hash only on its whole
// length, and the shortest entry of any list that matches is the one
// searched and cached.
func TestWebRiskWholeEntry(t *testing.T) {
	s := newWRServer(t)
	h := hashOf("evil.example/")
	other := h
	other[6] ^= 1 // shares the first 6 bytes only
	s.set("MALWARE", other[:8])
	s.set("SOCIAL_ENGINEERING", h[:16])
	s.listFull("evil.example/", v4wire.WebRiskSocialEngineering)
	c, _ := newWRClient(t, s, Config{})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	v, err := c.Lookup(bg, "http://evil.example/")
	if err != nil || !v.Unsafe() {
		t.Fatalf("Lookup = %v, %v; want unsafe", v, err)
	}
	if ps := s.prefixes(); len(ps) != 1 || !bytes.Equal(ps[0], h[:16]) {
		t.Errorf("searched %x, want the 16-byte entry %x", ps, h[:16])
	}
	// Cached under the 16-byte prefix: no search.
	if _, err := c.Lookup(bg, "http://evil.example/"); err != nil || len(s.prefixes()) != 1 {
		t.Errorf("second Lookup: %v, %d searches", err, len(s.prefixes()))
	}
	if e := c.cache.getPrefix(c.now(), h[:16]); e == nil {
		t.Error("no cache entry for the 16-byte prefix")
	}
	if e := c.cache.getPrefix(c.now(), h[:4]); e != nil {
		t.Error("a cache entry for the 4-byte prefix, which was not searched")
	}

	// A 4-byte entry of another list covers the hash too: the shorter one
	// is searched, once for both lists.
	s.set("UNWANTED_SOFTWARE", h[:4])
	s.listFull("evil.example/", v4wire.WebRiskSocialEngineering, v4wire.WebRiskUnwantedSoftware)
	c2, _ := newWRClient(t, s, Config{})
	if err := c2.Update(bg); err != nil {
		t.Fatal(err)
	}
	v, err = c2.Lookup(bg, "http://evil.example/")
	if err != nil || len(v.Threats) != 2 {
		t.Fatalf("Lookup = %v, %v; want two threats", v, err)
	}
	if ps := s.prefixes(); len(ps) != 2 || !bytes.Equal(ps[1], h[:4]) {
		t.Errorf("searched %x, want the 4-byte entry last", ps)
	}
}

// TestWebRiskSearchCache (decision w2): a search's answer is cached under the prefix
// sent until the earliest of its negativeExpireTime and its full hashes'
// expireTime, within MaxCacheDuration.
func TestWebRiskSearchCache(t *testing.T) {
	tests := []struct {
		name     string
		expire   time.Duration // of the listed full hash; 0: absent
		negative time.Duration // 0: absent
		listed   bool          // the URL's full hash is listed
		want     time.Duration // how long the answer is cached
	}{
		// A listed hash: until the earlier of the two.
		{"positive first", 2 * time.Minute, 5 * time.Minute, true, 2 * time.Minute},
		{"negative first", 10 * time.Minute, 5 * time.Minute, true, 5 * time.Minute},
		// No full hash: until negativeExpireTime.
		{"negative", 0, 5 * time.Minute, false, 5 * time.Minute},
		// No negativeExpireTime, or no expireTime: not cached.
		{"no negative", 10 * time.Minute, 0, true, 0},
		{"no expire", 0, 5 * time.Minute, true, 0},
		// In the past: not cached.
		{"past", -time.Minute, 5 * time.Minute, true, 0},
		// Far ahead: a day at most.
		{"far", 72 * time.Hour, 72 * time.Hour, true, MaxCacheDuration},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWRServer(t)
			s.expire, s.negative = tt.expire, tt.negative
			h := hashOf("evil.example/")
			s.set("MALWARE", h[:4])
			if tt.listed {
				s.listFull("evil.example/", v4wire.WebRiskMalware)
			}
			c, clk := newWRClient(t, s, Config{Mode: NoStorage})
			v, err := c.Lookup(bg, "http://evil.example/")
			if err != nil || v.Unsafe() != tt.listed {
				t.Fatalf("Lookup = %v, %v; want unsafe %v", v, err, tt.listed)
			}
			searches := c.Stats().Searches
			if tt.want > 0 {
				clk.advance(tt.want - time.Second)
				if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || v.Unsafe() != tt.listed || c.Stats().Searches != searches {
					t.Errorf("before %v: %v, %v, %d searches; want the cache's answer", tt.want, v, err, c.Stats().Searches-searches)
				}
				clk.advance(time.Second)
			}
			if _, err := c.Lookup(bg, "http://evil.example/"); err != nil || c.Stats().Searches != searches+1 {
				t.Errorf("after %v: %v, %d searches; want one more", tt.want, err, c.Stats().Searches-searches)
			}
		})
	}
}

// TestWebRiskSearchReply (decision w3): what a hashes:search reply may hold and what
// the client keeps of it.
func TestWebRiskSearchReply(t *testing.T) {
	h := hashOf("evil.example/")
	stranger := hashOf("other.example/")
	ts := "2026-11-23T10:05:00Z"
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	tests := []struct {
		name    string
		body    string
		want    []ThreatType
		wantErr error
	}{
		// Known types asked: kept in the server's order.
		{"types", `{"threats":[{"threatTypes":["UNWANTED_SOFTWARE","MALWARE"],"hash":"` + b64(h[:]) + `","expireTime":"` + ts + `"}],"negativeExpireTime":"` + ts + `"}`,
			[]ThreatType{UnwantedSoftware, Malware}, nil},
		// A type the client did not ask (extended coverage), and one the
		// package does not know: dropped.
		{"not asked", `{"threats":[{"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE",9,"MALWARE"],"hash":"` + b64(h[:]) + `","expireTime":"` + ts + `"}]}`,
			[]ThreatType{Malware}, nil},
		// The same hash twice, a type repeated: one threat a type.
		{"repeated", `{"threats":[{"threatTypes":["MALWARE","MALWARE"],"hash":"` + b64(h[:]) + `"},{"threatTypes":["MALWARE","UNWANTED_SOFTWARE"],"hash":"` + b64(h[:]) + `"}]}`,
			[]ThreatType{Malware, UnwantedSoftware}, nil},
		// A full hash that does not start with the prefix: dropped.
		{"stranger", `{"threats":[{"threatTypes":["MALWARE"],"hash":"` + b64(stranger[:]) + `"}]}`, nil, nil},
		// A hash that is not 32 bytes, a field of the wrong type: corrupt.
		{"short hash", `{"threats":[{"threatTypes":["MALWARE"],"hash":"` + b64(h[:8]) + `"}]}`, nil, ErrCorruptReply},
		{"not JSON", `{"threats":`, nil, ErrCorruptReply},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWRServer(t)
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(tt.body))
			}
			c, _ := newWRClient(t, s, Config{Mode: NoStorage, Lists: []string{"MALWARE", "UNWANTED_SOFTWARE"}})
			v, err := c.Lookup(bg, "http://evil.example/")
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Lookup error %v, want %v", err, tt.wantErr)
			}
			var got []ThreatType
			for _, th := range v.Threats {
				got = append(got, th.Type)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("threats %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWebRiskNoStorage: NoStorage searches each distinct 4-byte prefix
// of every expression, one request each, under the v4 host rule, and the
// cache answers them next.
func TestWebRiskNoStorage(t *testing.T) {
	s := newWRServer(t)
	s.listFull("a.b.example.com/1/", v4wire.WebRiskMalware)
	c, _ := newWRClient(t, s, Config{Mode: NoStorage})
	v, err := c.Lookup(bg, benchURL)
	if err != nil || !v.Unsafe() || v.Threats[0].Expression != "a.b.example.com/1/" {
		t.Fatalf("Lookup = %v, %v", v, err)
	}
	hashes, _ := safebrowse.HostsV4.Hashes(benchURL)
	want := map[string]bool{}
	for _, h := range hashes {
		want[string(h[:4])] = true
	}
	got := map[string]bool{}
	for _, p := range s.prefixes() {
		if len(p) != 4 {
			t.Errorf("searched %x, want 4 bytes", p)
		}
		got[string(p)] = true
	}
	if len(got) != len(want) || len(s.prefixes()) != len(want) {
		t.Errorf("%d searches of %d prefixes, want one for each of the %d", len(s.prefixes()), len(got), len(want))
	}
	if _, err := c.Lookup(bg, benchURL); err != nil || len(s.prefixes()) != len(want) {
		t.Errorf("second Lookup: %v, %d searches", err, len(s.prefixes()))
	}
	// The v4 host rule: "co.uk" is looked up, as Web Risk's URL rules say.
	if ex := expressionsOf(t, c, "http://example.co.uk/"); !slices.Contains(ex, "co.uk/") {
		t.Errorf("expressions %q, want co.uk/ among them", ex)
	}
}

// expressionsOf returns the expressions a client hashes for rawURL.
func expressionsOf(t *testing.T, c *Client, rawURL string) []string {
	t.Helper()
	var exprs [safebrowse.MaxExpressions]string
	hashes, err := c.hosts.Hashes(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	expressions(&exprs, rawURL, len(hashes), c.hosts)
	return exprs[:len(hashes)]
}

// TestWebRiskConstraint (decision w6): maxDatabaseEntries and maxDiffEntries are sent
// only when Config.MaxDatabaseEntries is set, as the power of two at or
// below it within 2^10 to 2^20, and a reply over it is refused.
func TestWebRiskConstraint(t *testing.T) {
	tests := []struct {
		in   int
		want string // sent; "" for none
	}{
		// Not set: nothing sent.
		{0, ""},
		// Below 2^10: the least Web Risk takes.
		{500, "1024"},
		// A power of two, and between two.
		{1024, "1024"},
		{100_000, "65536"},
		// 2^20 and above: the most Web Risk takes.
		{1 << 20, "1048576"},
		{5_000_000, "1048576"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			s := newWRServer(t)
			c, _ := newWRClient(t, s, Config{MaxDatabaseEntries: tt.in, Lists: []string{"MALWARE"}})
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			q := s.lastQuery()
			for _, p := range []string{"constraints.maxDatabaseEntries", "constraints.maxDiffEntries"} {
				if got := q.Get(p); got != tt.want {
					t.Errorf("%s=%q, want %q", p, got, tt.want)
				}
			}
		})
	}

	// A reply of 1025 entries to a client that asked for 1024 at most:
	// refused, and the old list answers.
	s := newWRServer(t)
	var entries [][]byte
	for i := range 1024 {
		h := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		entries = append(entries, h[:4])
	}
	evil := hashOf("evil.example/")
	entries[0] = evil[:4]
	s.set("MALWARE", entries...)
	s.listFull("evil.example/", v4wire.WebRiskMalware)
	s.next = time.Second
	c, clk := newWRClient(t, s, Config{MaxDatabaseEntries: 1500, Lists: []string{"MALWARE"}})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte("one more"))
	s.set("MALWARE", append(entries, h[:4])...)
	clk.advance(time.Second)
	err := c.Update(bg)
	if err == nil || !errors.Is(err, hashlist.ErrCorrupt) {
		t.Fatalf("Update over the bound = %v, want ErrCorrupt", err)
	}
	if l := c.Lists()[0]; l.Entries != 1024 || l.Err == nil {
		t.Errorf("list %+v, want the old 1024 entries and the error", l)
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("the old list does not answer: %v, %v", v, err)
	}
}

// TestWebRiskNextDiff (decision w4): recommendedNextDiff sets when a list is next due,
// within a second and a day of now; absent, 30 minutes, jittered.
func TestWebRiskNextDiff(t *testing.T) {
	tests := []struct {
		name string
		next time.Duration // from the reply; 0: absent
		rand float64
		want time.Duration
	}{
		// Absent: 30 minutes, give or take 30 seconds.
		{"absent", 0, 0.5, 30 * time.Minute},
		{"absent, early", 0, 0, 30*time.Minute - 30*time.Second},
		{"absent, late", 0, 0.999, 30*time.Minute + 29*time.Second + 940*time.Millisecond},
		// As recommended.
		{"an hour", time.Hour, 0.5, time.Hour},
		// A hostile time in the past makes no tight loop.
		{"past", -time.Hour, 0.5, time.Second},
		{"now", -1, 0.5, time.Second},
		// Nor does one far ahead stop the updates.
		{"far", 30 * 24 * time.Hour, 0.5, 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWRServer(t)
			s.next = tt.next
			c, clk := newWRClient(t, s, Config{Lists: []string{"MALWARE"}})
			c.rand = func() float64 { return tt.rand }
			start := clk.now()
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			got := c.Lists()[0].Next.Sub(start)
			if d := got - tt.want; d < -10*time.Millisecond || d > 10*time.Millisecond {
				t.Errorf("next in %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWebRiskDiff: a DIFF with removals and 8-byte entries applies, the
// version token goes back, and a checksum mismatch keeps the old list
// answering and refetches it from an empty token, which resets it.
func TestWebRiskDiff(t *testing.T) {
	for _, form := range []struct{ rice, json bool }{{true, false}, {false, false}, {true, true}, {false, true}} {
		t.Run(fmt.Sprintf("rice=%v,json=%v", form.rice, form.json), func(t *testing.T) {
			s := newWRServer(t)
			s.rice, s.json = form.rice, form.json
			s.next = time.Minute
			a, b, evil := hashOf("a.example/"), hashOf("b.example/"), hashOf("evil.example/")
			s.set("MALWARE", a[:4], b[:8])
			s.listFull("evil.example/", v4wire.WebRiskMalware)
			c, clk := newWRClient(t, s, Config{Lists: []string{"MALWARE"}})
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			// A DIFF: a.example's entry goes, evil.example's 8-byte one comes.
			s.set("MALWARE", b[:8], evil[:8])
			clk.advance(time.Minute)
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			if got := s.lastQuery().Get("versionToken"); got != base64.URLEncoding.EncodeToString([]byte("1")) {
				t.Errorf("versionToken %q, want version 1", got)
			}
			snap, _ := c.ListSnapshot("MALWARE")
			if want := [][]byte{b[:8], evil[:8]}; !slices.EqualFunc(slices.Collect(snap.Entries()), sortedBytes(want), bytes.Equal) {
				t.Errorf("entries %x, want %x", slices.Collect(snap.Entries()), want)
			}
			if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
				t.Errorf("Lookup after the DIFF = %v, %v", v, err)
			}

			// A wrong checksum: the old list answers, and the next fetch
			// sends no version.
			s.set("MALWARE", evil[:8])
			s.inject(wrFault{Method: "computeDiff", BadChecksum: true, Times: 1})
			clk.advance(time.Minute)
			err := c.Update(bg)
			if !errors.Is(err, hashlist.ErrChecksum) {
				t.Fatalf("Update = %v, want ErrChecksum", err)
			}
			if l := c.Lists()[0]; l.Entries != 2 || !errors.Is(l.Err, hashlist.ErrChecksum) || !l.Next.Equal(clk.now().Add(time.Minute)) {
				t.Errorf("list %+v: want the old 2 entries, ErrChecksum, due in a minute", l)
			}
			if bo := c.Backoff(); !bo.UpdateUntil.IsZero() {
				t.Errorf("a checksum mismatch backs off: %+v", bo)
			}
			clk.advance(time.Minute)
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			if q := s.lastQuery(); q.Has("versionToken") {
				t.Errorf("versionToken %q after a mismatch, want none", q.Get("versionToken"))
			}
			if l := c.Lists()[0]; l.Entries != 1 || l.Err != nil {
				t.Errorf("list %+v after the refetch, want 1 entry", l)
			}
		})
	}
}

func sortedBytes(b [][]byte) [][]byte {
	s := slices.Clone(b)
	slices.SortFunc(s, bytes.Compare)
	return s
}

// TestWebRiskUpdateFailures (decision w5): a failed update leaves the old lists
// answering and backs off; a list the server refuses (a 4xx) fails alone
// and drops its version, while a server or network failure stops the
// round.
func TestWebRiskUpdateFailures(t *testing.T) {
	s := newWRServer(t)
	evil := hashOf("evil.example/")
	s.set("MALWARE", evil[:4])
	s.listFull("evil.example/", v4wire.WebRiskMalware)
	c, clk := newWRClient(t, s, Config{})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	clk.advance(time.Hour)

	// A 503 for the first list: the round stops, the updates back off.
	before := s.count("computeDiff")
	s.inject(wrFault{Method: "computeDiff", Status: 503, Times: 1})
	var se *StatusError
	if err := c.Update(bg); !errors.As(err, &se) || se.StatusCode != 503 || se.Method != methodDiff {
		t.Fatalf("Update = %v, want a 503 of %s", err, methodDiff)
	}
	if n := s.count("computeDiff") - before; n != 1 {
		t.Errorf("%d requests after a 503, want 1", n)
	}
	if bo := c.Backoff(); bo.UpdateUntil.IsZero() {
		t.Error("no back-off after a 503")
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("the old list does not answer: %v, %v", v, err)
	}

	// After the back-off, a 400 for the first list: the others go on,
	// and the first loses its version.
	clk.advance(MaxBackoff)
	before = s.count("computeDiff")
	s.inject(wrFault{Method: "computeDiff", Status: 400, Times: 1})
	if err := c.Update(bg); !errors.As(err, &se) || se.StatusCode != 400 {
		t.Fatalf("Update = %v, want a 400", err)
	}
	if n := s.count("computeDiff") - before; n != 3 {
		t.Errorf("%d requests after a 400, want 3", n)
	}
	if !c.lists[0].whole || c.lists[1].whole {
		t.Error("want MALWARE alone to be fetched whole next")
	}
}

// TestWebRiskExtendedCoverage: extended coverage is a threat type of its
// own, outside v5's numbers; a v5 reply's detail of v5's 4 is still
// PotentiallyHarmfulApplication, and one of the extended coverage's
// number is ignored, as any number v5 lacks.
func TestWebRiskExtendedCoverage(t *testing.T) {
	if SocialEngineeringExtendedCoverage.String() != "SOCIAL_ENGINEERING_EXTENDED_COVERAGE" {
		t.Errorf("String() = %q", SocialEngineeringExtendedCoverage.String())
	}
	for _, v5 := range []ThreatType{Malware, SocialEngineering, UnwantedSoftware, PotentiallyHarmfulApplication} {
		if SocialEngineeringExtendedCoverage == v5 {
			t.Errorf("extended coverage is v5's %v", v5)
		}
	}
	if SocialEngineeringExtendedCoverage.Valid() {
		t.Error("extended coverage is a valid v5 type")
	}
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(PotentiallyHarmfulApplication), detailMsg(SocialEngineeringExtendedCoverage))
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
	v, err := c.Lookup(bg, "http://evil.example/")
	if err != nil || len(v.Threats) != 1 || v.Threats[0].Type != PotentiallyHarmfulApplication {
		t.Errorf("v5 Lookup = %v, %v; want POTENTIALLY_HARMFUL_APPLICATION alone", v, err)
	}
}

// TestSearchBudget (decision w8): past Config.MaxSearchesPerMinute, a search is not
// sent and its lookup fails with ErrSearchBudget, never safe; the count
// shows in Stats; a minute later searches go again. Under v5 too.
func TestSearchBudget(t *testing.T) {
	for _, api := range []API{WebRisk, SafeBrowsing} {
		t.Run(api.String(), func(t *testing.T) {
			var c *Client
			var clk *fakeClock
			if api == WebRisk {
				s := newWRServer(t)
				s.listFull("a.b.example.com/1/", v4wire.WebRiskMalware)
				c, clk = newWRClient(t, s, Config{Mode: NoStorage, MaxSearchesPerMinute: 5})
			} else {
				s := newTestServer(t)
				s.add("a.b.example.com/1/", detailMsg(Malware))
				c, clk = newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage, MaxSearchesPerMinute: 1})
			}
			c.Lookup(bg, "http://budget.example/") // spends one
			clk.advance(30 * time.Second)
			// benchURL needs 12 prefixes: 12 searches under Web Risk, 1
			// under v5.
			// (The verdict holds what the searches that went found.)
			if v, err := c.Lookup(bg, benchURL); !errors.Is(err, ErrSearchBudget) {
				t.Fatalf("Lookup = %v, %v; want ErrSearchBudget", v, err)
			}
			st := c.Stats()
			if st.SearchesOverBudget == 0 || st.Errors != 1 {
				t.Errorf("Stats %+v: want searches over budget and one error", st)
			}
			sent := st.Searches
			// Within the same minute: nothing goes.
			if _, err := c.Lookup(bg, "http://budget2.example/"); !errors.Is(err, ErrSearchBudget) || c.Stats().Searches != sent {
				t.Errorf("Lookup = %v, %d searches; want ErrSearchBudget and none", err, c.Stats().Searches-sent)
			}
			// A minute after the first: the window has room for one.
			clk.advance(31 * time.Second)
			if _, err := c.Lookup(bg, "http://fresh.example/"); err != nil || c.Stats().Searches != sent+1 {
				t.Errorf("Lookup a minute on = %v, %d searches; want no error and one", err, c.Stats().Searches-sent)
			}
		})
	}
}

// TestBudgetWindow (decision w8): the budget counts exactly the requests of the last
// minute, whatever their spacing.
func TestBudgetWindow(t *testing.T) {
	b := newBudget(3)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		at time.Duration
		ok bool
	}{
		{0, true}, {10 * time.Second, true}, {20 * time.Second, true},
		// The fourth within the minute of the first.
		{30 * time.Second, false},
		{59*time.Second + 999*time.Millisecond, false},
		// The first is a minute old: room for one.
		{60 * time.Second, true},
		{61 * time.Second, false},
		// The second and third are a minute old.
		{80 * time.Second, true},
		{80 * time.Second, true},
		{80 * time.Second, false},
	}
	for i, st := range steps {
		err := b.take(t0.Add(st.at))
		if (err == nil) != st.ok || (err != nil && !errors.Is(err, ErrSearchBudget)) {
			t.Errorf("step %d at %v: %v, want ok %v", i, st.at, err, st.ok)
		}
	}
	if len(b.times)-b.head != 3 {
		t.Errorf("%d times held, want 3", len(b.times)-b.head)
	}
	// A nil budget takes all.
	var nb *budget
	if err := nb.take(t0); err != nil {
		t.Error(err)
	}
}

// TestWebRiskCoalesce: N concurrent lookups of one listed URL send one
// search; the others join it.
func TestWebRiskCoalesce(t *testing.T) {
	const n = 64
	s := newWRServer(t)
	evil := hashOf("evil.example/")
	s.set("MALWARE", evil[:4])
	s.listFull("evil.example/", v4wire.WebRiskMalware)
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	c, _ := newWRClient(t, s, Config{Lists: []string{"MALWARE"}})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		s.mu.Lock()
		req, _ := v4wire.ParseSearchHashesRequestQuery(r.URL.Query())
		m := s.searchLocked(req, s.now())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(v4wire.AppendSearchHashesResponseJSON(nil, &m))
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Lookup(bg, "http://evil.example/")
			if err == nil && !v.Unsafe() {
				err = errors.New("safe")
			}
			errs <- err
		}()
	}
	<-arrived
	waitFor(t, "every lookup joined the search in flight", func() bool { return c.Stats().Coalesced == n-1 })
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := c.Stats()
	t.Logf("%d concurrent lookups of one URL: %d search, %d coalesced", n, st.Searches, st.Coalesced)
	if st.Searches != 1 || st.Coalesced != n-1 {
		t.Errorf("Stats %+v: want 1 search and %d coalesced", st, n-1)
	}
}

// TestWebRiskDir: Web Risk lists are saved to Dir as {name}.wrlist and
// loaded again; v5 and Web Risk clients share a Dir without meeting.
func TestWebRiskDir(t *testing.T) {
	dir := t.TempDir()
	s := newWRServer(t)
	evil := hashOf("evil.example/")
	s.set("MALWARE", evil[:8])
	s.listFull("evil.example/", v4wire.WebRiskMalware)
	c, _ := newWRClient(t, s, Config{Dir: dir})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	v5 := newTestServer(t)
	v5.lists["se-4b"] = func(string) []byte { return listOf(t, "se-4b", "1", 0) }
	cv5, _ := newTestClient(t, Config{BaseURL: v5.URL, Dir: dir, Lists: []string{"se-4b"}})
	if err := cv5.Update(bg); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"MALWARE.wrlist", "SOCIAL_ENGINEERING.wrlist", "UNWANTED_SOFTWARE.wrlist", "se-4b.sblist"}
	if !slices.Equal(names, want) {
		t.Errorf("Dir holds %q, want %q", names, want)
	}
	// A new client answers from Dir, frozen, with no list request.
	before := s.count("computeDiff")
	f, _ := newWRClient(t, s, Config{Dir: dir, Frozen: true})
	if err := f.Ready(bg); err != nil {
		t.Fatal(err)
	}
	if v, err := f.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("Lookup from Dir = %v, %v", v, err)
	}
	if s.count("computeDiff") != before {
		t.Error("a frozen client fetched lists")
	}
	// A v5 file renamed to a Web Risk list's name is discarded.
	data, _ := os.ReadFile(filepath.Join(dir, "se-4b.sblist"))
	os.WriteFile(filepath.Join(dir, "MALWARE.wrlist"), data, 0o644)
	g, _ := newWRClient(t, s, Config{Dir: dir})
	if g.lists[0].loaded.Load() {
		t.Error("a v5 file loaded as MALWARE")
	}
}

// TestWebRiskListSnapshot: a Web Risk list's snapshot holds its entries
// of every length in byte order, with their lengths and the list's
// checksum.
func TestWebRiskListSnapshot(t *testing.T) {
	s := newWRServer(t)
	a, b, d := hashOf("a.example/"), hashOf("b.example/"), hashOf("d.example/")
	entries := [][]byte{a[:4], b[:8], d[:32]}
	s.set("MALWARE", entries...)
	c, _ := newWRClient(t, s, Config{})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	snap, ok := c.ListSnapshot("MALWARE")
	if !ok || !snap.Loaded || snap.Width != 0 || snap.Len() != 3 || string(snap.Version) != "1" {
		t.Fatalf("snapshot %+v", snap)
	}
	sorted := sortedBytes(entries)
	if got := slices.Collect(snap.Entries()); !slices.EqualFunc(got, sorted, bytes.Equal) {
		t.Errorf("entries %x, want %x", got, sorted)
	}
	var lengths []uint8
	for _, e := range sorted {
		lengths = append(lengths, uint8(len(e)))
	}
	if !slices.Equal(snap.Lengths, lengths) || !bytes.Equal(snap.Hashes, bytes.Join(sorted, nil)) {
		t.Errorf("Hashes %x, Lengths %v", snap.Hashes, snap.Lengths)
	}
	if snap.Checksum != sha256.Sum256(bytes.Join(sorted, nil)) || snap.Checksum != c.lists[0].set.Checksum() {
		t.Error("Checksum is not the list's")
	}
	// A v5 snapshot keeps its shape.
	v5 := newTestServer(t)
	v5.lists["se-4b"] = func(string) []byte { return listOf(t, "se-4b", "1", 0, "a.example/", "b.example/", "c.example/") }
	cv5, _ := newTestClient(t, Config{BaseURL: v5.URL, Lists: []string{"se-4b"}})
	if err := cv5.Update(bg); err != nil {
		t.Fatal(err)
	}
	sv5, _ := cv5.ListSnapshot("se-4b")
	if sv5.Width != 4 || sv5.Lengths != nil || sv5.Len() != 3 || len(slices.Collect(sv5.Entries())) != 3 {
		t.Errorf("v5 snapshot %+v", sv5)
	}
}

// TestSearchHashPrefixes: the one search for others takes prefixes of 4
// to 32 bytes under Web Risk, 4 under v5; it reads and fills the cache
// the lookups use, and coalesces with them.
func TestSearchHashPrefixes(t *testing.T) {
	s := newWRServer(t)
	s.listFull("evil.example/", v4wire.WebRiskMalware)
	c, _ := newWRClient(t, s, Config{})
	h := hashOf("evil.example/")
	res, err := c.SearchHashPrefixes(bg, [][]byte{h[:8], h[:4], h[:8]})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || len(s.prefixes()) != 2 {
		t.Fatalf("%d results from %d searches, want 3 from 2", len(res), len(s.prefixes()))
	}
	for i, want := range [][]byte{h[:8], h[:4], h[:8]} {
		r := res[i]
		if !bytes.Equal(r.HashPrefix, want) || r.Prefix != [4]byte(h[:4]) || len(r.FullHashes) != 1 ||
			r.FullHashes[0].Hash != h || r.FullHashes[0].Details[0].Type != Malware || r.Origin != OriginSearch {
			t.Errorf("result %d: %+v", i, r)
		}
		if !r.Expires.Equal(c.now().Add(5 * time.Minute)) {
			t.Errorf("result %d expires %v, want the negativeExpireTime", i, r.Expires)
		}
	}
	res[0].HashPrefix[0] ^= 1 // the caller's own
	// From the cache now, as a lookup finds it too.
	res, err = c.SearchHashPrefixes(bg, [][]byte{h[:8]})
	if err != nil || res[0].Origin != OriginCache || len(s.prefixes()) != 2 {
		t.Errorf("second search: %+v, %v, %d searches", res, err, len(s.prefixes()))
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err == nil {
		t.Errorf("Lookup before the lists loaded = %v, want ErrNotReady", v)
	}
	// Lengths.
	for _, p := range [][]byte{h[:3], append(h[:], 0)} {
		if _, err := c.SearchHashPrefixes(bg, [][]byte{p}); err == nil {
			t.Errorf("a prefix of %d bytes: no error", len(p))
		}
	}
	v5, _ := newTestClient(t, Config{BaseURL: newTestServer(t).URL, Mode: NoStorage})
	if _, err := v5.SearchHashPrefixes(bg, [][]byte{h[:8]}); err == nil {
		t.Error("v5 searched 8 bytes")
	}
	if _, err := c.SearchPrefixes(bg, [][4]byte{[4]byte(h[:4])}); err != nil {
		t.Errorf("SearchPrefixes under Web Risk: %v", err)
	}
	if _, err := c.SearchHashPrefixes(bg, make([][]byte, MaxSearchPrefixes+1)); err == nil {
		t.Error("more than MaxSearchPrefixes: no error")
	}
}

// TestWebRiskMask: the API key shows in no error, whatever the server
// echoes.
func TestWebRiskMask(t *testing.T) {
	s := newWRServer(t)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		wrError(w, http.StatusForbidden, "key "+r.URL.Query().Get("key")+" refused for "+r.URL.String())
	}
	c, _ := newWRClient(t, s, Config{})
	var errs []error
	errs = append(errs, c.Update(bg))
	c2, _ := newWRClient(t, s, Config{Mode: NoStorage})
	_, err := c2.Lookup(bg, "http://evil.example/")
	errs = append(errs, err)
	bad, _ := newTestClient(t, Config{API: WebRisk, BaseURL: "http://127.0.0.1:1", Mode: NoStorage})
	_, err = bad.Lookup(bg, "http://evil.example/")
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		for _, f := range []string{"%v", "%+v", "%#v"} {
			if s := fmt.Sprintf(f, err); strings.Contains(s, testKey) {
				t.Errorf("the key shows in %s", s)
			}
		}
	}
}

// TestWebRiskReplyLimits: a reply over its limit is refused, by its
// Content-Length or as it is read, and counts as a failure.
func TestWebRiskReplyLimits(t *testing.T) {
	if got := webRiskListLimit(1 << 20); got != 64<<20+64<<10 {
		t.Errorf("the limit at 2^20 entries is %d", got)
	}
	if got := webRiskListLimit(DefaultMaxDatabaseEntries); got != MaxWebRiskListReply {
		t.Errorf("the limit at the default is %d", got)
	}
	big := `{"threats":[],"negativeExpireTime":"2026-11-23T10:05:00Z"` + strings.Repeat(" ", MaxWebRiskSearchReply) + `}`
	for _, length := range []bool{true, false} {
		t.Run(fmt.Sprint("Content-Length=", length), func(t *testing.T) {
			s := newWRServer(t)
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if !length {
					w.(http.Flusher).Flush() // chunked: no length
				}
				w.Write([]byte(big))
			}
			c, _ := newWRClient(t, s, Config{Mode: NoStorage})
			_, err := c.Lookup(bg, "http://evil.example/")
			if !errors.Is(err, ErrCorruptReply) {
				t.Errorf("Lookup = %v, want ErrCorruptReply", err)
			}
		})
	}
	// A list's limit follows Config.MaxDatabaseEntries.
	s := newWRServer(t)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"responseType":"RESET"` + strings.Repeat(" ", int(webRiskListLimit(1024))) + `}`))
	}
	c, _ := newWRClient(t, s, Config{MaxDatabaseEntries: 1024, Lists: []string{"MALWARE"}})
	if err := c.Update(bg); !errors.Is(err, ErrCorruptReply) {
		t.Errorf("Update = %v, want ErrCorruptReply", err)
	}
}

// TestWebRiskCorruptDiff: a computeDiff reply that is not a diff fails
// the update, backs off and drops the version; the old list answers.
func TestWebRiskCorruptDiff(t *testing.T) {
	tests := []struct{ name, body string }{
		// Not JSON, and JSON of the wrong shape.
		{"garbage", `{"responseType":`},
		{"wrong type", `{"responseType":"RESET","newVersionToken":7}`},
		// No response type.
		{"unspecified", `{"newVersionToken":"Mg=="}`},
		// A version token too long to send back.
		{"long token", `{"responseType":"RESET","newVersionToken":"` + base64.StdEncoding.EncodeToString(make([]byte, MaxVersion+1)) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWRServer(t)
			evil := hashOf("evil.example/")
			s.set("MALWARE", evil[:4])
			s.listFull("evil.example/", v4wire.WebRiskMalware)
			c, clk := newWRClient(t, s, Config{Lists: []string{"MALWARE"}})
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "computeDiff") {
					w.Header().Set("Content-Type", "application/json")
					w.Write([]byte(tt.body))
					return
				}
				s.mu.Lock()
				req, _ := v4wire.ParseSearchHashesRequestQuery(r.URL.Query())
				m := s.searchLocked(req, s.now())
				s.mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.Write(v4wire.AppendSearchHashesResponseJSON(nil, &m))
			}
			s.mu.Unlock()
			clk.advance(time.Hour)
			if err := c.Update(bg); !errors.Is(err, ErrCorruptReply) {
				t.Errorf("Update = %v, want ErrCorruptReply", err)
			}
			if c.Backoff().UpdateUntil.IsZero() || !c.lists[0].whole {
				t.Error("no back-off, or the version kept")
			}
			if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
				t.Errorf("the old list does not answer: %v, %v", v, err)
			}
		})
	}
}

// TestWebRiskMirrorSource: a mirror's source under Web Risk keeps all
// four lists, and HashLists, which Web Risk lacks, is an error.
func TestWebRiskMirrorSource(t *testing.T) {
	c, err := NewMirrorSource(Config{APIKey: testKey, API: WebRisk})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var names []string
	for _, l := range c.Lists() {
		names = append(names, l.Name)
	}
	if want := []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}; !slices.Equal(names, want) {
		t.Errorf("lists %q, want %q", names, want)
	}
	if _, err := c.HashLists(context.Background()); err == nil {
		t.Error("HashLists under Web Risk: no error")
	}
	if _, err := NewMirrorSource(Config{APIKey: testKey, API: WebRisk, Mode: RealTime}); err == nil {
		t.Error("a RealTime Web Risk source: no error")
	}
}
