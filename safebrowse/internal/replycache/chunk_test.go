// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package replycache

import (
	"strconv"
	"testing"
)

func TestChunkSize(t *testing.T) {
	tests := []struct {
		in, want int
	}{
		// No limit.
		{0, 0},
		// A negative limit is none either (the caller refuses it first).
		{-1, 0},
		// The least chunk, exactly.
		{1024, 1024},
		// Just under the next power: rounded down, never up.
		{2047, 1024},
		{2048, 2048},
		// Between powers: the one below.
		{100_000, 65536},
		// The largest chunk, exactly and above.
		{1 << 20, 1 << 20},
		{1<<20 + 1, 1 << 20},
		{1 << 24, 1 << 20}, // Google's advice for v4 desktop clients
		{1<<31 - 1, 1 << 20},
		// Below the least: rounded down all the same.
		{1000, 512},
		{1, 1},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.in), func(t *testing.T) {
			if got := ChunkSize(tt.in); got != tt.want {
				t.Errorf("ChunkSize(%d) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

// TestChunkSizesFew: every limit a client may give maps to one of 12
// sizes, each a power of two at or below the limit.
func TestChunkSizesFew(t *testing.T) {
	seen := map[int]bool{}
	for n := MinChunk; n < 1<<22; n += 977 {
		c := ChunkSize(n)
		if c > n || c < MinChunk || c > MaxChunk || c&(c-1) != 0 {
			t.Fatalf("ChunkSize(%d) = %d", n, c)
		}
		seen[c] = true
	}
	if len(seen) != 11 {
		t.Errorf("%d chunk sizes, want 11", len(seen))
	}
}
