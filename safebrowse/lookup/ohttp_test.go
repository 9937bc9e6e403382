// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// These tests run the OHTTP path end to end: a lookup.Client, a relay,
// and sbtest as the gateway.

// secretKey is an API key that no test text holds by chance.
const secretKey = "AIzaSy-secret-0123456789abcdef"

// recorder is a loopback relay that records what it forwards, both ways,
// with the outer request's headers and URL, and forwards to next; the
// test may set reply to answer instead.
type recorder struct {
	*httptest.Server
	next string

	mu      sync.Mutex
	bytes   [][]byte // every request and reply body
	sizes   []int    // every request body's length
	headers []http.Header
	urls    []string
	reply   http.HandlerFunc
}

func newRecorder(t *testing.T, next string) *recorder {
	r := &recorder{next: next}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.bytes = append(r.bytes, body)
	r.sizes = append(r.sizes, len(body))
	r.headers = append(r.headers, req.Header.Clone())
	r.urls = append(r.urls, req.URL.String())
	reply := r.reply
	r.mu.Unlock()
	if reply != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		reply(w, req)
		return
	}
	out, _ := http.NewRequest("POST", r.next, bytes.NewReader(body))
	out.Header.Set("Content-Type", req.Header.Get("Content-Type"))
	res, err := http.DefaultClient.Do(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r.mu.Lock()
	r.bytes = append(r.bytes, b)
	r.mu.Unlock()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	w.Write(b)
}

func (r *recorder) setReply(h http.HandlerFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reply = h
}

// seed puts the tests' threats on s.
func seed(t *testing.T, s *sbtest.Server) {
	t.Helper()
	for _, e := range []struct{ list, expr string }{
		{"se-4b", "evil.example/"},
		{"mw-4b", "a.malware.example/x/"},
		{"uws-4b", "malware.example/"},
		{"gc-32b", "popular.example/"},
	} {
		if err := s.Add(e.list, e.expr); err != nil {
			t.Fatal(err)
		}
	}
}

// ohttpSetup starts sbtest with the tests' threats, an sbtest relay to its
// gateway and a recorder in front of that, and a client of mode whose
// searches go through them.
func ohttpSetup(t *testing.T, mode lookup.Mode, cfg lookup.OHTTPConfig, opts ...sbtest.Option) (*sbtest.Server, *recorder, *lookup.Client) {
	t.Helper()
	s := sbtest.NewServer(append([]sbtest.Option{sbtest.WithAPIKey(secretKey)}, opts...)...)
	t.Cleanup(s.Close)
	seed(t, s)
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	t.Cleanup(relay.Close)
	rec := newRecorder(t, relay.URL)
	if cfg.RelayURL == "" {
		cfg.RelayURL = rec.URL
	}
	if cfg.KeyURL == "" && cfg.KeyConfig == nil {
		cfg.KeyURL = s.OHTTPKeyURL()
	}
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: mode, OHTTP: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, rec, c
}

var ohttpURLs = []string{
	"http://evil.example/login",
	"http://good.example/",
	"http://a.malware.example/x/y",
	"http://popular.example/",
	"http://good.example/a/b?c=d",
}

// TestOHTTPEndToEnd: a client with OHTTP gets the verdicts of a direct
// client, in each mode, while sbtest sees no direct search, and the
// relay's bytes hold neither a prefix asked nor the API key; the outer
// request carries no key, no User-Agent and no cookie.
func TestOHTTPEndToEnd(t *testing.T) {
	for _, mode := range []lookup.Mode{lookup.LocalList, lookup.RealTime, lookup.NoStorage} {
		t.Run(mode.String(), func(t *testing.T) {
			ctx := context.Background()
			s, rec, c := ohttpSetup(t, mode, lookup.OHTTPConfig{})
			direct := sbtest.NewServer(sbtest.WithAPIKey(secretKey))
			defer direct.Close()
			seed(t, direct)
			dc := newClient(t, direct, lookup.Config{Mode: mode})
			for _, cl := range []*lookup.Client{c, dc} {
				if err := cl.Update(ctx); err != nil {
					t.Fatal(err)
				}
				if err := cl.Ready(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if st := c.OHTTPStatus(); st.KeyID != 1 || st.Fetched.IsZero() || st.Err != nil {
				t.Errorf("OHTTPStatus %+v", st)
			}
			want, werr := dc.LookupAll(ctx, ohttpURLs)
			got, gerr := c.LookupAll(ctx, ohttpURLs)
			if werr != nil || gerr != nil {
				t.Fatal(werr, gerr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("verdicts %v, want %v", got, want)
			}
			for _, u := range ohttpURLs[:3] { // one at a time, after the cache
				v, err := c.Lookup(ctx, u)
				w, _ := dc.Lookup(ctx, u)
				if err != nil || !reflect.DeepEqual(v, w) {
					t.Errorf("%s: %v, %v; want %v", u, v, err, w)
				}
			}

			if n := s.Requests("hashes:search"); n != 0 {
				t.Errorf("%d direct searches", n)
			}
			asked := s.SearchedPrefixes()
			if n := s.Requests("ohttp"); n == 0 || len(asked) == 0 {
				t.Fatalf("%d requests through the gateway, %d prefixes", n, len(asked))
			}
			if !reflect.DeepEqual(asked, direct.SearchedPrefixes()) {
				t.Errorf("prefixes %x, direct %x", asked, direct.SearchedPrefixes())
			}
			st := c.Stats()
			if st.Searches != uint64(s.Requests("ohttp")) || st.SearchErrors != 0 || st.OHTTPKeyFetches != 1 || st.OHTTPKeyErrors != 0 {
				t.Errorf("stats %+v, %d gateway requests", st, s.Requests("ohttp"))
			}

			rec.mu.Lock()
			defer rec.mu.Unlock()
			all := bytes.Join(rec.bytes, nil)
			secrets := [][]byte{[]byte(secretKey), []byte(url.QueryEscape(secretKey))}
			for _, p := range asked {
				secrets = append(secrets, p,
					[]byte(base64.StdEncoding.EncodeToString(p)), []byte(base64.URLEncoding.EncodeToString(p)),
					[]byte(base64.RawStdEncoding.EncodeToString(p)), []byte(base64.RawURLEncoding.EncodeToString(p)))
			}
			for _, x := range secrets {
				if bytes.Contains(all, x) {
					t.Errorf("the relay saw %q", x)
				}
			}
			for i, h := range rec.headers {
				if h.Get("Content-Type") != "message/ohttp-req" || len(h.Values("User-Agent")) != 0 || len(h.Values("Cookie")) != 0 {
					t.Errorf("outer request %d headers %v", i, h)
				}
				if strings.Contains(rec.urls[i], "key") {
					t.Errorf("outer URL %q", rec.urls[i])
				}
			}
		})
	}
}

// TestOHTTPNoCookies: the outer request takes no cookie from
// HTTPClient.Jar, and the relay's Set-Cookie is not kept.
func TestOHTTPNoCookies(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithAPIKey(secretKey))
	defer s.Close()
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	rec := newRecorder(t, relay.URL)
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(rec.URL)
	jar.SetCookies(u, []*http.Cookie{{Name: "id", Value: "42"}})
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		HTTPClient: &http.Client{Jar: jar}, OHTTP: &lookup.OHTTPConfig{RelayURL: rec.URL, KeyURL: s.OHTTPKeyURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Lookup(context.Background(), "http://evil.example/"); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.headers) != 1 || len(rec.headers[0].Values("Cookie")) != 0 || len(rec.headers[0].Values("User-Agent")) != 0 {
		t.Errorf("outer headers %v", rec.headers)
	}
}

// waitKey waits until the client's key is id.
func waitKey(t *testing.T, c *lookup.Client, id uint8) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if st := c.OHTTPStatus(); st.KeyID == id && !st.Fetched.IsZero() {
			return
		}
	}
	t.Fatalf("key %d never came: %+v", id, c.OHTTPStatus())
}

// TestOHTTPKeyRotation: after sbtest rotates its key, the search that
// meets the 422 fails with an error and no verdict, the key is dropped and
// fetched again, and the next search succeeds; the searches never back
// off, however many rotations.
func TestOHTTPKeyRotation(t *testing.T) {
	ctx := context.Background()
	s, _, c := ohttpSetup(t, lookup.NoStorage, lookup.OHTTPConfig{KeyRefetchJitter: -1}, sbtest.WithCacheDuration(0))
	if err := c.Update(ctx); err != nil {
		t.Fatal(err)
	}
	for round := range 5 { // more than the 3 failures that would start a back-off
		id := s.RotateOHTTPKey()
		v, err := c.Lookup(ctx, "http://evil.example/")
		var se *lookup.StatusError
		if !errors.Is(err, lookup.ErrOHTTP) || !errors.As(err, &se) || se.StatusCode != 422 || errors.Is(err, lookup.ErrBackoff) {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(v.Threats) != 0 {
			t.Errorf("a verdict without a check: %v", v)
		}
		waitKey(t, c, id)
		v, err = c.Lookup(ctx, "http://evil.example/")
		if err != nil || !v.Unsafe() {
			t.Fatalf("round %d, after the refetch: %v, %v", round, v, err)
		}
		if v, err := c.Lookup(ctx, "http://good.example/"); err != nil || v.Unsafe() {
			t.Fatalf("round %d: good: %v, %v", round, v, err)
		}
	}
	st := c.Stats()
	if st.SearchErrors != 5 || st.OHTTPKeyFetches != 6 || st.OHTTPKeyErrors != 5 {
		t.Errorf("stats %+v", st)
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("%d direct searches", n)
	}
}

// TestOHTTPKeySignals: a 400 with RFC 9458's ohttp-key problem drops the
// key as a 422 does; X-OhttpPublickey-Rotated keeps it and refetches; a
// 400 with another problem is a plain failure, which counts towards the
// back-off.
func TestOHTTPKeySignals(t *testing.T) {
	ctx := context.Background()
	s, rec, c := ohttpSetup(t, lookup.NoStorage, lookup.OHTTPConfig{KeyRefetchJitter: -1}, sbtest.WithCacheDuration(0))
	if err := c.Update(ctx); err != nil {
		t.Fatal(err)
	}
	problem := func(typ string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(400)
			w.Write([]byte(`{"type":"` + typ + `","title":"key identifier unknown"}`))
		}
	}
	rec.setReply(problem("https://iana.org/assignments/http-problem-types#ohttp-key"))
	_, err := c.Lookup(ctx, "http://evil.example/")
	if !errors.Is(err, lookup.ErrOHTTP) {
		t.Fatal(err)
	}
	rec.setReply(nil)
	for deadline := time.Now().Add(10 * time.Second); c.Stats().OHTTPKeyFetches < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no refetch after the ohttp-key problem")
		}
	}
	waitKey(t, c, 1)
	if _, err := c.Lookup(ctx, "http://evil.example/"); err != nil {
		t.Fatal(err)
	}

	// The rotation header: the search succeeds, and the key is fetched again.
	rec.setReply(func(w http.ResponseWriter, r *http.Request) {
		res, err := http.Post(s.OHTTPGatewayURL(), "message/ohttp-req", r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		w.Header().Set("Content-Type", res.Header.Get("Content-Type"))
		w.Header().Set("X-OhttpPublickey-Rotated", "1")
		w.Write(b)
	})
	id := s.RotateOHTTPKey()
	if v, err := c.Lookup(ctx, "http://evil.example/"); err == nil || v.Unsafe() {
		t.Fatalf("the old key worked: %v %v", v, err)
	}
	waitKey(t, c, id)
	before := c.Stats().OHTTPKeyFetches
	if v, err := c.Lookup(ctx, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Fatalf("rotated: %v, %v", v, err)
	}
	for deadline := time.Now().Add(10 * time.Second); c.Stats().OHTTPKeyFetches == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no refetch after X-OhttpPublickey-Rotated")
		}
	}
	if st := c.OHTTPStatus(); st.KeyID != id || st.Err != nil {
		t.Errorf("after the rotation header: %+v", st)
	}

	// Another problem type: a failure of the server, three of which back off.
	rec.setReply(problem("about:blank"))
	for i := range 4 {
		_, err := c.Lookup(ctx, "http://evil.example/")
		if !errors.Is(err, lookup.ErrOHTTP) || errors.Is(err, lookup.ErrBackoff) != (i == 3) {
			t.Errorf("search %d: %v", i, err)
		}
	}
}

// TestOHTTPFailures: the gateway failing, the relay failing and a relay
// answering garbage each give an ErrOHTTP for the URL, with the outer
// status as a StatusError where there is one, and no direct search; an
// inner status other than 200 is a plain StatusError.
func TestOHTTPFailures(t *testing.T) {
	tests := []struct {
		name       string
		fault      *sbtest.Fault    // injected into sbtest
		reply      http.HandlerFunc // the relay's answer instead
		closeRelay bool
		ohttp      bool // errors.Is(err, ErrOHTTP)
		status     int  // the StatusError's status; 0: none
	}{
		// The gateway fails: its 503 comes back through the relay.
		{name: "gateway 503", fault: &sbtest.Fault{Endpoint: "ohttp", Status: 503}, ohttp: true, status: 503},
		// The gateway answers garbage in a 200 message/ohttp-res.
		{name: "gateway garbage", fault: &sbtest.Fault{Endpoint: "ohttp", Garbage: true}, ohttp: true},
		// The v5 server behind the gateway fails: an inner 503, read as a
		// direct search's.
		{name: "inner 503", fault: &sbtest.Fault{Endpoint: "hashes:search", Status: 503}, status: 503},
		// The v5 server's reply is not a message: corrupt, as directly.
		{name: "inner garbage", fault: &sbtest.Fault{Endpoint: "hashes:search", Garbage: true}},
		// The relay fails.
		{name: "relay 502", reply: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "upstream gone", http.StatusBadGateway) }, ohttp: true, status: 502},
		// The relay is gone.
		{name: "relay gone", closeRelay: true, ohttp: true},
		// The relay answers garbage as message/ohttp-res.
		{name: "relay garbage", reply: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "message/ohttp-res")
			w.Write(bytes.Repeat([]byte{0x5a}, 100))
		}, ohttp: true},
		// The relay answers a reply too short for a nonce and tag.
		{name: "relay short", reply: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "message/ohttp-res")
			w.Write([]byte{1, 2, 3})
		}, ohttp: true},
		// The relay answers a 200 of another type.
		{name: "relay html", reply: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>hello</html>"))
		}, ohttp: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, rec, c := ohttpSetup(t, lookup.NoStorage, lookup.OHTTPConfig{})
			if err := c.Update(ctx); err != nil {
				t.Fatal(err)
			}
			if tt.fault != nil {
				s.Inject(*tt.fault)
			}
			if tt.reply != nil {
				rec.setReply(tt.reply)
			}
			if tt.closeRelay {
				rec.Close()
			}
			v, err := c.Lookup(ctx, "http://evil.example/")
			if err == nil || len(v.Threats) != 0 {
				t.Fatalf("%v, %v: want an error and no verdict", v, err)
			}
			if errors.Is(err, lookup.ErrOHTTP) != tt.ohttp {
				t.Errorf("errors.Is(%v, ErrOHTTP) = %v", err, !tt.ohttp)
			}
			var se *lookup.StatusError
			if got := errors.As(err, &se); got != (tt.status != 0) || (got && se.StatusCode != tt.status) {
				t.Errorf("StatusError of %v: %v", err, se)
			}
			if strings.Contains(err.Error(), secretKey) {
				t.Errorf("the key in %q", err)
			}
			if n := s.Requests("hashes:search"); n != 0 {
				t.Errorf("%d direct searches", n)
			}
			if st := c.Stats(); st.Searches != 1 || st.SearchErrors != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// TestOHTTPNoKey: a key that cannot be fetched fails Update and Ready with
// its cause; searches fail with ErrOHTTP and send nothing; fetches back
// off after three failures, and searches do not.
func TestOHTTPNoKey(t *testing.T) {
	ctx := context.Background()
	s, rec, c := ohttpSetup(t, lookup.NoStorage, lookup.OHTTPConfig{})
	s.Inject(sbtest.Fault{Endpoint: "hpkekeyconfig", Status: 503})
	for i := range 3 {
		err := c.Update(ctx)
		var se *lookup.StatusError
		if !errors.Is(err, lookup.ErrOHTTP) || !errors.As(err, &se) || se.StatusCode != 503 || strings.Contains(err.Error(), secretKey) {
			t.Fatalf("Update %d: %v", i, err)
		}
	}
	if err := c.Update(ctx); !errors.Is(err, lookup.ErrBackoff) {
		t.Errorf("a fourth Update: %v, want a back-off", err)
	}
	err := c.Ready(ctx)
	if !errors.Is(err, lookup.ErrNotReady) || !errors.Is(err, lookup.ErrOHTTP) || c.IsReady() {
		t.Errorf("Ready: %v", err)
	}
	for range 4 {
		v, err := c.Lookup(ctx, "http://evil.example/")
		if !errors.Is(err, lookup.ErrOHTTP) || errors.Is(err, lookup.ErrBackoff) || len(v.Threats) != 0 {
			t.Errorf("Lookup: %v, %v", v, err)
		}
		// The cause is said once: "lookup: OHTTP key: no key: ...".
		var se *lookup.StatusError
		if msg := err.Error(); strings.Count(msg, "lookup: ") != 1 || strings.Count(msg, "OHTTP key: ") != 1 || !errors.As(err, &se) {
			t.Errorf("Lookup error %q: want the prefix once, and the StatusError", msg)
		}
	}
	rec.mu.Lock()
	sent := len(rec.bytes)
	rec.mu.Unlock()
	if sent != 0 || s.Requests("hashes:search") != 0 || s.Requests("hpkekeyconfig") != 3 {
		t.Errorf("%d to the relay, %d searches, %d key fetches", sent, s.Requests("hashes:search"), s.Requests("hpkekeyconfig"))
	}
	// The searches sent nothing: they count as errors, not as searches.
	if st := c.Stats(); st.OHTTPKeyFetches != 3 || st.OHTTPKeyErrors != 3 || st.Searches != 0 || st.SearchErrors != 4 || st.Errors != 4 {
		t.Errorf("stats %+v", st)
	}
	if st := c.OHTTPStatus(); st.Err == nil || !st.Fetched.IsZero() {
		t.Errorf("OHTTPStatus %+v", st)
	}
}

// TestOHTTPPinned: a pinned key is never fetched; a 422 fails the search
// and the key stays.
func TestOHTTPPinned(t *testing.T) {
	ctx := context.Background()
	s := sbtest.NewServer(sbtest.WithAPIKey(secretKey))
	defer s.Close()
	res, err := http.Get(s.OHTTPKeyURL())
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := io.ReadAll(res.Body)
	res.Body.Close()
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{RelayURL: relay.URL, KeyConfig: keys, KeyRefetchJitter: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.IsReady() || c.Ready(ctx) != nil || c.Update(ctx) != nil {
		t.Fatal("a pinned client is not ready at once")
	}
	if _, err := c.Lookup(ctx, "http://evil.example/"); err != nil {
		t.Fatal(err)
	}
	s.RotateOHTTPKey()
	for range 2 {
		if _, err := c.Lookup(ctx, "http://bad.example/"); !errors.Is(err, lookup.ErrOHTTP) {
			t.Errorf("after rotation: %v", err)
		}
	}
	time.Sleep(10 * time.Millisecond)             // time for a refetch, were there one
	if n := s.Requests("hpkekeyconfig"); n != 1 { // the test's own
		t.Errorf("%d key fetches", n)
	}
	if st := c.OHTTPStatus(); st.KeyID != 1 || !st.Fetched.IsZero() {
		t.Errorf("OHTTPStatus %+v", st)
	}
}

// TestOHTTPRun: Run fetches the key at once, and Ready waits for it.
func TestOHTTPRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _, c := ohttpSetup(t, lookup.NoStorage, lookup.OHTTPConfig{})
	if c.IsReady() {
		t.Error("ready before the key")
	}
	done := make(chan error)
	go func() { done <- c.Run(ctx) }()
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if !c.IsReady() || s.Requests("hpkekeyconfig") != 1 {
		t.Errorf("ready %v, %d key fetches", c.IsReady(), s.Requests("hpkekeyconfig"))
	}
	if _, err := c.Lookup(ctx, "http://evil.example/"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
}

// TestOHTTPFrozen: a frozen client keeps its lists but still fetches the
// key, by Update and by Run.
func TestOHTTPFrozen(t *testing.T) {
	ctx := context.Background()
	s := sbtest.NewServer(sbtest.WithAPIKey(secretKey))
	defer s.Close()
	seed(t, s)
	dir := t.TempDir()
	warm := newClient(t, s, lookup.Config{Dir: dir})
	if err := warm.Update(ctx); err != nil {
		t.Fatal(err)
	}
	warm.Close()
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	for _, how := range []string{"Update", "Run"} {
		t.Run(how, func(t *testing.T) {
			c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir, Frozen: true,
				OHTTP: &lookup.OHTTPConfig{RelayURL: relay.URL, KeyURL: s.OHTTPKeyURL()}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			if how == "Update" {
				if err := c.Update(ctx); !errors.Is(err, lookup.ErrFrozen) {
					t.Fatal(err)
				}
			} else {
				go c.Run(ctx)
			}
			if err := c.Ready(ctx); err != nil {
				t.Fatal(err)
			}
			if v, err := c.Lookup(ctx, "http://evil.example/"); err != nil || !v.Unsafe() {
				t.Errorf("%v, %v", v, err)
			}
		})
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("%d direct searches", n)
	}
}

// TestOHTTPConfig: New refuses a bad OHTTPConfig, naming the field.
func TestOHTTPConfig(t *testing.T) {
	good := []byte("\x00\x2d\x01\x00\x20" + strings.Repeat("\x31", 32) + "\x00\x08\x00\x01\x00\x01\x00\x01\x00\x03")
	tests := []struct {
		name    string
		in      lookup.OHTTPConfig
		wantErr string // "" for none
	}{
		// The relay alone: the default key URL.
		{"relay", lookup.OHTTPConfig{RelayURL: "https://relay.example/"}, ""},
		// A pinned key.
		{"pinned", lookup.OHTTPConfig{RelayURL: "https://relay.example/", KeyConfig: good}, ""},
		// No relay.
		{"no relay", lookup.OHTTPConfig{KeyURL: "https://keys.example/"}, "RelayURL is empty"},
		// A relay that is not http(s).
		{"scheme", lookup.OHTTPConfig{RelayURL: "ftp://relay.example/"}, "RelayURL"},
		// A relay with user info, which errors would show.
		{"userinfo", lookup.OHTTPConfig{RelayURL: "https://me:pw@relay.example/"}, "RelayURL"},
		// A key URL that is not absolute.
		{"key url", lookup.OHTTPConfig{RelayURL: "https://relay.example/", KeyURL: "/keys"}, "KeyURL"},
		// Both a key URL and a pinned key.
		{"both", lookup.OHTTPConfig{RelayURL: "https://relay.example/", KeyURL: "https://keys.example/", KeyConfig: good}, "both set"},
		// A pinned key that is not a key configuration.
		{"bad key", lookup.OHTTPConfig{RelayURL: "https://relay.example/", KeyConfig: []byte{1, 2, 3}}, "KeyConfig"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := lookup.New(lookup.Config{APIKey: "k", Mode: lookup.NoStorage, OHTTP: &tt.in})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				c.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "lookup: Config.OHTTP") {
				t.Errorf("err = %v, want one about %s", err, tt.wantErr)
			}
		})
	}
}

// takeSizes returns the lengths of the requests the recorder has seen
// since the last call, sorted.
func (r *recorder) takeSizes() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	sizes := r.sizes
	r.sizes = nil
	slices.Sort(sizes)
	return sizes
}

// padded is the length OHTTPConfig.Padding makes of an encapsulated
// request of n bytes, as its doc states it.
func padded(n int) int {
	for _, size := range []int{512, 1 << 10, 2 << 10, 4 << 10, 8 << 10} {
		if n <= size {
			return size
		}
	}
	return (n + 8<<10 - 1) / (8 << 10) * (8 << 10)
}

// TestOHTTPPadding: with Padding, the relay sees each search as 512 bytes,
// 1, 2, 4 or 8 KiB, or a multiple of 8 KiB, the smallest that holds the
// unpadded request; searches of 1, 2 and 10 prefixes all look alike; and
// sbtest's gateway answers the padded requests as the unpadded ones.
// Without it, the length grows with the prefixes.
func TestOHTTPPadding(t *testing.T) {
	ctx := context.Background()
	s := sbtest.NewServer() // its key, as the sizes in OHTTPConfig.Padding's doc
	t.Cleanup(s.Close)
	seed(t, s)
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	t.Cleanup(relay.Close)
	rec := newRecorder(t, relay.URL)
	client := func(padding bool) *lookup.Client {
		c := newClient(t, s, lookup.Config{Mode: lookup.NoStorage,
			OHTTP: &lookup.OHTTPConfig{RelayURL: rec.URL, KeyURL: s.OHTTPKeyURL(), Padding: padding}})
		if err := c.Update(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain, pad := client(false), client(true)
	sum := sha256.Sum256([]byte("evil.example/"))
	evil := [4]byte(sum[:4])
	for _, n := range []int{1, 2, 10, 100, 1000} {
		prefixes := [][4]byte{evil}
		for i := 1; i < n; i++ {
			prefixes = append(prefixes, [4]byte{0xff, byte(i >> 8), byte(i), 1})
		}
		var unpadded []int
		for _, c := range []*lookup.Client{plain, pad} {
			res, err := c.SearchPrefixes(ctx, prefixes)
			if err != nil {
				t.Fatalf("%d prefixes: %v", n, err)
			}
			if len(res[0].FullHashes) == 0 {
				t.Errorf("%d prefixes: evil.example/ not found", n)
			}
			sizes := rec.takeSizes()
			if c == plain {
				unpadded = sizes
				continue
			}
			t.Logf("%4d prefixes: %v bytes unpadded, %v padded", n, unpadded, sizes)
			if len(sizes) != len(unpadded) {
				t.Fatalf("%d prefixes: %d requests padded, %d unpadded", n, len(sizes), len(unpadded))
			}
			for i, u := range unpadded {
				if sizes[i] != padded(u) {
					t.Errorf("%d prefixes: a %d-byte request padded to %d, want %d", n, u, sizes[i], padded(u))
				}
			}
			if n <= 10 && (len(sizes) != 1 || sizes[0] != 512) {
				t.Errorf("%d prefixes: padded to %v, want 512", n, sizes)
			}
		}
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("%d direct searches", n)
	}
}
