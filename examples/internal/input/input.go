// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package input reads what the example commands work on: their arguments
// or, when they have none, the lines of standard input.
package input

import (
	"bufio"
	"errors"
	"flag"
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
func Main(name, usage string, show func(out, errs io.Writer, s string) bool) {
	os.Exit(Run(name, usage, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, show))
}

// Run parses args as a command with no flags but -h, which prints
// "usage: " and usage to stderr (status 0); "--" ends the flags, for an
// input that starts with '-'. It then calls show with each remaining
// argument or input line (see Each), which writes its result to out,
// buffered, and any error to errs (stderr, in order with out), and reports
// whether s was valid. It returns the exit status: 0, 1 if show reported
// an invalid input or stdin could not be read, which is written to stderr
// after the name, or 2 for a bad flag.
func Run(name, usage string, args []string, stdin io.Reader, stdout, stderr io.Writer, show func(out, errs io.Writer, s string) bool) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: %s\n", usage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	out := bufio.NewWriter(stdout)
	errs := flushFirst{out, stderr}
	status := 0
	err := Each(fs.Args(), stdin, func(s string) {
		if !show(out, errs, s) {
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

// flushFirst writes to w after flushing out, so that what the two streams
// get stays in order on a terminal.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}
