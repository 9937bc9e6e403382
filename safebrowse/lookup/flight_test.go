// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse"
)

// A gateServer answers hashes:search, holding each request until the test
// lets it go: every prefix asked gets the full hashes perPrefix gives it,
// and a cache_duration of 5 minutes.
type gateServer struct {
	*httptest.Server
	perPrefix func(p [4]byte) [][]byte // FullHash messages; nil: evil.example/'s for its prefix

	mu          sync.Mutex
	requests    int
	inFlight    int
	maxInFlight int
	asked       [][4]byte
	canceled    int           // requests whose context ended before their answer
	open        chan struct{} // closed: every request answers at once
	release     chan struct{} // one value lets one request answer
}

func newGateServer(t testing.TB) *gateServer {
	g := &gateServer{open: make(chan struct{}), release: make(chan struct{})}
	g.Server = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(func() {
		g.openAll()
		g.Close()
	})
	return g
}

func (g *gateServer) serve(w http.ResponseWriter, r *http.Request) {
	var ps [][4]byte
	for _, v := range r.URL.Query()["hashPrefixes"] {
		b, err := base64.URLEncoding.DecodeString(v)
		if err != nil || len(b) != 4 {
			http.Error(w, "bad prefix", http.StatusBadRequest)
			return
		}
		ps = append(ps, [4]byte(b))
	}
	g.mu.Lock()
	g.requests++
	g.inFlight++
	g.maxInFlight = max(g.maxInFlight, g.inFlight)
	g.asked = append(g.asked, ps...)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.inFlight--
		g.mu.Unlock()
	}()
	select {
	case <-g.open:
	case <-g.release:
	case <-r.Context().Done():
		g.mu.Lock()
		g.canceled++
		g.mu.Unlock()
		return
	}
	var body []byte
	for _, p := range ps {
		for _, m := range g.fullHashes(p) {
			body = protowire.AppendTag(body, 1, protowire.BytesType)
			body = protowire.AppendBytes(body, m)
		}
	}
	body = protowire.AppendTag(body, 2, protowire.BytesType)
	body = protowire.AppendBytes(body, durationMsg(5*time.Minute))
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(body)
}

// fullHashes returns the FullHash messages of p.
func (g *gateServer) fullHashes(p [4]byte) [][]byte {
	if g.perPrefix != nil {
		return g.perPrefix(p)
	}
	if h := hashOf("evil.example/"); [4]byte(h[:4]) == p {
		return [][]byte{fullHashMsg(h, detailMsg(Malware))}
	}
	return nil
}

// openAll lets every request, held or to come, answer.
func (g *gateServer) openAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// stats returns the requests so far, the most in flight at once and
// those canceled.
func (g *gateServer) stats() (requests, maxInFlight, canceled int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.requests, g.maxInFlight, g.canceled
}

// askedCount returns how many requests asked p.
func (g *gateServer) askedCount(p [4]byte) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, q := range g.asked {
		if q == p {
			n++
		}
	}
	return n
}

// waitFor waits until cond holds, at most 10 seconds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: not %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// prefix4 returns the prefix of expr's full hash.
func prefix4(expr string) [4]byte {
	h := hashOf(expr)
	return [4]byte(h[:4])
}

// A call is one Lookup running, with its result once done.
type call struct {
	cancel context.CancelFunc
	done   chan struct{}
	v      Verdict
	err    error
}

// lookupAsync starts c.Lookup(u) under a context of its own.
func lookupAsync(c *Client, u string) *call {
	ctx, cancel := context.WithCancel(bg)
	k := &call{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(k.done)
		k.v, k.err = c.Lookup(ctx, u)
	}()
	return k
}

// wait returns the call's result, failing the test after 10 s.
func (k *call) wait(t testing.TB) (Verdict, error) {
	t.Helper()
	select {
	case <-k.done:
		return k.v, k.err
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return in 10 s")
		return Verdict{}, nil
	}
}

// TestCoalesce: concurrent callers that need one uncached prefix, through
// Lookup, LookupAll and SearchPrefixes alike, share one request; the
// others are counted in Coalesced, and each gets the answer.
func TestCoalesce(t *testing.T) {
	const n = 24
	const evil = "http://evil.example/"
	kinds := []struct {
		name string
		call func(c *Client) (unsafe bool, err error)
	}{
		{"Lookup", func(c *Client) (bool, error) {
			v, err := c.Lookup(bg, evil)
			return v.Unsafe(), err
		}},
		{"LookupAll", func(c *Client) (bool, error) {
			vs, err := c.LookupAll(bg, []string{evil})
			return len(vs) == 1 && vs[0].Unsafe(), err
		}},
		{"SearchPrefixes", func(c *Client) (bool, error) {
			rs, err := c.SearchPrefixes(bg, [][4]byte{prefix4("evil.example/")})
			return len(rs) == 1 && len(rs[0].FullHashes) == 1 && rs[0].FullHashes[0].Hash == hashOf("evil.example/"), err
		}},
	}
	tests := []struct {
		name  string
		kinds []int // the kinds of the callers, in turn
	}{
		// Lookups alone.
		{"Lookup", []int{0}},
		// LookupAll alone.
		{"LookupAll", []int{1}},
		// SearchPrefixes alone, as a mirror calls it.
		{"SearchPrefixes", []int{2}},
		// All three at once: one search for all.
		{"mixed", []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGateServer(t)
			c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage})
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				k := kinds[tt.kinds[i%len(tt.kinds)]]
				wg.Go(func() {
					unsafe, err := k.call(c)
					if err != nil || !unsafe {
						errs <- fmt.Errorf("%s: unsafe %v, err %v", k.name, unsafe, err)
					}
				})
			}
			// The first search is held: every other caller joins it.
			waitFor(t, "every caller joined", func() bool { return c.Stats().Coalesced == n-1 })
			g.openAll()
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			st := c.Stats()
			if requests, _, _ := g.stats(); requests != 1 || st.Searches != 1 {
				t.Errorf("%d requests (Searches %d) for %d concurrent callers, want 1", requests, st.Searches, n)
			}
			if st.Coalesced != n-1 || st.SearchErrors != 0 {
				t.Errorf("Coalesced %d, SearchErrors %d; want %d, 0", st.Coalesced, st.SearchErrors, n-1)
			}
		})
	}
}

// TestCancelOneCaller: the caller that made a search goes away, while the
// search waits for a slot or while its request is in flight: the search
// goes on for the caller that joined it, whose answer is not the other's
// cancellation, and nothing counts towards the back-off.
func TestCancelOneCaller(t *testing.T) {
	for _, waiting := range []bool{true, false} {
		name := "request in flight"
		if waiting {
			name = "waiting for a slot"
		}
		t.Run(name, func(t *testing.T) {
			g := newGateServer(t)
			c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, MaxSearchesInFlight: 1})
			var other *call
			if waiting {
				// Another search holds the only slot.
				other = lookupAsync(c, "http://other.example/")
				waitFor(t, "the other search sent", func() bool { r, _, _ := g.stats(); return r == 1 })
			}
			first := lookupAsync(c, "http://evil.example/")
			if waiting {
				waitFor(t, "the first caller's search waiting for a slot", func() bool { return c.Stats().SearchWaits == 1 })
			} else {
				waitFor(t, "the first caller's search sent", func() bool { r, _, _ := g.stats(); return r == 1 })
			}
			second := lookupAsync(c, "http://evil.example/")
			waitFor(t, "the second caller joined", func() bool { return c.Stats().Coalesced == 1 })
			first.cancel()
			if _, err := first.wait(t); !errors.Is(err, context.Canceled) {
				t.Errorf("the caller that went away: err %v, want context.Canceled", err)
			}
			select {
			case <-second.done:
				t.Fatalf("the second caller returned when the first went away: %v", second.err)
			default:
			}
			g.openAll()
			if v, err := second.wait(t); err != nil || !v.Unsafe() {
				t.Errorf("the caller that stayed: %v, %v; want unsafe, no error", short(v), err)
			}
			if other != nil {
				if _, err := other.wait(t); err != nil {
					t.Errorf("the other search: %v", err)
				}
			}
			if n := g.askedCount(prefix4("evil.example/")); n != 1 {
				t.Errorf("evil.example/'s prefix asked %d times, want 1", n)
			}
			if b := c.Backoff(); b.SearchFailures != 0 {
				t.Errorf("%d failures counted towards the back-off, want 0", b.SearchFailures)
			}
		})
	}
}

// TestAbandonedSearch: a search whose every caller went away is dropped:
// never sent if it waited for a slot, canceled if its request was in
// flight, with nothing counted towards the back-off; the next caller of
// its prefix makes a search of its own, never joins the dropped one.
func TestAbandonedSearch(t *testing.T) {
	evil := prefix4("evil.example/")
	for _, waiting := range []bool{true, false} {
		name := "request in flight"
		if waiting {
			name = "waiting for a slot"
		}
		t.Run(name, func(t *testing.T) {
			g := newGateServer(t)
			c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, MaxSearchesInFlight: 1})
			var other *call
			if waiting {
				other = lookupAsync(c, "http://other.example/")
				waitFor(t, "the other search sent", func() bool { r, _, _ := g.stats(); return r == 1 })
			}
			var callers []*call
			for range 3 {
				callers = append(callers, lookupAsync(c, "http://evil.example/"))
			}
			waitFor(t, "the callers joined", func() bool { return c.Stats().Coalesced == 2 })
			if !waiting {
				waitFor(t, "the search sent", func() bool { r, _, _ := g.stats(); return r == 1 })
			}
			for _, k := range callers {
				k.cancel()
				if _, err := k.wait(t); !errors.Is(err, context.Canceled) {
					t.Errorf("err %v, want context.Canceled", err)
				}
			}
			if waiting {
				g.openAll()
				if _, err := other.wait(t); err != nil {
					t.Fatal(err)
				}
			} else {
				waitFor(t, "the request canceled", func() bool { _, _, n := g.stats(); return n == 1 })
				g.openAll()
			}
			// The next caller makes a search of its own.
			rs, err := c.SearchPrefixes(bg, [][4]byte{evil})
			if err != nil || len(rs) != 1 || rs[0].Origin != OriginSearch || len(rs[0].FullHashes) != 1 {
				t.Fatalf("SearchPrefixes after: %+v, %v; want a search of its own", rs, err)
			}
			want := 2 // the dropped search's, and the last one
			if waiting {
				want = 1 // the dropped search never went
			}
			if n := g.askedCount(evil); n != want {
				t.Errorf("evil.example/'s prefix asked %d times, want %d", n, want)
			}
			if b := c.Backoff(); b.SearchFailures != 0 {
				t.Errorf("%d failures counted towards the back-off, want 0", b.SearchFailures)
			}
		})
	}
}

// TestSearchTimeout: a search whose server never answers ends after the
// search's own bound, for callers with no deadline, and counts towards
// the back-off: a server that does not answer is in trouble.
func TestSearchTimeout(t *testing.T) {
	g := newGateServer(t)
	c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage})
	c.flights.timeout = 50 * time.Millisecond
	k := lookupAsync(c, "http://evil.example/")
	if _, err := k.wait(t); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want DeadlineExceeded", err)
	}
	if b := c.Backoff(); b.SearchFailures != 1 {
		t.Errorf("%d failures counted towards the back-off, want 1", b.SearchFailures)
	}
}

// TestSearchClose: Close ends the searches in flight and those waiting
// for a slot; their callers get an error, and nothing counts towards the
// back-off.
func TestSearchClose(t *testing.T) {
	g := newGateServer(t)
	c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, MaxSearchesInFlight: 1})
	sent := lookupAsync(c, "http://evil.example/")
	waitFor(t, "the search sent", func() bool { r, _, _ := g.stats(); return r == 1 })
	waiting := lookupAsync(c, "http://other.example/")
	waitFor(t, "the second search waiting", func() bool { return c.Stats().SearchWaits == 1 })
	c.Close()
	if _, err := sent.wait(t); !errors.Is(err, ErrClosed) {
		t.Errorf("the search in flight: err %v, want ErrClosed", err)
	}
	if _, err := waiting.wait(t); !errors.Is(err, ErrClosed) {
		t.Errorf("the search waiting: err %v, want ErrClosed", err)
	}
	if b := c.Backoff(); b.SearchFailures != 0 {
		t.Errorf("%d failures counted towards the back-off, want 0", b.SearchFailures)
	}
}

// TestMaxSearchesInFlight: no more requests are in flight at once than
// the bound, 8 by default; the others wait for a slot and are counted.
func TestMaxSearchesInFlight(t *testing.T) {
	tests := []struct {
		in, want int
	}{
		// The default.
		{0, DefaultMaxSearchesInFlight},
		// One at a time.
		{1, 1},
		// Three.
		{3, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			g := newGateServer(t)
			c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, MaxSearchesInFlight: tt.in})
			const n = 12
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					var p [4]byte
					binary.BigEndian.PutUint32(p[:], uint32(i))
					if _, err := c.SearchPrefixes(bg, [][4]byte{p}); err != nil {
						t.Error(err)
					}
				})
			}
			waitFor(t, "the bound reached, the rest waiting", func() bool {
				r, _, _ := g.stats()
				return r == tt.want && c.Stats().SearchWaits == uint64(n-tt.want)
			})
			for range n {
				g.release <- struct{}{}
			}
			wg.Wait()
			if r, most, _ := g.stats(); r != n || most != tt.want {
				t.Errorf("%d requests, at most %d at once; want %d, %d", r, most, n, tt.want)
			}
		})
	}
	// A negative bound is refused.
	if _, err := New(Config{APIKey: testKey, MaxSearchesInFlight: -1}); err == nil {
		t.Error("New with MaxSearchesInFlight -1: no error")
	}
	if _, err := New(Config{APIKey: testKey, CacheBytes: -1}); err == nil {
		t.Error("New with CacheBytes -1: no error")
	}
}

// manyHashes returns n FullHash messages for prefix p, each with one
// detail.
func manyHashes(p [4]byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var h safebrowse.Hash
		copy(h[:], p[:])
		binary.BigEndian.PutUint32(h[4:], uint32(i))
		out[i] = fullHashMsg(h, detailMsg(Malware))
	}
	return out
}

// TestCacheBytesBounded: a server that answers 20,000 full hashes a prefix
// fills the cache up to Config.CacheBytes, never past it, and each lookup
// still gets its answer.
func TestCacheBytesBounded(t *testing.T) {
	g := newGateServer(t)
	g.perPrefix = func(p [4]byte) [][]byte { return manyHashes(p, 20_000) }
	g.openAll()
	const budget = 8 << 20
	c, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, CacheBytes: budget})
	for i := range 12 {
		p := [4]byte{0, 0, 0, byte(i)}
		rs, err := c.SearchPrefixes(bg, [][4]byte{p})
		if err != nil || len(rs[0].FullHashes) != 20_000 {
			t.Fatalf("search %d: %v", i, err)
		}
		if n := c.cache.heldBytes(); n > budget || n <= 0 {
			t.Fatalf("after search %d the cache holds %d bytes; want 1 to %d", i, n, budget)
		}
	}
	if n := c.cache.len(); n < 2 || n > 5 {
		t.Errorf("%d entries of 20,000 full hashes in %d bytes, want 2 to 5", n, budget)
	}
	// An answer larger than the whole budget answers, and is not cached.
	small, _ := newTestClient(t, Config{BaseURL: g.URL, Mode: NoStorage, CacheBytes: 1 << 20})
	rs, err := small.SearchPrefixes(bg, [][4]byte{{1, 2, 3, 4}})
	if err != nil || len(rs[0].FullHashes) != 20_000 || small.cache.len() != 0 {
		t.Errorf("an answer over the budget: %v, %d cached", err, small.cache.len())
	}
}

// TestCacheEntryBytes: the estimate of what an entry costs, which
// Config.CacheBytes bounds, is honest: never less than the heap the
// entries take, and not much more.
func TestCacheEntryBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	now := time.Now()
	tests := []struct {
		name    string
		entries int
		hashes  int
		details int // a hash
		attrs   int // a detail
	}{
		// The negative cache: prefixes with no full hash, in maps just
		// over a growth, just under one, and between.
		{"negative", 1<<16 + 1<<10, 0, 0, 0},
		{"negative", 1<<17 - 1<<13, 0, 0, 0},
		{"negative", 100_000, 0, 0, 0},
		// One full hash with one detail, as most listed prefixes get.
		{"one hash", 50_000, 1, 1, 0},
		// A few hashes with attributes.
		{"few", 20_000, 3, 2, 2},
		// 20,000 full hashes a prefix.
		{"many", 8, 20_000, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hashes []fullHash
			for i := range tt.hashes {
				var h fullHash
				binary.BigEndian.PutUint32(h.hash[4:], uint32(i))
				for range tt.details {
					h.details = append(h.details, detail{typ: Malware, attrs: make([]ThreatAttribute, tt.attrs)})
				}
				hashes = append(hashes, h)
			}
			before := heap()
			c := newCache(CacheSize*4, 1<<40)
			m := make(map[key]*entry, tt.entries)
			for i := range tt.entries {
				m[key{p: uint32(i)}] = newEntry(now.Add(time.Hour), hashes)
			}
			c.put(now, m)
			clear(m)
			m = nil
			used := int64(heap() - before)
			est := c.heldBytes()
			runtime.KeepAlive(c)
			runtime.KeepAlive(hashes)
			t.Logf("%d entries: %d bytes of heap, %d estimated (%.1f a prefix, %.1f estimated)",
				tt.entries, used, est, float64(used)/float64(tt.entries), float64(est)/float64(tt.entries))
			if est < used || float64(est) > 1.5*float64(used) {
				t.Errorf("estimated %d bytes for %d of heap: want at least the heap, at most 1.5×", est, used)
			}
		})
	}
}
