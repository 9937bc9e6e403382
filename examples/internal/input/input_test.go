// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package input

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		in      string
		want    []string
		wantErr error
	}{
		// Arguments are used as given, blank ones too; the input is not read.
		{"args", []string{" a ", ""}, "b\n", []string{" a ", ""}, nil},
		// No arguments: the lines, trimmed, blank lines skipped.
		{"lines", nil, "a\n\n  b\t\r\n   \nc", []string{"a", "b", "c"}, nil},
		// A line of MaxLine bytes is read.
		{"longest line", nil, strings.Repeat("x", MaxLine) + "\ny\n", []string{strings.Repeat("x", MaxLine), "y"}, nil},
		// A longer line is an error, after the lines before it.
		{"too long", nil, "a\n" + strings.Repeat("x", MaxLine+1) + "\ny\n", []string{"a"}, bufio.ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := Each(tt.args, strings.NewReader(tt.in), func(s string) { got = append(got, s) })
			if !slices.Equal(got, tt.want) || !errors.Is(err, tt.wantErr) {
				t.Errorf("Each = %.40q, %v; want %.40q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		in         string
		wantOut    string
		wantErr    string
		wantStatus int
	}{
		// Every input valid: status 0.
		{"valid", []string{"a", "b"}, "", "a\nb\n", "", 0},
		// One invalid input: its line is written, and status 1.
		{"invalid", nil, "a\nbad\nc\n", "a\nc\n", "cmd: bad\n", 1},
		// A read error: the lines before it, the error, and status 1.
		{"read error", nil, "a\n" + strings.Repeat("x", MaxLine+1), "a\n", "cmd: bufio.Scanner: token too long\n", 1},
		// An invalid argument: its error on stderr, status 1.
		{"invalid argument", []string{"bad"}, "", "", "cmd: bad\n", 1},
		// -h prints the usage; it is no input.
		{"help", []string{"-h"}, "a\n", "", "usage: cmd [input ...]\n", 0},
		// -- ends the flags.
		{"dash", []string{"--", "-h"}, "", "-h\n", "", 0},
		// An unknown flag.
		{"bad flag", []string{"-x"}, "", "", "flag provided but not defined: -x", 2},
	}
	show := func(out, errs io.Writer, s string) bool {
		if s == "bad" {
			fmt.Fprintln(errs, "cmd: "+s)
			return false
		}
		fmt.Fprintln(out, s)
		return true
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			status := Run("cmd", "cmd [input ...]", tt.args, strings.NewReader(tt.in), &out, &errOut, show)
			if out.String() != tt.wantOut || (tt.wantErr == "") != (errOut.Len() == 0) || !strings.HasPrefix(errOut.String(), tt.wantErr) || status != tt.wantStatus {
				t.Errorf("Run = %d, stdout %q, stderr %q; want %d, %q, %q", status, out.String(), errOut.String(), tt.wantStatus, tt.wantOut, tt.wantErr)
			}
		})
	}
}
