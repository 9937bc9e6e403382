// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// TestMaxDatabaseEntries: every list fetch sends
// sizeConstraints.maxDatabaseEntries, and a reply that would make a list
// larger is corrupt, refused before it is decoded: the old list answers.
func TestMaxDatabaseEntries(t *testing.T) {
	exprs := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("e%d.example/", i))
		}
		return out
	}
	tests := []struct {
		name    string
		max     int // Config.MaxDatabaseEntries
		n       int // entries in the list
		wantMax string
		wantErr bool
	}{
		// The default, sent.
		{"default", 0, 10, strconv.Itoa(DefaultMaxDatabaseEntries), false},
		// A list at the limit is kept.
		{"at the limit", 10, 10, "10", false},
		// One more is corrupt.
		{"over the limit", 9, 10, "9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, exprs(tt.n)...))
			setList(s, "mw-4b", listOf(t, "mw-4b", "v1", time.Minute, exprs(tt.n)...))
			c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b", "mw-4b"}, MaxDatabaseEntries: tt.max})
			err := c.Update(bg)
			if tt.wantErr != errors.Is(err, ErrCorruptReply) {
				t.Fatalf("Update = %v; want ErrCorruptReply %v", err, tt.wantErr)
			}
			if got := lastQuery(s)["sizeConstraints.maxDatabaseEntries"]; len(got) != 1 || got[0] != tt.wantMax {
				t.Errorf("sizeConstraints.maxDatabaseEntries = %q, want %q", got, tt.wantMax)
			}
			for _, st := range c.Lists() {
				if st.Entries > max(tt.max, DefaultMaxDatabaseEntries*btoi(tt.max == 0)) {
					t.Errorf("%s holds %d entries", st.Name, st.Entries)
				}
			}
		})
	}

	// A partial update past the limit is refused; the old list answers.
	s := newTestServer(t)
	setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, exprs(5)...))
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}, MaxDatabaseEntries: 6})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	setList(s, "se-4b", partialOf(t, "se-4b", exprs(5), "x1.example/", "x2.example/"))
	clk.advance(time.Minute)
	if err := c.Update(bg); !errors.Is(err, ErrCorruptReply) {
		t.Errorf("partial update past the limit: %v, want ErrCorruptReply", err)
	}
	if st := c.Lists()[0]; st.Entries != 5 || !st.Loaded {
		t.Errorf("after the refused update: %+v", st)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestMaxDatabaseEntriesConfig: a negative MaxDatabaseEntries, or one past
// int32, is refused by New.
func TestMaxDatabaseEntriesConfig(t *testing.T) {
	for _, n := range []int{-1, 1 << 31} {
		if _, err := New(Config{APIKey: testKey, MaxDatabaseEntries: n}); err == nil {
			t.Errorf("New with MaxDatabaseEntries %d: no error", n)
		}
	}
}

// gzipBomb returns a gzip body that inflates to a valid HashList of se-4b
// holding n prefixes (0, 1, 2, …: 4 bits each at k = 3), with a wrong
// checksum, and its inflated size.
func gzipBomb(t testing.TB, n int) ([]byte, int) {
	data := bytes.Repeat([]byte{0x22}, (n-1+1)/2) // delta 1: q 0, then r 001
	var rice []byte
	rice = protowire.AppendTag(rice, 2, protowire.VarintType) // rice_parameter
	rice = protowire.AppendVarint(rice, 3)
	rice = protowire.AppendTag(rice, 3, protowire.VarintType) // entries_count
	rice = protowire.AppendVarint(rice, uint64(n-1))
	rice = protowire.AppendTag(rice, 4, protowire.BytesType) // encoded_data
	rice = protowire.AppendBytes(rice, data)
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.BytesType)
	m = protowire.AppendString(m, "se-4b")
	m = protowire.AppendTag(m, 4, protowire.BytesType) // additions_four_bytes
	m = protowire.AppendBytes(m, rice)
	m = protowire.AppendTag(m, 7, protowire.BytesType) // sha256_checksum
	m = protowire.AppendBytes(m, make([]byte, 32))
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(m)
	zw.Close()
	return buf.Bytes(), len(m)
}

// TestGzipBombAlloc: a list reply of 16 KiB of gzip that inflates to a
// valid list of 32M prefixes, over the default MaxDatabaseEntries, costs
// the inflated body and nothing more: it is refused before it is decoded.
func TestGzipBombAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	wire, inflated := gzipBomb(t, 1<<25)
	s := newTestServer(t)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(wire)
	}
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := c.Update(bg)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("no error")
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes on the wire, %d inflated: Update allocated %d bytes (%.0f× the wire)", len(wire), inflated, alloc, float64(alloc)/float64(len(wire)))
	if alloc > uint64(3*inflated) {
		t.Errorf("Update allocated %d bytes for a body of %d", alloc, inflated)
	}
}

// partialOf returns a partial update of the 4-byte list name, holding old,
// that adds the prefixes of add, with version "v2".
func partialOf(t testing.TB, name string, old []string, add ...string) []byte {
	t.Helper()
	var all, adds []byte
	for _, e := range old {
		h := hashOf(e)
		all = append(all, h[:4]...)
	}
	for _, e := range add {
		h := hashOf(e)
		adds = append(adds, h[:4]...)
	}
	sum := hashlist.Checksum(append(all, adds...), 4)
	m := hashlist.Message{Name: name, Version: []byte("v2"), Partial: true, Additions: adds, Checksum: sum[:]}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
