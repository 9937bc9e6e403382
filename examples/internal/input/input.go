// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package input reads what the example commands work on: their arguments
// or, when they have none, the lines of standard input.
package input

import (
	"bufio"
	"io"
	"strings"
)

// MaxLine is the length of the longest line Each reads: the longest URL the
// library accepts, 2 MiB.
const MaxLine = 2 << 20

// Each calls f with each of args or, if args is empty, with each line of r,
// white space trimmed and blank lines skipped. It returns the error of
// reading r, if any, after the lines before it.
func Each(args []string, r io.Reader, f func(string)) error {
	if len(args) > 0 {
		for _, a := range args {
			f(a)
		}
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, MaxLine+1) // and its newline
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			f(line)
		}
	}
	return sc.Err()
}
