// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package input

import (
	"bufio"
	"errors"
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
