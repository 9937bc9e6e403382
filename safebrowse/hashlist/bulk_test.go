// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"fmt"
	"testing"
)

// TestAppendHashes: AppendHashes appends what All yields, in both forms
// of a 4-byte list and for a wider one, after what dst holds.
func TestAppendHashes(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
	}{{"se-4b", 0}, {"se-4b", 100}, {"se-4b", 70000}, {"gc-32b", 50}} {
		t.Run(fmt.Sprintf("%s %d", tt.name, tt.n), func(t *testing.T) {
			l := filled(t, tt.name, tt.n, "v")
			if got := l.AppendHashes([]byte("x")); !bytes.Equal(got, append([]byte("x"), collect(l)...)) {
				t.Fatalf("AppendHashes gives %d bytes; All %d", len(got)-1, len(collect(l)))
			}
		})
	}
}

// TestAppendEntries: AppendEntries appends the entries of one size that
// All yields, in order, for each size, in both forms of the 4-byte part.
func TestAppendEntries(t *testing.T) {
	for _, min := range []int{1 << 16, 64} {
		t.Run(fmt.Sprint(min), func(t *testing.T) {
			defer setForms(min)()
			s, entries := filledSet(t, "MALWARE", 3000, "v")
			for size := 3; size <= 33; size++ {
				var want []byte
				for _, e := range entries {
					if len(e) == size {
						want = append(want, e...)
					}
				}
				if got := s.AppendEntries([]byte("x"), size); !bytes.Equal(got, append([]byte("x"), want...)) {
					t.Fatalf("size %d: AppendEntries gives %d bytes; want %d", size, len(got)-1, len(want))
				}
			}
		})
	}
}
