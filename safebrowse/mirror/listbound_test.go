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
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// nullWriter is a ResponseWriter that keeps nothing but the status.
type nullWriter struct {
	h    http.Header
	code int
}

func (w *nullWriter) Header() http.Header         { return w.h }
func (w *nullWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nullWriter) WriteHeader(code int)        { w.code = code }

// bigMirror returns a mirror of a source holding se-4b alone, of n
// prefixes, loaded; the upstream is closed by then.
func bigMirror(t testing.TB, n int) (*Mirror, *lookup.Client) {
	t.Helper()
	up := sbtest.NewServer()
	var b [8]byte
	for i := range uint64(n) {
		binary.BigEndian.PutUint64(b[:], i)
		up.AddHash("se-4b", sha256.Sum256(b[:]))
	}
	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, Lists: []string{"se-4b"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	m, err := New(src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	up.Close()
	return m, src
}

// serve sends GET path to m in process and returns the status.
func serve(m *Mirror, path string) int {
	w := &nullWriter{h: http.Header{}}
	m.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.code
}

// TestListCacheMemory: 300 list requests, each with another
// maxUpdateEntries, on a list of 400,000 prefixes, leave at most 3 × 4 B
// a prefix more on the heap than the first whole-list request did.
func TestListCacheMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	const n = 400_000
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	m, _ := bigMirror(t, n)
	// The mirror copies the list at its first request: one it refuses.
	if code := serve(m, "/v5/hashList/se-4b?sizeConstraints.maxDatabaseEntries=1024"); code != 400 {
		t.Fatalf("over maxDatabaseEntries: status %d", code)
	}
	loaded := heap()
	if code := serve(m, "/v5/hashList/se-4b"); code != 200 {
		t.Fatalf("whole list: status %d", code)
	}
	base := heap()
	for i := range 300 {
		path := "/v5/hashList/se-4b?sizeConstraints.maxUpdateEntries=" + strconv.Itoa(1024+i*6991)
		if i%2 == 1 {
			path += "&alt=proto"
		}
		if code := serve(m, path); code != 200 {
			t.Fatalf("%s: status %d", path, code)
		}
	}
	after := heap()
	grow := int64(after) - int64(base)
	held := m.Stats().ListCacheBytes
	t.Logf("heap %.1f MB loaded, %+.1f MB after the whole list, %+.1f MB more after 300 requests of distinct maxUpdateEntries; the cache counts %.1f MB",
		float64(loaded)/1e6, float64(int64(base)-int64(loaded))/1e6, float64(grow)/1e6, float64(held)/1e6)
	// What the cache holds is counted: the heap it added is within its
	// count, give or take the size classes of the allocator.
	if added := int64(after) - int64(loaded); added > held+held/8 {
		t.Errorf("the cache added %d B to the heap, and counts %d", added, held)
	}
	if limit := int64(3 * 4 * n); grow > limit {
		t.Errorf("300 requests of distinct maxUpdateEntries grew the heap %d B, more than %d", grow, limit)
	}
}

// BenchmarkCachedWholeList measures the latency of a cached whole-list
// reply of a 400,000-prefix list on loopback, in proto and JSON, alone
// and beside a client that keeps asking for replies the mirror must
// build (random walks through chunked updates of random sizes). It
// reports the median and the 99th percentile of the requests.
func BenchmarkCachedWholeList(b *testing.B) {
	m, _ := bigMirror(b, 400_000)
	srv := httptest.NewServer(m)
	defer srv.Close()
	fetch := func(hc *http.Client, path string) ([]byte, error) {
		resp, err := hc.Get(srv.URL + path)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != 200 {
			err = fmt.Errorf("status %d: %s", resp.StatusCode, body)
		}
		return body, err
	}
	// builder walks chunked updates of random sizes until stop is
	// closed, counting the replies it got.
	builder := func(stop <-chan struct{}, n *atomic.Int64) {
		hc := &http.Client{Transport: &http.Transport{}}
		rng := rand.New(rand.NewPCG(1, 2))
		var v []byte
		for {
			select {
			case <-stop:
				return
			default:
			}
			q := "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=" + strconv.Itoa(1<<(10+rng.IntN(9)))
			if v != nil {
				q += "&version=" + url.QueryEscape(base64.StdEncoding.EncodeToString(v))
			}
			body, err := fetch(hc, q)
			if err != nil {
				b.Error(err)
				return
			}
			hl, err := v5wire.ParseHashList(body)
			if err != nil {
				b.Error(err)
				return
			}
			v = bytes.Clone(hl.Version)
			if hl.MinimumWait != 0 {
				v = nil // done: again from the start
			}
			n.Add(1)
		}
	}
	for _, alt := range []string{"proto", "json"} {
		path := "/v5/hashList/se-4b?alt=" + alt
		for _, busy := range []bool{false, true} {
			name := alt
			if busy {
				name += "-beside-builds"
			}
			b.Run(name, func(b *testing.B) {
				hc := &http.Client{Transport: &http.Transport{}}
				defer hc.CloseIdleConnections()
				if _, err := fetch(hc, path); err != nil { // cached from here on
					b.Fatal(err)
				}
				stop := make(chan struct{})
				var built atomic.Int64
				var wg sync.WaitGroup
				if busy {
					wg.Go(func() { builder(stop, &built) })
				}
				var lat []time.Duration
				for b.Loop() {
					t0 := time.Now()
					if _, err := fetch(hc, path); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
				}
				close(stop)
				wg.Wait()
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2])/1e6, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "p99-ms")
				if busy {
					b.ReportMetric(float64(built.Load())/float64(b.N), "builds/op")
				}
			})
		}
	}
}
