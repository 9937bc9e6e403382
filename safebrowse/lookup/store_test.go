// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"crypto/sha256"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// TestPersistence: lists saved to Dir come back in a new client, which is
// ready without a request and sends the saved version.
func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	serveLists(t, s, DefaultLists, map[string][]string{"se-4b": {"evil.example/"}})
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Dir: dir})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	c.Close()
	for _, n := range DefaultLists {
		if _, err := os.Stat(filepath.Join(dir, n+".sblist")); err != nil {
			t.Errorf("list %s not saved: %v", n, err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	c2, err := New(Config{APIKey: testKey, BaseURL: s.URL, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	// The second client lives at the first one's time, not the wall clock's,
	// so that the saved due time (the fake clock plus 30 minutes) is ahead.
	c2.now = clk.now
	if !c2.IsReady() {
		t.Fatal("not ready from Dir")
	}
	requests := len(s.queries)
	if v, err := c2.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("lookup from saved lists: %v, %v", short(v), err)
	}
	// The saved due time holds: nothing is due before 30 minutes.
	if err := c2.Update(bg); err != nil || len(s.queries) != requests+1 {
		t.Errorf("Update fetched lists not yet due: %v, %d requests", err, len(s.queries)-requests)
	}
	if st := c2.Lists()[0]; string(st.Version) != "v1" || st.Entries != 1 {
		t.Errorf("loaded %+v", st)
	}
}

// TestBadFilesDiscarded: a corrupt, truncated, empty or foreign file is
// discarded: New does not fail, the client is not ready, and the list is
// fetched whole.
func TestBadFilesDiscarded(t *testing.T) {
	good := func(t *testing.T, name string) []byte {
		l, _ := hashlist.New(name)
		if err := l.Apply(listOf(t, name, "v1", 0, "a.example/")); err != nil {
			t.Fatal(err)
		}
		b, _ := l.MarshalBinary()
		return encodeFile(name, time.Time{}, time.Time{}, b)
	}
	tests := []struct {
		name string
		file func(t *testing.T) []byte
	}{
		// A byte flipped in the middle.
		{"corrupt", func(t *testing.T) []byte { b := good(t, "se-4b"); b[len(b)/2] ^= 1; return b }},
		// Cut short, as by a crash mid-write without the rename.
		{"truncated", func(t *testing.T) []byte { b := good(t, "se-4b"); return b[:len(b)-5] }},
		// Empty.
		{"empty", func(t *testing.T) []byte { return nil }},
		// Another list's file under this list's name.
		{"foreign list", func(t *testing.T) []byte { return good(t, "mw-4b") }},
		// Not a list file at all.
		{"foreign file", func(t *testing.T) []byte { return []byte("#!/bin/sh\necho hello\n") }},
		// A newer format.
		{"future format", func(t *testing.T) []byte { b := good(t, "se-4b"); b[len(fileMagic)] = 9; return b }},
		// Format 1, which did not record when the list was fetched.
		{"format 1", func(t *testing.T) []byte {
			l, _ := hashlist.New("se-4b")
			if err := l.Apply(listOf(t, "se-4b", "v1", 0, "a.example/")); err != nil {
				t.Fatal(err)
			}
			blob, _ := l.MarshalBinary()
			b := append([]byte(fileMagic), 1, 5)
			b = append(b, "se-4b"...)
			b = append(b, make([]byte, 8)...) // next: at once
			b = append(b, blob...)
			sum := sha256.Sum256(b)
			return append(b, sum[:]...)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "se-4b.sblist"), tt.file(t), 0o644); err != nil {
				t.Fatal(err)
			}
			s := newTestServer(t)
			setList(s, "se-4b", listOf(t, "se-4b", "v2", 0))
			c, err := New(Config{APIKey: testKey, BaseURL: s.URL, Dir: dir, Lists: []string{"se-4b"}})
			if err != nil {
				t.Fatalf("New failed for a bad file: %v", err)
			}
			defer c.Close()
			if c.IsReady() {
				t.Error("ready from a discarded file")
			}
			if _, err := c.Lookup(bg, "http://a.example/"); !errors.Is(err, ErrNotReady) {
				t.Errorf("Lookup = %v, want ErrNotReady", err)
			}
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			if q := lastQuery(s); q["version"] != nil {
				t.Errorf("query %v: a discarded list is fetched whole", q)
			}
			if !c.IsReady() {
				t.Error("not ready after the fetch")
			}
		})
	}
}

// TestSharedDir: two clients updating one Dir at once leave whole files.
func TestSharedDir(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t)
	setList(s, "se-4b", listOf(t, "se-4b", "v1", 0, "a.example/", "b.example/"))
	var cs []*Client
	for range 2 {
		c, err := New(Config{APIKey: testKey, BaseURL: s.URL, Dir: dir, Lists: []string{"se-4b"}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		cs = append(cs, c)
	}
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := c.Update(bg); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	c, err := New(Config{APIKey: testKey, BaseURL: s.URL, Dir: dir, Lists: []string{"se-4b"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.IsReady() || c.Lists()[0].Entries != 2 {
		t.Errorf("shared Dir left a bad file: %+v", c.Lists())
	}
}

// TestFileRoundTrip: decodeFile reads what encodeFile writes.
func TestFileRoundTrip(t *testing.T) {
	next, updated := time.Unix(1700000000, 5), time.Unix(1699990000, 7)
	b := encodeFile("se-4b", next, updated, []byte("blob"))
	gotNext, gotUpdated, blob, err := decodeFile("se-4b", b)
	if err != nil || !gotNext.Equal(next) || !gotUpdated.Equal(updated) || string(blob) != "blob" {
		t.Errorf("got %v, %v, %q, %v", gotNext, gotUpdated, blob, err)
	}
	gotNext, gotUpdated, _, err = decodeFile("se-4b", encodeFile("se-4b", time.Time{}, time.Time{}, nil))
	if err != nil || !gotNext.IsZero() || !gotUpdated.IsZero() {
		t.Errorf("zero times: got %v, %v, %v", gotNext, gotUpdated, err)
	}
	if _, _, _, err := decodeFile("mw-4b", b); !errors.Is(err, errBadFile) {
		t.Errorf("another list's file: err = %v", err)
	}
}

// FuzzListFile: no file in Dir makes loading panic; a file that loads is
// one a list accepts.
func FuzzListFile(f *testing.F) {
	l, _ := hashlist.New("se-4b")
	l.Apply(listOf(f, "se-4b", "v1", 0, "a.example/", "b.example/"))
	blob, _ := l.MarshalBinary()
	f.Add(encodeFile("se-4b", time.Unix(1, 0), time.Unix(2, 0), blob))
	f.Add(encodeFile("se-4b", time.Time{}, time.Time{}, nil))
	f.Add([]byte(fileMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, b, err := decodeFile("se-4b", data)
		if err != nil {
			return
		}
		l, _ := hashlist.New("se-4b")
		if l.UnmarshalBinary(b) == nil && l.Name() != "se-4b" {
			t.Fatalf("loaded list %q", l.Name())
		}
	})
}

// TestSaveFailureNotRequestFailure: a list that cannot be saved (Dir gone,
// full or read-only) serves from memory; the failure shows in Lists and
// the log and in Update's error, but not as a failed request: no back-off,
// and new entries go on being fetched. The save is tried again at the next
// Update, due or not.
func TestSaveFailureNotRequestFailure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lists")
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, "evil.example/"))
	var logs syncBuffer
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Dir: dir, Lists: []string{"se-4b"},
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	// A file where the directory was: every save fails.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(bg); err == nil || errors.Is(err, ErrBackoff) {
		t.Fatalf("Update = %v; want the save's failure", err)
	}
	if n, _ := c.updates.state(); n != 0 || c.Stats().UpdateErrors != 0 {
		t.Errorf("%d failures, %d update errors counted for a failed save", n, c.Stats().UpdateErrors)
	}
	if st := c.Lists()[0]; st.Err == nil || !st.Loaded || st.Entries != 1 {
		t.Errorf("Lists = %+v; want the list loaded, with the save's error", st)
	}
	if !strings.Contains(logs.String(), "saving") {
		t.Errorf("the log does not show the failed save:\n%s", logs.String())
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("Lookup = %v, %v; want unsafe from memory", short(v), err)
	}
	// The next update goes out when due, with no back-off.
	clk.advance(time.Minute)
	if err := c.Update(bg); errors.Is(err, ErrBackoff) || s.count("hashList") != 2 {
		t.Errorf("Update = %v after %d requests; want a second fetch", err, s.count("hashList"))
	}
	// Dir is back: the next Update saves, though nothing is due.
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "se-4b.sblist")); err != nil {
		t.Errorf("not saved once Dir is back: %v", err)
	}
	if st := c.Lists()[0]; st.Err != nil {
		t.Errorf("Lists()[0].Err = %v after the save", st.Err)
	}
}
