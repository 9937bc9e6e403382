// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// An upstream is an sbtest server behind a front that holds each
// hashes:search until the test lets it go, and that answers searches
// itself when search is set.
type upstream struct {
	*sbtest.Server
	front  *httptest.Server
	search func(p [4]byte) []v5wire.FullHash // nil: sbtest answers

	mu      sync.Mutex
	held    int           // searches that reached the front
	open    chan struct{} // closed: every search goes at once
	release chan struct{} // one value lets one search go
}

// newUpstream starts an upstream whose front answers searches from
// search, or passes them to sbtest when search is nil.
func newUpstream(t testing.TB, search func(p [4]byte) []v5wire.FullHash, opts ...sbtest.Option) *upstream {
	t.Helper()
	u := &upstream{Server: sbtest.NewServer(opts...), search: search, open: make(chan struct{}), release: make(chan struct{})}
	target, err := url.Parse(u.Server.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	u.front = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v5/hashes:search" {
			u.mu.Lock()
			u.held++
			u.mu.Unlock()
			select {
			case <-u.open:
			case <-u.release:
			case <-r.Context().Done():
				return
			}
			if u.search != nil {
				u.answer(w, r)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		u.openAll()
		u.front.Close()
		u.Server.Close()
	})
	return u
}

// answer answers a search from u.search, with a cacheDuration of 10
// minutes.
func (u *upstream) answer(w http.ResponseWriter, r *http.Request) {
	var m v5wire.SearchHashesResponse
	for _, v := range r.URL.Query()["hashPrefixes"] {
		b, err := base64.URLEncoding.DecodeString(v)
		if err != nil || len(b) != 4 {
			http.Error(w, "bad prefix", http.StatusBadRequest)
			return
		}
		m.FullHashes = append(m.FullHashes, u.search([4]byte(b))...)
	}
	m.CacheDuration, m.HasCacheDuration = 10*time.Minute, true
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(v5wire.AppendSearchHashesResponse(nil, &m))
}

func (u *upstream) openAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	select {
	case <-u.open:
	default:
		close(u.open)
	}
}

func (u *upstream) heldCount() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.held
}

// A front is a mirror of a source client of an upstream, served on
// loopback, which records the status of each reply.
type front struct {
	src *lookup.Client
	m   *Mirror
	srv *httptest.Server

	mu       sync.Mutex
	statuses []int
}

func newFront(t testing.TB, u *upstream, scfg lookup.Config, mcfg Config) *front {
	t.Helper()
	scfg.APIKey, scfg.BaseURL = u.APIKey, u.front.URL
	src, err := lookup.NewMirrorSource(scfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	m, err := New(src, mcfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &front{src: src, m: m}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w, status: 200}
		m.ServeHTTP(rec, r)
		f.mu.Lock()
		f.statuses = append(f.statuses, rec.status)
		f.mu.Unlock()
	}))
	t.Cleanup(f.srv.Close)
	return f
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// served returns how many replies had the status.
func (f *front) served(status int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, s := range f.statuses {
		if s == status {
			n++
		}
	}
	return n
}

// searchQuery is the query of a hashes:search for ps.
func searchQuery(ps ...[4]byte) string {
	q := ""
	for _, p := range ps {
		q += "&hashPrefixes=" + base64.URLEncoding.EncodeToString(p[:])
	}
	return q
}

// get sends GET path to the mirror under ctx.
func (f *front) get(ctx context.Context, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", f.srv.URL+path, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
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

// An outcome is what one request got.
type outcome struct {
	status int
	body   []byte
	err    error
}

// getAsync sends GET path under a context of its own.
func (f *front) getAsync(path string) (context.CancelFunc, chan outcome) {
	ctx, cancel := context.WithCancel(context.Background())
	c := make(chan outcome, 1)
	go func() {
		status, body, err := f.get(ctx, path)
		c <- outcome{status, body, err}
	}()
	return cancel, c
}

func hashOf(expr string) [32]byte { return sha256.Sum256([]byte(expr)) }

func prefix(expr string) [4]byte { h := hashOf(expr); return [4]byte(h[:4]) }

// TestSearchCancelOne: a client that gives up while its search waits for
// an upstream slot fails only its own request; the client that joined its
// search gets the answer.
func TestSearchCancelOne(t *testing.T) {
	u := newUpstream(t, nil)
	u.Add("mw-4b", "evil.example/")
	f := newFront(t, u, lookup.Config{MaxSearchesInFlight: 1}, Config{})
	// Another search holds the only slot.
	_, other := f.getAsync("/v5/hashes:search?alt=proto" + searchQuery([4]byte{1, 2, 3, 4}))
	waitFor(t, "the other search upstream", func() bool { return u.heldCount() == 1 })
	q := "/v5/hashes:search?alt=proto" + searchQuery(prefix("evil.example/"))
	cancel, first := f.getAsync(q)
	waitFor(t, "the first search waiting for a slot", func() bool { return f.src.Stats().SearchWaits == 1 })
	_, second := f.getAsync(q)
	waitFor(t, "the second request joined", func() bool { return f.src.Stats().Coalesced == 1 })
	cancel()
	if r := <-first; r.err == nil {
		t.Errorf("the request that gave up: %d %s", r.status, r.body)
	}
	waitFor(t, "the mirror done with the request that gave up", func() bool { return f.served(503) == 1 })
	select {
	case r := <-second:
		t.Fatalf("the second request answered when the first gave up: %d %s", r.status, r.body)
	default:
	}
	u.openAll()
	r := <-second
	m, err := v5wire.ParseSearchHashesResponse(r.body)
	if r.status != 200 || err != nil || len(m.FullHashes) != 1 || m.FullHashes[0].Hash != hashOf("evil.example/") {
		t.Errorf("the request that stayed: %d %v %s", r.status, err, r.body)
	}
	if r := <-other; r.status != 200 {
		t.Errorf("the other request: %d %s", r.status, r.body)
	}
	if n := u.Requests("hashes:search"); n != 2 {
		t.Errorf("%d upstream searches, want 2", n)
	}
	st := f.m.Stats()
	if st.UpstreamSearches != 1 || st.Coalesced != 1 {
		t.Errorf("stats %+v: want the other request's upstream search, and 1 coalesced", st)
	}
}

// manyHashes returns n full hashes with prefix p, each with one detail.
func manyHashes(p [4]byte, n int) []v5wire.FullHash {
	out := make([]v5wire.FullHash, n)
	for i := range out {
		copy(out[i].Hash[:], p[:])
		binary.BigEndian.PutUint32(out[i].Hash[4:], uint32(i))
		out[i].Details = []v5wire.FullHashDetail{{ThreatType: lookup.Malware}}
	}
	return out
}

// TestSearchCacheBytes: an upstream that answers 20,000 full hashes a
// prefix fills the cache up to Config.CacheBytes, never past it, and the
// count stays within Config.CacheSize.
func TestSearchCacheBytes(t *testing.T) {
	u := newUpstream(t, func(p [4]byte) []v5wire.FullHash { return manyHashes(p, 20_000) })
	u.openAll()
	const budget = 4 << 20
	f := newFront(t, u, lookup.Config{CacheBytes: budget}, Config{CacheSize: 64, CacheBytes: budget})
	// The cache's states repeat every two searches: a proto reply (0.8
	// MB cached), then a JSON one (2.9 MB) beside it, then the next proto
	// reply, which does not fit beside both, evicts. Four searches take
	// each step twice; -race makes a search ten times slower, so it runs
	// four and .ci/run runs all 16 without -race.
	searches := 16
	if raceEnabled {
		searches = 4
	}
	for i := range searches {
		json := i%2 == 1
		q := "/v5/hashes:search?alt=proto"
		if json {
			q = "/v5/hashes:search?alt=json"
		}
		status, body, err := f.get(context.Background(), q+searchQuery([4]byte{0, 0, 1, byte(i)}))
		if err != nil || status != 200 {
			t.Fatalf("search %d: %d %v %.200s", i, status, err, body)
		}
		var m v5wire.SearchHashesResponse
		if json {
			err = m.UnmarshalJSON(body)
		} else {
			m, err = v5wire.ParseSearchHashesResponse(body)
		}
		if err != nil || len(m.FullHashes) != 20_000 {
			t.Fatalf("search %d: %d full hashes, %v", i, len(m.FullHashes), err)
		}
		if st := f.m.Stats(); st.CacheBytes > budget || st.CacheBytes <= 0 || st.CacheEntries > 64 {
			t.Fatalf("after search %d: %d entries of %d bytes; want at most %d bytes", i, st.CacheEntries, st.CacheBytes, budget)
		}
	}
}

// TestSearchReplyTooLong: a reply longer than lookup.MaxSearchReply, which
// the mirror's own clients would refuse, is a 503; the prefixes asked one
// at a time are answered.
func TestSearchReplyTooLong(t *testing.T) {
	u := newUpstream(t, func(p [4]byte) []v5wire.FullHash { return manyHashes(p, 20_000) })
	u.openAll()
	f := newFront(t, u, lookup.Config{}, Config{})
	var ps [][4]byte
	for i := range 6 {
		p := [4]byte{0, 0, 2, byte(i)}
		ps = append(ps, p)
		// One at a time (the source refuses an upstream reply over
		// MaxSearchReply as corrupt): cached.
		if status, body, err := f.get(context.Background(), "/v5/hashes:search?alt=proto"+searchQuery(p)); status != 200 || err != nil {
			t.Fatalf("%x: %d %v %.200s", p, status, err, body)
		}
	}
	tests := []struct {
		name   string
		query  string
		status int
	}{
		// 6 prefixes of 20,000 full hashes: about 5 MB in protobuf.
		{"proto", "alt=proto" + searchQuery(ps...), 503},
		// 5 MB in JSON.
		{"json", "alt=json" + searchQuery(ps[:3]...), 503},
		// 4 prefixes, about 3.4 MB in protobuf, fit.
		{"proto fits", "alt=proto" + searchQuery(ps[:4]...), 200},
		// One prefix, about 2 MB in JSON, fits.
		{"json fits", "alt=json" + searchQuery(ps[0]), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, err := f.get(context.Background(), "/v5/hashes:search?"+tt.query)
			if err != nil || status != tt.status || len(body) > lookup.MaxSearchReply {
				t.Errorf("%d, %d bytes, %v; want %d", status, len(body), err, tt.status)
			}
			if tt.status == 503 && !strings.Contains(string(body), "fewer prefixes") {
				t.Errorf("body %.300s", body)
			}
		})
	}
	if n := u.Requests("hashes:search"); n != 0 {
		t.Errorf("%d searches reached sbtest; the front answered them all", n)
	}
	if n := u.heldCount(); n != 6 {
		t.Errorf("%d upstream searches, want 6: the rest from the cache", n)
	}
}

// TestSearchReplyBytes: a reply assembled from the cache's encodings is
// the reply the wire package writes, byte for byte, in protobuf and in
// JSON, whether the answers came upstream or from the cache, and with no
// full hash at all.
func TestSearchReplyBytes(t *testing.T) {
	u := newUpstream(t, nil, sbtest.WithCacheDuration(10*time.Minute))
	u.openAll()
	u.Add("mw-4b", "evil.example/")
	u.Add("se-4b", "evil.example/", sbtest.Canary)
	u.Add("se-4b", "phish.example/", sbtest.FrameOnly)
	f := newFront(t, u, lookup.Config{}, Config{})
	evil, phish, none := prefix("evil.example/"), prefix("phish.example/"), [4]byte{7, 7, 7, 7}
	for _, tt := range []struct {
		name string
		ps   [][4]byte
		hash int // full hashes in the reply
	}{
		// From upstream, one prefix with none.
		{"none", [][4]byte{none}, 0},
		// From upstream, two listed and one not.
		{"mixed", [][4]byte{evil, none, phish}, 2},
		// All from the cache now, in another order.
		{"cached", [][4]byte{phish, evil}, 2},
	} {
		for _, alt := range []string{"proto", "json"} {
			t.Run(tt.name+"/"+alt, func(t *testing.T) {
				status, body, err := f.get(context.Background(), "/v5/hashes:search?alt="+alt+searchQuery(tt.ps...))
				if err != nil || status != 200 {
					t.Fatalf("%d %v %s", status, err, body)
				}
				var m v5wire.SearchHashesResponse
				var want []byte
				if alt == "proto" {
					m, err = v5wire.ParseSearchHashesResponse(body)
					want = v5wire.AppendSearchHashesResponse(nil, &m)
				} else if err = m.UnmarshalJSON(body); err == nil {
					want, err = m.MarshalJSON()
				}
				if err != nil || !bytes.Equal(body, want) {
					t.Errorf("reply %s\nwant %s (%v)", body, want, err)
				}
				if len(m.FullHashes) != tt.hash || !m.HasCacheDuration || m.CacheDuration < 9*time.Minute {
					t.Errorf("reply %+v: want %d full hashes and a cacheDuration", m, tt.hash)
				}
			})
		}
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ h http.Header }

func (w *discard) Header() http.Header         { return w.h }
func (w *discard) Write(b []byte) (int, error) { return len(b), nil }
func (w *discard) WriteHeader(int)             {}

// TestCachedReplyCost: a cached answer of 20,000 full hashes is copied
// into each reply, never encoded again: a request costs a few kilobytes,
// not the megabytes of an encoding.
func TestCachedReplyCost(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	u := newUpstream(t, func(p [4]byte) []v5wire.FullHash { return manyHashes(p, 20_000) })
	u.openAll()
	f := newFront(t, u, lookup.Config{}, Config{})
	for _, alt := range []string{"proto", "json"} {
		path := "/v5/hashes:search?alt=" + alt + searchQuery([4]byte{0, 0, 3, 0})
		if status, _, err := f.get(context.Background(), path); status != 200 || err != nil {
			t.Fatalf("%d %v", status, err)
		}
		const n = 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		for range n {
			w := &discard{h: http.Header{}}
			f.m.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		}
		d := time.Since(start) / n
		runtime.ReadMemStats(&after)
		per := (after.TotalAlloc - before.TotalAlloc) / n
		t.Logf("%s: %d bytes, %v a request", alt, per, d)
		if per > 16<<10 {
			t.Errorf("%s: %d bytes allocated a request, want at most 16 KiB", alt, per)
		}
	}
}
