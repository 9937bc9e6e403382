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
// when it has none (blank lines are skipped), and prints "url<TAB>canonical", or the error on standard error.
// It exits with status 1 if any URL was invalid. -h prints the usage.
package main

import (
	"fmt"
	"io"

	"github.com/urlspec/urlspec/examples/internal/input"
	"github.com/urlspec/urlspec/safebrowse"
)

func main() {
	var buf []byte
	input.Main("sbcanon", "sbcanon [url ...]", func(out, errs io.Writer, rawURL string) bool {
		var err error
		buf, err = safebrowse.AppendCanonical(buf[:0], rawURL)
		if err != nil {
			fmt.Fprintf(errs, "sbcanon: %v\n", err)
			return false
		}
		fmt.Fprintf(out, "%s\t%s\n", rawURL, buf)
		return true
	})
}
