// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// An env is one sbtest upstream, a source client of it, and a mirror of
// the source on loopback.
type env struct {
	up  *sbtest.Server
	src *lookup.Client
	m   *mirror.Mirror
	srv *httptest.Server
}

func newEnv(t testing.TB, cfg mirror.Config, dir string, opts ...sbtest.Option) *env {
	t.Helper()
	up := sbtest.NewServer(opts...)
	t.Cleanup(up.Close)
	return mirrorOf(t, up, cfg, dir)
}

// mirrorOf starts a mirror of up, its source keeping its lists in dir
// ("" for none), and fetches the lists once.
func mirrorOf(t testing.TB, up *sbtest.Server, cfg mirror.Config, dir string) *env {
	t.Helper()
	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	m, err := mirror.New(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{up: up, src: src, m: m, srv: httptest.NewServer(m)}
	t.Cleanup(e.srv.Close)
	return e
}

func (e *env) update(t testing.TB) {
	t.Helper()
	if err := e.src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// get sends GET path to the mirror and returns the reply.
func (e *env) get(t testing.TB, path string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Get(e.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// prefixOf returns the 4-byte prefix of expr's hash.
func prefixOf(expr string) [4]byte {
	h := sha256.Sum256([]byte(expr))
	return [4]byte(h[:4])
}

// version64 is a version as a query parameter.
func version64(v []byte) string { return url.QueryEscape(base64.StdEncoding.EncodeToString(v)) }

// getList fetches se-4b from the mirror in proto, from version from, and
// reads it with hashlist's reader, the one that reads Google's replies.
func (e *env) getList(t testing.TB, query string) (hashlist.Message, time.Duration) {
	t.Helper()
	status, _, body := e.get(t, "/v5/hashList/se-4b?alt=proto"+query)
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	var msg hashlist.Message
	if err := msg.UnmarshalBinary(body); err != nil {
		t.Fatal(err)
	}
	hl, err := v5wire.ParseHashList(body)
	if err != nil {
		t.Fatal(err)
	}
	return msg, hl.MinimumWait
}

// TestListReplies: what a client gets from each version it may hold.
func TestListReplies(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "", sbtest.WithMinimumWait(time.Nanosecond)) // the source may update at once
	for _, x := range []string{"a.example/", "b.example/"} {
		e.up.Add("se-4b", x)
	}
	// Not loaded yet: a 503 in Google's shape.
	status, _, body := e.get(t, "/v5/hashList/se-4b")
	if status != 503 || !strings.Contains(string(body), `"status":"UNAVAILABLE"`) {
		t.Errorf("before loading: %d %s", status, body)
	}
	e.update(t)
	full, wait := e.getList(t, "")
	if full.Partial || len(full.Additions) != 8 || full.Checksum == nil {
		t.Errorf("first fetch: %+v", full)
	}
	// The source is due at once: the wait is the least, MinWait.
	if wait != mirror.MinWait {
		t.Errorf("minimum wait %v, want %v", wait, mirror.MinWait)
	}
	v1 := full.Version
	if !strings.HasPrefix(string(v1), "se-4b:") {
		t.Errorf("version %q does not name its list", v1)
	}
	e.up.Add("se-4b", "c.example/")
	e.up.Remove("se-4b", "a.example/")
	e.update(t)
	cur, _ := e.getList(t, "")
	tests := []struct {
		name       string
		query      string
		wantPart   bool
		wantAdds   int
		wantRemove []uint32
	}{
		// At the current version: an empty partial update.
		{"current", "&version=" + version64(cur.Version), true, 0, nil},
		// At the last version: a partial update.
		{"previous", "&version=" + version64(v1), true, 1, []uint32{indexOf(t, v1list(), "a.example/")}},
		// An unknown version: the whole list.
		{"unknown", "&version=" + version64([]byte("se-4b:00")), false, 2, nil},
		// Google's version: the whole list.
		{"foreign", "&version=AAE=", false, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, wait := e.getList(t, tt.query)
			if msg.Partial != tt.wantPart || len(msg.Additions)/4 != tt.wantAdds || !slices.Equal(msg.Removals, tt.wantRemove) {
				t.Errorf("partial %v, %d additions, removals %v; want %v, %d, %v", msg.Partial, len(msg.Additions)/4, msg.Removals, tt.wantPart, tt.wantAdds, tt.wantRemove)
			}
			if !bytes.Equal(msg.Version, cur.Version) || !bytes.Equal(msg.Checksum, cur.Checksum) || wait < mirror.MinWait {
				t.Errorf("version %q checksum %x wait %v", msg.Version, msg.Checksum, wait)
			}
		})
	}
	// A client list follows: full, then partial, checked by the checksum.
	l, _ := hashlist.New("se-4b")
	for _, q := range []string{"", "&version=" + version64(v1)} {
		if q != "" {
			// Start from v1: the old contents.
			old, _ := hashlist.New("se-4b")
			msg := hashlist.Message{Name: "se-4b", Version: v1, Additions: v1list(), Checksum: sum4(v1list())}
			b, _ := msg.MarshalBinary()
			if err := old.Apply(b); err != nil {
				t.Fatal(err)
			}
			l = old
		}
		_, _, body := e.get(t, "/v5/hashList/se-4b?alt=proto"+q)
		if err := l.Apply(body); err != nil {
			t.Errorf("Apply(%q): %v", q, err)
		}
	}
}

// v1list is se-4b at its first version in TestListReplies.
func v1list() []byte {
	a, b := prefixOf("a.example/"), prefixOf("b.example/")
	ps := [][]byte{a[:], b[:]}
	slices.SortFunc(ps, bytes.Compare)
	return bytes.Join(ps, nil)
}

func sum4(hashes []byte) []byte { s := hashlist.Checksum(hashes, 4); return s[:] }

func indexOf(t testing.TB, sorted []byte, expr string) uint32 {
	p := prefixOf(expr)
	for i := 0; i < len(sorted); i += 4 {
		if bytes.Equal(sorted[i:i+4], p[:]) {
			return uint32(i / 4)
		}
	}
	t.Fatalf("%s not in %x", expr, sorted)
	return 0
}

// TestMinimumWait: the time to the source's next update, plus up to 10%,
// so that the fleet spreads out.
func TestMinimumWait(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "") // sbtest's minimum wait: 30 min
	e.update(t)
	seen := map[time.Duration]bool{}
	for range 20 {
		_, wait := e.getList(t, "")
		if wait < 29*time.Minute || wait > 33*time.Minute || wait%time.Second != 0 {
			t.Errorf("minimum wait %v, want 30–33 min in whole seconds", wait)
		}
		seen[wait] = true
	}
	if len(seen) < 2 {
		t.Errorf("20 replies, all with the wait %v: no jitter", seen)
	}
	frozen := mirrorOf(t, e.up, mirror.Config{Frozen: true}, "")
	frozen.update(t)
	if _, wait := frozen.getList(t, ""); wait != mirror.FrozenWait {
		t.Errorf("frozen: wait %v, want %v", wait, mirror.FrozenWait)
	}
}

// TestEncodings: JSON by default and with alt=json, protobuf with
// alt=proto and $ct, each read by v5wire's readers, and the same list.
func TestEncodings(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "")
	e.up.Add("se-4b", "evil.example/")
	e.up.Add("gc-32b", "www.google.com/")
	e.update(t)
	for _, tt := range []struct {
		query string
		proto bool
	}{
		// No alt: JSON, as Google's servers default.
		{"", false},
		{"?alt=json", false},
		{"?alt=proto", true},
		// Chromium's form.
		{"?$ct=application/x-protobuf", true},
	} {
		t.Run(tt.query, func(t *testing.T) {
			status, h, body := e.get(t, "/v5/hashList/gc-32b"+tt.query)
			if status != 200 {
				t.Fatalf("%d %s", status, body)
			}
			var hl v5wire.HashList
			var err error
			if tt.proto {
				hl, err = v5wire.ParseHashList(body)
			} else {
				err = hl.UnmarshalJSON(body)
			}
			if err != nil {
				t.Fatalf("%v: %s", err, body)
			}
			if ct := h.Get("Content-Type"); strings.Contains(ct, "json") == tt.proto {
				t.Errorf("Content-Type %q", ct)
			}
			if hl.Name != "gc-32b" || hl.AddWidth != 32 || hl.MinimumWait < mirror.MinWait || len(hl.Checksum) != 32 {
				t.Errorf("list %+v", hl)
			}
		})
	}
	// batchGet in both encodings, versions in any order.
	status, _, body := e.get(t, "/v5/hashLists:batchGet?names=se-4b&names=hashLists/gc-32b&alt=proto")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	lists, err := v5wire.ParseBatch(body)
	if err != nil || len(lists) != 2 {
		t.Fatalf("%d lists, %v", len(lists), err)
	}
	var vs []string
	for _, b := range lists {
		hl, err := v5wire.ParseHashList(b)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, "version="+version64(hl.Version))
	}
	status, _, body = e.get(t, "/v5/hashLists:batchGet?names=se-4b&names=gc-32b&"+vs[1]+"&"+vs[0])
	got, err := v5wire.UnmarshalBatchJSON(body)
	if status != 200 || err != nil || len(got) != 2 {
		t.Fatalf("%d %v %s", status, err, body)
	}
	for i, hl := range got {
		if !hl.Partial || hl.AddWidth != 0 || len(hl.Checksum) != 32 || hl.MinimumWait < mirror.MinWait {
			t.Errorf("list %d at its version: %+v", i, hl)
		}
	}
	// ListHashLists, paged.
	status, _, body = e.get(t, "/v5/hashLists?pageSize=4&alt=proto")
	lr, err := v5wire.ParseListHashListsResponse(body)
	if status != 200 || err != nil || len(lr.HashLists) != 4 || lr.NextPageToken == "" {
		t.Fatalf("%d %v %+v", status, err, lr)
	}
	status, _, body = e.get(t, "/v5/hashLists?pageToken="+lr.NextPageToken)
	var lr2 v5wire.ListHashListsResponse
	if err := lr2.UnmarshalJSON(body); status != 200 || err != nil || len(lr2.HashLists) != 2 || lr2.HashLists[1].Metadata.HashLength != v5wire.ThirtyTwoBytes {
		t.Fatalf("%d %v %s", status, err, body)
	}
}

// TestErrors: bad requests get Google's error shape and status.
func TestErrors(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "")
	e.update(t)
	for _, tt := range []struct {
		path   string
		status int
		want   string
	}{
		// Another path.
		{"/v5/urls:search", 404, "NOT_FOUND"},
		// An unknown list.
		{"/v5/hashList/nope-4b", 404, "unknown list"},
		// A misspelt parameter.
		{"/v5/hashList/se-4b?versoin=x", 400, "unknown parameter"},
		// alt=xml.
		{"/v5/hashList/se-4b?alt=xml", 400, "INVALID_ARGUMENT"},
		// maxUpdateEntries below 1024.
		{"/v5/hashList/se-4b?sizeConstraints.maxUpdateEntries=10", 400, "at least 1024"},
		// A name twice.
		{"/v5/hashLists:batchGet?names=se-4b&names=se-4b", 400, "twice"},
		// No names.
		{"/v5/hashLists:batchGet", 400, "names is required"},
		// No prefix.
		{"/v5/hashes:search", 400, "hashPrefixes is required"},
		// A prefix of 3 bytes.
		{"/v5/hashes:search?hashPrefixes=AAAA", 400, "not 4"},
		// $req that is not a message.
		{"/v5/hashes:search?$req=_w==", 400, "SearchHashesRequest"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			status, _, body := e.get(t, tt.path)
			var g struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Status  string `json:"status"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &g); err != nil || status != tt.status || g.Error.Code != status || !strings.Contains(string(body), tt.want) {
				t.Errorf("%d %s; want %d, %s", status, body, tt.status, tt.want)
			}
		})
	}
	resp, err := http.Post(e.srv.URL+"/v5/hashLists", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") == "" {
		t.Errorf("POST: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestSizeConstraints: maxUpdateEntries chunks an update, which a client
// follows to the whole list; maxDatabaseEntries refuses a list too big,
// naming both sizes.
func TestSizeConstraints(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "")
	for i := range 2500 {
		e.up.AddHash("se-4b", sha256.Sum256([]byte(strconv.Itoa(i))))
	}
	e.update(t)
	status, _, body := e.get(t, "/v5/hashList/se-4b?sizeConstraints.maxDatabaseEntries=2000")
	if status != 400 || !strings.Contains(string(body), "2500") || !strings.Contains(string(body), "2000") {
		t.Errorf("maxDatabaseEntries: %d %s", status, body)
	}
	l, _ := hashlist.New("se-4b")
	var chunks int
	q := "&sizeConstraints.maxUpdateEntries=1024"
	for {
		msg, wait := e.getList(t, q+versionQuery(l.Version()))
		_, _, body := e.get(t, "/v5/hashList/se-4b?alt=proto"+q+versionQuery(l.Version()))
		if err := l.Apply(body); err != nil {
			t.Fatal(err)
		}
		chunks++
		if len(msg.Additions)/4+len(msg.Removals) > 1024 {
			t.Errorf("chunk of %d entries", len(msg.Additions)/4+len(msg.Removals))
		}
		if wait != 0 {
			break
		}
		if chunks > 5 {
			t.Fatal("no end to the chunks")
		}
	}
	if chunks != 3 || l.Len() != 2500 {
		t.Errorf("%d chunks to %d entries, want 3 to 2500", chunks, l.Len())
	}
}

func versionQuery(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	return "&version=" + version64(v)
}

// TestReplicasAgree: two mirrors of one upstream, and a mirror restarted
// from its Dir, serve the same versions.
func TestReplicasAgree(t *testing.T) {
	up := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithMinimumWait(time.Nanosecond))
	t.Cleanup(up.Close)
	dir := t.TempDir()
	a := mirrorOf(t, up, mirror.Config{}, dir)
	a.update(t)
	up.Add("mw-4b", "later.example/") // b fetches a later upstream state of mw-4b
	b := mirrorOf(t, up, mirror.Config{}, "")
	b.update(t)
	up.Remove("mw-4b", "later.example/")
	a.src.Close()
	restarted := mirrorOf(t, up, mirror.Config{}, dir) // loads a's lists; no fetch
	versions := func(e *env) map[string]string {
		status, _, body := e.get(t, "/v5/hashLists:batchGet?alt=proto&names=se-4b&names=mw-4b&names=gc-32b")
		if status != 200 {
			t.Fatalf("%d %s", status, body)
		}
		out := map[string]string{}
		lists, _ := v5wire.ParseBatch(body)
		for _, l := range lists {
			hl, _ := v5wire.ParseHashList(l)
			out[hl.Name] = string(hl.Version)
		}
		return out
	}
	va, vb := versions(restarted), versions(b)
	for _, name := range []string{"se-4b", "gc-32b"} {
		if va[name] == "" || va[name] != vb[name] {
			t.Errorf("%s: versions %q and %q", name, va[name], vb[name])
		}
	}
	if va["mw-4b"] == vb["mw-4b"] {
		t.Errorf("mw-4b differs, yet both replicas give %q", va["mw-4b"])
	}
	// A client at b's mw-4b moves to the restarted replica: the whole
	// list, correct.
	msg := fetchFrom(t, restarted, "mw-4b", []byte(vb["mw-4b"]))
	if msg.Partial || string(msg.Version) != va["mw-4b"] {
		t.Errorf("moved client: partial %v version %q", msg.Partial, msg.Version)
	}
}

func fetchFrom(t testing.TB, e *env, name string, v []byte) hashlist.Message {
	t.Helper()
	status, _, body := e.get(t, "/v5/hashList/"+name+"?alt=proto"+versionQuery(v))
	var msg hashlist.Message
	if err := msg.UnmarshalBinary(body); status != 200 || err != nil {
		t.Fatalf("%d %v %s", status, err, body)
	}
	return msg
}

// TestSearch: the cache answers, concurrent identical prefixes make one
// upstream request, cacheDuration is the least time left, and Chromium's
// $req= form is read.
func TestSearch(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "", sbtest.WithCacheDuration(10*time.Minute))
	e.up.Add("mw-4b", "evil.example/")
	e.update(t)
	evil := prefixOf("evil.example/")
	q := "/v5/hashes:search?hashPrefixes=" + base64.URLEncoding.EncodeToString(evil[:])
	e.up.Inject(sbtest.Fault{Endpoint: "hashes:search", Latency: 200 * time.Millisecond, Times: 1})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			status, _, body := e.get(t, q)
			var r v5wire.SearchHashesResponse
			if err := r.UnmarshalJSON(body); status != 200 || err != nil || len(r.FullHashes) != 1 || r.FullHashes[0].Hash != sha256.Sum256([]byte("evil.example/")) {
				t.Errorf("%d %v %s", status, err, body)
			}
		})
	}
	wg.Wait()
	if n := e.up.Requests("hashes:search"); n != 1 {
		t.Errorf("20 concurrent searches made %d upstream requests, want 1", n)
	}
	st := e.m.Stats()
	if st.UpstreamSearches != 1 || st.UpstreamSaved != 19 || st.CacheEntries != 1 || st.Requests["hashes:search"] != 20 {
		t.Errorf("stats %+v", st)
	}
	// The $req= form, binary: one prefix cached, one new.
	other := [4]byte{9, 9, 9, 9}
	req := v5wire.AppendSearchHashesRequest(nil, &v5wire.SearchHashesRequest{HashPrefixes: [][]byte{evil[:], other[:]}})
	status, _, body := e.get(t, "/v5/hashes:search?$req="+base64.URLEncoding.EncodeToString(req)+"&$ct=application/x-protobuf")
	r, err := v5wire.ParseSearchHashesResponse(body)
	if status != 200 || err != nil || len(r.FullHashes) != 1 || !r.HasCacheDuration || r.CacheDuration > 10*time.Minute || r.CacheDuration < 9*time.Minute {
		t.Errorf("%d %v %+v", status, err, r)
	}
	if n := e.up.Requests("hashes:search"); n != 2 {
		t.Errorf("%d upstream requests, want 2", n)
	}
	if got := e.up.SearchedPrefixes(); len(got) != 2 || !bytes.Equal(got[1], other[:]) {
		t.Errorf("upstream asked %x, want the uncached prefix alone", got)
	}
}

// TestSearchFailure: a failed upstream search is a 503, never an empty
// reply, and the back-off shows as Retry-After.
func TestSearchFailure(t *testing.T) {
	e := newEnv(t, mirror.Config{}, "")
	e.update(t)
	e.up.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 500})
	for i := range 4 {
		p := make([]byte, 4)
		binary.BigEndian.PutUint32(p, uint32(i))
		status, h, body := e.get(t, "/v5/hashes:search?alt=proto&hashPrefixes="+base64.URLEncoding.EncodeToString(p))
		if status != 503 || !strings.Contains(string(body), "UNAVAILABLE") {
			t.Errorf("search %d: %d %s", i, status, body)
		}
		if ra := h.Get("Retry-After"); (i == 3) != (ra != "") {
			t.Errorf("search %d: Retry-After %q", i, ra)
		} else if i == 3 {
			if n, _ := strconv.Atoi(ra); n < 290 || n > 300 {
				t.Errorf("Retry-After %q, want 300", ra)
			}
		}
	}
	if n := e.up.Requests("hashes:search"); n != 3 {
		t.Errorf("%d upstream requests, want 3 before the back-off", n)
	}
}

// ExampleNew mounts a mirror of a source client, and points a client at
// it.
func ExampleNew() {
	up := sbtest.NewServer() // Google, in a test
	defer up.Close()
	up.Add("se-4b", "evil.example/")

	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil { // a service runs go src.Run(ctx)
		panic(err)
	}
	m, err := mirror.New(src, mirror.Config{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()

	c, err := lookup.New(lookup.Config{APIKey: "any", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		panic(err)
	}
	v, err := c.Lookup(context.Background(), "http://evil.example/")
	fmt.Println(v.Unsafe(), err)
	fmt.Println(up.Requests("hashes:search"), m.Stats().UpstreamSearches)
	// Output:
	// true <nil>
	// 1 1
}

// ExampleMirror_ServeHTTP mounts a mirror beside a server's own routes:
// the paths that Handles reports go to the mirror, the rest elsewhere.
func ExampleMirror_ServeHTTP() {
	up := sbtest.NewServer()
	defer up.Close()
	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil {
		panic(err)
	}
	m, err := mirror.New(src, mirror.Config{})
	if err != nil {
		panic(err)
	}
	own := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "the server's own route")
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mirror.Handles(r.URL.Path) {
			m.ServeHTTP(w, r) // behind the server's own key check
			return
		}
		own.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, path := range []string{"/v5/hashList/se-4b?alt=proto", "/v5/hashLists:batchGet?names=se-4b&alt=proto", "/status"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body) > 0)
	}
	// Output:
	// /v5/hashList/se-4b?alt=proto 200 application/x-protobuf true
	// /v5/hashLists:batchGet?names=se-4b&alt=proto 200 application/x-protobuf true
	// /status 200 text/plain; charset=utf-8 true
}

// ExampleMirror_Stats shows what a mirror counts.
func ExampleMirror_Stats() {
	up := sbtest.NewServer()
	defer up.Close()
	src, _ := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL})
	defer src.Close()
	src.Update(context.Background())
	m, _ := mirror.New(src, mirror.Config{})
	srv := httptest.NewServer(m)
	defer srv.Close()
	for range 3 {
		resp, err := http.Get(srv.URL + "/v5/hashList/se-4b?alt=proto")
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
	}
	st := m.Stats()
	fmt.Println(st.Requests["hashList"], st.UpstreamSaved, up.Requests("hashList")+up.Requests("hashLists:batchGet"))
	// Output: 3 3 1
}

// ExampleHandles tells the paths a mirror serves.
func ExampleHandles() {
	for _, p := range []string{"/v5/hashList/se-4b", "/v5/hashes:search", "/v5/urls:search"} {
		fmt.Println(p, mirror.Handles(p))
	}
	// Output:
	// /v5/hashList/se-4b true
	// /v5/hashes:search true
	// /v5/urls:search false
}

// ExampleMethods names the methods a mirror serves, as its Stats do.
func ExampleMethods() {
	fmt.Println(mirror.Methods())
	// Output: [hashes:search hashList hashLists:batchGet hashLists]
}
