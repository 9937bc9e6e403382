// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"errors"
	"runtime"
	"testing"
)

// TestHugeCountAlloc: a huge entries_count over a few bytes of data fails
// at once, before any allocation that grows with the count: the whole
// Apply allocates under 1 KiB.
func TestHugeCountAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	l, _ := New("se-4b")
	for _, count := range []int64{1<<31 - 1, 1 << 20, 100} {
		msg := hashListMsg{add: rice32Msg(1, 3, count, []byte{1, 2, 3}), checksum: sum4()}.bytes()
		rem := hashListMsg{partial: true, rem: rice32Msg(1, 3, count, []byte{1, 2, 3}), checksum: sum4()}.bytes()
		for _, m := range [][]byte{msg, rem} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := l.Apply(m)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("count %d: Apply = %v; want ErrCorrupt", count, err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 1024 {
				t.Errorf("count %d: Apply allocated %d bytes", count, got)
			}
		}
	}
}

// TestContainsAlloc: Contains allocates nothing, in either form.
func TestContainsAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	for _, tt := range []struct {
		name string
		n    int
	}{{"se-4b", 10}, {"se-4b", 70000}, {"gc-32b", 10}} {
		l := filled(t, tt.name, tt.n, "v")
		h := make([]byte, 32)
		if n := testing.AllocsPerRun(1000, func() { l.Contains(h) }); n != 0 {
			t.Errorf("%s of %d: Contains allocates %v times", tt.name, tt.n, n)
		}
	}
}

// TestHugeChecksumAlloc: a sha256_checksum of 32 MiB is quoted within the
// 100-byte rule, not printed whole: Apply allocates a few KiB for it.
func TestHugeChecksumAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	l, _ := New("se-4b")
	msg := hashListMsg{checksum: make([]byte, 32<<20)}.bytes()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := l.Apply(msg)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("Apply = %v; want ErrChecksum", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<10 {
		t.Errorf("Apply allocated %d bytes", got)
	}
}
