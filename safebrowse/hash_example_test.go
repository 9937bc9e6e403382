// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse_test

import (
	"fmt"

	"github.com/urlspec/urlspec/safebrowse"
)

func ExampleHashes() {
	hashes, err := safebrowse.Hashes("http://example.co.uk/1")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range hashes {
		fmt.Println(h)
	}
	// Output:
	// 5560b8e9ec95e4dc41dccfb098ad21a0a7c9fb212c0f338962f3bf5223cff777
	// 8b933ddfb8036913668ac16c2ae44f9379f0d425bebdb7f327394f4bb0cd7660
}

// A hashes.search request carries the 4-byte prefix of each hash.
func ExampleHash_Prefix() {
	hashes, err := safebrowse.Hashes("http://a.b.com/1/2.html?param=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%x\n", hashes[0].Prefix(safebrowse.Prefix4))
	// Output:
	// 2fcd902c
}

// The length of the hashes in a list comes from the suffix of its name.
func ExampleListPrefixLen() {
	for _, name := range []string{"se-4b", "mcrx-16b", "gc-32b", "se"} {
		n, err := safebrowse.ListPrefixLen(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(name, n)
	}
	// Output:
	// se-4b 4
	// mcrx-16b 16
	// gc-32b 32
	// safebrowse: invalid hash list name in "se": no "-4b", "-8b", "-16b" or "-32b" suffix
}

// A scanner reuses one slice for the hashes of every URL: with room for
// MaxExpressions hashes, AppendHashes does not allocate.
func ExampleAppendHashes() {
	dst := make([]safebrowse.Hash, 0, safebrowse.MaxExpressions)
	for _, u := range []string{"http://a.com/", "http://1.2.3.4/1/", "http://a.b.c.d.e.f.com/1.html"} {
		var err error
		dst, err = safebrowse.AppendHashes(dst[:0], u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(u, len(dst), "hashes")
	}
	// Output:
	// http://a.com/ 1 hashes
	// http://1.2.3.4/1/ 2 hashes
	// http://a.b.c.d.e.f.com/1.html 10 hashes
}
