// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"
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
