// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	for _, tt := range []struct {
		name       string
		args       []string
		stdin      string
		want       string
		wantStderr string
		wantStatus int
	}{
		// A URL as an argument: the spec's example.co.uk row, 4-byte prefixes.
		{"argument", []string{"http://example.co.uk/1"}, "",
			"http://example.co.uk/1\texample.co.uk/1\t5560b8e9\n" +
				"http://example.co.uk/1\texample.co.uk/\t8b933ddf\n", "", 0},
		// URLs from standard input, blank lines skipped; prefixes checked
		// with sha256sum.
		{"stdin", nil, "http://a.com/\n\nhttp://a.b.com/1/2.html?param=1\n",
			"http://a.com/\ta.com/\teb997b83\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/2.html?param=1\t2fcd902c\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/2.html\t210d2c9e\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/\tca057bb0\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/\t377fc89e\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/2.html?param=1\t8446b3e7\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/2.html\tdda789db\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/\t650fb6f0\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/\t98f8cebb\n", "", 0},
		// The v4 host rule adds co.uk.
		{"v4", []string{"-v4", "http://example.co.uk/"}, "",
			"http://example.co.uk/\texample.co.uk/\t8b933ddf\n" +
				"http://example.co.uk/\tco.uk/\t8ed132ef\n", "", 0},
		// A longer prefix.
		{"len 8", []string{"-len", "8", "http://a.com/"}, "",
			"http://a.com/\ta.com/\teb997b83b4d2b0cf\n", "", 0},
		// A bad URL is reported, the others still printed, status 1.
		{"error", []string{"", "http://a.com/"}, "",
			"http://a.com/\ta.com/\teb997b83\n", `sbhash: safebrowse: empty URL in ""`, 1},
		// A bad prefix length.
		{"bad len", []string{"-len", "5", "http://a.com/"}, "", "", "want 4, 8, 16 or 32", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %q", status, tt.wantStatus, stderr.String())
			}
			if got := stdout.String(); got != tt.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, tt.want)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}
