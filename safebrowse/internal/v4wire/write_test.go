// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"testing"
)

// TestAppendMessage: a message appended in place, its length reserved in
// one byte and moved when it takes more, is the tag, the length and the
// body, at every size where the length's varint grows.
func TestAppendMessage(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 21} {
		body := bytes.Repeat([]byte{0x5a}, n)
		got := appendMessage([]byte("prefix"), 5, func(b []byte) []byte { return append(b, body...) })
		want := cat([]byte("prefix"), []byte{0x2a}, appendLen(nil, n), body)
		if !bytes.Equal(got, want) {
			t.Errorf("body of %d bytes: got %d bytes, want %d", n, len(got), len(want))
		}
	}
}
