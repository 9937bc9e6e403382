// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/examples/internal/cmdtest"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

func TestRun(t *testing.T) {
	const malware = "http://malware.testing.google.test/testing/malware/"
	t.Setenv("SAFE_BROWSING_API_KEY", "")
	cmdtest.Run(t, run, []cmdtest.Case{
		// The README's first command: the fake server, no key, no network.
		{Name: "fake", Args: []string{"-fake", malware}, Want: malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", WantStderr: "lists ready"},
		// URLs from standard input, blank lines skipped, a safe one too.
		{Name: "stdin", Args: []string{"-fake"}, Stdin: "https://testsafebrowsing.appspot.com/s/phishing.html\n\nhttp://example.com/\n",
			Want: "https://testsafebrowsing.appspot.com/s/phishing.html\tUNSAFE\tSOCIAL_ENGINEERING\ttestsafebrowsing.appspot.com/s/phishing.html\n" +
				"http://example.com/\tSAFE\n"},
		// RealTime mode.
		{Name: "realtime", Args: []string{"-fake", "-mode", "realtime", "http://www.google.com/", malware}, Want: "http://www.google.com/\tSAFE\n" + malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n"},
		// NoStorage mode: no lists to load.
		{Name: "nostorage", Args: []string{"-fake", "-mode", "NoStorage", malware}, Want: malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n"},
		// A bad URL is reported, the others still printed, status 1.
		{Name: "bad URL", Args: []string{"-fake", "", "http://example.com/"}, Want: "http://example.com/\tSAFE\n", WantStderr: `safebrowse: empty URL`, WantStatus: 1},
		// No key and no -fake.
		{Name: "no key", Args: []string{"-key", "", malware}, WantStderr: "no API key", WantStatus: 2},
		// A bad mode.
		{Name: "bad mode", Args: []string{"-fake", "-mode", "fast", malware}, WantStderr: "unknown mode", WantStatus: 2},
	})
}

// TestDir: a second run loads the lists from -dir.
func TestDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lists")
	for i := range 2 {
		var stdout, stderr strings.Builder
		if status := run([]string{"-fake", "-dir", dir, "http://example.com/"}, nil, &stdout, &stderr); status != 0 {
			t.Fatalf("run %d: status %d: %s", i, status, stderr.String())
		}
		if i == 1 && !strings.Contains(stderr.String(), "list loaded") {
			t.Errorf("second run did not load from -dir:\n%s", stderr.String())
		}
	}
}

// TestLoadFails: when the server refuses the list fetch, sblookup exits at
// once with the cause, not after the -timeout.
func TestLoadFails(t *testing.T) {
	fakeHook = func(s *sbtest.Server) { s.Inject(sbtest.Fault{Status: http.StatusForbidden}) }
	defer func() { fakeHook = nil }()
	var stdout, stderr strings.Builder
	start := time.Now()
	status := run([]string{"-fake", "-timeout", "1m", "http://example.com/"}, nil, &stdout, &stderr)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	want := "sblookup: loading the lists: lookup: lists not loaded yet: hashLists:batchGet: HTTP 403 Forbidden"
	if status != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), want) {
		t.Errorf("status %d, stdout %q, stderr:\n%s\nwant status 1 and %q", status, stdout.String(), stderr.String(), want)
	}
}
