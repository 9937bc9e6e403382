// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse_test

import (
	"fmt"

	"github.com/urlspec/urlspec/safebrowse"
)

func ExampleExpressions() {
	// The first example of the spec.
	exprs, err := safebrowse.Expressions("http://a.b.com/1/2.html?param=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range exprs {
		fmt.Println(e)
	}

	// An empty URL has no expressions.
	_, err = safebrowse.Expressions("")
	fmt.Println(err)
	// Output:
	// a.b.com/1/2.html?param=1
	// a.b.com/1/2.html
	// a.b.com/
	// a.b.com/1/
	// b.com/1/2.html?param=1
	// b.com/1/2.html
	// b.com/
	// b.com/1/
	// safebrowse: empty URL in ""
}

// The v5 host rule stops at the eTLD+1 from the Public Suffix List; the v4
// rule, which Chromium applies, takes the last labels and so also gives
// co.uk.
func ExampleHostRule() {
	for _, r := range []safebrowse.HostRule{safebrowse.HostsV5, safebrowse.HostsV4} {
		exprs, err := r.Expressions("http://example.co.uk/1")
		fmt.Println(r, exprs, err)
	}
	// Output:
	// HostsV5 [example.co.uk/1 example.co.uk/] <nil>
	// HostsV4 [example.co.uk/1 example.co.uk/ co.uk/1 co.uk/] <nil>
}

// A parsed URL gives its expressions as substrings of its canonical form,
// without allocating, and its hashes into a reused slice.
func ExampleURL_Expressions() {
	u, err := safebrowse.Parse("http://1.2.3.4/1/")
	if err != nil {
		fmt.Println(err)
		return
	}
	for e := range u.Expressions(safebrowse.HostsV5) {
		fmt.Println(e)
	}
	hashes := u.AppendHashes(make([]safebrowse.Hash, 0, safebrowse.MaxExpressions), safebrowse.HostsV5)
	fmt.Printf("%x\n", hashes[0].Prefix(safebrowse.Prefix4))
	// Output:
	// 1.2.3.4/1/
	// 1.2.3.4/
	// 5c9f3541
}
