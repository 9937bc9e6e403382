// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"crypto/sha256"
	"testing"
)

// fullUpdateOf returns a full update whose Rice data is n bytes, about
// what 1M 4-byte prefixes take (n = 2 MiB), and its 4 MiB raw list.
func fullUpdateOf(n int) (*FetchThreatListUpdatesResponse, []byte) {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 131)
	}
	m := &FetchThreatListUpdatesResponse{ListUpdateResponses: []ListUpdateResponse{{
		ThreatType: Malware, ThreatEntryType: URL, PlatformType: AnyPlatform, ResponseType: FullUpdate,
		Additions:      []ThreatEntrySet{{Compression: CompressionRice, RiceHashes: &Rice{First: 1, K: 28, Count: 1 << 20, Data: data}}},
		NewClientState: make([]byte, 32), Checksum: make([]byte, 32),
	}}}
	return m, make([]byte, 2*n)
}

// BenchmarkAppendFullUpdate writes a full update of 1M prefixes in binary,
// beside crypto/sha256 over the list, the floor of building one.
func BenchmarkAppendFullUpdate(b *testing.B) {
	m, list := fullUpdateOf(2 << 20)
	b.Run("binary", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(m.ListUpdateResponses[0].Additions[0].RiceHashes.Data)))
		var buf []byte
		for b.Loop() {
			buf = AppendFetchThreatListUpdatesResponse(buf[:0], m)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(m.ListUpdateResponses[0].Additions[0].RiceHashes.Data)))
		var buf []byte
		for b.Loop() {
			buf = AppendFetchThreatListUpdatesResponseJSON(buf[:0], m)
		}
	})
	b.Run("sha256", func(b *testing.B) {
		b.SetBytes(int64(len(list)))
		for b.Loop() {
			sha256.Sum256(list)
		}
	})
}

// BenchmarkParseFullUpdate reads the same update, in binary and in JSON.
func BenchmarkParseFullUpdate(b *testing.B) {
	m, _ := fullUpdateOf(2 << 20)
	bin := AppendFetchThreatListUpdatesResponse(nil, m)
	js := AppendFetchThreatListUpdatesResponseJSON(nil, m)
	b.Run("binary", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(bin)))
		for b.Loop() {
			if _, err := ParseFetchThreatListUpdatesResponse(bin); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(js)))
		for b.Loop() {
			if _, err := ParseFetchThreatListUpdatesResponseJSON(js); err != nil {
				b.Fatal(err)
			}
		}
	})
}
