// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package input reads what the example commands work on: their arguments
// or, when they have none, the lines of standard input.
package input

import (
	"bufio"
	"fmt"
	"io"
	"os"
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

// Main is the main function of a command that works on each of its
// arguments or input lines: it runs Run on the process's arguments and
// standard streams, and exits with the status Run returns.
func Main(name string, show func(out io.Writer, s string) bool) {
	os.Exit(Run(name, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, show))
}

// Run calls show with each of args or input lines (see Each), which writes
// its result to out, buffered, and reports whether s was valid. It returns
// the exit status: 0, or 1 if show reported an invalid input or stdin
// could not be read, which is written to stderr after the name.
func Run(name string, args []string, stdin io.Reader, stdout, stderr io.Writer, show func(out io.Writer, s string) bool) int {
	out := bufio.NewWriter(stdout)
	status := 0
	err := Each(args, stdin, func(s string) {
		if !show(out, s) {
			status = 1
		}
	})
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		status = 1
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		status = 1
	}
	return status
}
