// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// A fleet is the upstream of the scale tests: sites 0 to numSites-1,
// every third on se-4b, every fifth on mw-4b, every seventh on uws-4b as
// a canary; and numFiller other hashes on se-4b, so that a list is big
// enough (20 KB) that keeping a copy per client would show (800 KB for 40).
const (
	numSites  = 400
	numFiller = 5000
)

func seedFleet(t testing.TB, up *sbtest.Server) {
	t.Helper()
	for i := range numSites {
		site := "site" + strconv.Itoa(i) + ".example/"
		for _, l := range []struct {
			list  string
			every int
			attrs []sbtest.ThreatAttribute
		}{{"se-4b", 3, nil}, {"mw-4b", 5, nil}, {"uws-4b", 7, []sbtest.ThreatAttribute{sbtest.Canary}}} {
			if i%l.every == 0 {
				if err := up.Add(l.list, site, l.attrs...); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	up.Add("gc-32b", "www.google.com/")
	for i := range numFiller {
		up.AddHash("se-4b", sha256.Sum256([]byte("filler "+strconv.Itoa(i))))
	}
}

// fleetURLs are the URLs client k looks up: 100 sites from 4(k mod 10)
// on, so that clients overlap, and clients 10 to 49 ask what 0 to 9 did.
func fleetURLs(k int) []string {
	var urls []string
	for j := 4 * (k % 10); j < 4*(k%10)+100; j++ {
		urls = append(urls, "http://site"+strconv.Itoa(j%numSites)+".example/page?x="+strconv.Itoa(j))
	}
	return urls
}

// verdictString is a verdict in a form to compare.
func verdictString(v lookup.Verdict) string {
	s := fmt.Sprint(v.Unsafe())
	for _, t := range v.Threats {
		s += " " + t.Type.String() + fmt.Sprint(t.Attributes) + " " + t.Expression
	}
	return s
}

// runClient makes a client of base with its own Dir, loads its lists
// and looks up urls, returning the SHA-256 of the verdicts, so that the
// test holds 32 bytes a client while it measures the mirror's heap.
func runClient(t testing.TB, base, key string, urls []string) [32]byte {
	c, err := lookup.New(lookup.Config{APIKey: key, BaseURL: base, Dir: t.TempDir()})
	if err != nil {
		t.Error(err)
		return [32]byte{}
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		t.Error(err)
		return [32]byte{}
	}
	vs, err := c.LookupAll(context.Background(), urls)
	if err != nil {
		t.Error(err)
		return [32]byte{}
	}
	return verdictsSum(vs)
}

func verdictsSum(vs []lookup.Verdict) [32]byte {
	h := sha256.New()
	for _, v := range vs {
		fmt.Fprintln(h, verdictString(v))
	}
	return [32]byte(h.Sum(nil))
}

// heapAfterGC returns the live heap, once the goroutines of closed
// connections have ended.
func heapAfterGC() uint64 {
	for n, i := runtime.NumGoroutine(), 0; i < 50; i++ {
		time.Sleep(10 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			break
		} else {
			n = m
		}
	}
	var ms runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestFleet: 50 clients, then 40 more, each with its own Dir, through one
// mirror of one upstream. The upstream sees one list fetch per mirror update, not 50;
// its searches are at most the distinct prefixes that needed the
// network, none asked twice; every client's verdicts are those of a
// client talking to the upstream directly; and the mirror's memory does
// not grow with the number of clients.
func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("50 clients: not with -short")
	}
	e := newEnv(t, mirror.Config{}, t.TempDir())
	seedFleet(t, e.up)
	e.update(t)
	listFetches := func() int { return e.up.Requests("hashList") + e.up.Requests("hashLists:batchGet") }
	if n := listFetches(); n != 1 {
		t.Fatalf("the source's update made %d list requests, want 1", n)
	}

	const clients = 50
	got := make([][32]byte, clients+40)
	var heap [3]uint64
	phase := func(from, to int) {
		var wg sync.WaitGroup
		for k := from; k < to; k++ {
			wg.Go(func() { got[k] = runClient(t, e.srv.URL, "client-key", fleetURLs(k)) })
		}
		wg.Wait()
	}
	heap0 := heapAfterGC()
	phase(0, 10)
	e.srv.CloseClientConnections() // the connections aside
	heap[0] = heapAfterGC()
	phase(10, clients)
	e.srv.CloseClientConnections()
	heap[1] = heapAfterGC()
	phase(clients, clients+40)
	e.srv.CloseClientConnections()
	heap[2] = heapAfterGC()
	if t.Failed() {
		t.FailNow()
	}

	// One fetch per list per mirror update: the source's alone.
	if n := listFetches(); n != 1 {
		t.Errorf("%d clients made the upstream serve %d list requests, want 1", clients, n)
	}
	// Searches: each prefix that needed the network at most once.
	need := map[[4]byte]bool{}
	direct, err := lookup.New(lookup.Config{APIKey: e.up.APIKey, BaseURL: e.up.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if err := direct.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	searched := e.up.SearchedPrefixes()
	seen := map[[4]byte]bool{}
	for _, p := range searched {
		if seen[[4]byte(p)] {
			t.Errorf("prefix %x asked upstream twice", p)
		}
		seen[[4]byte(p)] = true
	}
	var lists [][][4]byte // the 4-byte lists' prefixes, sorted
	for _, l := range direct.Lists() {
		if snap, _ := direct.ListSnapshot(l.Name); l.Name != "gc-32b" {
			lists = append(lists, chunks4(snap.Hashes))
		}
	}
	for k := range clients {
		for _, u := range fleetURLs(k) {
			hs, _ := safebrowse.Hashes(u)
			for _, h := range hs {
				for _, prefixes := range lists {
					if _, ok := slices.BinarySearchFunc(prefixes, [4]byte(h[:4]), compare4); ok {
						need[[4]byte(h[:4])] = true
					}
				}
			}
		}
	}
	searches := e.up.Requests("hashes:search")
	if searches > len(need) || len(searched) > len(need) {
		t.Errorf("%d upstream searches of %d prefixes; %d distinct prefixes needed the network", searches, len(searched), len(need))
	}
	// Verdicts: those of a client talking to the upstream directly.
	for k := range got {
		vs, err := direct.LookupAll(context.Background(), fleetURLs(k))
		if err != nil {
			t.Fatal(err)
		}
		if verdictsSum(vs) != got[k] {
			t.Errorf("client %d's verdicts differ from a direct client's", k)
		}
		if k == 0 && !vs[0].Unsafe() {
			t.Errorf("site0 is safe: the fleet's lists did not load")
		}
	}
	// Memory: once the server has warmed up (its first bursts of
	// concurrent connections grow pools and buffers once), 40 more
	// clients, asking what the first 10 asked, cost the mirror nothing
	// that stays.
	grow := int64(heap[2]) - int64(heap[1])
	t.Logf("mirror heap: %d B after the lists, %+d B after 10 clients, %+d B after 40 more, %+d B after 40 more again; %d upstream searches for %d downstream",
		heap0, int64(heap[0])-int64(heap0), int64(heap[1])-int64(heap[0]), grow, searches, e.m.Stats().Requests["hashes:search"])
	if grow > 256<<10 {
		t.Errorf("the mirror's heap grew %d B from 50 to 90 clients: not independent of their number", grow)
	}
	st := e.m.Stats()
	if saved := st.UpstreamSaved; saved < uint64(len(got)) {
		t.Errorf("stats %+v: upstream requests saved %d", st, saved)
	}
}

// chunks4 splits sorted, concatenated 4-byte prefixes, sorted by compare4.
func chunks4(b []byte) [][4]byte {
	out := make([][4]byte, 0, len(b)/4)
	for i := 0; i+4 <= len(b); i += 4 {
		out = append(out, [4]byte(b[i:i+4]))
	}
	return out
}

func compare4(a, b [4]byte) int { return slices.Compare(a[:], b[:]) }

// A front is a stable address whose mirror can be replaced, as a
// restart behind a load balancer does; with none it answers 503.
type front struct {
	mu sync.Mutex
	h  http.Handler
}

func (f *front) set(h http.Handler) { f.mu.Lock(); f.h = h; f.mu.Unlock() }

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	h := f.h
	f.mu.Unlock()
	if h == nil {
		http.Error(w, `{"error":{"code":503,"message":"restarting","status":"UNAVAILABLE"}}`, http.StatusServiceUnavailable)
		return
	}
	h.ServeHTTP(w, r)
}

// TestRestart: a client survives a mirror restart during which the
// upstream changed: its updates are correct, partial from a version the
// restarted mirror knows, and no verdict is wrong.
func TestRestart(t *testing.T) {
	dir := t.TempDir()
	// No cache_duration: verdicts come from the lists and searches of
	// now, not from a cache filled before the restart.
	up := sbtest.NewServer(sbtest.WithMinimumWait(time.Nanosecond), sbtest.WithCacheDuration(0))
	t.Cleanup(up.Close)
	up.Add("se-4b", "old.example/")
	up.Add("mw-4b", "kept.example/")
	f := &front{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	a := mirrorOf(t, up, mirror.Config{}, dir)
	a.m.SetMinWaitForTest(0) // clients may update again at once
	a.update(t)
	f.set(a.m)
	c, err := lookup.New(lookup.Config{APIKey: "client-key", BaseURL: srv.URL, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	urls := []string{"http://old.example/", "http://new.example/", "http://kept.example/x"}
	check := func(when string, wantOld bool) {
		t.Helper()
		vs, err := c.LookupAll(context.Background(), urls)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		got := []bool{vs[0].Unsafe(), vs[1].Unsafe(), vs[2].Unsafe()}
		if want := []bool{wantOld, !wantOld, true}; !slices.Equal(got, want) {
			t.Errorf("%s: unsafe %v, want %v", when, got, want)
		}
	}
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("before the restart", true)

	// The mirror goes down, and the upstream changes meanwhile.
	f.set(nil)
	a.src.Close()
	up.Remove("se-4b", "old.example/")
	up.Add("se-4b", "new.example/")
	// Back, from its Dir: the client's version is one it knows.
	b := mirrorOf(t, up, mirror.Config{}, dir)
	b.m.SetMinWaitForTest(0)
	f.set(b.m)
	searches := up.Requests("hashList") + up.Requests("hashLists:batchGet")
	if err := c.Update(context.Background()); err != nil {
		t.Fatalf("update after the restart: %v", err)
	}
	b.update(t)
	if n := up.Requests("hashList") + up.Requests("hashLists:batchGet") - searches; n != 1 {
		t.Errorf("%d upstream list requests after the restart, want the mirror's 1", n)
	}
	status, _, body := b.get(t, "/v5/hashList/se-4b?alt=proto&version="+version64(c.Lists()[0].Version))
	var msg hashlist.Message
	if err := msg.UnmarshalBinary(body); status != 200 || err != nil || !msg.Partial || len(msg.Removals) != 1 || len(msg.Additions) != 4 {
		t.Errorf("the client's next update: %d %v partial %v, %d removals, %d additions", status, err, msg.Partial, len(msg.Removals), len(msg.Additions)/4)
	}
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("after the restart", false)
}

// BenchmarkMirror measures the mirror's throughput on loopback, 2 cores
// shared by client and server: whole-list fetches of a 100,000-prefix
// se-4b, with the bytes served, against a floor that serves the same
// bytes from a plain handler; and searches of 10 prefixes, all cached or
// half new.
func BenchmarkMirror(b *testing.B) {
	e := newEnv(b, mirror.Config{}, "")
	for i := range 100000 {
		e.up.AddHash("se-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
	}
	e.update(b)
	_, _, whole := e.get(b, "/v5/hashList/se-4b?alt=proto")
	floor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Header().Set("Content-Length", strconv.Itoa(len(whole)))
		w.Write(whole)
	}))
	defer floor.Close()
	fetch := func(b *testing.B, base string) float64 {
		tr := &http.Transport{MaxIdleConnsPerHost: 8}
		defer tr.CloseIdleConnections()
		hc := &http.Client{Transport: tr}
		b.SetBytes(int64(len(whole)))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				resp, err := hc.Get(base + "/v5/hashList/se-4b?alt=proto")
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
				}
			}
		})
		rate := float64(b.N) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "fetches/s")
		return rate
	}
	var floorRate float64
	b.Run("list-floor", func(b *testing.B) { floorRate = fetch(b, floor.URL) })
	b.Run("list", func(b *testing.B) {
		if rate := fetch(b, e.srv.URL); floorRate > 0 {
			b.ReportMetric(rate/floorRate, "x-floor")
		}
	})
	search := func(b *testing.B, fresh int) {
		tr := &http.Transport{MaxIdleConnsPerHost: 8}
		defer tr.CloseIdleConnections()
		hc := &http.Client{Transport: tr}
		var mu sync.Mutex
		next := 0
		before := e.m.Stats()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				q := "/v5/hashes:search?alt=proto"
				for j := range 10 {
					p := []byte{0, 0, 0, byte(j)} // cached after the first search
					if j < fresh {
						p = []byte{byte(j + 1), byte(k >> 16), byte(k >> 8), byte(k)}
					}
					q += "&hashPrefixes=" + base64.URLEncoding.EncodeToString(p)
				}
				resp, err := hc.Get(e.srv.URL + q)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
				}
			}
		})
		st := e.m.Stats()
		down := st.Requests["hashes:search"] - before.Requests["hashes:search"]
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "searches/s")
		b.ReportMetric(float64(st.UpstreamSearches-before.UpstreamSearches)/float64(down), "upstream/search")
	}
	b.Run("search-cached", func(b *testing.B) { search(b, 0) })
	b.Run("search-half-new", func(b *testing.B) { search(b, 5) })
}

// BenchmarkFleet runs TestFleet's 50 clients per op and reports the
// upstream requests they saved: the fraction of the clients' requests
// (list fetches and searches) that made no upstream request.
func BenchmarkFleet(b *testing.B) {
	e := newEnv(b, mirror.Config{}, "")
	seedFleet(b, e.up)
	e.update(b)
	upBefore := e.up.Requests("")
	st0 := e.m.Stats()
	for b.Loop() {
		var wg sync.WaitGroup
		for k := range 50 {
			wg.Go(func() { runClient(b, e.srv.URL, "client-key", fleetURLs(k)) })
		}
		wg.Wait()
	}
	st := e.m.Stats()
	var down uint64
	for _, method := range mirror.Methods() {
		down += st.Requests[method] - st0.Requests[method]
	}
	upstream := uint64(e.up.Requests("") - upBefore)
	b.ReportMetric(float64(down)/float64(b.N), "downstream-req/op")
	b.ReportMetric(float64(upstream)/float64(b.N), "upstream-req/op")
	b.ReportMetric(100*float64(down-upstream)/float64(down), "%saved")
}

// A discardWriter is a ResponseWriter that keeps nothing, so that a
// benchmark measures the handler and not the network.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// BenchmarkServeLists measures, in process, the request a fleet sends
// most in steady state: an update from the current version of each list,
// which is an empty partial update. One list by hashList, every list by
// hashLists:batchGet, each against a floor that writes the same reply
// with the same headers from a plain handler.
func BenchmarkServeLists(b *testing.B) {
	e := newEnv(b, mirror.Config{}, "")
	for i := range 1000 {
		e.up.AddHash("se-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
	}
	e.update(b)
	one := "/v5/hashList/se-4b?alt=proto"
	all := "/v5/hashLists:batchGet?alt=proto"
	for _, l := range e.src.Lists() {
		var msg hashlist.Message
		if _, _, body := e.get(b, "/v5/hashList/"+l.Name+"?alt=proto"); msg.UnmarshalBinary(body) != nil {
			b.Fatalf("%s: %s", l.Name, body)
		}
		v := "&version=" + version64(msg.Version)
		all += "&names=" + l.Name + v
		if l.Name == "se-4b" {
			one += v
		}
	}
	for _, tc := range []struct{ name, path string }{{"hashList", one}, {"batchGet", all}} {
		r := httptest.NewRequest("GET", tc.path, nil)
		rec := httptest.NewRecorder()
		e.m.ServeHTTP(rec, r)
		if rec.Code != 200 {
			b.Fatalf("%s: status %d: %s", tc.name, rec.Code, rec.Body)
		}
		var msg hashlist.Message
		if tc.name == "hashList" {
			if err := msg.UnmarshalBinary(rec.Body.Bytes()); err != nil || !msg.Partial || len(msg.Additions) != 0 {
				b.Fatalf("%s: not an empty partial update: %v %+v", tc.name, err, msg)
			}
		}
		body, ctype := rec.Body.Bytes(), rec.Header().Get("Content-Type")
		floor := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Type", ctype)
			h.Set("Content-Length", strconv.Itoa(len(body)))
			h.Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(200)
			w.Write(body)
		})
		run := func(b *testing.B, h http.Handler) float64 {
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
			return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		}
		var floorNs float64
		b.Run(tc.name+"-floor", func(b *testing.B) { floorNs = run(b, floor) })
		b.Run(tc.name, func(b *testing.B) {
			if ns := run(b, e.m); floorNs > 0 {
				b.ReportMetric(ns/floorNs, "x-floor")
			}
		})
	}
}
