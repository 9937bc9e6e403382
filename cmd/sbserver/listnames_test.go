// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// oddKey is the upstream key of these tests: lower-cased, it is a list
// name by lookup's rule.
const oddKey = "OddKey-Zq9-4b"

// oddUpstream is an sbtest server, with the key oddKey and se-4b holding
// evil.example/, behind a proxy whose hashLists answers lists instead.
func oddUpstream(t *testing.T, lists http.HandlerFunc) (*sbtest.Server, string) {
	t.Helper()
	up := sbtest.NewServer(sbtest.WithAPIKey(oddKey))
	t.Cleanup(up.Close)
	if err := up.Add("se-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v5/hashLists" {
			lists(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return up, srv.URL
}

// An oddList is one list of a ListHashLists reply.
type oddList struct {
	name, desc string
	hashLength uint64 // HashLength: 2 FOUR_BYTES, 5 THIRTY_TWO_BYTES
}

// oddLists is a ListHashLists reply, in binary protobuf, that names
// se-4b, mw-4b and gc-32b, and lists that lookup refuses: Se-4b,
// se_new-4b, a 65-byte name, hashLists/se-4b beside se-4b, the prefix
// twice, and the key lower-cased; descriptions show the key.
func oddLists() []oddList {
	lower := strings.ToLower(oddKey)
	return []oddList{
		{"se-4b", "social engineering, for " + oddKey, 2},
		{"Se-4b", "upper case", 2},
		{"se_new-4b", "underscore", 2},
		{strings.Repeat("n", 62) + "-4b", "65 bytes", 2},
		{"hashLists/se-4b", "se-4b again", 2},
		{"hashLists/hashLists/mw-4b", "prefix twice", 2},
		{lower, "the key, " + lower, 2},
		{"mw-4b", "malware, " + lower, 2},
		{"gc-32b", "global cache", 5},
	}
}

// serveLists answers ListHashLists with lists, in binary protobuf.
func serveLists(lists []oddList) http.HandlerFunc {
	var reply []byte
	for _, l := range lists {
		// HashListMetadata { 4 description; 6 hash_length }.
		var md []byte
		md = protowire.AppendTag(md, 4, protowire.BytesType)
		md = protowire.AppendString(md, l.desc)
		md = protowire.AppendTag(md, 6, protowire.VarintType)
		md = protowire.AppendVarint(md, l.hashLength)
		// HashList { 1 name; 8 metadata }.
		var hl []byte
		hl = protowire.AppendTag(hl, 1, protowire.BytesType)
		hl = protowire.AppendString(hl, l.name)
		hl = protowire.AppendTag(hl, 8, protowire.BytesType)
		hl = protowire.AppendBytes(hl, md)
		// ListHashListsResponse { 1 hash_lists }.
		reply = protowire.AppendTag(reply, 1, protowire.BytesType)
		reply = protowire.AppendBytes(reply, hl)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(reply)
	}
}

// startMirror runs sbserver -mirror in-process against upstream with the
// key oddKey, and waits until /readyz answers 200. It returns the base
// URL, the log so far, and stop, which shuts the server down and checks
// that it exits 0.
func startMirror(t *testing.T, upstream string) (base string, log func() string, stop func()) {
	t.Helper()
	var mu sync.Mutex
	var stderr strings.Builder
	log = func() string {
		mu.Lock()
		defer mu.Unlock()
		return stderr.String()
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc, done := make(chan string, 1), make(chan int, 1)
	h := &hooks{listening: func(a string) { addrc <- a }, getenv: func(string) string { return "" }}
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-mirror", "-upstream", upstream, "-key", oddKey}, lockedWriter{&mu, &stderr}, h)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if status := <-done; status != 0 {
				t.Errorf("exit %d:\n%s", status, log())
			}
		})
	}
	t.Cleanup(stop)
	select {
	case addr := <-addrc:
		base = "http://" + addr
	case status := <-done:
		done <- status
		t.Fatalf("sbserver exited with %d:\n%s", status, log())
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if status, _ := mirrorDo(t, "GET", base+"/readyz"); status == 200 {
			return base, log, stop
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready in 10 s:\n%s", log())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// showsKey fails the test for each line of s that shows the key, in any
// case.
func showsKey(t *testing.T, what, s string) {
	t.Helper()
	lower := strings.ToLower(oddKey)
	for i, line := range strings.Split(s, "\n") {
		if strings.Contains(strings.ToLower(line), lower) {
			t.Errorf("%s, line %d, shows the key: %.500s", what, i+1, line)
		}
	}
}

// TestMirrorOddListNames: sbserver -mirror, whose upstream names lists
// lookup refuses, starts, serves the lists lookup keeps, logs each one
// skipped with the key masked, and shows the key, in any case, in no log
// line, no reply and no metric.
func TestMirrorOddListNames(t *testing.T) {
	t.Parallel()
	up, upstream := oddUpstream(t, serveLists(oddLists()))
	base, log, stop := startMirror(t, upstream)

	var replies []string
	get := func(path string, want int) string {
		t.Helper()
		status, body := mirrorDo(t, "GET", base+path)
		if status != want {
			t.Errorf("%s: %d %.300s; want %d", path, status, body, want)
		}
		replies = append(replies, path+": "+body)
		return body
	}
	var lists struct {
		HashLists []struct{ Name string } `json:"hashLists"`
	}
	if err := json.Unmarshal([]byte(get("/v5/hashLists", 200)), &lists); err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, l := range lists.HashLists {
		served = append(served, l.Name)
	}
	if want := []string{"se-4b", "mw-4b", "gc-32b"}; !slices.Equal(served, want) {
		t.Errorf("hashLists serves %q, want %q", served, want)
	}
	get("/v5/hashList/se-4b", 200)
	get("/v5/hashLists:batchGet?names=mw-4b&names=gc-32b", 200)
	get("/v5/hashList/Se-4b", 404)
	if body := get("/v5/urls:search?urls=http://evil.example/", 200); !strings.Contains(body, "SOCIAL_ENGINEERING") {
		t.Errorf("urls:search: %s; want SOCIAL_ENGINEERING", body)
	}
	status := get("/status", 200)
	for _, name := range served {
		if !strings.Contains(status, `"name":"`+name+`"`) {
			t.Errorf("/status lacks %s: %s", name, status)
		}
	}
	if metrics := get("/metrics", 200); !strings.Contains(metrics, `list="se-4b"`) {
		t.Errorf("/metrics lacks se-4b's series")
	}
	if n := up.Requests("hashLists"); n != 0 {
		t.Errorf("the fake itself got %d hashLists requests; the proxy answers them", n)
	}
	stop()

	out := log()
	for _, want := range []string{
		`list=Se-4b `, `list=se_new-4b `, `list=` + strings.Repeat("n", 62) + `-4b `, `list=hashLists/se-4b reason="named twice"`,
		`list=hashLists/hashLists/mw-4b `, `list=REDACTED reason="its name shows the API key"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no log line shows %s:\n%s", want, out)
		}
	}
	showsKey(t, "the log", out)
	showsKey(t, "the replies", strings.Join(replies, "\n"))
}

// TestMirrorHashListsFails: no hashLists reply stops sbserver -mirror
// from starting. When the upstream's hashLists fails, or names no list
// lookup keeps, the mirror keeps the lists of the v5 reference, and the
// log says why without the key.
func TestMirrorHashListsFails(t *testing.T) {
	t.Parallel()
	lower := strings.ToLower(oddKey)
	for _, tt := range []struct {
		name  string
		lists http.HandlerFunc
		log   string
	}{
		// A 500 whose message echoes the key, lower-cased.
		{"500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			w.Write([]byte(`{"error":{"code":500,"message":"no lists for ` + lower + `","status":"INTERNAL"}}`))
		}, "hashLists failed"},
		// Bytes that are no ListHashListsResponse.
		{"corrupt", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write([]byte{0x0a, 0xff})
		}, "hashLists failed"},
		// Only names lookup refuses, the key among them.
		{"no list kept", serveLists([]oddList{{"Se-4b", "", 2}, {lower, lower, 2}, {"hashLists/hashLists/se-4b", "", 2}}), "named no list to keep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, upstream := oddUpstream(t, tt.lists)
			base, log, stop := startMirror(t, upstream)
			status, body := mirrorDo(t, "GET", base+"/v5/hashLists")
			if status != 200 || !strings.Contains(body, `"name":"uwsa-4b"`) || !strings.Contains(body, `"name":"gc-32b"`) {
				t.Errorf("hashLists: %d %s; want the lists of the v5 reference", status, body)
			}
			showsKey(t, "hashLists", body)
			stop()
			if !strings.Contains(log(), tt.log) {
				t.Errorf("no log line says %q:\n%s", tt.log, log())
			}
			showsKey(t, "the log", log())
		})
	}
}
