// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// fullHash returns the SHA-256 of an expression.
func fullHash(expr string) []byte {
	h := sha256.Sum256([]byte(expr))
	return h[:]
}

// reset returns a RESET of a Web Risk list to the given entries, as a
// server would send it: the 4-byte ones Rice-coded, the longer ones raw,
// with the checksum of the entries in byte order.
func reset(version string, entries ...[]byte) *hashlist.Diff {
	d, err := hashlist.NewDiff(entries, nil, true)
	if err != nil {
		panic(err)
	}
	d.Reset, d.Version = true, []byte(version)
	d.Checksum = checksum(entries)
	return &d
}

// checksum returns the SHA-256 of entries sorted and concatenated.
func checksum(entries [][]byte) []byte {
	s := slices.Clone(entries)
	slices.SortFunc(s, bytes.Compare)
	sum := sha256.Sum256(bytes.Join(s, nil))
	return sum[:]
}

func ExampleNewPrefixSet() {
	for _, name := range []string{"MALWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "threatLists/MALWARE"} {
		s, err := hashlist.NewPrefixSet(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s.Name(), s.Len())
	}
	// Output:
	// MALWARE 0
	// SOCIAL_ENGINEERING_EXTENDED_COVERAGE 0
	// hashlist: invalid list name: "threatLists/MALWARE" is not a set name: 1 to 64 bytes of A-Z, a-z, 0-9, '_' and '-'
}

func ExamplePrefixSet_Apply() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	// A 4-byte entry, and an 8-byte one whose first 4 bytes are a popular
	// URL's.
	a, b := fullHash("a.example/")[:4], fullHash("b.example/")[:8]
	if err := s.Apply(reset("1", a, b), 0); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%d entries, version %q\n", s.Len(), s.Version())

	// A DIFF that removes the entry at index 0 of the entries in byte
	// order, but carries the checksum of another list.
	d, _ := hashlist.NewDiff(nil, []uint32{0}, true)
	d.Version, d.Checksum = []byte("2"), make([]byte, 32)
	err := s.Apply(&d, 0)
	fmt.Println(errors.Is(err, hashlist.ErrChecksum))
	fmt.Printf("%d entries, version %q\n", s.Len(), s.Version())

	// A DIFF that would make one entry a prefix of another.
	d, _ = hashlist.NewDiff([][]byte{b[:4]}, nil, true)
	err = s.Apply(&d, 0)
	fmt.Println(err)
	// Output:
	// 2 entries, version "1"
	// true
	// 2 entries, version "1"
	// hashlist: corrupt message for "MALWARE": entry f8a16db6 is a prefix of entry f8a16db611f02ed6
}

func ExamplePrefixSet_Match() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	_ = s.Apply(reset("1", fullHash("a.example/")[:4], fullHash("b.example/")[:8]), 0)
	for _, expr := range []string{"a.example/", "b.example/", "c.example/"} {
		if p, ok := s.Match(fullHash(expr)); ok {
			fmt.Printf("%s: search hashes:search for %x\n", expr, p)
		} else {
			fmt.Printf("%s: not listed\n", expr)
		}
	}
	// A hash that shares only the first 4 bytes of the 8-byte entry.
	h := fullHash("b.example/")
	h[5] ^= 1
	_, ok := s.Match(h)
	fmt.Println(ok)
	// Output:
	// a.example/: search hashes:search for 6fd0ae0f
	// b.example/: search hashes:search for f8a16db611f02ed6
	// c.example/: not listed
	// false
}

func ExamplePrefixSet_All() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	_ = s.Apply(reset("1", fullHash("a.example/")[:4], fullHash("b.example/")[:8], fullHash("c.example/")[:4]), 0)
	for e := range s.All() {
		fmt.Printf("%x\n", e)
	}
	// Output:
	// 6fd0ae0f
	// 75d7f400
	// f8a16db611f02ed6
}

func ExamplePrefixSet_Checksum() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	fmt.Printf("%x\n", s.Checksum())
	_ = s.Apply(reset("1", []byte("abcd"), []byte("bcdefgh")), 0)
	sum := s.Checksum()
	fmt.Println(bytes.Equal(sum[:], checksum([][]byte{[]byte("abcd"), []byte("bcdefgh")})))
	// Output:
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
	// true
}

// ExamplePrefixSet_WriteTo saves a set as it streams, a few KiB at a time,
// in the form of MarshalBinary, and loads it back.
func ExamplePrefixSet_WriteTo() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	_ = s.Apply(reset("7", []byte("abcd"), []byte("bcdefgh")), 0)
	var file bytes.Buffer // an *os.File, in a client
	if _, err := s.WriteTo(&file); err != nil {
		fmt.Println(err)
	}
	var back hashlist.PrefixSet
	if err := back.UnmarshalBinary(file.Bytes()); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back.Name(), back.Len(), string(back.Version()))
	// A List's file is not a PrefixSet's.
	l, _ := hashlist.New("se-4b")
	blob, _ := l.MarshalBinary()
	fmt.Println(back.UnmarshalBinary(blob))
	// Output:
	// MALWARE 2 7
	// hashlist: corrupt message for "MALWARE": saved set: no magic
}

func ExamplePrefixSet_MarshalBinary() {
	s, _ := hashlist.NewPrefixSet("MALWARE")
	_ = s.Apply(reset("7", []byte("abcd"), []byte("bcdefgh")), 0)
	blob, _ := s.MarshalBinary()
	other, _ := hashlist.NewPrefixSet("UNWANTED_SOFTWARE")
	fmt.Println(other.UnmarshalBinary(blob))
	// Output:
	// hashlist: invalid list name for "UNWANTED_SOFTWARE": saved set is "MALWARE"
}

func ExampleNewDiff() {
	d, err := hashlist.NewDiff([][]byte{[]byte("zzzz"), []byte("abcd"), []byte("bcdefgh")}, []uint32{3, 1}, true)
	if err != nil {
		fmt.Println(err)
	}
	hashes, _ := d.Rice.Hashes()
	indices, _ := d.RiceRemovals.Indices()
	fmt.Printf("riceHashes %q, rawHashes %d×%q, riceIndices %v\n", hashes, d.Raw[0].PrefixSize, d.Raw[0].Hashes, indices)
	d, _ = hashlist.NewDiff(nil, []uint32{3, 1}, false)
	fmt.Println("rawIndices", d.RawRemovals)
	// Output:
	// riceHashes "abcdzzzz", rawHashes 7×"bcdefgh", riceIndices [1 3]
	// rawIndices [1 3]
}

func ExampleRiceHashes() {
	// The prefixes 01 00 00 00 and 00 01 00 00 are 1 and 256 read as
	// little-endian integers: the first value is 1, and 255 the one
	// difference.
	r, err := hashlist.RiceHashes([]byte{0, 1, 0, 0, 1, 0, 0, 0}, 0)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Printf("firstValue %d, riceParameter %d, entryCount %d, encodedData %x\n", r.First, r.K, r.Count, r.Data)
	_, err = hashlist.RiceHashes([]byte{1, 2, 3}, 0)
	fmt.Println(err)
	// Output:
	// firstValue 1, riceParameter 7, entryCount 1, encodedData fd01
	// hashlist: invalid message: 3 bytes are not one or more 4-byte prefixes
}

func ExampleRiceIndices() {
	r, _ := hashlist.RiceIndices([]uint32{29, 5, 20}, 2)
	fmt.Printf("firstValue %d, riceParameter %d, entryCount %d, encodedData %x\n", r.First, r.K, r.Count, r.Data)
	// Output:
	// firstValue 5, riceParameter 2, entryCount 2, encodedData f702
}

func ExampleRice_Hashes() {
	// Chromium's v4 vector: the prefixes are the little-endian bytes of
	// the values 5, 0x6ff67f56, 0x81316fce and 0xad934c0c, in byte order.
	r := hashlist.Rice{First: 5, K: 28, Count: 3, Data: []byte("\xbf\xa8\x3f\xfb\x0f\x0f\x5e\x27\xe6\xc3\x1d\xc6\x38")}
	hashes, err := r.Hashes()
	if err != nil {
		fmt.Println(err)
	}
	for i := 0; i < len(hashes); i += 4 {
		fmt.Printf("%x\n", hashes[i:i+4])
	}
	r.K = 29
	_, err = r.Hashes()
	fmt.Println(err)
	// Output:
	// 05000000
	// 0c4c93ad
	// 567ff66f
	// ce6f3181
	// hashlist: corrupt message: riceHashes: riceParameter 29 outside 2–28
}

func ExampleRice_Indices() {
	// Chromium's v4 vector: 5, then the differences 15 and 9.
	r := hashlist.Rice{First: 5, K: 2, Count: 2, Data: []byte{0xf7, 0x02}}
	fmt.Println(r.Indices())
	// Output:
	// [5 20 29] <nil>
}
