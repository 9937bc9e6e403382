// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command sbcanon prints the Safe Browsing canonical form of URLs.
//
// Usage:
//
//	go run ./examples/sbcanon 'http://www.GOOgle.com/a/../b#frag' 3279880203/blah
//	printf 'www.google.com\nmailto:a@b\n' | go run ./examples/sbcanon
//
// It reads URLs from its arguments, or one per line from standard input
// when it has none, and prints "url<TAB>canonical", or the error. It exits
// with status 1 if any URL was invalid.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/urlspec/urlspec/safebrowse"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	failed := false
	var buf []byte
	show := func(rawURL string) {
		var err error
		buf, err = safebrowse.AppendCanonical(buf[:0], rawURL)
		if err != nil {
			fmt.Fprintf(out, "%s\t%v\n", rawURL, err)
			failed = true
			return
		}
		fmt.Fprintf(out, "%s\t%s\n", rawURL, buf)
	}
	if len(os.Args) > 1 {
		for _, u := range os.Args[1:] {
			show(u)
		}
	} else {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(nil, 2<<20+1)
		for sc.Scan() {
			show(sc.Text())
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintln(os.Stderr, "sbcanon:", err)
			failed = true
		}
	}
	out.Flush()
	if failed {
		os.Exit(1)
	}
}
