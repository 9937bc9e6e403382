// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Sbhash prints the Safe Browsing v5 expressions of URLs with their hash
// prefixes: the lookups a link scanner makes for each URL.
//
// Usage:
//
//	sbhash [-v4] [-len n] [url ...]
//
// It reads URLs from its arguments or, if there are none, one per line from
// standard input (blank lines are skipped). For each expression of each URL
// it prints a line of three tab-separated fields: the URL as given, the
// expression, and the hash prefix in hexadecimal, 4 bytes by default, the
// length a hashes.search request carries.
//
// The -v4 flag applies Chromium's v4 host rule instead of the v5 one. The
// -len flag sets the prefix length: 4, 8, 16 or 32 bytes.
//
// A URL that cannot be canonicalised is reported on standard error, and
// sbhash exits with status 1 after the other URLs.
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/urlspec/urlspec/examples/internal/input"
	"github.com/urlspec/urlspec/safebrowse"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main with its inputs and outputs as arguments, for the tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sbhash", flag.ContinueOnError)
	fs.SetOutput(stderr)
	v4 := fs.Bool("v4", false, "use Chromium's v4 host rule instead of the v5 one")
	n := fs.Int("len", 4, "hash prefix length in bytes: 4, 8, 16 or 32")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sbhash [-v4] [-len n] [url ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // Parse has printed the usage
		}
		return 2
	}
	var plen safebrowse.PrefixLen
	switch *n {
	case 4, 8, 16, 32:
		plen = safebrowse.PrefixLen(*n)
	default:
		fmt.Fprintf(stderr, "sbhash: -len %d: want 4, 8, 16 or 32\n", *n)
		return 2
	}
	rule := safebrowse.HostsV5
	if *v4 {
		rule = safebrowse.HostsV4
	}

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	status := 0
	var line []byte
	do := func(url string) {
		exprs, err := rule.Expressions(url)
		if err == nil {
			var hashes []safebrowse.Hash
			hashes, err = rule.Hashes(url)
			for i, e := range exprs {
				line = append(line[:0], url...)
				line = append(line, '\t')
				line = append(line, e...)
				line = append(line, '\t')
				line = hex.AppendEncode(line, hashes[i].Prefix(plen))
				line = append(line, '\n')
				w.Write(line)
			}
		}
		if err != nil {
			w.Flush()
			fmt.Fprintln(stderr, "sbhash:", err)
			status = 1
		}
	}
	if err := input.Each(fs.Args(), stdin, do); err != nil {
		w.Flush()
		fmt.Fprintln(stderr, "sbhash: reading standard input:", err)
		return 1
	}
	return status
}
