// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	binenc "encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// These tests drive the built binary against an upstream on loopback:
// its searches coalesced and bounded, a client's cancellation ending only
// its own request, and the mirror's search cache bounded in bytes.

// An upstream is an sbtest server behind a front that holds each
// hashes:search until the test lets it go, and that answers searches
// itself when perPrefix is set. sbtest counts the searches that reach it.
type upstream struct {
	*sbtest.Server
	front     *httptest.Server
	perPrefix int // > 0: the front answers each prefix with this many full hashes

	mu      sync.Mutex
	held    int // searches that reached the front
	inFront int // searches at the front now
	most    int // the most at the front at once
	open    chan struct{}
}

// newUpstream starts an upstream whose front answers each prefix with
// perPrefix full hashes; 0: sbtest answers.
func newUpstream(t *testing.T, perPrefix int) *upstream {
	t.Helper()
	u := &upstream{Server: sbtest.NewServer(), perPrefix: perPrefix, open: make(chan struct{})}
	target, err := url.Parse(u.Server.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	u.front = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v5/hashes:search" {
			proxy.ServeHTTP(w, r)
			return
		}
		u.mu.Lock()
		u.held++
		u.inFront++
		u.most = max(u.most, u.inFront)
		u.mu.Unlock()
		defer func() {
			u.mu.Lock()
			u.inFront--
			u.mu.Unlock()
		}()
		select {
		case <-u.open:
		case <-r.Context().Done():
			return
		}
		if u.perPrefix == 0 {
			proxy.ServeHTTP(w, r)
			return
		}
		var hashes [][32]byte
		for _, v := range r.URL.Query()["hashPrefixes"] {
			p, err := base64.URLEncoding.DecodeString(v)
			if err != nil || len(p) != 4 {
				http.Error(w, "bad prefix", http.StatusBadRequest)
				return
			}
			for i := range u.perPrefix {
				var h [32]byte
				copy(h[:], p)
				binenc.BigEndian.PutUint32(h[4:], uint32(i))
				hashes = append(hashes, h)
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(protoSearchReply(hashes))
	}))
	t.Cleanup(func() {
		u.openAll()
		u.front.Close()
		u.Server.Close()
	})
	return u
}

// openAll lets every search, held or to come, go.
func (u *upstream) openAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	select {
	case <-u.open:
	default:
		close(u.open)
	}
}

// counts returns the searches that reached the front, and the most held
// there at once.
func (u *upstream) counts() (held, most int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.held, u.most
}

// protoSearchReply is a SearchHashesResponse in protobuf: each full hash with
// a MALWARE detail, and a cacheDuration of 10 minutes.
func protoSearchReply(hashes [][32]byte) []byte {
	detail := protowire.AppendTag(nil, 1, protowire.VarintType)
	detail = protowire.AppendVarint(detail, uint64(lookup.Malware))
	var b []byte
	for _, h := range hashes {
		fh := protowire.AppendTag(nil, 1, protowire.BytesType)
		fh = protowire.AppendBytes(fh, h[:])
		fh = protowire.AppendTag(fh, 2, protowire.BytesType)
		fh = protowire.AppendBytes(fh, detail)
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, fh)
	}
	d := protowire.AppendTag(nil, 1, protowire.VarintType)
	d = protowire.AppendVarint(d, 600)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	return protowire.AppendBytes(b, d)
}

// fullHashes counts the full_hashes of a SearchHashesResponse.
func fullHashes(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		num, typ, m := protowire.ConsumeTag(b)
		if m < 0 {
			return 0, protowire.ParseError(m)
		}
		b = b[m:]
		m = protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return 0, protowire.ParseError(m)
		}
		if num == 1 {
			n++
		}
		b = b[m:]
	}
	return n, nil
}

// startUpstream runs the built binary against u with args, and waits
// until it serves.
func startUpstream(t *testing.T, u *upstream, args ...string) string {
	t.Helper()
	p := startBinary(t, append([]string{"-addr", "127.0.0.1:0", "-upstream", u.front.URL, "-key", u.APIKey}, args...)...)
	return "http://" + p.addr
}

// get sends GET url under ctx and returns the status and the body.
func get(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
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

// A result is one request's outcome.
type result struct {
	status int
	body   []byte
	err    error
}

// getAsync sends GET url under a context of its own.
func getAsync(url string) (context.CancelFunc, chan result) {
	ctx, cancel := context.WithCancel(context.Background())
	c := make(chan result, 1)
	go func() {
		status, body, err := get(ctx, url)
		c <- result{status, body, err}
	}()
	return cancel, c
}

// metric returns the value of a series of base's /metrics, 0 when absent.
func metric(t *testing.T, base, name string, labels ...string) float64 {
	t.Helper()
	v, _ := value(scrape(t, base)[name], labels...)
	return v
}

// eventually waits until cond holds, at most 20 seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: not %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitReadyz waits until base's /readyz is a 200.
func waitReadyz(t *testing.T, base string) {
	t.Helper()
	eventually(t, "ready", func() bool {
		status, _, err := get(context.Background(), base+"/readyz")
		return err == nil && status == 200
	})
}

// prefixQuery is the hashPrefixes parameters of ps.
func prefixQuery(ps ...[4]byte) string {
	var q []string
	for _, p := range ps {
		q = append(q, "hashPrefixes="+base64.URLEncoding.EncodeToString(p[:]))
	}
	return strings.Join(q, "&")
}

// TestCoalescedSearches: 64 concurrent urls:search for one uncached URL
// make exactly one upstream search, and each gets the verdict.
func TestCoalescedSearches(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, 0)
	u.Add("mw-4b", "evil.example/")
	base := startUpstream(t, u)
	waitReadyz(t, base)
	const n = 64
	results := make([]chan result, n)
	for i := range results {
		_, results[i] = getAsync(base + "/v5/urls:search?urls=http://evil.example/")
	}
	// Every request has asked: it joined a search in flight, or its own
	// search reached the upstream, where it is held.
	eventually(t, "every request asking", func() bool {
		held, _ := u.counts()
		return metric(t, base, "sbserver_lookups_total") == n &&
			int(metric(t, base, "sbserver_coalesced_total"))+held == n
	})
	u.openAll()
	for i, c := range results {
		r := <-c
		if r.err != nil || r.status != 200 || !strings.Contains(string(r.body), `"threatTypes":["MALWARE"]`) {
			t.Errorf("request %d: %d %v %s", i, r.status, r.err, r.body)
		}
	}
	if got := u.Requests("hashes:search"); got != 1 {
		t.Errorf("%d concurrent urls:search for one URL made %d upstream searches, want 1", n, got)
	}
	if got := metric(t, base, "sbserver_coalesced_total"); got != n-1 {
		t.Errorf("sbserver_coalesced_total %v, want %d", got, n-1)
	}
}

// TestUpstreamSearches: -upstream-searches bounds the searches in flight
// upstream; the others wait for a slot, and all are answered.
func TestUpstreamSearches(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, 0)
	base := startUpstream(t, u, "-upstream-searches", "2", "-mode", "NoStorage")
	waitReadyz(t, base)
	const n = 6
	results := make([]chan result, n)
	for i := range results {
		_, results[i] = getAsync(fmt.Sprintf("%s/v5/urls:search?urls=http://h%d.example/", base, i))
	}
	eventually(t, "2 searches upstream and 4 waiting", func() bool {
		held, _ := u.counts()
		return held == 2 && metric(t, base, "sbserver_search_waits_total") == n-2
	})
	u.openAll()
	for i, c := range results {
		if r := <-c; r.err != nil || r.status != 200 {
			t.Errorf("request %d: %d %v %s", i, r.status, r.err, r.body)
		}
	}
	if held, most := u.counts(); held != n || most != 2 {
		t.Errorf("%d searches upstream, at most %d at once; want %d, 2", held, most, n)
	}
}

// TestMirrorCancelOne: a mirror client that gives up while its search
// waits for an upstream slot fails only its own request: the client that
// joined its search gets the answer once a slot is free.
func TestMirrorCancelOne(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, 0)
	u.Add("mw-4b", "evil.example/")
	base := startUpstream(t, u, "-mirror")
	// Eight other searches hold the eight slots.
	var others []chan result
	for i := range lookup.DefaultMaxSearchesInFlight {
		_, c := getAsync(base + "/v5/hashes:search?alt=proto&" + prefixQuery([4]byte{1, 2, 3, byte(i)}))
		others = append(others, c)
	}
	eventually(t, "8 searches upstream", func() bool { held, _ := u.counts(); return held == 8 })
	h := sha256.Sum256([]byte("evil.example/"))
	q := base + "/v5/hashes:search?alt=proto&" + prefixQuery([4]byte(h[:4]))
	cancel, first := getAsync(q)
	eventually(t, "the first search waiting for a slot", func() bool { return metric(t, base, "sbserver_search_waits_total") == 1 })
	_, second := getAsync(q)
	eventually(t, "the second request joined", func() bool { return metric(t, base, "sbserver_coalesced_total") == 1 })
	cancel()
	if r := <-first; !errors.Is(r.err, context.Canceled) {
		t.Errorf("the request that gave up: %d %v", r.status, r.err)
	}
	eventually(t, "the server done with the request that gave up", func() bool {
		return metric(t, base, "sbserver_requests_total", "endpoint=hashes:search", "code=503") >= 1
	})
	select {
	case r := <-second:
		t.Fatalf("the second request answered when the first gave up: %d %s", r.status, r.body)
	default:
	}
	u.openAll()
	r := <-second
	if n, err := fullHashes(r.body); r.status != 200 || err != nil || n != 1 {
		t.Errorf("the request that stayed: %d, %d full hashes, %v: %.300s", r.status, n, err, r.body)
	}
	for i, c := range others {
		if r := <-c; r.status != 200 {
			t.Errorf("other search %d: %d %s", i, r.status, r.body)
		}
	}
	if got := u.Requests("hashes:search"); got != 9 {
		t.Errorf("%d upstream searches, want 9: the eight others and one for evil.example/", got)
	}
}

// TestMirrorCacheBytes: under an upstream that answers 20,000 full hashes
// a prefix, the mirror's search cache at -cache-size 64 stays within
// -cache-bytes, as sbserver_mirror_cache_bytes shows.
func TestMirrorCacheBytes(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, 20_000)
	u.openAll()
	const budget = 8 << 20
	base := startUpstream(t, u, "-mirror", "-cache-size", "64", "-cache-bytes", fmt.Sprint(budget))
	for i := range 24 {
		status, body, err := get(context.Background(), base+"/v5/hashes:search?alt=proto&"+prefixQuery([4]byte{0, 0, 1, byte(i)}))
		if n, perr := fullHashes(body); err != nil || status != 200 || perr != nil || n != 20_000 {
			t.Fatalf("search %d: %d, %d full hashes, %v %v", i, status, n, err, perr)
		}
		mfs := scrape(t, base)
		held, _ := value(mfs["sbserver_mirror_cache_bytes"])
		entries, _ := value(mfs["sbserver_mirror_cache_entries"])
		if held > budget || held <= 0 || entries > 64 {
			t.Fatalf("after search %d: sbserver_mirror_cache_bytes %v, entries %v; want 1 to %d bytes", i, held, entries, budget)
		}
		if i == 23 {
			heap, _ := value(mfs["go_memstats_heap_alloc_bytes"])
			t.Logf("after 24 prefixes of 20,000 full hashes: cache %v bytes in %v entries, heap %.1f MiB", held, entries, heap/(1<<20))
		}
	}
}

// TestMirrorReplyTooLong: a mirror reply over lookup.MaxSearchReply, what
// the mirror's own clients accept, is a 503, even when the cache holds
// every answer; asked fewer at a time, they are answered.
func TestMirrorReplyTooLong(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, 20_000)
	u.openAll()
	base := startUpstream(t, u, "-mirror", "-cache-size", "64")
	var ps [][4]byte
	for i := range 6 {
		p := [4]byte{0, 0, 2, byte(i)}
		ps = append(ps, p)
		if status, body, err := get(context.Background(), base+"/v5/hashes:search?alt=proto&"+prefixQuery(p)); err != nil || status != 200 {
			t.Fatalf("%x: %d %v %.300s", p, status, err, body)
		}
	}
	status, body, err := get(context.Background(), base+"/v5/hashes:search?alt=proto&"+prefixQuery(ps...))
	if err != nil || status != 503 || !strings.Contains(string(body), "fewer prefixes") {
		t.Errorf("6 prefixes of 20,000 full hashes: %d, %d bytes, %v; want a 503: %.300s", status, len(body), err, body)
	}
	status, body, err = get(context.Background(), base+"/v5/hashes:search?alt=proto&"+prefixQuery(ps[:4]...))
	if n, perr := fullHashes(body); err != nil || status != 200 || perr != nil || n != 80_000 || len(body) > lookup.MaxSearchReply {
		t.Errorf("4 prefixes: %d, %d full hashes in %d bytes, %v %v", status, n, len(body), err, perr)
	}
	if held, _ := u.counts(); held != 6 {
		t.Errorf("%d upstream searches, want 6: the rest from the cache", held)
	}
}

// TestSearchFlags: -cache-bytes and -upstream-searches, their defaults,
// their variables and their usage errors.
func TestSearchFlags(t *testing.T) {
	for _, tt := range []struct {
		name      string
		args      []string
		env       map[string]string
		wantBytes int64
		wantMax   int
		wantErr   string
	}{
		// The defaults: 64 MiB, 8 searches.
		{"defaults", nil, nil, 64 << 20, 8, ""},
		// On the command line.
		{"flags", []string{"-cache-bytes", "1048576", "-upstream-searches", "2"}, nil, 1 << 20, 2, ""},
		// From the environment.
		{"env", nil, map[string]string{"SBSERVER_CACHE_BYTES": "2097152", "SBSERVER_UPSTREAM_SEARCHES": "3"}, 2 << 20, 3, ""},
		// The command line wins.
		{"flag over env", []string{"-upstream-searches", "4"}, map[string]string{"SBSERVER_UPSTREAM_SEARCHES": "3"}, 64 << 20, 4, ""},
		// No bytes.
		{"zero bytes", []string{"-cache-bytes", "0"}, nil, 0, 0, "-cache-bytes 0"},
		// Negative bytes.
		{"negative bytes", []string{"-cache-bytes", "-1"}, nil, 0, 0, "-cache-bytes -1"},
		// No search could go.
		{"zero searches", []string{"-upstream-searches", "0"}, nil, 0, 0, "-upstream-searches 0"},
		// A bad value in the environment names its variable.
		{"bad env", nil, map[string]string{"SBSERVER_CACHE_BYTES": "64MiB"}, 0, 0, "$SBSERVER_CACHE_BYTES"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.cacheBytes != tt.wantBytes || c.upstreamSearches != tt.wantMax {
				t.Errorf("-cache-bytes %d, -upstream-searches %d; want %d, %d", c.cacheBytes, c.upstreamSearches, tt.wantBytes, tt.wantMax)
			}
		})
	}
}
