// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

const (
	evil   = "http://evil.example/login"
	canary = "https://canary.example/"
	safe   = "http://example.com/"
)

// newProxy starts a fake v5 server holding evil.example/ (malware) and
// canary.example/ (social engineering, CANARY), a client of it in mode,
// and the proxy's handler in front of the client. The lists are loaded
// when load is true.
func newProxy(t testing.TB, mode lookup.Mode, load bool, opts ...sbtest.Option) (*sbtest.Server, *lookup.Client, *httptest.Server) {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	if err := s.Add("mw-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("se-4b", "canary.example/", sbtest.Canary); err != nil {
		t.Fatal(err)
	}
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: mode, HTTPClient: s.Client()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if load {
		if err := c.Update(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	o := options{Mode: mode, UpstreamKey: s.APIKey}
	if mode != lookup.NoStorage { // as run serves it
		v4, err := v4update.New(c, v4update.Config{})
		if err != nil {
			t.Fatal(err)
		}
		o.V4 = v4
	}
	p := httptest.NewServer(newServer(c, o))
	t.Cleanup(p.Close)
	return s, c, p
}

// do sends a request to the proxy and returns the status, the raw body and
// the headers. A POST is sent as JSON.
func do(t *testing.T, method, url, body string) (int, string, http.Header) {
	t.Helper()
	if method == "POST" {
		return request(t, method, url, body, "Content-Type: application/json")
	}
	return request(t, method, url, body)
}

// request sends a request with headers ("Name: value"; "Host: name" sets
// the request's host) and returns the status, the raw body and the
// headers.
func request(t *testing.T, method, url, body string, headers ...string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// lookupJSON posts urls to the proxy and decodes the reply.
func lookupJSON(t *testing.T, p *httptest.Server, urls ...string) (int, lookupReply, string, http.Header) {
	t.Helper()
	body, err := json.Marshal(lookupRequest{URLs: urls})
	if err != nil {
		t.Fatal(err)
	}
	status, raw, h := do(t, "POST", p.URL+"/v5/urls:lookup", string(body))
	var reply lookupReply
	if err := json.Unmarshal([]byte(raw), &reply); err != nil {
		t.Fatalf("reply %q is not JSON: %v", raw, err)
	}
	return status, reply, raw, h
}

func ptr(b bool) *bool { return &b }

func TestLookup(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	for _, tt := range []struct {
		name       string
		in         []string
		want       lookupReply
		wantStatus int
	}{
		// An unsafe URL: its threat, type and expression.
		{"unsafe", []string{evil}, lookupReply{Verdicts: []verdict{
			{URL: evil, Unsafe: ptr(true), Threats: []threat{{ThreatType: "MALWARE", Expression: "evil.example/"}}},
		}}, 200},
		// A canary threat is reported but not unsafe.
		{"canary", []string{canary}, lookupReply{Verdicts: []verdict{
			{URL: canary, Unsafe: ptr(false), Threats: []threat{{ThreatType: "SOCIAL_ENGINEERING", Attributes: []string{"CANARY"}, Expression: "canary.example/"}}},
		}}, 200},
		// A safe URL: unsafe false, no threats.
		{"safe", []string{safe}, lookupReply{Verdicts: []verdict{
			{URL: safe, Unsafe: ptr(false), Threats: []threat{}},
		}}, 200},
		// A bad URL carries its error and no "unsafe"; the others stand, in order.
		{"bad URL", []string{safe, "", evil}, lookupReply{Verdicts: []verdict{
			{URL: safe, Unsafe: ptr(false), Threats: []threat{}},
			{URL: "", Threats: []threat{}, Error: `lookup: safebrowse: empty URL in ""`},
			{URL: evil, Unsafe: ptr(true), Threats: []threat{{ThreatType: "MALWARE", Expression: "evil.example/"}}},
		}}, 200},
		// No URLs: no verdicts.
		{"none", []string{}, lookupReply{Verdicts: []verdict{}}, 200},
		// 1000 URLs is the limit.
		{"too many URLs", make([]string, maxURLs+1), lookupReply{Error: "sbserver: 1001 URLs in one request, at most 1000"}, 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, got, raw, _ := lookupJSON(t, p, tt.in...)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; %s", status, tt.wantStatus, raw)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("reply %s\nwant %+v", raw, tt.want)
			}
		})
	}
}

// TestMaxURLs: exactly 1000 URLs are answered.
func TestMaxURLs(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	urls := make([]string, maxURLs)
	for i := range urls {
		urls[i] = "http://host" + strconv.Itoa(i) + ".example/"
	}
	urls[999] = evil
	status, got, raw, _ := lookupJSON(t, p, urls...)
	if status != 200 || len(got.Verdicts) != maxURLs {
		t.Fatalf("status %d, %d verdicts: %.300s", status, len(got.Verdicts), raw)
	}
	if v := got.Verdicts[999]; v.URL != evil || v.Unsafe == nil || !*v.Unsafe {
		t.Errorf("verdict 999 %+v, want %s unsafe", v, evil)
	}
}

func TestBadRequest(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	for _, tt := range []struct {
		name       string
		method     string
		path       string
		in         string
		wantStatus int
		wantBody   string
	}{
		// Not JSON.
		{"not JSON", "POST", "/v5/urls:lookup", "http://evil.example/", 400, "sbserver: request body is not"},
		// A misspelt field is not taken as no URLs.
		{"unknown field", "POST", "/v5/urls:lookup", `{"url": ["http://evil.example/"]}`, 400, `unknown field \"url\"`},
		// A second value after the request.
		{"trailing data", "POST", "/v5/urls:lookup", `{"urls": []} {"urls": []}`, 400, "more than one JSON value"},
		// A URL that is not a string.
		{"not a string", "POST", "/v5/urls:lookup", `{"urls": [1]}`, 400, "sbserver: request body is not"},
		// The body is read no further than 1 MiB.
		{"body too large", "POST", "/v5/urls:lookup", `{"urls": ["` + strings.Repeat("a", maxBody) + `"]}`, 413, "over 1048576 bytes"},
		// Lookups are POSTs.
		{"GET lookup", "GET", "/v5/urls:lookup", "", 405, `{"error":"sbserver: method GET not allowed: use POST"}`},
		// The status is a GET.
		{"POST status", "POST", "/status", "", 405, `{"error":"sbserver: method POST not allowed: use GET, HEAD"}`},
		// Another path.
		{"not found", "GET", "/v5/hashes:search", "", 404, `{"error":"sbserver: not found`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, h := do(t, tt.method, p.URL+tt.path, tt.in)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; %.200s", status, tt.wantStatus, body)
			}
			if ct := h.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if status == 405 && h.Get("Allow") == "" {
				t.Error("a 405 without Allow")
			}
			if !strings.Contains(body, tt.wantBody) {
				t.Errorf("body %.200q, want it to contain %q", body, tt.wantBody)
			}
		})
	}
}

// TestNotReady: before the lists load, lookups and the status are 503s
// with ErrNotReady, never a verdict.
func TestNotReady(t *testing.T) {
	s, c, p := newProxy(t, lookup.LocalList, false)
	status, got, raw, _ := lookupJSON(t, p, evil, safe)
	if want := (lookupReply{Error: lookup.ErrNotReady.Error()}); status != 503 || !reflect.DeepEqual(got, want) {
		t.Errorf("lookup: status %d, reply %s; want 503 %+v", status, raw, want)
	}
	status, body, _ := do(t, "GET", p.URL+"/status", "")
	var st statusReply
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	if status != 503 || st.Ready || st.Error != lookup.ErrNotReady.Error() || len(st.Lists) != 5 || st.Lists[0].Loaded {
		t.Errorf("status: %d %s; want 503, not ready, 5 lists not loaded", status, body)
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("%d searches before the lists loaded", n)
	}

	// Once loaded, both answer.
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	status, body, _ = do(t, "GET", p.URL+"/status", "")
	st = statusReply{}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	if status != 200 || !st.Ready || st.Mode != "LocalList" || st.Lists[1].Name != "mw-4b" || st.Lists[1].Entries != 1 ||
		string(st.Lists[1].Version) != "mw-4b:1" || !st.Lists[1].Loaded || st.Lists[1].Next.IsZero() {
		t.Errorf("status: %d %s; want 200, ready, mw-4b with 1 entry", status, body)
	}
	if status, _, raw, _ := lookupJSON(t, p, evil); status != 200 {
		t.Errorf("lookup once ready: %d %s", status, raw)
	}
}

// TestSearchFailure: a failed search is a 503 whose verdict for the URL
// that needed the server carries the error and never says safe; after
// three such failures the client backs off, and the proxy says until when.
func TestSearchFailure(t *testing.T) {
	s, _, p := newProxy(t, lookup.LocalList, true)
	s.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: http.StatusInternalServerError, Times: 3})
	status, got, raw, _ := lookupJSON(t, p, evil, safe)
	if status != 503 || got.Error == "" {
		t.Errorf("status %d, reply %s; want 503 with an error", status, raw)
	}
	if len(got.Verdicts) != 2 {
		t.Fatalf("reply %s: want 2 verdicts", raw)
	}
	if v := got.Verdicts[0]; v.Unsafe != nil || v.Error == "" || !strings.Contains(v.Error, "500") {
		t.Errorf("verdict of %s: %+v, want an error with the status and no \"unsafe\"", evil, v)
	}
	// The lists rule safe out: no search needed, its verdict stands.
	if v := got.Verdicts[1]; v.Unsafe == nil || *v.Unsafe || v.Error != "" {
		t.Errorf("verdict of %s: %+v, want safe", safe, v)
	}
	if strings.Contains(raw, `"unsafe":false,"threats":[],"error"`) {
		t.Errorf("a failed URL reported as safe: %s", raw)
	}

	// Two more failures start the client's back-off: then an error at
	// once, with Retry-After.
	for range 2 {
		if status, _, raw, _ := lookupJSON(t, p, evil); status != 503 {
			t.Fatalf("status %d, reply %s; want 503", status, raw)
		}
	}
	// /metrics shows the back-off as soon as it starts, before a lookup
	// is refused.
	if got, _ := value(scrape(t, p.URL)["sbserver_backoff_until_timestamp_seconds"], "method=hashes:search"); got < float64(time.Now().Unix()) {
		t.Errorf("sbserver_backoff_until_timestamp_seconds{method=hashes:search} = %v, want the back-off's end", got)
	}
	before := s.Requests("hashes:search")
	status, got, raw, h := lookupJSON(t, p, evil)
	if status != 503 || !strings.Contains(got.Error, "backing off") || h.Get("Retry-After") == "" {
		t.Errorf("status %d, Retry-After %q, reply %s; want 503 backing off", status, h.Get("Retry-After"), raw)
	}
	if len(got.Verdicts) != 1 || got.Verdicts[0].Unsafe != nil {
		t.Errorf("reply %s: want one verdict without \"unsafe\"", raw)
	}
	if n := s.Requests("hashes:search"); n != before {
		t.Errorf("%d searches while backing off", n-before)
	}
}

// TestKeyNeverEchoed: an upstream that echoes the key in its message, in
// Google's JSON error shape (sbtest, as Google, does not echo it): the
// proxy's reply must not carry it.
func TestKeyNeverEchoed(t *testing.T) {
	const key = "wrong-key-4242"
	var searches atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		searches.Add(1)
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(http.StatusBadRequest)
		msg, _ := json.Marshal("API key not valid: " + r.URL.Query().Get("key"))
		fmt.Fprintf(w, `{"error":{"code":400,"message":%s,"status":"INVALID_ARGUMENT"}}`, msg)
	}))
	defer s.Close()
	c, err := lookup.New(lookup.Config{APIKey: key, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := httptest.NewServer(newServer(c, options{Mode: lookup.NoStorage, UpstreamKey: key}))
	defer p.Close()
	for range 2 { // the failure, then the back-off
		status, body, _ := do(t, "POST", p.URL+"/v5/urls:lookup", `{"urls": ["`+evil+`"]}`)
		if status != 503 {
			t.Errorf("status %d, want 503: %s", status, body)
		}
		if strings.Contains(body, key) {
			t.Errorf("reply shows the key: %s", body)
		}
	}
	if searches.Load() == 0 {
		t.Error("no search made: the test tests nothing")
	}
}

// TestClosed: after the client closes, lookups are 503s.
func TestClosed(t *testing.T) {
	_, c, p := newProxy(t, lookup.LocalList, true)
	c.Close()
	status, got, raw, _ := lookupJSON(t, p, evil)
	if status != 503 || got.Error != lookup.ErrClosed.Error() || got.Verdicts != nil {
		t.Errorf("status %d, reply %s; want 503 %q", status, raw, lookup.ErrClosed)
	}
}

// TestConcurrent: many programs share the proxy at once (go test -race).
func TestConcurrent(t *testing.T) {
	_, _, p := newProxy(t, lookup.RealTime, true)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			u := "http://host" + strconv.Itoa(i) + ".example/"
			status, got, raw, _ := lookupJSON(t, p, u, evil)
			if status != 200 || len(got.Verdicts) != 2 || !reflect.DeepEqual(got.Verdicts[0].Unsafe, ptr(false)) ||
				!reflect.DeepEqual(got.Verdicts[1].Unsafe, ptr(true)) {
				t.Errorf("status %d, reply %s", status, raw)
			}
		})
	}
	wg.Wait()
}

// start runs sbserver with args on a free loopback port and returns its
// address, the -fake server if any, and a function that stops it with
// SIGINT's effect and returns the exit status.
func start(t *testing.T, args ...string) (addr string, fake *sbtest.Server, stop func() int) {
	t.Helper()
	t.Setenv("SAFE_BROWSING_API_KEY", "")
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	var stderr strings.Builder
	var mu sync.Mutex
	done := make(chan int, 1)
	h := &hooks{
		fake:      func(s *sbtest.Server) { fake = s },
		listening: func(a string) { addrc <- a },
	}
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), lockedWriter{&mu, &stderr}, h)
	}()
	select {
	case addr = <-addrc:
	case status := <-done:
		cancel()
		t.Fatalf("sbserver exited with %d: %s", status, stderr.String())
	}
	return addr, fake, func() int {
		cancel()
		status := <-done
		if status != 0 {
			mu.Lock()
			t.Logf("stderr:\n%s", stderr.String())
			mu.Unlock()
		}
		return status
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// waitReady polls /status until it is a 200.
func waitReady(t *testing.T, addr string) statusReply {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body, _ := do(t, "GET", "http://"+addr+"/status", "")
		if status == 200 {
			var st statusReply
			if err := json.Unmarshal([]byte(body), &st); err != nil {
				t.Fatal(err)
			}
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 10 s: %d %s", status, body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRun: the command with -fake, end to end, and its graceful shutdown.
func TestRun(t *testing.T) {
	addr, _, stop := start(t, "-fake")
	waitReady(t, addr)
	const malware = "http://malware.testing.google.test/testing/malware/"
	status, body, _ := do(t, "POST", "http://"+addr+"/v5/urls:lookup", `{"urls": ["`+malware+`", "http://example.com/"]}`)
	want := `{"verdicts":[{"url":"` + malware + `","unsafe":true,"threats":[{"threatType":"MALWARE","expression":"malware.testing.google.test/testing/malware/"}]},` +
		`{"url":"http://example.com/","unsafe":false,"threats":[]}]}` + "\n"
	if status != 200 || body != want {
		t.Errorf("status %d, body\n%s\nwant\n%s", status, body, want)
	}
	if status := stop(); status != 0 {
		t.Errorf("exit status %d after shutdown, want 0", status)
	}
}

// TestFrozen: -frozen answers from the lists a first run left in -dir, and
// never fetches a list.
func TestFrozen(t *testing.T) {
	// Lists whose server gave no minimum wait: due at once, so that an
	// update, if one ran, would fetch them.
	dir := filepath.Join(t.TempDir(), "lists")
	s := sbtest.NewServer(sbtest.WithMinimumWait(0), sbtest.WithTestURLs())
	defer s.Close()
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir, HTTPClient: s.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()

	addr, fake, stop := start(t, "-fake", "-dir", dir, "-frozen")
	defer stop()
	st := waitReady(t, addr) // at once: from -dir
	if !st.Frozen || st.Lists[1].Name != "mw-4b" || st.Lists[1].Entries != 1 || !st.Lists[1].Next.IsZero() {
		t.Errorf("status %+v: want frozen, mw-4b with 1 entry, no next update", st)
	}
	const malware = "http://malware.testing.google.test/testing/malware/"
	if status, body, _ := do(t, "POST", "http://"+addr+"/v5/urls:lookup", `{"urls": ["`+malware+`"]}`); status != 200 || !strings.Contains(body, `"unsafe":true`) {
		t.Errorf("status %d, body %s: want unsafe", status, body)
	}
	time.Sleep(50 * time.Millisecond) // give a wrongly started Run the time to fetch
	if n := fake.Requests("hashList") + fake.Requests("hashLists:batchGet"); n != 0 {
		t.Errorf("%d list requests while frozen", n)
	}
	if fake.Requests("hashes:search") != 1 {
		t.Errorf("%d searches, want 1: frozen lists still need the server's full hashes", fake.Requests("hashes:search"))
	}
}

func TestFlags(t *testing.T) {
	for _, tt := range []struct {
		name       string
		args       []string
		wantStatus int
		wantStderr string
	}{
		// The proxy spends the key's quota: loopback only.
		{"not loopback", []string{"-fake", "-addr", "0.0.0.0:0"}, 2, "not a loopback address"},
		// An empty host is every interface.
		{"every interface", []string{"-fake", "-addr", ":0"}, 2, "not a loopback address"},
		// -frozen has nothing to load without -dir.
		{"frozen without dir", []string{"-fake", "-frozen"}, 2, "-frozen needs -dir"},
		// -frozen with an empty -dir would never be ready.
		{"frozen empty dir", []string{"-fake", "-frozen", "-dir", "EMPTY"}, 1, "se-4b, mw-4b, uws-4b, uwsa-4b, pha-4b not in"},
		// No key and no -fake.
		{"no key", []string{"-key", ""}, 2, "no API key"},
		// A bad mode.
		{"bad mode", []string{"-fake", "-mode", "fast"}, 2, "unknown mode"},
		// Arguments are not URLs here.
		{"arguments", []string{"-fake", "http://evil.example/"}, 2, "unexpected arguments"},
		// The fake server is the upstream.
		{"fake and upstream", []string{"-fake", "-upstream", "http://127.0.0.1:1"}, 2, "-fake and -upstream"},
		// ... also from the environment.
		{"fake and SBSERVER_UPSTREAM", []string{"-fake", "ENV", "SBSERVER_UPSTREAM=http://127.0.0.1:1"}, 2, "-fake and -upstream"},
		// A bad value in the environment names its variable.
		{"bad env", []string{"-fake", "ENV", "SBSERVER_CACHE_DURATION=soon"}, 2, "$SBSERVER_CACHE_DURATION"},
		// A cache duration must be positive.
		{"zero cache duration", []string{"-fake", "-cache-duration", "0s"}, 2, "-cache-duration 0s"},
		// A certificate needs its key.
		{"tls-cert alone", []string{"-fake", "-tls-cert", "cert.pem"}, 2, "-tls-cert and -tls-key go together"},
		// Two sources of one key.
		{"key and key-file", []string{"-key", "k", "-key-file", "KEYS:k"}, 2, "-key and -key-file"},
		// A key file holds one key.
		{"two keys in key-file", []string{"-key-file", "KEYS:k1\nk2"}, 2, "want one key, found 2"},
		// A missing key file.
		{"no key-file", []string{"-key-file", "/nonexistent/key"}, 2, "-key-file: open /nonexistent/key"},
		// A client keys file with no key would lock everyone out.
		{"empty client keys", []string{"-fake", "-client-keys", "KEYS:# none\n\n"}, 2, "holds no key"},
		// The upstream key is never a client key.
		{"upstream key as client key", []string{"-key", "up", "-client-keys", "KEYS:a\nup"}, 2, "holds the upstream API key"},
		// A bad log format.
		{"log format", []string{"-fake", "-log-format", "xml"}, 2, "-log-format"},
		// A bad log level.
		{"log level", []string{"-fake", "-log-level", "loud"}, 2, "-log-level"},
		// -h prints the usage, with the environment variables.
		{"help", []string{"-h"}, 0, "SBSERVER_<FLAG>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SAFE_BROWSING_API_KEY", "")
			var args []string
			for i := 0; i < len(tt.args); i++ {
				a := tt.args[i]
				switch {
				case a == "EMPTY":
					a = t.TempDir()
				case a == "ENV":
					k, v, _ := strings.Cut(tt.args[i+1], "=")
					t.Setenv(k, v)
					i++
					continue
				case strings.HasPrefix(a, "KEYS:"):
					a = filepath.Join(t.TempDir(), "keys")
					if err := os.WriteFile(a, []byte(strings.ReplaceAll(strings.TrimPrefix(tt.args[i], "KEYS:"), "\\n", "\n")), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				args = append(args, a)
			}
			var stderr strings.Builder
			status := run(context.Background(), args, &stderr, &hooks{listening: func(string) { t.Error("listening") }})
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %q", status, tt.wantStatus, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, tt := range []struct {
		in      string
		wantErr bool
	}{
		// The default.
		{"127.0.0.1:8080", false},
		// IPv6 loopback.
		{"[::1]:8080", false},
		// The name.
		{"localhost:8080", false},
		// Another loopback address.
		{"127.0.0.2:8080", false},
		// A public address.
		{"192.0.2.1:8080", true},
		// Every interface.
		{"0.0.0.0:8080", true},
		// Another name.
		{"example.com:8080", true},
		// No port.
		{"127.0.0.1", true},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if err := checkLoopback(tt.in); (err != nil) != tt.wantErr {
				t.Errorf("checkLoopback(%q) = %v, want error %v", tt.in, err, tt.wantErr)
			}
		})
	}
}
