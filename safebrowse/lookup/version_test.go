// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// TestVersionBounded: a version longer than MaxVersion makes the reply
// corrupt, so that it is never stored nor sent back; one of MaxVersion
// bytes is kept.
func TestVersionBounded(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		wantErr bool
	}{
		// The longest version kept.
		{"at the limit", MaxVersion, false},
		// One byte more: corrupt.
		{"over the limit", MaxVersion + 1, true},
		// The 64 KiB of the hostile pass.
		{"64 KiB", 64 << 10, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			setList(s, "se-4b", listOf(t, "se-4b", strings.Repeat("v", tt.n), time.Minute, "evil.example/"))
			c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}, Dir: t.TempDir()})
			err := c.Update(bg)
			if tt.wantErr != errors.Is(err, ErrCorruptReply) {
				t.Fatalf("Update = %v; want ErrCorruptReply %v", err, tt.wantErr)
			}
			if got := len(c.Lists()[0].Version); got > MaxVersion {
				t.Errorf("a version of %d bytes is stored", got)
			}
		})
	}
}

// TestClientErrorDropsVersion: a 4xx on a list fetch (other than 408 and
// 429, which say nothing of the request) drops the list's version, so that
// the next fetch is whole: a version the server refuses (414) does not
// stop the updates for good.
func TestClientErrorDropsVersion(t *testing.T) {
	tests := []struct {
		status   int
		wantDrop bool
	}{
		// URI too long: the version the server refuses.
		{http.StatusRequestURITooLong, true},
		// Bad request.
		{http.StatusBadRequest, true},
		// Not found.
		{http.StatusNotFound, true},
		// Too many requests: the request is fine, the rate is not.
		{http.StatusTooManyRequests, false},
		// A server error says nothing of the version.
		{http.StatusServiceUnavailable, false},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			s := newTestServer(t)
			setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, "evil.example/"))
			c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			clk.advance(time.Minute)
			s.set(func(s *testServer) {
				s.handle = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", tt.status) }
			})
			if err := c.Update(bg); err == nil {
				t.Fatal("no error")
			}
			s.set(func(s *testServer) { s.handle = nil })
			clk.advance(MaxBackoff)
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			if got := lastQuery(s)["version"] == nil; got != tt.wantDrop {
				t.Errorf("fetched whole %v after %d, want %v", got, tt.status, tt.wantDrop)
			}
			if !c.Lists()[0].Loaded || c.Lists()[0].Entries != 1 {
				t.Errorf("the old list does not answer: %+v", c.Lists()[0])
			}
		})
	}
}

// TestMinimumWaitCapped: a minimum_wait_duration longer than
// MaxMinimumWait is obeyed for MaxMinimumWait only, as a checksum
// mismatch's wait is, so that a list is never left unfetched for good.
func TestMinimumWaitCapped(t *testing.T) {
	for _, mismatch := range []bool{false, true} {
		s := newTestServer(t)
		msg := listOf(t, "se-4b", "v1", 100*365*24*time.Hour, "evil.example/")
		if mismatch {
			m := hashlist.Message{Name: "se-4b", Version: []byte("v1"), Additions: make([]byte, 4),
				MinimumWait: 100 * 365 * 24 * time.Hour, Checksum: make([]byte, 32)}
			msg, _ = m.MarshalBinary()
		}
		setList(s, "se-4b", msg)
		c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
		c.Update(bg)
		if next := c.Lists()[0].Next; next.After(clk.now().Add(MaxMinimumWait)) {
			t.Errorf("mismatch %v: next update at %v, over %v from now", mismatch, next, MaxMinimumWait)
		}
	}
}

// TestSavedVersionBounded: a list saved with a version over MaxVersion
// (by an older client) answers, and is fetched whole: the version is
// never sent.
func TestSavedVersionBounded(t *testing.T) {
	dir := t.TempDir()
	l, _ := hashlist.New("se-4b")
	if err := l.Apply(listOf(t, "se-4b", strings.Repeat("v", 64<<10), 0, "evil.example/")); err != nil {
		t.Fatal(err)
	}
	blob, _ := l.MarshalBinary()
	if err := writeFile(dir, "se-4b", encodeFile("se-4b", time.Time{}, time.Time{}, blob)); err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t)
	setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, "evil.example/"))
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}, Dir: dir})
	if !c.IsReady() {
		t.Fatal("the saved list did not load")
	}
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if v := lastQuery(s)["version"]; v != nil {
		t.Errorf("sent a version of %d bytes", len(v[0]))
	}
}
