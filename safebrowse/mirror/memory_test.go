// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"runtime"
	"testing"
)

// TestCacheMemory measures what a cache entry of a prefix with no full
// hash costs, which BytesPerCacheEntry states.
func TestCacheMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	// Sizes just under and just over a growth of the map, and between.
	for _, n := range []int{1 << 17, 1<<17 + 1<<14, 100_000, 150_000} {
		before := heap()
		s := newSearcher(&Mirror{}, n, 1<<40)
		for i := range uint32(n) {
			s.putLocked(0, [4]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}, centry{expires: 1})
		}
		per := float64(heap()-before) / float64(n)
		runtime.KeepAlive(s)
		t.Logf("%d entries: %.1f bytes each", n, per)
		if per > BytesPerCacheEntry {
			t.Errorf("%d entries: %.1f bytes each, more than BytesPerCacheEntry (%d)", n, per, BytesPerCacheEntry)
		}
	}
}

// TestCacheEntryBytes: what Config.CacheBytes counts of an entry with
// full hashes is honest: never less than the heap it takes, and not much
// more.
func TestCacheEntryBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	tests := []struct {
		name    string
		entries int
		hashes  int
		json    bool
	}{
		// One full hash, as most listed prefixes get, in protobuf.
		{"one", 50_000, 1, false},
		// ... and in JSON too.
		{"one json", 50_000, 1, true},
		// 20,000 full hashes a prefix.
		{"many", 8, 20_000, false},
		// ... and in JSON too.
		{"many json", 8, 20_000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := manyHashes([4]byte{1, 2, 3, 4}, tt.hashes)
			s := newSearcher(&Mirror{}, tt.entries+1, 1<<40)
			before := heap()
			for i := range uint32(tt.entries) {
				e := centry{expires: 1, enc: &encodedHashes{proto: encodeProto(hs)}}
				if tt.json {
					e.enc.json, _ = encodeJSON(hs)
				}
				s.putLocked(0, [4]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}, e)
			}
			used := int64(heap() - before)
			_, est := s.held()
			runtime.KeepAlive(s)
			runtime.KeepAlive(hs)
			t.Logf("%d entries: %d bytes of heap, %d estimated", tt.entries, used, est)
			// (1 KiB for what the heap holds beside the entries.)
			if est+1<<10 < used || float64(est) > 1.5*float64(used) {
				t.Errorf("estimated %d bytes for %d of heap: want at least the heap, at most 1.5×", est, used)
			}
		})
	}
}
