// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package cmdtest runs the example commands in their tests, through their
// run function: main with its inputs and outputs as arguments.
package cmdtest

import (
	"io"
	"strings"
	"testing"
)

// Case is one run of a command.
type Case struct {
	Name       string
	Args       []string
	Stdin      string
	Want       string // all of standard output
	WantStderr string // a part of standard error
	WantStatus int
}

// Run runs each case through run as a subtest, and checks the exit status,
// standard output and standard error.
func Run(t *testing.T, run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int, cases []Case) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			status := run(tt.Args, strings.NewReader(tt.Stdin), &stdout, &stderr)
			if status != tt.WantStatus {
				t.Errorf("status %d, want %d; stderr %q", status, tt.WantStatus, stderr.String())
			}
			if got := stdout.String(); got != tt.Want {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, tt.Want)
			}
			if !strings.Contains(stderr.String(), tt.WantStderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.WantStderr)
			}
		})
	}
}
