// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"encoding/base64"
	"reflect"
	"testing"
)

// TestSearchRequestHandBuilt reads SearchHashesRequests written byte by
// byte from the schema, and writes them back.
func TestSearchRequestHandBuilt(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		max     int
		want    [][]byte
		wantErr bool
	}{
		// No prefix: an empty message.
		{"empty", nil, 10, nil, false},
		// Two prefixes of 4 bytes.
		{"two", []byte{0x0a, 0x04, 1, 2, 3, 4, 0x0a, 0x04, 5, 6, 7, 8}, 10, [][]byte{{1, 2, 3, 4}, {5, 6, 7, 8}}, false},
		// An unknown field (2, varint) is skipped.
		{"unknown", []byte{0x10, 0x01, 0x0a, 0x04, 1, 2, 3, 4}, 10, [][]byte{{1, 2, 3, 4}}, false},
		// A prefix of another length is kept, for the server to judge.
		{"short", []byte{0x0a, 0x02, 1, 2}, 10, [][]byte{{1, 2}}, false},
		// hash_prefixes as a varint is corrupt.
		{"wire type", []byte{0x08, 0x01}, 10, nil, true},
		// A truncated length.
		{"truncated", []byte{0x0a, 0x04, 1}, 10, nil, true},
		// One prefix over the caller's limit.
		{"over max", []byte{0x0a, 0x00, 0x0a, 0x00}, 1, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSearchHashesRequest(tt.in, tt.max)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(got.HashPrefixes, tt.want) {
				t.Errorf("got %x, want %x", got.HashPrefixes, tt.want)
			}
			if tt.name != "unknown" {
				if b := AppendSearchHashesRequest(nil, &got); string(b) != string(tt.in) {
					t.Errorf("Append = %x, want %x", b, tt.in)
				}
			}
		})
	}
}

// TestSearchRequestChromium reads a $req as Chromium encodes one (the
// message in base64url with padding) for the prefix deadbeef, written by
// hand: tag 0x0a, length 4, then the prefix.
func TestSearchRequestChromium(t *testing.T) {
	b, err := base64.URLEncoding.DecodeString("CgTerb7v")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseSearchHashesRequest(b, 1000)
	if err != nil || len(m.HashPrefixes) != 1 || string(m.HashPrefixes[0]) != "\xde\xad\xbe\xef" {
		t.Fatalf("got %x, %v", m.HashPrefixes, err)
	}
}

// FuzzSearchHashesRequest: reading never panics nor reads more prefixes
// than asked, and what it reads writes back to a message that reads the
// same.
func FuzzSearchHashesRequest(f *testing.F) {
	// One prefix; an unknown field; a wrong wire type; a truncated length.
	f.Add([]byte{0x0a, 0x04, 0xde, 0xad, 0xbe, 0xef})
	f.Add([]byte{0x10, 0x01, 0x0a, 0x00})
	f.Add([]byte{0x08, 0x01})
	f.Add([]byte{0x0a, 0x40})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseSearchHashesRequest(b, 8)
		if len(m.HashPrefixes) > 8 {
			t.Fatalf("%d prefixes read", len(m.HashPrefixes))
		}
		if err != nil {
			return
		}
		again, err := ParseSearchHashesRequest(AppendSearchHashesRequest(nil, &m), 8)
		if err != nil || !reflect.DeepEqual(again.HashPrefixes, m.HashPrefixes) {
			t.Fatalf("round trip: %x, %v; want %x", again.HashPrefixes, err, m.HashPrefixes)
		}
	})
}
