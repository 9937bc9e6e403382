// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	enc "encoding/binary"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestMirrorListBound: the built sbserver -mirror, on loopback, serving a
// list of 400,000 prefixes. Hundreds of list requests, each with another
// maxUpdateEntries, leave its list caches within their budget and its
// heap within a small bound; and while it builds replies no one asked
// before, a client asking for the whole list, cached, is served at once.
func TestMirrorListBound(t *testing.T) {
	t.Parallel()
	const n = 400_000
	up := sbtest.NewServer()
	t.Cleanup(up.Close)
	var b [8]byte
	for i := range uint64(n) {
		enc.BigEndian.PutUint64(b[:], i)
		up.AddHash("se-4b", sha256.Sum256(b[:]))
	}
	p := startReplica(t, up)
	base := "http://" + p.addr
	hc := &http.Client{Transport: &http.Transport{}, Timeout: time.Minute}
	t.Cleanup(hc.CloseIdleConnections)
	get := func(path string) (int, int) {
		t.Helper()
		resp, err := hc.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		m, err := io.Copy(io.Discard, resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, int(m)
	}
	metrics := func() map[string]float64 {
		t.Helper()
		resp, err := hc.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out := map[string]float64{}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			name, v, ok := strings.Cut(sc.Text(), " ")
			if f, err := strconv.ParseFloat(v, 64); ok && err == nil && !strings.HasPrefix(name, "#") {
				out[name] = f
			}
		}
		return out
	}
	const whole = "/v5/hashList/se-4b?alt=proto"
	if status, _ := get(whole); status != 200 {
		t.Fatalf("whole list: %d", status)
	}

	// Stalls, while nothing but the whole list is cached: as each chunk of
	// a walk through chunked updates is built (its state hashed, its
	// hashes encoded), the cached whole list is fetched again and again.
	type span struct{ start, end time.Time }
	var slow []span
	var mu sync.Mutex
	var fast []span
	for _, size := range []int{1 << 16, 1 << 17, 1 << 18} {
		var version string
		for range 8 {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				fc := &http.Client{Transport: &http.Transport{}}
				defer fc.CloseIdleConnections()
				for {
					select {
					case <-stop:
						return
					default:
					}
					// Until the reply's headers: a reply that waits for a
					// build waits before its first byte.
					s := time.Now()
					resp, err := fc.Get(base + whole)
					if err != nil {
						t.Error(err)
						return
					}
					e := time.Now()
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					mu.Lock()
					fast = append(fast, span{s, e})
					mu.Unlock()
				}
			})
			path := "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=" + strconv.Itoa(size) + version
			// Until its headers too: the build is done by its first byte.
			s := time.Now()
			resp, err := hc.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			e := time.Now()
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			close(stop)
			wg.Wait()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
			}
			v, done := chunkVersion(t, body)
			if done { // the last chunk: no state to hash, and often small
				break
			}
			slow = append(slow, span{s, e})
			version = "&version=" + v
		}
	}
	// A fetch that waited for a build gets its first byte as the build
	// ends: for most builds, the longest wait of a fetch beside it must be
	// far shorter than the build. (The median, so that a pause of the
	// machine's does not decide.)
	var ratios []float64
	for _, s := range slow {
		var longest time.Duration
		for _, f := range fast {
			if f.start.Before(s.end) && f.end.After(s.start) {
				longest = max(longest, f.end.Sub(f.start))
			}
		}
		ratios = append(ratios, float64(longest)/float64(s.end.Sub(s.start)))
	}
	slices.Sort(ratios)
	median := ratios[len(ratios)/2]
	t.Logf("%d replies built; the longest wait for the first byte of the cached whole list beside each, as a fraction of the build: median %.2f, all %.2f (%d fetches)",
		len(slow), median, ratios, len(fast))
	if median > 0.5 {
		t.Errorf("fetches of the cached whole list beside builds waited for their first byte %.2f of a build's time (median): they waited for the builds", median)
	}

	// Memory: 250 requests of distinct maxUpdateEntries (the 256th would
	// have cleared the cache of old), in JSON and proto.
	before := metrics()
	lists := 0
	for name := range before {
		if strings.HasPrefix(name, `sbserver_list_entries{`) {
			lists++
		}
	}
	// The budget: 3 times the list's bytes, and 64 KiB, for each list.
	budget := float64(3*4*n + lists*64<<10)
	heap0, maxHeap, maxCache := before["go_memstats_heap_alloc_bytes"], 0.0, 0.0
	for i := range 250 {
		path := "/v5/hashList/se-4b?sizeConstraints.maxUpdateEntries=" + strconv.Itoa(1024+i*6991)
		if i%2 == 1 {
			path += "&alt=proto"
		}
		if status, _ := get(path); status != 200 {
			t.Fatalf("%s: %d", path, status)
		}
		if i%25 == 24 {
			m := metrics()
			maxHeap, maxCache = max(maxHeap, m["go_memstats_heap_alloc_bytes"]), max(maxCache, m["sbserver_mirror_list_cache_bytes"])
		}
	}
	t.Logf("heap %.1f MB before, at most %.1f MB during 250 requests of distinct maxUpdateEntries; the list caches at most %.1f MB of their %.1f MB",
		heap0/1e6, maxHeap/1e6, maxCache/1e6, budget/1e6)
	if maxCache == 0 || maxCache > budget {
		t.Errorf("sbserver_mirror_list_cache_bytes reached %.0f, budget %.0f", maxCache, budget)
	}
	// The heap, garbage included, grows by far less than one list's
	// copy a request (1.6 MB here).
	if grow := maxHeap - heap0; grow > 64<<20 {
		t.Errorf("the heap grew %.1f MB under 250 list requests", grow/1e6)
	}
}

// chunkVersion returns the version a binary HashList leads to, as a
// query parameter's value, and whether it is the last of its update
// (it carries a minimum wait).
func chunkVersion(t *testing.T, body []byte) (string, bool) {
	t.Helper()
	var msg hashlist.Message
	if err := msg.UnmarshalBinary(body); err != nil {
		t.Fatal(err)
	}
	return url.QueryEscape(base64.StdEncoding.EncodeToString(msg.Version)), msg.MinimumWait != 0
}
