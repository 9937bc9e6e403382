// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// FuzzApply applies a message to a 4-byte list of four hashes (startMsg)
// held in both forms, the flat array and the index. Properties: no panic;
// both forms agree; on an error the list is unchanged; after a success
// All is sorted and distinct, Len counts it, its SHA-256 is the state's
// checksum and the message's when it has one, and Contains finds every
// hash.
func FuzzApply(f *testing.F) {
	for _, seed := range [][]byte{
		// The start list again, whole.
		startMsg,
		// The worked example of the Local.Database page.
		hashListMsg{add: rice32Msg(0x1d32c508, 30, 2, mustHex("7400d2971bed497400")), checksum: mustHex("00")}.bytes(),
		// Chromium's vector.
		hashListMsg{add: rice32Msg(10, 3, 1, []byte{2}), partial: true, checksum: sum4(10, 0x10, 11, 0x20, 0x30, 0x40)}.bytes(),
		// A removal and an addition.
		hashListMsg{partial: true, rem: rice32Msg(1, 3, 1, lsb("0 010")), add: rice32Msg(0x20, 3, 1, lsb("1111110 000")),
			checksum: sum4(0x10, 0x20, 0x30, 0x50)}.bytes(),
		// A version-only message.
		hashListMsg{partial: true, version: "v9"}.bytes(),
		// A huge count.
		hashListMsg{add: rice32Msg(1, 3, 1<<31-1, []byte{1})}.bytes(),
		// 8-byte additions in a 4-byte list.
		hashListMsg{addField: 9, add: rice32Msg(1, 35, 0, nil)}.bytes(),
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, msg []byte, skipChecksum bool) {
		var lists [2]*List
		var errs [2]error
		for i, min := range []int{1 << 16, 0} {
			indexMin = min
			l, _ := New("se-4b")
			if err := l.Apply(startMsg); err != nil {
				t.Fatal(err)
			}
			before := collect(l)
			m := msg
			if skipChecksum {
				// Let the fuzzer reach the rules behind the checksum: put
				// the right one at the end (a later scalar wins).
				m = withChecksum(t, m)
			}
			errs[i] = l.Apply(m)
			lists[i] = l
			if errs[i] != nil {
				if !bytes.Equal(collect(l), before) || string(l.Version()) != "v0" || l.Len() != 4 {
					t.Fatalf("indexMin %d: the list changed on %v", min, errs[i])
				}
				continue
			}
			got := collect(l)
			for j := 4; j < len(got); j += 4 {
				if bytes.Compare(got[j-4:j], got[j:j+4]) >= 0 {
					t.Fatalf("All is not sorted and distinct at %d", j/4)
				}
			}
			if l.Len() != len(got)/4 {
				t.Fatalf("Len = %d; All has %d", l.Len(), len(got)/4)
			}
			sum := sha256.Sum256(got)
			if sum != l.load().sum {
				t.Fatalf("the state's checksum is not SHA-256 of All")
			}
			for j := 0; j < len(got); j += 4 {
				if !l.Contains(got[j : j+4]) {
					t.Fatalf("Contains(%x) = false", got[j:j+4])
				}
			}
		}
		indexMin = 1 << 16
		if (errs[0] == nil) != (errs[1] == nil) {
			t.Fatalf("the forms disagree: %v, %v", errs[0], errs[1])
		}
		if !bytes.Equal(collect(lists[0]), collect(lists[1])) {
			t.Fatalf("the forms hold different hashes")
		}
	})
}

// withChecksum appends to msg the checksum of the list that applying msg
// would give, decoded by Message.UnmarshalBinary and merged by hand: the
// slow oracle of the update rules.
func withChecksum(t *testing.T, msg []byte) []byte {
	var m Message
	if err := m.UnmarshalBinary(msg); err != nil {
		return msg
	}
	var list [][]byte
	if m.Partial {
		removed := map[uint32]bool{}
		for _, r := range m.Removals {
			removed[r] = true
		}
		for i, v := range startVals {
			if !removed[uint32(i)] {
				list = append(list, be4(v))
			}
		}
	}
	for i := 0; i+4 <= len(m.Additions); i += 4 {
		dup := false
		for _, h := range list {
			dup = dup || bytes.Equal(h, m.Additions[i:i+4])
		}
		if !dup {
			list = append(list, m.Additions[i:i+4])
		}
	}
	sum := Checksum(bytes.Join(list, nil), 4)
	return append(bytes.Clone(msg), hashListMsg{checksum: sum[:]}.bytes()...)
}

// FuzzUnmarshalBinary loads a blob into a list. Properties: no panic; on
// an error the list is unchanged; after a success the list saves back to
// the same name, version and hashes.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, seed := range []struct {
		name string
		n    int
	}{{"se-4b", 0}, {"se-4b", 3}, {"gc-32b", 2}, {"x-8b", 1}} {
		blob, err := filled(f, seed.name, seed.n, "v").MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(blob)
	}
	f.Add([]byte("hashlist\x01"))
	f.Fuzz(func(t *testing.T, blob []byte) {
		var l List
		if err := l.UnmarshalBinary(blob); err != nil {
			if l.Name() != "" || l.Len() != 0 {
				t.Fatalf("the list changed on %v", err)
			}
			return
		}
		again, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back List
		if err := back.UnmarshalBinary(again); err != nil {
			t.Fatal(err)
		}
		if back.Name() != l.Name() || !bytes.Equal(back.Version(), l.Version()) || !bytes.Equal(collect(&back), collect(&l)) {
			t.Fatalf("a loaded list does not save back to itself")
		}
		prev := []byte(nil)
		for h := range l.All() {
			if prev != nil && bytes.Compare(prev, h) >= 0 {
				t.Fatalf("All is not sorted and distinct")
			}
			prev = bytes.Clone(h)
		}
	})
}
