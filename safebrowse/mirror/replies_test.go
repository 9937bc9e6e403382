// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// smallMirror returns an upstream whose se-4b holds the hashes of
// strconv.Itoa(i) for i in [0, n), and a loaded mirror of it that the
// test serves in process.
func smallMirror(t testing.TB, n int) (*sbtest.Server, *lookup.Client, *Mirror) {
	t.Helper()
	up := sbtest.NewServer(sbtest.WithMinimumWait(time.Nanosecond))
	t.Cleanup(up.Close)
	for i := range n {
		up.AddHash("se-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
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
	return up, src, m
}

// get serves GET path in process and returns the status and body.
func get(m *Mirror, path string) (int, []byte) {
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Code, rec.Body.Bytes()
}

// follow updates l from the mirror with maxUpdateEntries max until a
// reply carries a minimum wait, and returns the number of entries of
// each reply and whether each was partial. Apply checks every checksum.
func follow(t *testing.T, m *Mirror, l *hashlist.List, max int) (sizes []int, partial []bool) {
	t.Helper()
	for range 20 {
		q := "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=" + strconv.Itoa(max)
		if v := l.Version(); len(v) > 0 {
			q += "&version=" + url.QueryEscape(base64.StdEncoding.EncodeToString(v))
		}
		code, body := get(m, q)
		if code != 200 {
			t.Fatalf("%s: %d %s", q, code, body)
		}
		var msg hashlist.Message
		if err := msg.UnmarshalBinary(body); err != nil {
			t.Fatal(err)
		}
		if err := l.Apply(body); err != nil {
			t.Fatalf("chunk %d: %v", len(sizes), err)
		}
		sizes = append(sizes, len(msg.Removals)+len(msg.Additions)/4)
		partial = append(partial, msg.Partial)
		if msg.MinimumWait != 0 {
			return sizes, partial
		}
	}
	t.Fatal("no end to the chunks")
	return nil, nil
}

// TestChunkSizes: maxUpdateEntries is served as the power of two at or
// below it, at most 2^20; 0 is no limit, and less than 1024 a 400.
func TestChunkSizes(t *testing.T) {
	_, _, m := smallMirror(t, 2500)
	tests := []struct {
		max  int
		want []int // entries of each reply, from no version
	}{
		// The least chunk.
		{1024, []int{1024, 1024, 452}},
		// Between powers: rounded down, never past the client's limit.
		{1500, []int{1024, 1024, 452}},
		{2048, []int{2048, 452}},
		{4095, []int{2048, 452}},
		// A chunk the list fits in: the whole list, as with no limit.
		{4096, []int{2500}},
		{0, []int{2500}},
		// Above 2^20: served as 2^20, which the list fits in.
		{1 << 24, []int{2500}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.max), func(t *testing.T) {
			l, _ := hashlist.New("se-4b")
			got, _ := follow(t, m, l, tt.max)
			if !slices.Equal(got, tt.want) || l.Len() != 2500 {
				t.Errorf("chunks %v to %d entries, want %v to 2500", got, l.Len(), tt.want)
			}
		})
	}
	for _, tt := range []struct {
		in   string
		want int
	}{
		// Google's advice for v4 desktop clients, and the largest int32.
		{"16777216", 1 << 20},
		{"2147483647", 1 << 20},
		// Just over a power of two.
		{"1048577", 1 << 20},
		{"1025", 1024},
	} {
		c, err := parseConstraints(&request{p: url.Values{"maxUpdateEntries": {tt.in}}})
		if err != nil || c.maxUpdate != tt.want {
			t.Errorf("maxUpdateEntries=%s: %d %v, want %d", tt.in, c.maxUpdate, err, tt.want)
		}
	}
	if code, body := get(m, "/v5/hashList/se-4b?sizeConstraints.maxUpdateEntries=1023"); code != 400 || !bytes.Contains(body, []byte("at least 1024")) {
		t.Errorf("1023: %d %s", code, body)
	}
}

// TestChunksShared: every maxUpdateEntries that rounds to one chunk size
// is served the one reply, so that many limits cost no more than one.
func TestChunksShared(t *testing.T) {
	_, _, m := smallMirror(t, 2500)
	l := m.lists["se-4b"]
	for max := 1024; max < 2048; max += 7 {
		for _, alt := range []string{"proto", "json"} {
			if code, body := get(m, "/v5/hashList/se-4b?alt="+alt+"&sizeConstraints.maxUpdateEntries="+strconv.Itoa(max)); code != 200 {
				t.Fatalf("%d: %d %s", max, code, body)
			}
		}
	}
	// One chunk state, its reply in proto and in JSON.
	if n := l.cache.Len(); n != 3 {
		t.Errorf("%d entries cached, want 3", n)
	}
}

// TestChunkedPartial: a partial update larger than the client's limit
// comes in chunks, removals first, each checked by its checksum, to the
// new version.
func TestChunkedPartial(t *testing.T) {
	up, src, m := smallMirror(t, 2500)
	l, _ := hashlist.New("se-4b")
	follow(t, m, l, 0)
	for i := range 1500 {
		up.RemoveHash("se-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
		up.AddHash("se-4b", sha256.Sum256([]byte("new "+strconv.Itoa(i))))
	}
	if err := src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, partial := follow(t, m, l, 1024)
	if want := []int{1024, 1024, 952}; !slices.Equal(got, want) || slices.Contains(partial, false) || l.Len() != 2500 {
		t.Errorf("chunks %v (partial %v) to %d entries, want %v, all partial, to 2500", got, partial, l.Len(), want)
	}
	if h := sha256.Sum256([]byte("new 0")); !l.Contains(h[:4]) {
		t.Error("the update did not arrive")
	}
}

// TestChunksOvertaken: a client part way through a chunked update when
// the list changes goes on from where it stands, with partial updates,
// to the new version.
func TestChunksOvertaken(t *testing.T) {
	up, src, m := smallMirror(t, 2500)
	l, _ := hashlist.New("se-4b")
	code, body := get(m, "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=1024")
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	if err := l.Apply(body); err != nil {
		t.Fatal(err)
	}
	up.AddHash("se-4b", sha256.Sum256([]byte("later")))
	if err := src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, partial := follow(t, m, l, 1024)
	if want := []int{1024, 453}; !slices.Equal(got, want) || slices.Contains(partial, false) || l.Len() != 2501 {
		t.Errorf("chunks %v (partial %v) to %d entries, want %v, all partial, to 2501", got, partial, l.Len(), want)
	}
}

// TestListCacheBudget: however many chunk states and replies clients
// ask for, a list's cache stays within its budget, and the mirror's
// Stats report what it holds.
func TestListCacheBudget(t *testing.T) {
	_, _, m := smallMirror(t, 50_000)
	l := m.lists["se-4b"]
	limit := listCacheLimit(4 * 50_000)
	// Clients part way through chunked updates of every size, at every
	// chunk, in proto and JSON.
	var wg sync.WaitGroup
	for size := 1024; size <= 32768; size *= 2 {
		wg.Go(func() {
			for _, alt := range []string{"proto", "json"} {
				hl, _ := hashlist.New("se-4b")
				// A client whose chunk state was evicted meanwhile starts
				// again from the whole list: correct, if slower.
				for range 200 {
					q := "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=" + strconv.Itoa(size)
					if v := hl.Version(); len(v) > 0 {
						q += "&version=" + url.QueryEscape(base64.StdEncoding.EncodeToString(v))
					}
					code, body := get(m, q)
					if code != 200 {
						t.Errorf("%d %s", code, body)
						return
					}
					get(m, q+"&alt="+alt)
					if err := hl.Apply(body); err != nil {
						t.Error(err)
						return
					}
					if b := l.cache.Bytes(); b > limit {
						t.Errorf("cache holds %d B, more than its %d", b, limit)
					}
					if hl.Len() == 50_000 {
						break
					}
				}
				if hl.Len() != 50_000 {
					t.Errorf("chunks of %d: %d entries", size, hl.Len())
				}
			}
		})
	}
	wg.Wait()
	if got, want := m.Stats().ListCacheBytes, l.cache.Bytes(); got != want || got == 0 {
		t.Errorf("Stats.ListCacheBytes %d, want %d", got, want)
	}
}

// TestBuildsApart: while a reply is being built, a cached reply of the
// same list is served, a request for the same reply waits and shares
// the build, and a request for another is built beside it.
func TestBuildsApart(t *testing.T) {
	_, _, m := smallMirror(t, 5000)
	whole := "/v5/hashList/se-4b?alt=proto"
	if code, _ := get(m, whole); code != 200 {
		t.Fatal(code)
	}
	var mu sync.Mutex
	builds := map[int]int{} // by maxUpdateEntries
	release := make(chan struct{})
	started := make(chan int, 10)
	m.onBuild = func(max int) {
		mu.Lock()
		builds[max]++
		mu.Unlock()
		started <- max
		if max == 1024 {
			<-release
		}
	}
	slow := "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=1024"
	var wg sync.WaitGroup
	bodies := make([][]byte, 3)
	wg.Go(func() { _, bodies[0] = get(m, slow) })
	if max := <-started; max != 1024 {
		t.Fatalf("build of %d", max)
	}
	for i := 1; i < 3; i++ {
		wg.Go(func() { _, bodies[i] = get(m, slow) }) // the same reply
	}
	// The cached whole list, and another chunk size, while it builds.
	if code, _ := get(m, whole); code != 200 {
		t.Errorf("cached whole list: %d", code)
	}
	if code, _ := get(m, "/v5/hashList/se-4b?alt=proto&sizeConstraints.maxUpdateEntries=2048"); code != 200 {
		t.Errorf("another chunk size: %d", code)
	}
	close(release)
	wg.Wait()
	if builds[1024] != 1 || builds[2048] != 1 {
		t.Errorf("builds %v, want one of each", builds)
	}
	for i, b := range bodies {
		if !bytes.Equal(b, bodies[0]) || len(b) == 0 {
			t.Errorf("request %d got another reply", i)
		}
	}
}

// TestJSONReplies: the JSON form of a chunk is the proto one's, with the
// minimum wait on the last chunk alone.
func TestJSONReplies(t *testing.T) {
	_, _, m := smallMirror(t, 2500)
	for _, q := range []string{"sizeConstraints.maxUpdateEntries=2048", ""} {
		code, pb := get(m, "/v5/hashList/se-4b?alt=proto&"+q)
		code2, js := get(m, "/v5/hashList/se-4b?alt=json&"+q)
		if code != 200 || code2 != 200 {
			t.Fatalf("%d %d", code, code2)
		}
		var a, b hashlist.Message
		if err := a.UnmarshalBinary(pb); err != nil {
			t.Fatal(err)
		}
		var hl struct {
			Version []byte `json:"version"`
			Wait    string `json:"minimumWaitDuration"`
		}
		if err := json.Unmarshal(js, &hl); err != nil {
			t.Fatal(err)
		}
		b.Version = hl.Version
		if !bytes.Equal(a.Version, b.Version) || (a.MinimumWait == 0) != (hl.Wait == "") {
			t.Errorf("%q: proto version %q wait %v; JSON %q wait %q", q, a.Version, a.MinimumWait, b.Version, hl.Wait)
		}
	}
}
