// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// listOf returns a list reply: a full update holding the prefixes (of the
// list's width) of the hashes of exprs, with version v and minimum wait w.
func listOf(t testing.TB, name, v string, w time.Duration, exprs ...string) []byte {
	t.Helper()
	width, err := safebrowse.ListPrefixLen(name)
	if err != nil {
		t.Fatal(err)
	}
	var add []byte
	for _, e := range exprs {
		h := hashOf(e)
		add = append(add, h[:width]...)
	}
	sum := hashlist.Checksum(add, int(width))
	m := hashlist.Message{Name: name, Version: []byte(v), Additions: add, MinimumWait: w, Checksum: sum[:]}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serveLists makes s serve every list of names, lists[name] holding those
// expressions, each a full update with version "v1" and a minimum wait of
// 30 minutes.
func serveLists(t testing.TB, s *testServer, names []string, lists map[string][]string) {
	s.set(func(s *testServer) {
		for _, n := range names {
			msg := listOf(t, n, "v1", 30*time.Minute, lists[n]...)
			s.lists[n] = func(string) []byte { return msg }
		}
	})
}

// readyClient returns a client of mode whose lists hold lists, loaded from
// s, and its clock.
func readyClient(t testing.TB, s *testServer, mode Mode, lists map[string][]string) (*Client, *fakeClock) {
	t.Helper()
	names, _ := listNames(mode, nil)
	serveLists(t, s, names, lists)
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Mode: mode})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if !c.IsReady() {
		t.Fatal("not ready after Update")
	}
	return c, clk
}

// short describes a verdict's threats as "TYPE expression [ATTRS]".
func short(v Verdict) []string {
	var out []string
	for _, t := range v.Threats {
		s := t.Type.String() + " " + t.Expression
		for _, a := range t.Attributes {
			s += " " + a.String()
		}
		out = append(out, s)
	}
	return out
}

// TestLocalListProcedure checks each step of the Local List procedure.
func TestLocalListProcedure(t *testing.T) {
	tests := []struct {
		name     string
		lists    map[string][]string // local lists
		full     map[string][][]byte // the server's full hashes: expression -> details
		in       string              // the URL
		want     []string            // short(verdict)
		unsafe   bool                // Verdict.Unsafe
		searches int                 // hashes:search requests
		prefixes int                 // prefixes sent
	}{
		// Step 2: no local list holds a prefix: safe, with no request.
		{name: "step 2: no local list holds a prefix: safe, no request",
			lists: map[string][]string{"se-4b": {"evil.example/"}},
			full:  map[string][][]byte{"evil.example/": {detailMsg(SocialEngineering)}},
			in:    "http://good.example/page", want: nil, searches: 0},
		// Steps 3 and 4: a listed prefix whose full hash the server lists.
		{name: "step 4: the server lists the full hash: unsafe",
			lists: map[string][]string{"se-4b": {"evil.example/"}},
			full:  map[string][][]byte{"evil.example/": {detailMsg(SocialEngineering)}},
			in:    "http://evil.example/", want: []string{"SOCIAL_ENGINEERING evil.example/"}, unsafe: true, searches: 1, prefixes: 1},
		// Step 3 sends only the prefixes a local list holds.
		{name: "step 3: only the listed prefixes are sent",
			lists: map[string][]string{"mw-4b": {"evil.example/"}},
			full:  map[string][][]byte{"evil.example/": {detailMsg(Malware)}},
			in:    "http://a.b.evil.example/1/2.html?q=1", want: []string{"MALWARE evil.example/"}, unsafe: true, searches: 1, prefixes: 1},
		// Step 4: a listed prefix whose full hash the server does not list.
		{name: "step 4: a prefix match without a full hash match: safe",
			lists: map[string][]string{"se-4b": {"evil.example/"}},
			full:  map[string][][]byte{},
			in:    "http://evil.example/", want: nil, searches: 1, prefixes: 1},
		// Threats come in expression order, one per expression and detail.
		{name: "threats in expression order, one per valid detail",
			lists: map[string][]string{"se-4b": {"evil.example/"}, "mw-4b": {"a.evil.example/x"}},
			full: map[string][][]byte{
				"evil.example/":    {detailMsg(SocialEngineering), detailMsg(Malware, FrameOnly)},
				"a.evil.example/x": {detailMsg(Malware)},
			},
			in:     "http://a.evil.example/x",
			want:   []string{"MALWARE a.evil.example/x", "SOCIAL_ENGINEERING evil.example/", "MALWARE evil.example/ FRAME_ONLY"},
			unsafe: true, searches: 1, prefixes: 2},
		// A detail with an unknown type is ignored whole; the rest stand.
		{name: "unknown threat type: that detail ignored",
			lists: map[string][]string{"uws-4b": {"evil.example/"}},
			full:  map[string][][]byte{"evil.example/": {detailMsg(9), detailMsg(UnwantedSoftware, ThreatAttribute(5)), detailMsg(PotentiallyHarmfulApplication)}},
			in:    "http://evil.example/", want: []string{"POTENTIALLY_HARMFUL_APPLICATION evil.example/"}, unsafe: true, searches: 1, prefixes: 1},
		// A canary threat is reported, but the URL is not Unsafe.
		{name: "canary: reported, not unsafe",
			lists: map[string][]string{"se-4b": {"evil.example/"}},
			full:  map[string][][]byte{"evil.example/": {detailMsg(SocialEngineering, Canary)}},
			in:    "http://evil.example/", want: []string{"SOCIAL_ENGINEERING evil.example/ CANARY"}, unsafe: false, searches: 1, prefixes: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			for e, d := range tt.full {
				s.add(e, d...)
			}
			c, _ := readyClient(t, s, LocalList, tt.lists)
			v, err := c.Lookup(bg, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := short(v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("threats = %q, want %q", got, tt.want)
			}
			if v.Unsafe() != tt.unsafe {
				t.Errorf("Unsafe() = %v, want %v", v.Unsafe(), tt.unsafe)
			}
			if n := s.count("hashes:search"); n != tt.searches {
				t.Errorf("%d searches, want %d", n, tt.searches)
			}
			if n := len(s.prefixes()); n != tt.prefixes {
				t.Errorf("%d prefixes sent, want %d", n, tt.prefixes)
			}
			for _, p := range s.prefixes() {
				if len(p) != 4 {
					t.Errorf("sent a prefix of %d bytes, want 4", len(p))
				}
			}
		})
	}
}

// TestCacheRules checks the rules of the cache, each in a row.
func TestCacheRules(t *testing.T) {
	lists := map[string][]string{"se-4b": {"evil.example/", "evil.example/b", "listed.example/"}}
	type step struct {
		advance  time.Duration
		in       string
		want     []string
		searches int // total so far
	}
	tests := []struct {
		name     string
		duration []byte // cache_duration of replies; nil: absent
		steps    []step
	}{
		// An unexpired entry answers without a request.
		{"an unexpired entry answers without a request", durationMsg(5 * time.Minute), []step{
			{0, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
			{4 * time.Minute, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
		}},
		// cacheDuration applies to every prefix sent, matched or not.
		{"the negative cache: unmatched prefixes are cached too", durationMsg(5 * time.Minute), []step{
			{0, "http://listed.example/", nil, 1},
			{time.Minute, "http://listed.example/", nil, 1},
		}},
		// An expired entry is deleted and asked again.
		{"an expired entry is asked again", durationMsg(5 * time.Minute), []step{
			{0, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
			{5 * time.Minute, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 2},
		}},
		// A reply without cache_duration caches nothing.
		{"no cache_duration caches nothing", nil, []step{
			{0, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
			{0, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 2},
		}},
		// A cached full hash of the URL makes it unsafe at once, with no
		// request, though another of its prefixes is listed and uncached.
		{"a cached full hash: unsafe at once, no request", durationMsg(5 * time.Minute), []step{
			{0, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
			{0, "http://evil.example/b", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
		}},
		// The server's duration is capped at 24 hours.
		{"durations capped at 24h", durationMsg(48 * time.Hour), []step{
			{0, "http://listed.example/", nil, 1},
			{24*time.Hour - time.Second, "http://listed.example/", nil, 1},
			{time.Second, "http://listed.example/", nil, 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.add("evil.example/", detailMsg(SocialEngineering))
			s.duration = tt.duration
			c, clk := readyClient(t, s, LocalList, lists)
			for i, st := range tt.steps {
				clk.advance(st.advance)
				v, err := c.Lookup(bg, st.in)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if got := short(v); !reflect.DeepEqual(got, st.want) {
					t.Errorf("step %d: threats = %q, want %q", i, got, st.want)
				}
				if n := s.count("hashes:search"); n != st.searches {
					t.Errorf("step %d: %d searches, want %d", i, n, st.searches)
				}
			}
		})
	}
}

// TestCacheBounded: a flood of distinct URLs leaves the cache at its cap,
// and expired entries are purged.
func TestCacheBounded(t *testing.T) {
	s := newTestServer(t)
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
	c.cache = newCache(64, DefaultCacheBytes)
	for i := range 500 {
		if _, err := c.Lookup(bg, fmt.Sprintf("http://h%d.example/", i)); err != nil {
			t.Fatal(err)
		}
		if n := c.cache.len(); n > 64 {
			t.Fatalf("cache holds %d entries, over its cap of 64", n)
		}
	}
	clk.advance(time.Hour)
	c.Lookup(bg, "http://last.example/")
	if n := c.cache.len(); n != 1 {
		t.Errorf("after expiry and a purge the cache holds %d entries, want 1", n)
	}
}

// TestFailuresAreNeverVerdicts: every failed search is an error, with no
// made-up threat and never "safe" with a nil error.
func TestFailuresAreNeverVerdicts(t *testing.T) {
	tests := []struct {
		name    string
		handle  http.HandlerFunc
		ctx     func() (context.Context, context.CancelFunc)
		wantErr error
	}{
		// A 503 is a StatusError carrying the status.
		{name: "503", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		}},
		// A 429 too.
		{name: "429", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "slow down", http.StatusTooManyRequests)
		}},
		// A body that is not a SearchHashesResponse.
		{name: "corrupt body", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte{0x0a, 0x40, 0x01})
		}, wantErr: ErrCorruptReply},
		// A body over the size limit.
		{name: "body over the limit", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Write(make([]byte, MaxSearchReply+1))
		}, wantErr: ErrCorruptReply},
		// A reply of HTML, as from a captive portal.
		{name: "not protobuf", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>"))
		}, wantErr: ErrCorruptReply},
		// The caller's context times out.
		{name: "timeout", handle: func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, ctx: func() (context.Context, context.CancelFunc) { return context.WithTimeout(bg, 50*time.Millisecond) },
			wantErr: context.DeadlineExceeded},
		// The caller's context is cancelled before the request.
		{name: "cancelled", handle: func(w http.ResponseWriter, r *http.Request) {},
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(bg)
				cancel()
				return ctx, cancel
			}, wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			c, _ := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/"}})
			s.set(func(s *testServer) { s.handle = tt.handle })
			ctx := bg
			if tt.ctx != nil {
				var cancel context.CancelFunc
				ctx, cancel = tt.ctx()
				defer cancel()
			}
			v, err := c.Lookup(ctx, "http://evil.example/")
			if err == nil {
				t.Fatal("nil error for a failed search")
			}
			if len(v.Threats) != 0 {
				t.Errorf("threats %v from a failed search", short(v))
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error shows the key: %v", err)
			}
		})
	}
}

// TestFailureKeepsCache: when a search fails, the Verdict holds what the
// cache knew.
func TestFailureKeepsCache(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware, Canary)) // cached, not enough to be unsafe
	c, _ := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/", "a.evil.example/"}})
	if _, err := c.Lookup(bg, "http://evil.example/"); err != nil {
		t.Fatal(err)
	}
	s.set(func(s *testServer) { s.handle = unavailable })
	// evil.example/ is cached (a canary hit is a hit), so no request.
	v, err := c.Lookup(bg, "http://a.evil.example/")
	if err != nil || !reflect.DeepEqual(short(v), []string{"MALWARE evil.example/ CANARY"}) {
		t.Errorf("got %q, %v", short(v), err)
	}
}

// TestSearchBackoff: searches back off only after three consecutive
// failures, as Chromium's v5 real-time client does; then a lookup that
// needs the server fails at once, with no request, for five minutes.
func TestSearchBackoff(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	c, clk := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/"}})
	s.set(func(s *testServer) { s.handle = unavailable })
	for i := range searchFailures {
		var se *StatusError
		if _, err := c.Lookup(bg, "http://evil.example/"); !errors.As(err, &se) || se.StatusCode != 503 {
			t.Fatalf("failure %d: err = %v, want a StatusError 503", i+1, err)
		}
	}
	s.set(func(s *testServer) { s.handle = nil })
	for _, d := range []time.Duration{0, 5*time.Minute - time.Second} {
		clk.advance(d)
		_, err := c.Lookup(bg, "http://evil.example/")
		var be *BackoffError
		if !errors.Is(err, ErrBackoff) || !errors.As(err, &be) || be.Failures != 3 {
			t.Fatalf("after %v: err = %v, want ErrBackoff after 3 failures", d, err)
		}
		var se *StatusError
		if !errors.As(err, &se) || se.StatusCode != 503 {
			t.Errorf("the back-off error lost the last failure: %v", err)
		}
	}
	if n := s.count("hashes:search"); n != 3 {
		t.Errorf("%d searches, want 3: none while backing off", n)
	}
	// A lookup the local lists answer needs no server: no error.
	if _, err := c.Lookup(bg, "http://good.example/"); err != nil {
		t.Errorf("a local answer while backing off: %v", err)
	}
	clk.advance(time.Second)
	v, err := c.Lookup(bg, "http://evil.example/")
	if err != nil || !v.Unsafe() {
		t.Errorf("after the back-off: %v, %v", short(v), err)
	}
}

// TestSearchBackoffRule checks Chromium's back-off of searches, event by
// event: three consecutive failures start a back-off of 5 minutes, which
// doubles up to 30 minutes while no request succeeds between back-offs.
func TestSearchBackoffRule(t *testing.T) {
	const (
		fail    = "fail"    // a failed request now
		succeed = "succeed" // a successful request now
		end     = "end"     // time passes until the back-off ends
	)
	tests := []struct {
		name   string
		events []string
		want   time.Duration // the back-off in force after the events; 0: none
	}{
		// One or two failures start no back-off.
		{"two failures", []string{fail, fail}, 0},
		// The third consecutive failure starts one of 5 minutes.
		{"three failures", []string{fail, fail, fail}, 5 * time.Minute},
		// A success between failures resets the count.
		{"success between", []string{fail, fail, succeed, fail, fail}, 0},
		// After a back-off ends, failures are counted afresh: one is not enough.
		{"one failure after a back-off", []string{fail, fail, fail, end, fail}, 0},
		// Three more, with no success since, double the wait.
		{"second back-off", []string{fail, fail, fail, end, fail, fail, fail}, 10 * time.Minute},
		// And again: 20 minutes.
		{"third back-off", []string{fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail}, 20 * time.Minute},
		// Then capped at 30 minutes.
		{"capped", []string{fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail}, 30 * time.Minute},
		// Still 30 minutes after that.
		{"stays capped", []string{fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail, end, fail, fail, fail}, 30 * time.Minute},
		// A success after a back-off brings the next back to 5 minutes.
		{"success after a back-off", []string{fail, fail, fail, end, fail, fail, fail, end, succeed, fail, fail, fail}, 5 * time.Minute},
		// A request that fails while backing off (sent before it began)
		// does not lengthen the back-off.
		{"failure while backing off", []string{fail, fail, fail, fail}, 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := backoff{method: methodSearch, op: searchOperator}
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			errFailed := errors.New("failed")
			start := now
			for _, e := range tt.events {
				switch e {
				case fail:
					if b.fail(now, 0.9, errFailed) {
						start = now
					}
				case succeed:
					b.reset()
				case end:
					_, until := b.state()
					now = until
				}
			}
			_, until := b.state()
			got := time.Duration(0)
			if until.After(now) {
				got = until.Sub(start)
			}
			if got != tt.want {
				t.Errorf("back-off %v, want %v", got, tt.want)
			}
			if err := b.check(now); (err != nil) != (tt.want != 0) {
				t.Errorf("check = %v, want a refusal: %v", err, tt.want != 0)
			}
		})
	}
}

// TestBackoffDelay checks the back-off rule: 15 min × 2^(n−1) × (1+rand),
// capped at 24 h.
func TestBackoffDelay(t *testing.T) {
	tests := []struct {
		name string
		n    int
		r    float64
		want time.Duration
	}{
		// The first failure, rand 0: 15 minutes.
		{"first failure, rand 0", 1, 0, 15 * time.Minute},
		// rand 0.5 lengthens by half.
		{"first failure, rand 0.5", 1, 0.5, 22*time.Minute + 30*time.Second},
		// The second doubles.
		{"second failure", 2, 0, 30 * time.Minute},
		// The sixth: 15 min × 32 × 1.5 = 12 h.
		{"sixth failure", 6, 0.5, 12 * time.Hour},
		// The seventh would be 24 h × 1.99: capped.
		{"capped at 24 h", 7, 0.99, 24 * time.Hour},
		// Far more failures stay capped, never overflow.
		{"many failures", 100, 0.99, 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoffDelay(tt.n, tt.r); got != tt.want {
				t.Errorf("backoffDelay(%d, %v) = %v, want %v", tt.n, tt.r, got, tt.want)
			}
		})
	}
}

// TestRealTimeProcedure checks the steps of the Real-Time procedure.
func TestRealTimeProcedure(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		searches int
	}{
		// Step 1: a full hash in gc-32b: the Local List procedure decides,
		// and no local list holds the prefix: safe, with no request.
		{"step 1: in the Global Cache, the local lists decide", "http://popular.example/", nil, 0},
		// Step 1 again: the local procedure finds the listed prefix.
		{"step 1: in the Global Cache and a local list", "http://popular.example/bad/", []string{"MALWARE popular.example/bad/"}, 1},
		// Step 3: not in gc-32b: every prefix goes to the server, listed or not.
		{"step 3: not in the Global Cache: searched though unlisted", "http://fresh.example/", []string{"SOCIAL_ENGINEERING fresh.example/"}, 1},
		// Step 3: and a safe answer from the server.
		{"step 3: not in the Global Cache, the server lists nothing", "http://other.example/", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.add("fresh.example/", detailMsg(SocialEngineering))
			s.add("popular.example/bad/", detailMsg(Malware))
			c, _ := readyClient(t, s, RealTime, map[string][]string{
				"gc-32b": {"popular.example/"},
				"mw-4b":  {"popular.example/bad/"},
			})
			if got := c.Lists(); got[len(got)-1].Name != GlobalCache {
				t.Errorf("RealTime lists %v lack gc-32b", got)
			}
			v, err := c.Lookup(bg, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := short(v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("threats = %q, want %q", got, tt.want)
			}
			if n := s.count("hashes:search"); n != tt.searches {
				t.Errorf("%d searches, want %d", n, tt.searches)
			}
		})
	}
}

// TestNoStorageProcedure: no lists, ready at once; step 1 the cache, step
// 2 the server.
func TestNoStorageProcedure(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
	if err := c.Ready(bg); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		v, err := c.Lookup(bg, "http://evil.example/")
		if err != nil || !reflect.DeepEqual(short(v), []string{"MALWARE evil.example/"}) {
			t.Errorf("lookup %d: %q, %v", i, short(v), err)
		}
	}
	if n := s.count("hashes:search"); n != 1 {
		t.Errorf("%d searches, want 1 (step 1: the cache)", n)
	}
	if n := s.count("hashList") + s.count("hashLists:batchGet"); n != 0 {
		t.Errorf("%d list requests in NoStorage mode", n)
	}
	if err := c.Update(bg); err != nil {
		t.Errorf("Update in NoStorage mode: %v", err)
	}
}

// TestLookupAll: one verdict per URL in order, per-index errors, and the
// prefixes in as few searches as the 1000-prefix limit and the 8 KiB URL
// limit (decision 1) allow.
func TestLookupAll(t *testing.T) {
	s := newTestServer(t)
	s.add("h7.example/", detailMsg(Malware))
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
	urls := make([]string, 1500)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://h%d.example/", i) // one expression each
	}
	urls[3] = ""
	urls[9] = "mailto:x@y"
	vs, err := c.LookupAll(bg, urls)
	if len(vs) != len(urls) {
		t.Fatalf("%d verdicts for %d URLs", len(vs), len(urls))
	}
	var be *BatchError
	if !errors.As(err, &be) || len(be.Errs) != len(urls) {
		t.Fatalf("err = %v, want a BatchError with %d entries", err, len(urls))
	}
	for i, err := range be.Errs {
		if (err != nil) != (i == 3 || i == 9) {
			t.Errorf("Errs[%d] = %v", i, err)
		}
	}
	if !errors.Is(be.Errs[3], safebrowse.ErrEmpty) || !errors.Is(be.Errs[9], safebrowse.ErrScheme) || !errors.Is(err, ErrInvalidURL) {
		t.Errorf("errors %v, %v; want invalid URLs", be.Errs[3], be.Errs[9])
	}
	if want := "lookup: URL 3: safebrowse: empty URL in \"\" (and 1 more URL failed)"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	for i, v := range vs {
		want := 0
		if i == 7 {
			want = 1
		}
		if len(v.Threats) != want {
			t.Errorf("URL %d: threats %q", i, short(v))
		}
	}
	want := len(c.splitSearch(make([]key, 1000))) + len(c.splitSearch(make([]key, 498)))
	if n := s.count("hashes:search"); n != want || want < 2 {
		t.Errorf("1498 prefixes in %d searches, want %d", n, want)
	}
	// All cached now: no request.
	if _, err := c.LookupAll(bg, urls[:3]); err != nil || s.count("hashes:search") != want {
		t.Errorf("cached LookupAll: %v, %d searches", err, s.count("hashes:search"))
	}
}

// TestLookupAllFailure: a failed search is an error per URL that needed it;
// the other verdicts stand.
func TestLookupAllFailure(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	c, _ := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/"}})
	s.set(func(s *testServer) { s.handle = unavailable })
	vs, err := c.LookupAll(bg, []string{"http://good.example/", "http://evil.example/"})
	var be *BatchError
	var se *StatusError
	if !errors.As(err, &be) || len(be.Errs) != 2 || be.Errs[0] != nil || !errors.As(be.Errs[1], &se) ||
		se.StatusCode != 503 || errors.Is(err, ErrInvalidURL) {
		t.Errorf("err = %v, want a 503 for URL 1 only", err)
	}
	if len(vs) != 2 || len(vs[0].Threats)+len(vs[1].Threats) != 0 {
		t.Errorf("verdicts %v", vs)
	}
}

// TestNotReady: lookups before the lists load are ErrNotReady; Ready waits.
func TestNotReady(t *testing.T) {
	s := newTestServer(t)
	serveLists(t, s, DefaultLists, nil)
	c, _ := newTestClient(t, Config{BaseURL: s.URL})
	if _, err := c.Lookup(bg, "http://a.example/"); !errors.Is(err, ErrNotReady) {
		t.Errorf("Lookup: err = %v, want ErrNotReady", err)
	}
	if _, err := c.LookupAll(bg, []string{"http://a.example/"}); !errors.Is(err, ErrNotReady) {
		t.Errorf("LookupAll: err = %v, want ErrNotReady", err)
	}
	ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel()
	if err := c.Ready(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Ready = %v, want DeadlineExceeded", err)
	}
	done := make(chan error)
	go func() { done <- c.Ready(bg) }()
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Ready = %v", err)
	}
	if _, err := c.Lookup(bg, "http://a.example/"); err != nil {
		t.Errorf("Lookup after Ready: %v", err)
	}
}

// TestClose: Close twice is fine; every call after it is ErrClosed.
func TestClose(t *testing.T) {
	s := newTestServer(t)
	c, _ := readyClient(t, s, LocalList, nil)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.Lookup(bg, "http://a.example/"); !errors.Is(err, ErrClosed) {
		t.Errorf("Lookup after Close: %v", err)
	}
	if _, err := c.LookupAll(bg, []string{"http://a.example/"}); !errors.Is(err, ErrClosed) {
		t.Errorf("LookupAll after Close: %v", err)
	}
	if err := c.Update(bg); !errors.Is(err, ErrClosed) {
		t.Errorf("Update after Close: %v", err)
	}
	if err := c.Run(bg); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close: %v", err)
	}
}

// TestConcurrentLookups runs lookups beside updates; run it with -race.
func TestConcurrentLookups(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	s.duration = durationMsg(time.Millisecond)
	c, clk := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/"}})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				u := "http://evil.example/"
				if i%2 == 0 {
					u = fmt.Sprintf("http://g%d-%d.example/", g, i)
				}
				v, err := c.Lookup(bg, u)
				if err != nil {
					t.Error(err)
					return
				}
				if i%2 == 1 && !v.Unsafe() {
					t.Errorf("evil.example not unsafe: %v", short(v))
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 10 {
			clk.advance(time.Hour)
			if err := c.Update(bg); err != nil {
				t.Error(err)
			}
		}
	}()
	wg.Wait()
}

// TestRealTimeCache: Real-Time step 2, the cache, answers a URL searched
// before, with no request.
func TestRealTimeCache(t *testing.T) {
	s := newTestServer(t)
	s.add("fresh.example/", detailMsg(SocialEngineering))
	c, clk := readyClient(t, s, RealTime, nil)
	for i := range 2 {
		v, err := c.Lookup(bg, "http://fresh.example/")
		if err != nil || !v.Unsafe() {
			t.Errorf("lookup %d: %q, %v", i, short(v), err)
		}
		clk.advance(time.Minute)
	}
	if n := s.count("hashes:search"); n != 1 {
		t.Errorf("%d searches, want 1", n)
	}
}
