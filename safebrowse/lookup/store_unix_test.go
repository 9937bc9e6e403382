// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package lookup

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// TestDirRegularFilesOnly: a list file in Dir that is not a regular file
// is discarded, never read: a symlink (to /dev/zero, or to a good list
// file elsewhere) is not followed, a FIFO does not block New, and nothing
// is allocated for it.
func TestDirRegularFilesOnly(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.sblist")
	l, _ := hashlist.New("se-4b")
	l.Apply(listOf(t, "se-4b", "v1", 0, "evil.example/"))
	blob, _ := l.MarshalBinary()
	if err := os.WriteFile(good, encodeFile("se-4b", time.Time{}, time.Time{}, blob), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		make func(path string) error
	}{
		// An endless device: New allocated 2 GiB.
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
		// A good list, elsewhere: not followed either.
		{"symlink to a list", func(p string) error { return os.Symlink(good, p) }},
		// A FIFO that no one writes: New hung.
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		// A directory.
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero")
			}
			dir := t.TempDir()
			if err := tt.make(filepath.Join(dir, "se-4b.sblist")); err != nil {
				t.Skip(err)
			}
			done := make(chan *Client, 1)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			go func() {
				c, err := New(Config{APIKey: testKey, Dir: dir, Lists: []string{"se-4b"}})
				if err != nil {
					t.Error(err)
				}
				done <- c
			}()
			var c *Client
			select {
			case c = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("New hangs")
			}
			runtime.ReadMemStats(&after)
			if c == nil {
				return
			}
			defer c.Close()
			if c.IsReady() {
				t.Error("a list was loaded from a file that is not a regular file")
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
				t.Errorf("New allocated %d bytes", got)
			}
		})
	}
}
