// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestNewPrefixSet: the names a set takes.
func TestNewPrefixSet(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
	}{
		// Web Risk's threat types.
		{"MALWARE", false},
		{"SOCIAL_ENGINEERING_EXTENDED_COVERAGE", false},
		// Lower case, digits and '-', as a v4 list might be named.
		{"goog-malware-4b", false},
		// 64 bytes, the longest.
		{strings.Repeat("A", 64), false},
		// Empty, too long, a '/', a space, a '.'.
		{"", true},
		{strings.Repeat("A", 65), true},
		{"threatLists/MALWARE", true},
		{"MAL WARE", true},
		{"..", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := NewPrefixSet(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewPrefixSet(%q) error %v; want error %v", tt.in, err, tt.wantErr)
			}
			if err != nil {
				if !errors.Is(err, ErrName) {
					t.Errorf("error %v does not wrap ErrName", err)
				}
				return
			}
			if s.Name() != tt.in || s.Len() != 0 || s.Checksum() != emptySum || len(s.Version()) != 0 {
				t.Errorf("new set: name %q, len %d, checksum %x, version %q", s.Name(), s.Len(), s.Checksum(), s.Version())
			}
		})
	}
}

// TestPrefixSetZero: the zero PrefixSet holds nothing and takes no diff.
func TestPrefixSetZero(t *testing.T) {
	var s PrefixSet
	if s.Name() != "" || s.Len() != 0 || s.Checksum() != emptySum {
		t.Errorf("zero set: name %q, len %d, checksum %x", s.Name(), s.Len(), s.Checksum())
	}
	if _, ok := s.Match(make([]byte, 32)); ok {
		t.Error("the zero set matches")
	}
	for range s.All() {
		t.Error("the zero set has an entry")
	}
	if err := s.Apply(&Diff{Reset: true}, 0); !errors.Is(err, ErrName) {
		t.Errorf("Apply = %v; want ErrName", err)
	}
	if _, err := s.MarshalBinary(); !errors.Is(err, ErrName) {
		t.Errorf("MarshalBinary = %v; want ErrName", err)
	}
}

// TestDiffFirst (decision w8): a DIFF to a set that has had no update
// applies to the empty set; its removals are out of range.
func TestDiffFirst(t *testing.T) {
	tests := []struct {
		name    string
		rem     []uint32
		wantErr error
	}{
		// Additions alone.
		{"additions", nil, nil},
		// A removal: no entry to remove.
		{"removal", []uint32{0}, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := NewPrefixSet("MALWARE")
			d := diffOf(t, false, []string{"01020304", "0a0b0c0d0e"}, tt.rem, true)
			sum := sha256.Sum256([]byte(strings.Join(unhex([]string{"01020304", "0a0b0c0d0e"}), "")))
			d.Checksum, d.Version = sum[:], []byte("v1")
			if err := s.Apply(&d, 0); !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Apply = %v; want %v", err, tt.wantErr)
			}
		})
	}
}

// TestMatch: an entry matches on its whole length only, and Match returns
// that entry as a slice of the hash.
func TestMatch(t *testing.T) {
	s := newStartSet(t, 1<<16)
	tests := []struct {
		name string
		in   string // hex
		want string // hex; "" for no match
	}{
		// A full hash starting with a 4-byte entry.
		{"4-byte", "00000010" + strings.Repeat("ab", 28), "00000010"},
		// The 4-byte entry itself.
		{"entry itself", "00000010", "00000010"},
		// A full hash starting with the 8-byte entry.
		{"8-byte", "1000000011111111" + strings.Repeat("ab", 24), "1000000011111111"},
		// The first 4 bytes of the 8-byte entry only: no entry.
		{"shares 4 bytes", "10000000" + strings.Repeat("ab", 28), ""},
		// The first 7 bytes of the 8-byte entry, then another byte.
		{"shares 7 bytes", "10000000111111" + strings.Repeat("ab", 25), ""},
		// A hash shorter than the 8-byte entry it starts.
		{"shorter than the entry", "10000000111111", ""},
		// The 32-byte entry, and a hash differing in its last byte.
		{"32-byte", "4000000000000000000000000000000000000000000000000000000000000001", "4000000000000000000000000000000000000000000000000000000000000001"},
		{"32-byte off by one", "4000000000000000000000000000000000000000000000000000000000000002", ""},
		// Before the first entry, after the last, between.
		{"before", "00000000" + strings.Repeat("00", 28), ""},
		{"after", strings.Repeat("ff", 32), ""},
		{"between", "2000000000", ""},
		// Shorter than 4 bytes.
		{"3 bytes", "000000", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := []byte(unhex([]string{tt.in})[0])
			p, ok := s.Match(h)
			if ok != (tt.want != "") || fmt.Sprintf("%x", p) != tt.want {
				t.Fatalf("Match(%s) = %x, %v; want %s", tt.in, p, ok, tt.want)
			}
			if ok && &p[0] != &h[0] {
				t.Fatalf("Match does not return a slice of the hash")
			}
		})
	}
}

// TestMatchAlloc: Match allocates nothing, in either form.
func TestMatchAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	for _, min := range []int{1 << 16, 1} {
		s := newStartSet(t, min)
		h := []byte(unhex([]string{"1000000011111111" + strings.Repeat("ab", 24)})[0])
		if n := testing.AllocsPerRun(1000, func() { s.Match(h) }); n != 0 {
			t.Errorf("indexMin %d: Match allocates %v times", min, n)
		}
	}
}

// randomEntries returns n distinct random entries, most 4 bytes long,
// one in eight of 5 to 32 bytes, none a prefix of another, in byte
// order, avoiding those of avoid.
func randomEntries(r *rand.Rand, n int, avoid []string) []string {
	out := make([]string, 0, n+len(avoid))
	out = append(out, avoid...)
	// Two entries of which one is a prefix of the other share their
	// first 4 bytes: compare only those.
	byKey := make(map[string][]string)
	for _, o := range out {
		byKey[o[:4]] = append(byKey[o[:4]], o)
	}
	for len(out) < n+len(avoid) {
		size := 4
		if r.IntN(8) == 0 {
			size = 5 + r.IntN(28)
		}
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		// Keep the first bytes of the longer entries in a narrow range
		// now and then, so that they share 4-byte keys.
		if size > 4 && r.IntN(2) == 0 {
			b[0], b[1], b[2] = 0x42, 0x42, 0x42
		}
		e := string(b)
		ok := true
		for _, o := range byKey[e[:4]] {
			if strings.HasPrefix(o, e) || strings.HasPrefix(e, o) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, e)
			byKey[e[:4]] = append(byKey[e[:4]], e)
		}
	}
	out = out[len(avoid):]
	slices.Sort(out)
	return out
}

// TestApplyDiffRounds applies rounds of random diffs to a set of some
// thousands of mixed entries, in both forms, Rice-coded and raw, and
// checks each outcome against modelApply.
func TestApplyDiffRounds(t *testing.T) {
	for _, min := range []int{1 << 16, 64} {
		for _, rice := range []bool{true, false} {
			t.Run(fmt.Sprintf("indexMin %d rice %v", min, rice), func(t *testing.T) {
				defer setForms(min)()
				r := rand.New(rand.NewPCG(uint64(min), 77))
				s, _ := NewPrefixSet("SOCIAL_ENGINEERING")
				var model []string
				for round := range 12 {
					reset := round%5 == 0
					keep := model
					if reset {
						keep = nil
					}
					var rem []uint32
					if !reset {
						for i := range keep {
							if r.IntN(10) == 0 {
								rem = append(rem, uint32(i))
							}
						}
					}
					adds := randomEntries(r, 100+r.IntN(3000), keep)
					var entries [][]byte
					for _, e := range adds {
						entries = append(entries, []byte(e))
					}
					d, err := NewDiff(entries, rem, rice)
					if err != nil {
						t.Fatal(err)
					}
					d.Reset, d.Version = reset, fmt.Appendf(nil, "v%d", round)
					want, err := modelEntries(model, &d, 0)
					if err != nil {
						t.Fatalf("round %d: the model refuses the diff: %v", round, err)
					}
					sum := sha256.Sum256([]byte(strings.Join(want, "")))
					d.Checksum = sum[:]
					if err := s.Apply(&d, 0); err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					checkSet(t, s, want, string(d.Version))
					model = want
				}
			})
		}
	}
}

// TestResetUneven: a RESET whose prefixes fill a bucket of the one-pass
// sort (all start with one byte, as no random list does) is sorted by
// the exact sort instead, with the same result; so is one with a longer
// entry given twice, which is corrupt.
func TestResetUneven(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var entries []string
	seen := map[string]bool{}
	for len(entries) < 6000 {
		b := []byte{0x42, byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())}
		if len(entries)%100 == 0 {
			b = append(b, 0x99, byte(r.Uint32())) // a longer entry now and then
		}
		if !seen[string(b[:4])] {
			seen[string(b[:4])] = true
			entries = append(entries, string(b))
		}
	}
	slices.Sort(entries)
	var adds [][]byte
	for _, e := range entries {
		adds = append(adds, []byte(e))
	}
	d, err := NewDiff(adds, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	d.Reset, d.Version, d.Checksum = true, []byte("v1"), sum[:]
	s, _ := NewPrefixSet("MALWARE")
	if err := s.Apply(&d, 0); err != nil {
		t.Fatal(err)
	}
	checkSet(t, s, entries, "v1")
	// And with a longer entry given twice.
	d.Raw = append(d.Raw, RawHashes{PrefixSize: int32(len(d.Raw[0].Hashes[:d.Raw[0].PrefixSize])), Hashes: d.Raw[0].Hashes[:d.Raw[0].PrefixSize]})
	d.Version = []byte("v2")
	if err := s.Apply(&d, 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Apply = %v; want ErrCorrupt", err)
	}
	checkSet(t, s, entries, "v1")
}

// TestApplyDiffAlloc: a huge entryCount over a few bytes, or counts that
// take the set past maxLen, fail before anything grows with them: Apply
// allocates under 1 KiB.
func TestApplyDiffAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("-race allocates")
	}
	big, err := RiceHashes(bench4(1<<16), 0)
	if err != nil {
		t.Fatal(err)
	}
	s := newStartSet(t, 1<<16)
	tests := []struct {
		name   string
		d      Diff
		maxLen int
	}{
		// A huge count in the additions and in the removals.
		{"huge additions", Diff{Reset: true, Rice: &Rice{First: 1, K: 3, Count: 1<<31 - 1, Data: []byte{1, 2, 3}}}, 0},
		{"huge removals", Diff{RiceRemovals: &Rice{First: 1, K: 3, Count: 1<<31 - 1, Data: []byte{1, 2, 3}}}, 0},
		// 65,536 additions over a maxLen of 1,000.
		{"over maxLen", Diff{Reset: true, Rice: &big}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := s.Apply(&tt.d, tt.maxLen)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Apply = %v; want ErrCorrupt", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 1024 {
				t.Errorf("Apply allocated %d bytes", got)
			}
		})
	}
}

// bench4 returns n distinct random 4-byte prefixes, concatenated.
func bench4(n int) []byte {
	return randomHashes(rand.New(rand.NewPCG(uint64(n), 1)), n, 4, 0)
}

// TestPrefixSetConcurrent: readers see a whole set, old or new, while a
// writer applies diffs (run with -race).
func TestPrefixSetConcurrent(t *testing.T) {
	s := newStartSet(t, 1<<16)
	full := []byte(unhex([]string{"1000000011111111" + strings.Repeat("ab", 24)})[0])
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if p, ok := s.Match(full); !ok || len(p) != 8 {
					t.Error("the 8-byte entry is missing")
					return
				}
				n, sum := 0, sha256.New()
				for e := range s.All() {
					n++
					sum.Write(e)
				}
				if n < 6 {
					t.Errorf("All gave %d entries", n)
					return
				}
			}
		})
	}
	for i := range 50 {
		add := binary.BigEndian.AppendUint32(nil, 0x70000000+uint32(i))
		d := diffOf(t, false, []string{fmt.Sprintf("%x", add)}, nil, true)
		want, _ := modelEntries(entriesOf(s), &d, 0)
		sum := sha256.Sum256([]byte(strings.Join(want, "")))
		d.Checksum = sum[:]
		if err := s.Apply(&d, 0); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if s.Len() != 56 {
		t.Errorf("Len = %d; want 56", s.Len())
	}
}
