// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"testing"
)

// TestVarint checks the examples of RFC 9000 section 16 and Appendix A.1
// both ways, and the non-minimal and truncated encodings.
func TestVarint(t *testing.T) {
	tests := []struct {
		in      string // hex
		want    uint64
		minimal bool // whether appendVarint writes in
	}{
		// RFC 9000 A.1: an eight-byte encoding.
		{in: "c2197c5eff14e88c", want: 151288809941952652, minimal: true},
		// RFC 9000 A.1: a four-byte encoding.
		{in: "9d7f3e7d", want: 494878333, minimal: true},
		// RFC 9000 A.1: a two-byte encoding.
		{in: "7bbd", want: 15293, minimal: true},
		// RFC 9000 A.1: a one-byte encoding.
		{in: "25", want: 37, minimal: true},
		// RFC 9000 A.1: 37 in two bytes, which a decoder takes.
		{in: "4025", want: 37},
		// The largest value.
		{in: "ffffffffffffffff", want: maxVarint, minimal: true},
		// The boundaries between lengths.
		{in: "3f", want: 63, minimal: true},
		{in: "4040", want: 64, minimal: true},
		{in: "7fff", want: 16383, minimal: true},
		{in: "80004000", want: 16384, minimal: true},
		{in: "bfffffff", want: 1<<30 - 1, minimal: true},
		{in: "c000000040000000", want: 1 << 30, minimal: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := unhex(t, tt.in)
			got, n := consumeVarint(in)
			if got != tt.want || n != len(in) {
				t.Errorf("consumeVarint = %d, %d; want %d, %d", got, n, tt.want, len(in))
			}
			if _, n := consumeVarint(in[:len(in)-1]); n >= 0 {
				t.Errorf("consumeVarint of the truncated encoding = %d, want < 0", n)
			}
			if tt.minimal {
				if b := appendVarint(nil, tt.want); !bytes.Equal(b, in) || varintLen(tt.want) != len(in) {
					t.Errorf("appendVarint(%d) = %x (varintLen %d), want %x", tt.want, b, varintLen(tt.want), in)
				}
			}
		})
	}
}
