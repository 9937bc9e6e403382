// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"crypto/sha256"
	"testing"
)

// TestHasher checks the hasher against sha256.Sum256 for every length up
// to four blocks: each case of padding (one block, two blocks, whole blocks
// before the tail).
func TestHasher(t *testing.T) {
	if !useHasher() {
		t.Fatal("useHasher is false: this crypto/sha256 is not the standard library's; AppendHashes falls back to Sum256")
	}
	h := newHasher()
	msg := make([]byte, 4*sha256.BlockSize+1)
	for i := range msg {
		msg[i] = byte(255 - i)
	}
	for n := range len(msg) + 1 {
		var got Hash
		ok := sum(h, &got, msg[:n])
		if want := Hash(sha256.Sum256(msg[:n])); !ok || got != want {
			t.Fatalf("sum of %d bytes = %s, %v; want %s", n, got, ok, want)
		}
	}
}

func BenchmarkSum(b *testing.B) {
	exprs := [][]byte{
		[]byte("www.example.com/"),
		[]byte("www.example.com/a/b/page.html"),
		[]byte("www.example.com/a/b/page.html?utm_source=newsletter&id=12345"),
		[]byte("example.com/a/"),
	}
	b.Run("sha256.Sum256", func(b *testing.B) {
		benchEach(b, len(exprs), func(i int) { sinkHash = sha256.Sum256(exprs[i]) })
	})
	b.Run("hasher", func(b *testing.B) {
		h := newHasher()
		benchEach(b, len(exprs), func(i int) { sum(h, &sinkHash, exprs[i]) })
	})
}

// TestSum256Fallback checks AppendHashes where useHasher is false, as with
// a crypto/sha256 whose binary form differs: it must give the same hashes
// through sha256.Sum256, from a raw URL and from a parsed one.
func TestSum256Fallback(t *testing.T) {
	defer func(f func() bool) { useHasher = f }(useHasher)
	useHasher = func() bool { return false }
	for _, tt := range expressionsTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []HostRule{HostsV5, HostsV4} {
				checkHashes(t, r, tt.in)
			}
		})
	}
}
