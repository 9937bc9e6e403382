// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
)

// modelApply applies d to old, a set's entries in byte order, the slow
// way google/webrisk's client does (database.go, update; hash.go,
// decodeHashes, decodeIndices and Validate), under hashlist's decisions
// where they differ (the Rice header's ranges, a zero delta, an
// overflow, padding, maxLen): drop the list on RESET; mark the entries
// at the removal indices, raw and Rice-decoded by slowRiceLE, and
// compact; append the additions; sort; refuse an entry equal to or a
// prefix of the next; compare the checksum. It returns the entries
// after, and nil, ErrCorrupt or ErrChecksum.
func modelApply(old []string, d *Diff, maxLen int) ([]string, error) {
	list, err := modelEntries(old, d, maxLen)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(strings.Join(list, "")))
	oldSum := sha256.Sum256([]byte(strings.Join(old, "")))
	if d.Checksum != nil && !bytes.Equal(d.Checksum, sum[:]) {
		return nil, ErrChecksum
	}
	if d.Checksum == nil && sum != oldSum {
		return nil, ErrCorrupt
	}
	return list, nil
}

// modelEntries is modelApply without the checksum: the entries after d.
func modelEntries(old []string, d *Diff, maxLen int) ([]string, error) {
	if d.Reset && (len(d.RawRemovals) > 0 || d.RiceRemovals != nil) {
		return nil, ErrCorrupt
	}
	var adds []string
	for _, g := range d.Raw {
		if g.PrefixSize < 4 || g.PrefixSize > 32 || len(g.Hashes)%int(g.PrefixSize) != 0 {
			return nil, ErrCorrupt
		}
		for i := 0; i < len(g.Hashes); i += int(g.PrefixSize) {
			adds = append(adds, string(g.Hashes[i:i+int(g.PrefixSize)]))
		}
	}
	if d.Rice != nil {
		vals, err := slowRiceLE(d.Rice.First, d.Rice.K, d.Rice.Count, d.Rice.Data)
		if err != nil {
			return nil, ErrCorrupt
		}
		for _, v := range vals {
			adds = append(adds, string([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}))
		}
	}
	var idx []int64
	for _, x := range d.RawRemovals {
		idx = append(idx, int64(x))
	}
	if d.RiceRemovals != nil {
		vals, err := slowRiceLE(d.RiceRemovals.First, d.RiceRemovals.K, d.RiceRemovals.Count, d.RiceRemovals.Data)
		if err != nil {
			return nil, ErrCorrupt
		}
		for _, v := range vals {
			idx = append(idx, int64(v))
		}
	}
	list := slices.Clone(old)
	if d.Reset {
		list = nil
	}
	if maxLen > 0 && len(list)+len(adds)-len(idx) > maxLen {
		return nil, ErrCorrupt
	}
	for _, i := range idx {
		if i < 0 || i >= int64(len(list)) {
			return nil, ErrCorrupt
		}
		list[i] = ""
	}
	list = slices.DeleteFunc(list, func(s string) bool { return s == "" })
	list = append(list, adds...)
	slices.Sort(list)
	for i := 1; i < len(list); i++ {
		if strings.HasPrefix(list[i], list[i-1]) {
			return nil, ErrCorrupt
		}
	}
	if maxLen > 0 && len(list) > maxLen {
		return nil, ErrCorrupt
	}
	return list, nil
}

// startSet is the set the tests start from: 4-, 8- and 32-byte
// entries, in byte order.
var startSet = []string{
	"00000010",
	"00000020",
	"1000000011111111",
	"30000000",
	"4000000000000000000000000000000000000000000000000000000000000001",
	"a0000000",
}

// unhex returns the entries given in hex, as bytes.
func unhex(hexes []string) []string {
	out := make([]string, len(hexes))
	for i, h := range hexes {
		b, err := hex.DecodeString(h)
		if err != nil {
			panic(err)
		}
		out[i] = string(b)
	}
	return out
}

// setForms sets indexMin, and swapSortMin when lo is below it, to lo, so
// that small sets take the index and the sorts' buckets (lo = 1), or
// neither (lo = 1<<16); it returns what restores them.
func setForms(lo int) func() {
	indexMin, swapSortMin = lo, min(lo, 1<<12)
	return func() { indexMin, swapSortMin = 1<<16, 1<<12 }
}

// newStartSet returns a set holding startSet at version "v0", built
// with setForms(min).
func newStartSet(t testing.TB, min int) *PrefixSet {
	t.Helper()
	defer setForms(min)()
	s, _ := NewPrefixSet("MALWARE")
	d := diffOf(t, true, startSet, nil, true)
	sum := sha256.Sum256([]byte(strings.Join(unhex(startSet), "")))
	d.Checksum, d.Version = sum[:], []byte("v0")
	if err := s.Apply(&d, 0); err != nil {
		t.Fatal(err)
	}
	return s
}

// diffOf returns NewDiff of the entries given in hex, with Reset set.
func diffOf(t testing.TB, reset bool, adds []string, rem []uint32, rice bool) Diff {
	t.Helper()
	var entries [][]byte
	for _, e := range unhex(adds) {
		entries = append(entries, []byte(e))
	}
	d, err := NewDiff(entries, rem, rice)
	if err != nil {
		t.Fatal(err)
	}
	d.Reset = reset
	return d
}

// entriesOf returns the entries of s in order.
func entriesOf(s *PrefixSet) []string {
	var out []string
	for e := range s.All() {
		out = append(out, string(e))
	}
	return out
}

// TestApplyDiff applies diffs to startSet, in both forms of its 4-byte
// part, and checks the outcome against the case's and modelApply's: on
// success the entries, Len, Checksum, Version and Match; on an error
// the sentinel, and the set unchanged.
func TestApplyDiff(t *testing.T) {
	tests := []struct {
		name  string
		reset bool
		adds  []string // in hex
		rem   []uint32
		rice  bool
		// edit changes the diff after its checksum is set to the
		// model's (when the model accepts its entries).
		edit    func(d *Diff)
		maxLen  int
		want    []string // in hex, on success
		wantErr error
	}{
		// A RESET: Rice-coded 4-byte entries and raw longer ones.
		{name: "reset", reset: true, rice: true,
			adds: []string{"01020304", "05060708", "0a0b0c0d01020304", "ff00ff00ff00ff00ff00ff00ff00ff00"},
			want: []string{"01020304", "05060708", "0a0b0c0d01020304", "ff00ff00ff00ff00ff00ff00ff00ff00"}},
		// A RESET of Rice-coded 4-byte entries alone, each bucket of the
		// sort fed straight to the index.
		{name: "reset 4-byte", reset: true, rice: true,
			adds: []string{"ff000001", "01020304", "05060708", "00000001"},
			want: []string{"00000001", "01020304", "05060708", "ff000001"}},
		// The same, all raw.
		{name: "reset raw", reset: true,
			adds: []string{"05060708", "01020304", "0a0b0c0d01020304"},
			want: []string{"01020304", "05060708", "0a0b0c0d01020304"}},
		// A RESET to the empty list.
		{name: "reset empty", reset: true, want: []string{}},
		// A DIFF: raw removals index the entries of every length in byte
		// order (2 is the 8-byte entry, 4 the 32-byte one).
		{name: "diff raw", rem: []uint32{2, 4, 0}, adds: []string{"20000000", "2100000011"},
			want: []string{"00000020", "20000000", "2100000011", "30000000", "a0000000"}},
		// A DIFF with Rice-coded removals and additions.
		{name: "diff rice", rice: true, rem: []uint32{1, 3}, adds: []string{"50000000", "5100000100"},
			want: []string{"00000010", "1000000011111111", "4000000000000000000000000000000000000000000000000000000000000001", "50000000", "5100000100", "a0000000"}},
		// Removal and addition of the same entry.
		{name: "remove and add back", rem: []uint32{5}, adds: []string{"a0000000"}, want: startSet},
		// Remove a 4-byte entry and add the longer entry it starts.
		{name: "lengthen", rem: []uint32{3}, adds: []string{"3000000099"},
			want: []string{"00000010", "00000020", "1000000011111111", "3000000099", "4000000000000000000000000000000000000000000000000000000000000001", "a0000000"}},
		// Decision w4: a raw index given twice, and given both raw and
		// Rice-coded, removes one entry, as in google/webrisk.
		{name: "repeated raw index", rem: []uint32{5}, edit: func(d *Diff) { d.RawRemovals = []int32{5, 5} },
			want: []string{"00000010", "00000020", "1000000011111111", "30000000", "4000000000000000000000000000000000000000000000000000000000000001"}},
		{name: "raw and rice index", rem: []uint32{5}, edit: func(d *Diff) { d.RawRemovals = []int32{5}; d.RiceRemovals = &Rice{First: 5} },
			want: []string{"00000010", "00000020", "1000000011111111", "30000000", "4000000000000000000000000000000000000000000000000000000000000001"}},
		// A removal index past the list, a negative one, one into an
		// empty list.
		{name: "index past the list", rem: []uint32{6}, wantErr: ErrCorrupt},
		{name: "negative index", edit: func(d *Diff) { d.RawRemovals = []int32{-1} }, wantErr: ErrCorrupt},
		{name: "rice index past the list", rice: true, rem: []uint32{2, 6}, wantErr: ErrCorrupt},
		// Removals in a RESET (decision h of v5, and google/webrisk).
		{name: "removals in a reset", reset: true, edit: func(d *Diff) { d.RawRemovals = []int32{0} }, wantErr: ErrCorrupt},
		{name: "rice removals in a reset", reset: true, edit: func(d *Diff) { d.RiceRemovals = &Rice{} }, wantErr: ErrCorrupt},
		// Decision w3: an addition already in the list, or given twice.
		{name: "addition held", adds: []string{"30000000"}, wantErr: ErrCorrupt},
		{name: "long addition held", adds: []string{"1000000011111111"}, wantErr: ErrCorrupt},
		{name: "addition twice", rice: true, adds: []string{"70000000"},
			edit: func(d *Diff) { d.Raw = append(d.Raw, RawHashes{PrefixSize: 4, Hashes: []byte{0x70, 0, 0, 0}}) }, wantErr: ErrCorrupt},
		{name: "long addition twice", adds: []string{"7000000011"},
			edit: func(d *Diff) { d.Raw = append(d.Raw, d.Raw[0]) }, wantErr: ErrCorrupt},
		// Decision w2: no entry may be a prefix of another, whatever the
		// checksum says.
		{name: "4-byte prefix of a held entry", adds: []string{"10000000"}, wantErr: ErrCorrupt},
		{name: "held 4-byte prefix of an addition", adds: []string{"3000000001"}, wantErr: ErrCorrupt},
		{name: "held long prefix of an addition", adds: []string{"1000000011111111ff"}, wantErr: ErrCorrupt},
		{name: "addition prefix of a held long one", adds: []string{"100000001111"}, wantErr: ErrCorrupt},
		{name: "additions prefixes of each other", reset: true, adds: []string{"7000000011", "700000001122"}, wantErr: ErrCorrupt},
		{name: "4-byte and long additions", reset: true, rice: true, adds: []string{"70000000", "700000001122"}, wantErr: ErrCorrupt},
		// The checksum: a mismatch, a short one, absent with a change,
		// absent without one.
		{name: "checksum mismatch", adds: []string{"70000000"}, edit: func(d *Diff) { d.Checksum = make([]byte, 32) }, wantErr: ErrChecksum},
		{name: "short checksum", adds: []string{"70000000"}, edit: func(d *Diff) { d.Checksum = d.Checksum[:31] }, wantErr: ErrChecksum},
		{name: "no checksum", adds: []string{"70000000"}, edit: func(d *Diff) { d.Checksum = nil }, wantErr: ErrCorrupt},
		{name: "version only", edit: func(d *Diff) { d.Checksum = nil }, want: startSet},
		{name: "reset to the same list, no checksum", reset: true, rice: true, adds: startSet, edit: func(d *Diff) { d.Checksum = nil }, want: startSet},
		// Raw groups: a size outside 4–32, a length not a multiple.
		{name: "prefix size 3", edit: func(d *Diff) { d.Raw = []RawHashes{{PrefixSize: 3, Hashes: []byte{1, 2, 3}}} }, wantErr: ErrCorrupt},
		{name: "prefix size 33", edit: func(d *Diff) { d.Raw = []RawHashes{{PrefixSize: 33, Hashes: make([]byte, 33)}} }, wantErr: ErrCorrupt},
		{name: "ragged raw", edit: func(d *Diff) { d.Raw = []RawHashes{{PrefixSize: 8, Hashes: make([]byte, 12)}} }, wantErr: ErrCorrupt},
		// The Rice header: k outside 2–28, a huge count, a first value
		// past 32 bits.
		{name: "k 1", edit: func(d *Diff) { d.Rice = &Rice{First: 0x70, K: 1, Count: 1, Data: []byte{0xff}} }, wantErr: ErrCorrupt},
		{name: "huge count", edit: func(d *Diff) { d.Rice = &Rice{First: 0x70, K: 2, Count: 1 << 30, Data: []byte{0xff}} }, wantErr: ErrCorrupt},
		{name: "first past 32 bits", edit: func(d *Diff) { d.Rice = &Rice{First: 1 << 32} }, wantErr: ErrCorrupt},
		// Decision b: a Rice message of count 0 is its first value,
		// whatever k; decision a: padding is ignored.
		{name: "count 0", rice: true, adds: []string{"70000000"}, edit: func(d *Diff) { d.Rice.K, d.Rice.Data = 0, []byte{1, 2} },
			want: []string{"00000010", "00000020", "1000000011111111", "30000000", "4000000000000000000000000000000000000000000000000000000000000001", "70000000", "a0000000"}},
		{name: "padding", rice: true, adds: []string{"70000000", "71000000", "72000000"},
			edit: func(d *Diff) { d.Rice.Data = append(d.Rice.Data, 0, 0, 0) },
			want: []string{"00000010", "00000020", "1000000011111111", "30000000", "4000000000000000000000000000000000000000000000000000000000000001", "70000000", "71000000", "72000000", "a0000000"}},
		// maxLen: the counts over it, the result over it, at it.
		{name: "over maxLen", adds: []string{"70000000", "71000000"}, maxLen: 7, wantErr: ErrCorrupt},
		{name: "over maxLen after repeats", adds: []string{"70000000", "71000000"}, maxLen: 6,
			edit: func(d *Diff) { d.RawRemovals = []int32{0, 0} }, wantErr: ErrCorrupt},
		{name: "at maxLen", adds: []string{"70000000", "71000000"}, rem: []uint32{0}, maxLen: 7,
			want: []string{"00000020", "1000000011111111", "30000000", "4000000000000000000000000000000000000000000000000000000000000001", "70000000", "71000000", "a0000000"}},
	}
	for _, tt := range tests {
		for _, min := range []int{1 << 16, 1} {
			t.Run(tt.name, func(t *testing.T) {
				s := newStartSet(t, min)
				d := diffOf(t, tt.reset, tt.adds, tt.rem, tt.rice)
				d.Version = []byte("v1")
				if want, err := modelEntries(unhex(startSet), &d, tt.maxLen); err == nil {
					sum := sha256.Sum256([]byte(strings.Join(want, "")))
					d.Checksum = sum[:]
				}
				if tt.edit != nil {
					tt.edit(&d)
				}
				model, modelErr := modelApply(unhex(startSet), &d, tt.maxLen)
				restore := setForms(min)
				err := s.Apply(&d, tt.maxLen)
				restore()
				if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
					t.Fatalf("Apply = %v; want %v", err, tt.wantErr)
				}
				if !errors.Is(modelErr, tt.wantErr) || (tt.wantErr == nil) != (modelErr == nil) {
					t.Fatalf("the model says %v; want %v", modelErr, tt.wantErr)
				}
				if err != nil {
					checkSet(t, s, unhex(startSet), "v0")
					return
				}
				want := unhex(tt.want)
				if !slices.Equal(model, want) && !(len(model) == 0 && len(want) == 0) {
					t.Fatalf("the model gives %x; want %x", model, want)
				}
				checkSet(t, s, want, "v1")
			})
		}
	}
}

// checkSet fails unless s holds want at version: All, Len, Checksum,
// and Match of each entry, of a full hash it starts, and of one that
// shares all its bytes but its last.
func checkSet(t *testing.T, s *PrefixSet, want []string, version string) {
	t.Helper()
	got := entriesOf(s)
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("All = %x; want %x", got, want)
	}
	if s.Len() != len(want) {
		t.Fatalf("Len = %d; want %d", s.Len(), len(want))
	}
	if sum := sha256.Sum256([]byte(strings.Join(want, ""))); s.Checksum() != sum {
		t.Fatalf("Checksum = %x; want %x", s.Checksum(), sum)
	}
	if string(s.Version()) != version {
		t.Fatalf("Version = %q; want %q", s.Version(), version)
	}
	set := make(map[string]bool, len(want))
	for _, e := range want {
		set[e] = true
	}
	for _, e := range want {
		full := append([]byte(e), bytes.Repeat([]byte{0x5a}, 32-len(e))...)
		if p, ok := s.Match(full); !ok || string(p) != e {
			t.Fatalf("Match(%x) = %x, %v; want %x", full, p, ok, e)
		}
		// A hash that shares all of the entry but its last byte.
		other := []byte(e)
		other[len(other)-1] ^= 0x80
		other = append(other, bytes.Repeat([]byte{0x5a}, 32-len(e))...)
		p, ok := s.Match(other)
		if w, wok := slowMatch(set, other); ok != wok || string(p) != w {
			t.Fatalf("Match(%x) = %x, %v; want %x, %v", other, p, ok, w, wok)
		}
	}
}

// slowMatch returns the entry of the set that is a prefix of h, trying
// each of h's prefixes of 4 to 32 bytes.
func slowMatch(set map[string]bool, h []byte) (string, bool) {
	for n := 4; n <= min(32, len(h)); n++ {
		if set[string(h[:n])] {
			return string(h[:n]), true
		}
	}
	return "", false
}

// FuzzApplyDiff applies a fuzzed Diff to startSet, in both forms of its
// 4-byte part. raw holds the raw additions, groups of a size byte (taken
// mod 40, so that some are out of range), a count byte (mod 8) and that
// many entries' bytes, as far as they go; rem holds raw removal indices,
// one a byte, as int8; flags chooses whether the Rice additions and
// removals are present, whether the checksum is set to the model's
// (to reach the rules behind it), and whether the diff is a RESET.
// Properties: no panic; Apply agrees with modelApply on the outcome and
// the entries; on an error the set is unchanged.
func FuzzApplyDiff(f *testing.F) {
	// A RESET of Rice and raw additions, and a DIFF with both removals.
	f.Add(uint8(0b1111), []byte("\x04\x02aaaabbbb\x08\x01ccccdddd"), int64(0x70), int32(2), int32(1), []byte{0xf7}, []byte{1, 2}, int64(3), int32(2), int32(1), []byte{0x05}, uint8(0))
	f.Add(uint8(0b0111), []byte("\x05\x01\x30\x00\x00\x00\x99"), int64(0x70), int32(2), int32(1), []byte{0xf7}, []byte{3}, int64(3), int32(2), int32(1), []byte{0x05}, uint8(0))
	// Prefixes of held entries, a huge count, an index past the list.
	f.Add(uint8(0b0100), []byte("\x04\x01\x10\x00\x00\x00"), int64(0), int32(0), int32(0), []byte{}, []byte{}, int64(0), int32(0), int32(0), []byte{}, uint8(0))
	f.Add(uint8(0b0101), []byte{}, int64(1), int32(3), int32(1<<31-1), []byte{1}, []byte{}, int64(0), int32(0), int32(0), []byte{}, uint8(0))
	f.Add(uint8(0b0100), []byte{}, int64(0), int32(0), int32(0), []byte{}, []byte{6}, int64(0), int32(0), int32(0), []byte{}, uint8(0))
	// A bound.
	f.Add(uint8(0b0101), []byte{}, int64(0x70), int32(2), int32(1), []byte{0xf7}, []byte{}, int64(0), int32(0), int32(0), []byte{}, uint8(6))
	f.Fuzz(func(t *testing.T, flags uint8, raw []byte, addFirst int64, addK, addCount int32, addData []byte,
		rem []byte, remFirst int64, remK, remCount int32, remData []byte, maxLen uint8) {
		d := Diff{Reset: flags&8 != 0, Version: []byte("v1")}
		for len(raw) >= 2 {
			size, n := int(raw[0]%40), int(raw[1]%8)
			raw = raw[2:]
			take := min(len(raw), size*n)
			d.Raw = append(d.Raw, RawHashes{PrefixSize: int32(size), Hashes: raw[:take]})
			raw = raw[take:]
		}
		if flags&1 != 0 {
			d.Rice = &Rice{First: addFirst, K: addK, Count: addCount, Data: addData}
		}
		if flags&2 != 0 {
			d.RiceRemovals = &Rice{First: remFirst, K: remK, Count: remCount, Data: remData}
		}
		for _, b := range rem {
			d.RawRemovals = append(d.RawRemovals, int32(int8(b)))
		}
		if flags&4 != 0 {
			if want, err := modelEntries(unhex(startSet), &d, int(maxLen)); err == nil {
				sum := sha256.Sum256([]byte(strings.Join(want, "")))
				d.Checksum = sum[:]
			}
		}
		want, wantErr := modelApply(unhex(startSet), &d, int(maxLen))
		for _, min := range []int{1 << 16, 1} {
			s := newStartSet(t, min)
			restore := setForms(min)
			err := s.Apply(&d, int(maxLen))
			restore()
			if (err == nil) != (wantErr == nil) || wantErr != nil && !errors.Is(err, wantErr) {
				t.Fatalf("indexMin %d: Apply = %v; the model says %v", min, err, wantErr)
			}
			if err != nil {
				if got := entriesOf(s); !slices.Equal(got, unhex(startSet)) || string(s.Version()) != "v0" {
					t.Fatalf("indexMin %d: the set changed on %v", min, err)
				}
				continue
			}
			if got := entriesOf(s); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("indexMin %d: entries %x; the model's %x", min, got, want)
			}
			if sum := sha256.Sum256([]byte(strings.Join(want, ""))); s.Checksum() != sum || s.Len() != len(want) {
				t.Fatalf("indexMin %d: checksum or Len wrong", min)
			}
		}
	})
}
