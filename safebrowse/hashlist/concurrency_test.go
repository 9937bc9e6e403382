// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestConcurrentReaders: Contains, All, Len and Version running during
// Apply see the old state or the new one, never a mix. Two full updates,
// A and B, alternate; each reader takes snapshots and checks that each is
// A or B whole. Run it under -race.
func TestConcurrentReaders(t *testing.T) {
	for _, min := range []int{1 << 16, 0} {
		indexMin = min
		r := rand.New(rand.NewPCG(3, 4))
		a := randomHashes(r, 300, 4, 0)
		b := randomHashes(r, 200, 4, 0)
		copy(b[:4], a[:4]) // one hash in both
		absent := []byte{0, 0, 0, 0}
		for bytes.Contains(a, absent) || bytes.Contains(b, absent) {
			absent[3]++
		}
		msgA := fullMsg(t, "se-4b", "A", a)
		msgB := fullMsg(t, "se-4b", "B", b)
		wantA, wantB := sortHashes(a, 4), sortHashes(b, 4)
		l, _ := New("se-4b")
		if err := l.Apply(msgA); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		done := make(chan struct{})
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					got := collect(l)
					if !bytes.Equal(got, wantA) && !bytes.Equal(got, wantB) {
						t.Errorf("All saw a mix of %d bytes", len(got))
						return
					}
					// A hash in both lists is always found, one in
					// neither never: a half-built state would fail.
					if !l.Contains(a[:4]) || l.Contains(absent) {
						t.Errorf("Contains saw a state that is neither A nor B")
						return
					}
					if n := l.Len(); n != 300 && n != 200 {
						t.Errorf("Len = %d", n)
						return
					}
				}
			}()
		}
		for i := range 40 {
			msg := msgA
			if i%2 == 0 {
				msg = msgB
			}
			if err := l.Apply(msg); err != nil {
				t.Fatal(err)
			}
		}
		close(done)
		wg.Wait()
	}
	indexMin = 1 << 16
}

// TestConcurrentWriters: Apply calls from several goroutines are
// serialised: the list ends as one of the full updates, whole, with its
// version.
func TestConcurrentWriters(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var msgs [][]byte
	var wants [][]byte
	for g := range 4 {
		h := randomHashes(r, 100+g, 4, 0)
		msgs = append(msgs, fullMsg(t, "se-4b", string(rune('a'+g)), h))
		wants = append(wants, sortHashes(h, 4))
	}
	l, _ := New("se-4b")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				if err := l.Apply(msgs[g]); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	g := int(l.Version()[0] - 'a')
	if !bytes.Equal(collect(l), wants[g]) {
		t.Errorf("the list is not update %d whole", g)
	}
}

// fullMsg returns a full update of list name to hashes at version v.
func fullMsg(t testing.TB, name, v string, hashes []byte) []byte {
	t.Helper()
	w, _ := widthOf(name)
	sum := Checksum(hashes, w)
	msg, err := (&Message{Name: name, Version: []byte(v), Additions: hashes, Checksum: sum[:]}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return msg
}
