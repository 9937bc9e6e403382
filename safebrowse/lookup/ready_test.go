// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestReadyFailure: Ready returns an update's failure while a list has
// never loaded, wrapping it, and keeps returning it while the client backs
// off; lookups say why too; a later success makes the client ready.
func TestReadyFailure(t *testing.T) {
	s := newTestServer(t)
	serveLists(t, s, DefaultLists, nil)
	s.handle = unavailable
	c, clk := newTestClient(t, Config{BaseURL: s.URL})
	done := make(chan error)
	go func() { done <- c.Ready(bg) }()
	if err := c.Update(bg); err == nil {
		t.Fatal("Update: no error")
	}
	check := func(what string, err error) {
		t.Helper()
		var se *StatusError
		if !errors.Is(err, ErrNotReady) || !errors.As(err, &se) || se.StatusCode != 503 {
			t.Errorf("%s = %v, want ErrNotReady wrapping a 503", what, err)
		}
	}
	select {
	case err := <-done:
		check("Ready waiting", err)
	case <-time.After(5 * time.Second):
		t.Fatal("Ready still waiting after the update failed")
	}
	// Backing off now: Update makes no request, and Ready still says why.
	if err := c.Update(bg); !errors.Is(err, ErrBackoff) {
		t.Fatalf("Update = %v, want ErrBackoff", err)
	}
	check("Ready while backing off", c.Ready(bg))
	_, err := c.Lookup(bg, "http://a.example/")
	check("Lookup", err)
	if want := "lookup: lists not loaded yet: hashLists:batchGet: HTTP 503 Service Unavailable: down"; err.Error() != want {
		t.Errorf("Lookup error %q, want %q", err, want)
	}

	// A cancelled attempt says nothing of the server.
	s.set(func(s *testServer) { s.handle = nil })
	clk.advance(MaxBackoff)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	c.Update(ctx)
	check("Ready after a cancelled update", c.Ready(bg))

	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if err := c.Ready(bg); err != nil {
		t.Errorf("Ready after a success: %v", err)
	}
}

// TestReadyWaits: with no update attempt yet, Ready waits for ctx.
func TestReadyWaits(t *testing.T) {
	s := newTestServer(t)
	c, _ := newTestClient(t, Config{BaseURL: s.URL})
	ctx, cancel := context.WithTimeout(bg, 20*time.Millisecond)
	defer cancel()
	if err := c.Ready(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Ready = %v, want DeadlineExceeded", err)
	}
	c.Close()
	if err := c.Ready(bg); !errors.Is(err, ErrClosed) {
		t.Errorf("Ready after Close = %v, want ErrClosed", err)
	}
}

// TestListStatus: Err holds each list's last failure, nil after a
// success; Updated is when its contents were fetched, kept across a
// restart.
func TestListStatus(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t)
	serveLists(t, s, []string{"se-4b", "mw-4b"}, nil)
	cfg := Config{BaseURL: s.URL, Dir: dir, Lists: []string{"se-4b", "mw-4b"}}
	c, clk := newTestClient(t, cfg)
	for _, st := range c.Lists() {
		if st.Err != nil || !st.Updated.IsZero() {
			t.Errorf("%s before any update: %+v", st.Name, st)
		}
	}
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	fetched := clk.now()
	for _, st := range c.Lists() {
		if st.Err != nil || !st.Updated.Equal(fetched) {
			t.Errorf("%s after an update: Err %v, Updated %v; want nil, %v", st.Name, st.Err, st.Updated, fetched)
		}
	}

	// A failed fetch is the error of every list it asked for; Updated stays.
	clk.advance(time.Hour)
	s.set(func(s *testServer) { s.handle = unavailable })
	c.Update(bg)
	for _, st := range c.Lists() {
		var se *StatusError
		if !errors.As(st.Err, &se) || se.StatusCode != 503 || !st.Updated.Equal(fetched) {
			t.Errorf("%s after a failure: Err %v, Updated %v", st.Name, st.Err, st.Updated)
		}
	}

	// A restart reads Updated back from Dir.
	c.Close()
	c2, _ := newTestClient(t, cfg)
	for _, st := range c2.Lists() {
		if st.Err != nil || !st.Updated.Equal(fetched) {
			t.Errorf("%s after a restart: Err %v, Updated %v; want nil, %v", st.Name, st.Err, st.Updated, fetched)
		}
	}

	// A save that fails is the list's error; a later success clears it.
	s.set(func(s *testServer) { s.handle = nil })
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	clk2 := clk.now().Add(time.Hour)
	c2.now = func() time.Time { return clk2 }
	if err := c2.Update(bg); err == nil {
		t.Fatal("Update with no Dir: no error")
	}
	for _, st := range c2.Lists() {
		if st.Err == nil || !st.Updated.Equal(clk2) {
			t.Errorf("%s after a failed save: Err %v, Updated %v", st.Name, st.Err, st.Updated)
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	clk2 = clk2.Add(time.Hour)
	if err := c2.Update(bg); err != nil {
		t.Fatal(err)
	}
	for _, st := range c2.Lists() {
		if st.Err != nil || !st.Updated.Equal(clk2) {
			t.Errorf("%s after a success: Err %v, Updated %v", st.Name, st.Err, st.Updated)
		}
	}
}

// TestListsDuringSlowFetch: Lists (sbserver's /status) reads a snapshot
// and never waits on the network: it answers while a list fetch hangs.
func TestListsDuringSlowFetch(t *testing.T) {
	s := newTestServer(t)
	arrived, release := make(chan struct{}), make(chan struct{})
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-release
		http.Error(w, "late", http.StatusServiceUnavailable)
	}
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
	done := make(chan error)
	go func() { done <- c.Update(bg) }()
	<-arrived
	got := make(chan []ListStatus)
	go func() { got <- c.Lists() }()
	select {
	case st := <-got:
		if len(st) != 1 || st[0].Loaded {
			t.Errorf("Lists = %+v", st)
		}
	case <-time.After(5 * time.Second):
		t.Error("Lists waits for the fetch in flight")
	}
	close(release)
	<-done
}

// TestReadyWaitsForKey: with Config.OHTTP, Ready returns nil only once the
// key is held, also when the lists load while it waits and the key URL
// answers later; the first search after it then has a key. The key URL
// is held until the test lets it answer, and the test waits on Ready's
// state, not on a clock: it lets the lists load only once Ready waits in
// its select, and the key come only once Ready waits for it.
func TestReadyWaitsForKey(t *testing.T) {
	for _, how := range []string{"Update", "Run"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			s := sbtest.NewServer()
			t.Cleanup(s.Close)
			if err := s.Add("se-4b", "evil.example/"); err != nil {
				t.Fatal(err)
			}
			relay := sbtest.NewRelay(s.OHTTPGatewayURL())
			t.Cleanup(relay.Close)
			asked, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				once.Do(func() { close(asked) })
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				res, err := http.Get(s.OHTTPKeyURL() + "?" + r.URL.RawQuery)
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadGateway)
					return
				}
				defer res.Body.Close()
				w.Header().Set("Content-Type", res.Header.Get("Content-Type"))
				w.WriteHeader(res.StatusCode)
				io.Copy(w, res.Body)
			}))
			t.Cleanup(gate.Close)
			var released sync.Once
			let := func() { released.Do(func() { close(release) }) }
			t.Cleanup(let) // before gate.Close, should the test fail

			c, err := New(Config{APIKey: s.APIKey, BaseURL: s.URL, Lists: []string{"se-4b"},
				OHTTP: &OHTTPConfig{RelayURL: relay.URL, KeyURL: gate.URL}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			ctx, cancel := context.WithCancel(bg)
			t.Cleanup(cancel)

			done := make(chan error, 1)
			go func() { done <- c.Ready(ctx) }()
			waitParked(t, done, "lookup.(*Client).Ready(")
			updated := make(chan error, 1)
			if how == "Update" {
				go func() { updated <- c.Update(ctx) }()
			} else {
				go c.Run(ctx)
			}
			<-asked
			for deadline := time.Now().Add(10 * time.Second); !c.isReady.Load(); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the lists never loaded")
				}
			}
			// The lists are loaded and the key is not: Ready must wait.
			waitParked(t, done, "lookup.(*Client).readyOHTTP(")
			if c.IsReady() {
				t.Error("IsReady before the key")
			}
			let()
			if err := <-done; err != nil {
				t.Fatalf("Ready: %v", err)
			}
			if !c.IsReady() || c.OHTTPStatus().Fetched.IsZero() {
				t.Errorf("after Ready: IsReady %v, %+v", c.IsReady(), c.OHTTPStatus())
			}
			if v, err := c.Lookup(ctx, "http://evil.example/"); err != nil || !v.Unsafe() {
				t.Errorf("the first search after Ready: %v, %v", v, err)
			}
			if how == "Update" {
				if err := <-updated; err != nil {
					t.Errorf("Update: %v", err)
				}
			}
		})
	}
}

// waitParked waits until a goroutine is parked in a select in fn, its
// innermost frame, as runtime.Stack shows it ("pkg.(*T).f("). It fails
// the test if done, the result of the Ready that should wait, comes
// first.
func waitParked(t *testing.T, done <-chan error, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("Ready returned %v; want it waiting in %s", err, fn)
		default:
		}
		n := runtime.Stack(buf, true)
		if n == len(buf) { // cut short: read again, with room
			buf = make([]byte, 2*len(buf))
			continue
		}
		for g := range strings.SplitSeq(string(buf[:n]), "\n\n") {
			head, frames, _ := strings.Cut(g, "\n")
			first, _, _ := strings.Cut(frames, "\n")
			if strings.Contains(head, "[select") && strings.Contains(first, fn) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine waits in %s", fn)
		}
	}
}
