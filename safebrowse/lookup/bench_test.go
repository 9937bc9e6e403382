// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"encoding/binary"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// benchURL is the spec's example URL: 3 hosts × 4 paths = 12 expressions.
const benchURL = "http://a.b.example.com/1/2.html?param=1"

// localURL has the shape of benchURL, and no prefix on the lists: the local
// lists answer it. The floor hashes this same URL.
const localURL = "http://a.b.example.org/1/2.html?param=1"

// randomList returns a full-update message of name holding n random
// prefixes (seeded by seed), and one of them.
func randomList(tb testing.TB, name string, n int, seed uint64) []byte {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = r.Uint32()
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	add := make([]byte, 0, 4*len(vals))
	for _, v := range vals {
		add = binary.BigEndian.AppendUint32(add, v)
	}
	sum := hashlist.Checksum(add, 4)
	m := hashlist.Message{Name: name, Version: []byte("1"), Additions: add, Checksum: sum[:]}
	b, err := m.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// bigClient returns a ready client whose se-4b holds 1M random prefixes and
// the prefixes of listed, the other lists empty; its server is s.
func bigClient(tb testing.TB, s *testServer, listed ...string) *Client {
	tb.Helper()
	c, _ := newTestClient(tb, Config{BaseURL: s.URL})
	for _, st := range c.lists {
		msg := listOf(tb, st.name, "1", 0)
		if st.name == "se-4b" {
			msg = randomList(tb, "se-4b", 1_000_000, 1)
		}
		if err := st.list.Apply(msg); err != nil {
			tb.Fatal(err)
		}
		st.loaded.Store(true)
	}
	if len(listed) > 0 {
		// A partial update adding the listed prefixes.
		var add []byte
		for _, e := range listed {
			h := hashOf(e)
			add = append(add, h[:4]...)
		}
		l := c.lists[0].list
		var all []byte
		for h := range l.All() { // h is valid until the next step: copy it
			all = append(all, h...)
		}
		sum := hashlist.Checksum(append(all, add...), 4)
		m := hashlist.Message{Name: "se-4b", Version: []byte("2"), Partial: true, Additions: add, Checksum: sum[:]}
		b, _ := m.MarshalBinary()
		if err := l.Apply(b); err != nil {
			tb.Fatal(err)
		}
	}
	c.refreshActive()
	c.markReady()
	return c
}

// BenchmarkLookup measures a Lookup that the local lists answer, with se-4b
// holding 1M prefixes, against its floor, safebrowse.AppendHashes of the
// same URL; and a Lookup answered by the cache (benchURL, one of whose
// prefixes is listed and cached as not matching).
func BenchmarkLookup(b *testing.B) {
	s := newTestServer(b)
	c := bigClient(b, s, "a.b.example.com/1/")
	b.Run("floor=AppendHashes", func(b *testing.B) {
		b.ReportAllocs()
		var dst [safebrowse.MaxExpressions]safebrowse.Hash
		for b.Loop() {
			if _, err := safebrowse.AppendHashes(dst[:0], localURL); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("local", func(b *testing.B) {
		b.ReportAllocs()
		u := localURL
		for b.Loop() {
			if v, err := c.Lookup(bg, u); err != nil || len(v.Threats) != 0 {
				b.Fatal(v, err)
			}
		}
		if n := s.count("hashes:search"); n != 0 {
			b.Fatalf("%d searches", n)
		}
	})
	// ratio times Lookup and its floor in alternating blocks of 100 calls,
	// so that both see the same load on a shared machine, and reports
	// Lookup's time over the floor's.
	b.Run("ratio", func(b *testing.B) {
		u := localURL
		var dst [safebrowse.MaxExpressions]safebrowse.Hash
		var floor, look time.Duration
		floorBlock := func() time.Duration {
			t := time.Now()
			for range 100 {
				safebrowse.AppendHashes(dst[:0], u)
			}
			return time.Since(t)
		}
		lookupBlock := func() time.Duration {
			t := time.Now()
			for range 100 {
				c.Lookup(bg, u)
			}
			return time.Since(t)
		}
		odd := false
		for b.Loop() {
			// Alternate which goes first, so neither always warms the other.
			if odd = !odd; odd {
				floor += floorBlock()
				look += lookupBlock()
			} else {
				look += lookupBlock()
				floor += floorBlock()
			}
		}
		b.ReportMetric(float64(look)/float64(floor), "x-floor")
	})
	b.Run("cache-hit", func(b *testing.B) {
		b.ReportAllocs()
		if _, err := c.Lookup(bg, benchURL); err != nil { // caches the listed prefix
			b.Fatal(err)
		}
		for b.Loop() {
			if v, err := c.Lookup(bg, benchURL); err != nil || len(v.Threats) != 0 {
				b.Fatal(v, err)
			}
		}
		if n := s.count("hashes:search"); n != 1 {
			b.Fatalf("%d searches, want 1", n)
		}
	})
}

// BenchmarkLookupSearch measures a Lookup that goes to the server, on
// loopback, with a reply that caches nothing: the path of every search,
// which alone joins or makes a search in flight.
func BenchmarkLookupSearch(b *testing.B) {
	s := newTestServer(b)
	s.add("evil.example/", detailMsg(Malware))
	s.set(func(s *testServer) { s.duration = nil })
	c, _ := newTestClient(b, Config{BaseURL: s.URL, Mode: NoStorage})
	b.ReportAllocs()
	for b.Loop() {
		if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
			b.Fatal(v, err)
		}
	}
}

// BenchmarkHeap reports the heap the five default lists hold at 1M random
// prefixes each, in bytes per prefix.
func BenchmarkHeap(b *testing.B) {
	msgs := make([][]byte, len(DefaultLists))
	for i, n := range DefaultLists {
		msgs[i] = randomList(b, n, 1_000_000, uint64(i+1))
	}
	var perPrefix float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, err := New(Config{APIKey: testKey})
		if err != nil {
			b.Fatal(err)
		}
		total := 0
		for i, st := range c.lists {
			if err := st.list.Apply(msgs[i]); err != nil {
				b.Fatal(err)
			}
			total += st.list.Len()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perPrefix = float64(after.HeapAlloc-before.HeapAlloc) / float64(total)
		runtime.KeepAlive(c)
		c.Close()
	}
	b.ReportMetric(perPrefix, "B/prefix")
}

// TestLookupAllocs: a Lookup the local lists answer allocates nothing, nor
// does a cache hit, counters included: each run is counted in Stats.
func TestLookupAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations differ under -race")
	}
	s := newTestServer(t)
	c := bigClient(t, s, "a.b.example.com/1/")
	if _, err := c.Lookup(bg, benchURL); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want func(before, after Stats) bool // the run was counted
	}{
		// Answered by the local lists.
		{"http://a.b.example.org/1/2.html?param=1", func(b, a Stats) bool { return a.LocalMisses > b.LocalMisses }},
		// Answered by the cache.
		{benchURL, func(b, a Stats) bool { return a.CacheHits > b.CacheHits }},
	}
	for _, tt := range tests {
		before := c.Stats()
		if n := testing.AllocsPerRun(1000, func() { c.Lookup(bg, tt.in) }); n != 0 {
			t.Errorf("Lookup(%q): %v allocations, want 0", tt.in, n)
		}
		after := c.Stats()
		if after.Lookups-before.Lookups != 1001 || !tt.want(before, after) {
			t.Errorf("Lookup(%q): Stats went from %+v to %+v", tt.in, before, after)
		}
		if n := testing.AllocsPerRun(1000, func() { c.Stats() }); n != 0 {
			t.Errorf("Stats: %v allocations, want 0", n)
		}
	}
}

// hostileSearchReplies are hashes:search replies of nearly MaxSearchReply
// bytes that a hostile server could send for evil.example/, each built to
// cost the most per URL.
func hostileSearchReplies() map[string][]byte {
	h := hashOf("evil.example/")
	const room = MaxSearchReply - 64
	replies := map[string][]byte{}
	// One detail whose attribute CANARY is repeated, packed, 4M times.
	attrs := make([]byte, room-48)
	for i := range attrs {
		attrs[i] = byte(Canary)
	}
	d := protowire.AppendTag(nil, 1, protowire.VarintType)
	d = protowire.AppendVarint(d, uint64(SocialEngineering))
	d = protowire.AppendTag(d, 2, protowire.BytesType)
	d = protowire.AppendBytes(d, attrs)
	replies["packed attributes"] = cat(protowire.AppendTag(nil, 1, protowire.BytesType),
		protowire.AppendBytes(nil, fullHashMsg(h, d)))
	// The same FullHash, with the same detail, 100k times.
	fh := fullHashMsg(h, detailMsg(Malware, FrameOnly))
	var b []byte
	for len(b)+len(fh)+8 < room {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, fh)
	}
	replies["repeated full hash"] = b
	// One FullHash with the same few details a million times over, the
	// attributes in either order.
	ds := [][]byte{detailMsg(Malware), detailMsg(Malware, Canary, FrameOnly), detailMsg(Malware, FrameOnly, Canary, Canary)}
	var details [][]byte
	n := 0
	for i := 0; n < room-64; i++ {
		details = append(details, ds[i%len(ds)])
		n += len(ds[i%len(ds)]) + 2
	}
	replies["repeated details"] = cat(protowire.AppendTag(nil, 1, protowire.BytesType),
		protowire.AppendBytes(nil, fullHashMsg(h, details...)))
	return replies
}

// TestSearchReplyAlloc: a hostile hashes:search reply of MaxSearchReply
// bytes costs LookupAll what it weighs once, and each URL only its own
// threats: at most 1 MiB a URL, and at most 16 threats a verdict (4 threat
// types × 4 sets of attributes) however often the server repeats them. The
// reply itself costs at most 10× MaxSearchReply while it is read.
func TestSearchReplyAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	for name, body := range hostileSearchReplies() {
		t.Run(name, func(t *testing.T) {
			if len(body) > MaxSearchReply {
				t.Fatalf("reply of %d bytes, over MaxSearchReply", len(body))
			}
			s := newTestServer(t)
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/x-protobuf")
				w.Write(body) // no cache_duration: each LookupAll searches
			}
			c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
			alloc := func(n int) uint64 {
				urls := slices.Repeat([]string{"http://evil.example/"}, n)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				vs, err := c.LookupAll(bg, urls)
				runtime.ReadMemStats(&after)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vs {
					if len(v.Threats) == 0 || len(v.Threats) > 16 {
						t.Errorf("%d threats in a verdict, want 1 to 16", len(v.Threats))
						break
					}
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			const n = 33
			one, many := alloc(1), alloc(n)
			perURL := (int64(many) - int64(one)) / (n - 1)
			t.Logf("reply %d bytes: LookupAll of 1 URL %d bytes, of %d URLs %d bytes: %d bytes a URL", len(body), one, n, many, perURL)
			if perURL > 1<<20 {
				t.Errorf("%d bytes a URL, want at most 1 MiB", perURL)
			}
			if one > 10*MaxSearchReply {
				t.Errorf("one URL cost %d bytes, over 10× MaxSearchReply", one)
			}
		})
	}
}
