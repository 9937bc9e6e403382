// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// prefix returns the 4-byte prefix of the SHA-256 of an expression.
func prefix(expr string) []byte {
	h := sha256.Sum256([]byte(expr))
	return h[:4]
}

// update returns a full update of se-4b to the prefixes of exprs, as a
// server would send it.
func update(version string, exprs ...string) []byte {
	var adds []byte
	for _, e := range exprs {
		adds = append(adds, prefix(e)...)
	}
	sum := hashlist.Checksum(adds, 4)
	m := hashlist.Message{Name: "se-4b", Version: []byte(version), Additions: adds, Checksum: sum[:]}
	b, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	return b
}

func ExampleNew() {
	for _, name := range []string{"se-4b", "gc-32b", "se"} {
		l, err := hashlist.New(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(l.Name(), l.Width())
	}
	// Output:
	// se-4b 4
	// gc-32b 32
	// hashlist: invalid list name: "se" has no "-4b", "-8b", "-16b" or "-32b" suffix
}

func ExampleList_Apply() {
	l, _ := hashlist.New("se-4b")
	if err := l.Apply(update("1", "a.example.com/", "b.example.com/", "y.example.com/")); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%d hashes, version %q\n", l.Len(), l.Version())

	// A partial update that removes the hash at index 0 of the sorted list
	// (b.example.com/, 1d32c508) but carries the checksum of another list.
	bad := hashlist.Message{Partial: true, Width: 4, Version: []byte("2"), Removals: []uint32{0}, Checksum: make([]byte, 32)}
	msg, _ := bad.MarshalBinary()
	err := l.Apply(msg)
	fmt.Println(errors.Is(err, hashlist.ErrChecksum))
	fmt.Printf("%d hashes, version %q\n", l.Len(), l.Version())
	// Output:
	// 3 hashes, version "1"
	// true
	// 3 hashes, version "1"
}

// ExampleList_WriteTo saves a list as it streams, a few KiB at a time,
// in the form of MarshalBinary, and loads it back.
func ExampleList_WriteTo() {
	l, _ := hashlist.New("se-4b")
	_ = l.Apply(update("1", "evil.example/", "bad.example/"))
	var file bytes.Buffer // an *os.File, in a client
	if _, err := l.WriteTo(&file); err != nil {
		fmt.Println(err)
		return
	}
	back, _ := hashlist.New("se-4b")
	err := back.UnmarshalBinary(file.Bytes())
	fmt.Printf("%v: %d hashes, version %q\n", err, back.Len(), back.Version())
	// Output:
	// <nil>: 2 hashes, version "1"
}

func ExampleList_Contains() {
	l, _ := hashlist.New("se-4b")
	_ = l.Apply(update("1", "evil.example/"))
	for _, expr := range []string{"evil.example/", "good.example/"} {
		h := sha256.Sum256([]byte(expr))
		fmt.Println(expr, l.Contains(h[:]))
	}
	// Output:
	// evil.example/ true
	// good.example/ false
}

func ExampleList_All() {
	l, _ := hashlist.New("se-4b")
	_ = l.Apply(update("1", "b.example.com/", "a.example.com/", "y.example.com/"))
	for h := range l.All() {
		fmt.Printf("%x\n", h)
	}
	// Output:
	// 1d32c508
	// 291bc542
	// f7a502e5
}

// The worked example of the Local.Database page: three prefixes with
// k = 30 encode as first value 0x1d32c508 (field 1, 08 88 8a cb e9 01),
// k (10 1e), 2 entries (18 02) and the data 74 00 d2 97 1b ed 49 74 00.
func ExampleMessage() {
	m := hashlist.Message{
		Name:          "se-4b",
		Additions:     append(append(prefix("b.example.com/"), prefix("a.example.com/")...), prefix("y.example.com/")...),
		RiceParameter: 30,
		MinimumWait:   30 * time.Minute,
	}
	b, err := m.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("% x\n", b)
	// Output:
	// 0a 05 73 65 2d 34 62 22 15 08 88 8a cb e9 01 10 1e 18 02 22 09 74 00 d2 97 1b ed 49 74 00 32 03 08 88 0e
}

func ExampleMessage_UnmarshalBinary() {
	var m hashlist.Message
	if err := m.UnmarshalBinary(update("7", "a.example.com/")); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s version %s partial %v additions %x\n", m.Name, m.Version, m.Partial, m.Additions)
	// Output:
	// se-4b version 7 partial false additions 291bc542
}

func ExampleChecksum() {
	// The checksum of a list is the SHA-256 of its sorted hashes; an empty
	// list's is SHA-256 of "".
	fmt.Printf("%x\n", hashlist.Checksum(nil, 4))
	a := hashlist.Checksum([]byte{0, 0, 0, 2, 0, 0, 0, 1}, 4)
	b := sha256.Sum256([]byte{0, 0, 0, 1, 0, 0, 0, 2})
	fmt.Println(a == b)
	// Output:
	// e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
	// true
}

func ExampleList_MarshalBinary() {
	l, _ := hashlist.New("se-4b")
	_ = l.Apply(update("1", "a.example.com/", "b.example.com/"))
	blob, err := l.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}

	back, _ := hashlist.New("se-4b")
	if err := back.UnmarshalBinary(blob); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back.Len(), string(back.Version()), back.Contains(prefix("a.example.com/")))

	other, _ := hashlist.New("mw-4b")
	fmt.Println(other.UnmarshalBinary(blob))
	// Output:
	// 2 1 true
	// hashlist: invalid list name for "mw-4b": saved list is "se-4b"
}
