// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"reflect"
	"testing"
)

// TestSearchRequestHandBuilt reads SearchHashesRequests written byte by
// byte from the schema, as Chromium's $req= carries them.
func TestSearchRequestHandBuilt(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    [][]byte
		wantErr bool
	}{
		// No prefix at all.
		{"empty", nil, nil, false},
		// Two prefixes of 4 bytes.
		{"two", []byte{0x0a, 0x04, 1, 2, 3, 4, 0x0a, 0x04, 5, 6, 7, 8}, [][]byte{{1, 2, 3, 4}, {5, 6, 7, 8}}, false},
		// The filter (field 2) and an unknown varint field are skipped.
		{"filter", []byte{0x12, 0x01, 'x', 0x0a, 0x04, 1, 2, 3, 4, 0x18, 0x07}, [][]byte{{1, 2, 3, 4}}, false},
		// hash_prefixes as a varint is corrupt.
		{"wire type", []byte{0x08, 0x01}, nil, true},
		// A truncated length.
		{"truncated", []byte{0x0a, 0x04, 1, 2}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSearchHashesRequest(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if !tt.wantErr {
				if back := AppendSearchHashesRequest(nil, got); tt.name == "two" && !reflect.DeepEqual(back, tt.in) {
					t.Errorf("AppendSearchHashesRequest = %x, want %x", back, tt.in)
				}
			}
		})
	}
}

// FuzzSearchHashesRequest reads arbitrary bytes as Chromium's $req=
// message: nothing panics, and what is read is written back to a message
// that reads the same.
func FuzzSearchHashesRequest(f *testing.F) {
	for _, seed := range [][]byte{
		// Two prefixes.
		{0x0a, 0x04, 1, 2, 3, 4, 0x0a, 0x04, 5, 6, 7, 8},
		// The filter and an unknown field.
		{0x12, 0x01, 'x', 0x0a, 0x04, 1, 2, 3, 4, 0x18, 0x07},
		// A truncated length, and a wrong wire type.
		{0x0a, 0x04, 1}, {0x08, 0x01},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := ParseSearchHashesRequest(b)
		if err != nil {
			return
		}
		again, err := ParseSearchHashesRequest(AppendSearchHashesRequest(nil, ps))
		if err != nil || !reflect.DeepEqual(again, ps) && len(ps) > 0 {
			t.Fatalf("round trip of %x: %x, %v", ps, again, err)
		}
	})
}
