// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// webRiskReset returns a computeDiff RESET holding n random 4-byte
// prefixes (seeded by seed), Rice-coded as Web Risk codes them, and long
// more of 8 bytes, raw, in binary and in JSON; and the entries, sorted.
func webRiskReset(tb testing.TB, n, long int, seed uint64) (proto, json []byte, entries [][]byte) {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	seen := map[uint32]bool{}
	for len(entries) < n {
		v := r.Uint32()
		if seen[v] {
			continue
		}
		seen[v] = true
		entries = append(entries, binary.BigEndian.AppendUint32(nil, v))
	}
	for range long {
		v := r.Uint64()
		if seen[uint32(v>>32)] {
			continue
		}
		seen[uint32(v>>32)] = true
		entries = append(entries, binary.BigEndian.AppendUint64(nil, v))
	}
	d, err := hashlist.NewDiff(entries, nil, true)
	if err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(entries, bytes.Compare)
	sum := sha256.Sum256(bytes.Join(entries, nil))
	m := v4wire.ComputeThreatListDiffResponse{ResponseType: v4wire.FullUpdate, NewVersionToken: []byte("1"), Checksum: sum[:],
		Additions: &v4wire.ThreatEntryAdditions{}}
	for _, g := range d.Raw {
		m.Additions.RawHashes = append(m.Additions.RawHashes, v4wire.RawHashes(g))
	}
	rice := v4wire.Rice(*d.Rice)
	m.Additions.RiceHashes = &rice
	return v4wire.AppendComputeThreatListDiffResponse(nil, &m), v4wire.AppendComputeThreatListDiffResponseJSON(nil, &m), entries
}

// serveBody makes h answer every request with body, of content type ct.
func serveBody(ct string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		w.Write(body)
	}
}

// BenchmarkUpdateWebRisk measures a full update of a list of 1M random
// 4-byte prefixes and 5,000 of 8 bytes (0.5%) through the client's Web
// Risk path (computeDiff on loopback, its reply read, in binary as the
// client asks or in JSON, the Rice data decoded, reversed and sorted, the
// set built and its checksum checked), against v5's full update of 1M
// 4-byte prefixes through the same client's v5 path, and against
// crypto/sha256 over the 4 MB of prefixes, each update alternating with
// the others so that all see the same load. It reports the medians of
// the ratios.
func BenchmarkUpdateWebRisk(b *testing.B) {
	const n = 1_000_000
	proto, json, entries := webRiskReset(b, n, n/200, 1)
	b.Run("proto", func(b *testing.B) { benchUpdateWebRisk(b, "application/x-protobuf", proto, entries) })
	b.Run("json", func(b *testing.B) { benchUpdateWebRisk(b, "application/json", json, entries) })
}

func benchUpdateWebRisk(b *testing.B, ct string, wrBody []byte, entries [][]byte) {
	v5Body := randomList(b, "se-4b", len(entries)-len(entries)/201, 1)
	wrs := newWRServer(b)
	wrs.handle = serveBody(ct, wrBody)
	v5s := newTestServer(b)
	v5s.handle = serveBody("application/x-protobuf", v5Body)
	wr, _ := newWRClient(b, wrs, Config{Lists: []string{"MALWARE"}})
	v5, _ := newTestClient(b, Config{BaseURL: v5s.URL, Lists: []string{"se-4b"}})
	var flat []byte
	for _, e := range entries {
		if len(e) == 4 {
			flat = append(flat, e...)
		}
	}
	update := func(c *Client) time.Duration {
		c.lists[0].next = time.Time{} // due
		t := time.Now()
		if err := c.Update(bg); err != nil {
			b.Fatal(err)
		}
		return time.Since(t)
	}
	floor := func() time.Duration {
		t := time.Now()
		sha256.Sum256(flat)
		return time.Since(t)
	}
	var toV5, toSHA, wrMs, v5Ms []float64
	odd := false
	for b.Loop() {
		var w, v, f time.Duration
		if odd = !odd; odd {
			w, v, f = update(wr), update(v5), floor()
		} else {
			f, v, w = floor(), update(v5), update(wr)
		}
		toV5 = append(toV5, float64(w)/float64(v))
		toSHA = append(toSHA, float64(w)/float64(f))
		wrMs = append(wrMs, float64(w)/1e6)
		v5Ms = append(v5Ms, float64(v)/1e6)
	}
	if wr.lists[0].set.Len() != len(entries) {
		b.Fatalf("%d entries, want %d", wr.lists[0].set.Len(), len(entries))
	}
	b.ReportMetric(medianOf(toV5), "x-v5")
	b.ReportMetric(medianOf(toSHA), "x-sha256")
	b.ReportMetric(medianOf(wrMs), "ms-webrisk")
	b.ReportMetric(medianOf(v5Ms), "ms-v5")
	b.ReportMetric(float64(len(wrBody))/float64(len(entries)), "B-reply/entry")
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestWebRiskHeap: a Web Risk list of 1M random 4-byte prefixes, fetched
// through the client, holds at most 2.0 bytes a prefix once the update is
// done; and the update allocates at most twice the reply, read as it
// comes, plus 3× the list's size and the 4.6 MB of the sort's buckets
// (package hashlist's doc).
func TestWebRiskHeap(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	const n = 1 << 20
	body, _, _ := webRiskReset(t, n, 0, 7)
	s := newWRServer(t)
	s.handle = serveBody("application/x-protobuf", body)
	c, _ := newWRClient(t, s, Config{Lists: []string{"MALWARE"}})
	// Two collections empty the sync.Pools, the sort's buckets among
	// them, which outlive one.
	var before, after, held runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&held)
	list := int64(held.HeapAlloc) - int64(before.HeapAlloc)
	alloc := int64(after.TotalAlloc - before.TotalAlloc)
	perPrefix := float64(list) / n
	budget := 2*int64(len(body)) + 3*list + 5<<20
	t.Logf("reply %d bytes (%.2f a prefix), list %d bytes in memory (%.3f B/prefix), Update allocated %d bytes (%.2f× the reply); budget %d",
		len(body), float64(len(body))/n, list, perPrefix, alloc, float64(alloc)/float64(len(body)), budget)
	if perPrefix > 2.0 {
		t.Errorf("%.3f bytes a prefix, over 2.0", perPrefix)
	}
	if alloc > budget {
		t.Errorf("Update allocated %d bytes, over %d", alloc, budget)
	}
	runtime.KeepAlive(c)
}

// BenchmarkLookupWebRisk measures a Lookup that the local lists answer
// under Web Risk, MALWARE holding 1M random 4-byte prefixes and 5,000 of
// 8 bytes, the other lists empty, against its floor, the hashes of the
// same URL under v4's host rule, in alternating blocks as
// BenchmarkLookup's ratio does.
func BenchmarkLookupWebRisk(b *testing.B) {
	proto, _, _ := webRiskReset(b, 1_000_000, 5_000, 3)
	s := newWRServer(b)
	s.handle = serveBody("application/x-protobuf", proto)
	c, _ := newWRClient(b, s, Config{Lists: []string{"MALWARE"}})
	if err := c.Update(bg); err != nil {
		b.Fatal(err)
	}
	u := localURL
	var dst [safebrowse.MaxExpressions]safebrowse.Hash
	var floor, look time.Duration
	odd := false
	for b.Loop() {
		f := func() {
			t := time.Now()
			for range 100 {
				safebrowse.HostsV4.AppendHashes(dst[:0], u)
			}
			floor += time.Since(t)
		}
		l := func() {
			t := time.Now()
			for range 100 {
				if v, err := c.Lookup(bg, u); err != nil || len(v.Threats) != 0 {
					b.Fatal(v, err)
				}
			}
			look += time.Since(t)
		}
		if odd = !odd; odd {
			f()
			l()
		} else {
			l()
			f()
		}
	}
	if n := s.count("search"); n != 0 {
		b.Fatalf("%d searches", n)
	}
	b.ReportMetric(float64(look)/float64(floor), "x-floor")
	b.ReportMetric(float64(look)/float64(b.N)/100, "ns/lookup")
}
