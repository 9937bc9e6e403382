// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"errors"
	"testing"
)

// TestResourceNames: a list name in the resource form of safebrowsing.proto,
// "hashLists/se-4b", is the list se-4b, in New and in a message.
func TestResourceNames(t *testing.T) {
	sum := Checksum([]byte{1, 2, 3, 4}, 4)
	tests := []struct {
		name, list, msg string
		wantErr         error
	}{
		// The message in the resource form, the list not.
		{"message", "se-4b", "hashLists/se-4b", nil},
		// The list in the resource form, the message not.
		{"list", "hashLists/se-4b", "se-4b", nil},
		// Both.
		{"both", "hashLists/se-4b", "hashLists/se-4b", nil},
		// Another list stays another list.
		{"other", "se-4b", "hashLists/mw-4b", ErrName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New(tt.list)
			if err != nil {
				t.Fatal(err)
			}
			if l.Name() != "se-4b" {
				t.Errorf("Name() = %q; want se-4b", l.Name())
			}
			m := Message{Name: tt.msg, Additions: []byte{1, 2, 3, 4}, Checksum: sum[:]}
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Apply(b); !errors.Is(err, tt.wantErr) {
				t.Errorf("Apply: %v; want %v", err, tt.wantErr)
			}
		})
	}
}
