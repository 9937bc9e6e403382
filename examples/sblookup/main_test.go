// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	const malware = "http://malware.testing.google.test/testing/malware/"
	for _, tt := range []struct {
		name       string
		args       []string
		stdin      string
		want       string
		wantStderr string
		wantStatus int
	}{
		// The README's first command: the fake server, no key, no network.
		{"fake", []string{"-fake", malware}, "",
			malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "lists ready", 0},
		// URLs from standard input, blank lines skipped, a safe one too.
		{"stdin", []string{"-fake"}, "https://testsafebrowsing.appspot.com/s/phishing.html\n\nhttp://example.com/\n",
			"https://testsafebrowsing.appspot.com/s/phishing.html\tUNSAFE\tSOCIAL_ENGINEERING\ttestsafebrowsing.appspot.com/s/phishing.html\n" +
				"http://example.com/\tSAFE\n", "", 0},
		// RealTime mode.
		{"realtime", []string{"-fake", "-mode", "realtime", "http://www.google.com/", malware}, "",
			"http://www.google.com/\tSAFE\n" + malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "", 0},
		// NoStorage mode: no lists to load.
		{"nostorage", []string{"-fake", "-mode", "NoStorage", malware}, "",
			malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "", 0},
		// A bad URL is reported, the others still printed, status 1.
		{"bad URL", []string{"-fake", "", "http://example.com/"}, "",
			"http://example.com/\tSAFE\n", `safebrowse: empty URL`, 1},
		// No key and no -fake.
		{"no key", []string{"-key", "", malware}, "", "", "no API key", 2},
		// A bad mode.
		{"bad mode", []string{"-fake", "-mode", "fast", malware}, "", "", "unknown mode", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SAFE_BROWSING_API_KEY", "")
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
