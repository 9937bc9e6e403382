// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"net/http"
	"runtime"
	"testing"
)

// TestUpdateHeapAlloc: a list update of 1M prefixes allocates at most the
// reply (read as it comes, so up to twice its size) plus 3× the list's
// size in memory, with Dir or without: the save streams the list to its
// file rather than building it in memory twice over.
func TestUpdateHeapAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	const n = 1 << 20
	msg := randomList(t, "se-4b", n, 7)
	for _, dir := range []string{"", t.TempDir()} {
		s := newTestServer(t)
		s.handle = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(msg)
		}
		c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}, Dir: dir})
		var before, after, held runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := c.Update(bg); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		runtime.GC()
		runtime.ReadMemStats(&held)
		list := int64(held.HeapAlloc) - int64(before.HeapAlloc)
		alloc := int64(after.TotalAlloc - before.TotalAlloc)
		budget := 2*int64(len(msg)) + 3*list
		t.Logf("Dir %v: reply %d bytes, list %d bytes in memory (%.2f B/prefix), Update allocated %d bytes (%.2f× the list beyond the reply); budget %d",
			dir != "", len(msg), list, float64(list)/n, alloc, float64(alloc-2*int64(len(msg)))/float64(list), budget)
		if alloc > budget {
			t.Errorf("Dir %v: Update allocated %d bytes, over the reply ×2 plus 3× the list (%d)", dir != "", alloc, budget)
		}
		runtime.KeepAlive(c)
	}
}
