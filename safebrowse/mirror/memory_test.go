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
		s := newSearcher(&Mirror{}, n, 1)
		for i := range uint32(n) {
			s.put(0, [4]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}, centry{expires: 1})
		}
		per := float64(heap()-before) / float64(n)
		runtime.KeepAlive(s)
		t.Logf("%d entries: %.1f bytes each", n, per)
		if per > BytesPerCacheEntry {
			t.Errorf("%d entries: %.1f bytes each, more than BytesPerCacheEntry (%d)", n, per, BytesPerCacheEntry)
		}
	}
}
