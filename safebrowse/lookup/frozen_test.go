// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestFrozenConfig: New refuses a frozen Config that has no lists to load,
// naming the field.
func TestFrozenConfig(t *testing.T) {
	tests := []struct {
		name    string
		in      Config
		wantErr string
	}{
		// The frozen lists load from Dir: it is required.
		{"no Dir", Config{APIKey: "k", Frozen: true}, "Config.Frozen needs Config.Dir"},
		// NoStorage keeps no lists to freeze.
		{"NoStorage", Config{APIKey: "k", Frozen: true, Mode: NoStorage}, "Config.Frozen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("New = %v, want an error naming %q", err, tt.wantErr)
			}
		})
	}
}

// TestFrozen: a frozen client answers from Dir, makes no list request
// (Update and Run return ErrFrozen), and still searches.
func TestFrozen(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	serveLists(t, s, DefaultLists, map[string][]string{"se-4b": {"evil.example/"}})
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Dir: dir})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	c.Close()
	lists := s.count("hashLists:batchGet") + s.count("hashList")

	f, _ := newTestClient(t, Config{BaseURL: s.URL, Dir: dir, Frozen: true})
	if err := f.Ready(bg); err != nil {
		t.Fatalf("Ready = %v", err)
	}
	if err := f.Update(bg); !errors.Is(err, ErrFrozen) {
		t.Errorf("Update = %v, want ErrFrozen", err)
	}
	if err := f.Run(bg); !errors.Is(err, ErrFrozen) {
		t.Errorf("Run = %v, want ErrFrozen", err)
	}
	if n := s.count("hashLists:batchGet") + s.count("hashList"); n != lists {
		t.Errorf("%d list requests by a frozen client", n-lists)
	}
	if v, err := f.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("Lookup: %v, %v", short(v), err)
	}
	if n := s.count("hashes:search"); n != 1 {
		t.Errorf("%d searches, want 1: a frozen client still searches", n)
	}
	if st := f.Stats(); st.Updates != 0 || st.Searches != 1 {
		t.Errorf("Stats %+v", st)
	}
}

// TestFrozenNotReady: a frozen client whose Dir lacks a list is not ready,
// and Ready says so at once rather than wait for an update that will not
// come.
func TestFrozenNotReady(t *testing.T) {
	s := newTestServer(t)
	f, _ := newTestClient(t, Config{BaseURL: s.URL, Dir: t.TempDir(), Frozen: true})
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	if err := f.Ready(ctx); !errors.Is(err, ErrNotReady) || ctx.Err() != nil {
		t.Errorf("Ready = %v, want ErrNotReady at once", err)
	}
	if _, err := f.Lookup(bg, "http://a.example/"); !errors.Is(err, ErrNotReady) {
		t.Errorf("Lookup = %v, want ErrNotReady", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.queries); n != 0 {
		t.Errorf("%d requests by a frozen client", n)
	}
}
