// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"testing"

	"github.com/urlspec/urlspec/examples/internal/cmdtest"
)

func TestRun(t *testing.T) {
	cmdtest.Run(t, run, []cmdtest.Case{
		// A URL as an argument: the spec's example.co.uk row, 4-byte prefixes.
		{Name: "argument", Args: []string{"http://example.co.uk/1"},
			Want: "http://example.co.uk/1\texample.co.uk/1\t5560b8e9\n" +
				"http://example.co.uk/1\texample.co.uk/\t8b933ddf\n"},
		// URLs from standard input, blank lines skipped; prefixes checked
		// with sha256sum.
		{Name: "stdin", Stdin: "http://a.com/\n\nhttp://a.b.com/1/2.html?param=1\n",
			Want: "http://a.com/\ta.com/\teb997b83\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/2.html?param=1\t2fcd902c\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/2.html\t210d2c9e\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/\tca057bb0\n" +
				"http://a.b.com/1/2.html?param=1\ta.b.com/1/\t377fc89e\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/2.html?param=1\t8446b3e7\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/2.html\tdda789db\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/\t650fb6f0\n" +
				"http://a.b.com/1/2.html?param=1\tb.com/1/\t98f8cebb\n"},
		// The v4 host rule adds co.uk.
		{Name: "v4", Args: []string{"-v4", "http://example.co.uk/"},
			Want: "http://example.co.uk/\texample.co.uk/\t8b933ddf\n" +
				"http://example.co.uk/\tco.uk/\t8ed132ef\n"},
		// A longer prefix.
		{Name: "len 8", Args: []string{"-len", "8", "http://a.com/"}, Want: "http://a.com/\ta.com/\teb997b83b4d2b0cf\n"},
		// A bad URL is reported, the others still printed, status 1.
		{Name: "error", Args: []string{"", "http://a.com/"}, Want: "http://a.com/\ta.com/\teb997b83\n", WantStderr: `sbhash: safebrowse: empty URL in ""`, WantStatus: 1},
		// -h prints the usage and succeeds.
		{Name: "help", Args: []string{"-h"}, WantStderr: "usage: sbhash [-v4] [-len n] [url ...]", WantStatus: 0},
		// A bad prefix length.
		{Name: "bad len", Args: []string{"-len", "5", "http://a.com/"}, WantStderr: "want 4, 8, 16 or 32", WantStatus: 2},
	})
}
