// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"bytes"
	"testing"
	"time"
)

// TestHashListParts: head, the wait and tail are AppendHashList's bytes,
// for each additions field and with or without a wait.
func TestHashListParts(t *testing.T) {
	rice := Rice{First: [4]uint64{0, 0, 0, 7}, K: 5, Count: 1, Data: []byte{1}}
	for _, w := range []int{0, 4, 8, 16, 32} {
		for _, wait := range []time.Duration{0, 90 * time.Second} {
			m := HashList{Name: "x-4b", Version: []byte("v"), Partial: true, HasRemovals: true, Removals: rice,
				Checksum: bytes.Repeat([]byte{9}, 32), Metadata: &Metadata{Description: "d"}}
			if w != 0 {
				m.AddWidth, m.Additions = w, rice
			}
			head, tail := AppendHashListParts(nil, nil, &m)
			got := append(AppendMinimumWait(head, wait), tail...)
			m.MinimumWait = wait
			if want := AppendHashList(nil, &m); !bytes.Equal(got, want) {
				t.Errorf("width %d wait %v: parts %x, want %x", w, wait, got, want)
			}
			entry := AppendBatchListHeader(nil, len(got))
			if want := AppendBatchList(nil, got); !bytes.Equal(append(entry, got...), want) {
				t.Errorf("batch header %x, want %x", entry, want[:len(entry)])
			}
		}
	}
}
