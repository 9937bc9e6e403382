// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

const malware = "http://malware.testing.google.test/testing/malware/"

func TestRun(t *testing.T) {
	t.Setenv("SAFE_BROWSING_API_KEY", "")
	long := strings.Repeat("x", maxLine+1)
	for _, tt := range []struct {
		name       string
		args       []string
		stdin      string
		want       string // all of standard output
		wantStderr string // a part of standard error
		wantStatus int
	}{
		// The README's first command: the fake server, no key, no network.
		{"fake", []string{"-fake", malware}, "", malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "lists ready", 0},
		// URLs from standard input, blank lines skipped, a safe one too.
		{"stdin", []string{"-fake"}, "https://testsafebrowsing.appspot.com/s/phishing.html\n\n  http://example.com/ \r\n",
			"https://testsafebrowsing.appspot.com/s/phishing.html\tUNSAFE\tSOCIAL_ENGINEERING\ttestsafebrowsing.appspot.com/s/phishing.html\n" +
				"http://example.com/\tSAFE\n", "", 0},
		// RealTime mode.
		{"realtime", []string{"-fake", "-mode", "realtime", "http://www.google.com/", malware}, "",
			"http://www.google.com/\tSAFE\n" + malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "", 0},
		// NoStorage mode: no lists to load.
		{"nostorage", []string{"-fake", "-mode", "NoStorage", malware}, "", malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n", "", 0},
		// A bad URL is ERROR in its place, the cause on stderr, status 1.
		{"bad URL", []string{"-fake"}, "mailto:a@b\nhttp://example.com/\n", "mailto:a@b\tERROR\nhttp://example.com/\tSAFE\n", `line 1: lookup: safebrowse:`, 1},
		// A line over 2 MiB is ERROR, with its first 100 bytes; reading goes on.
		{"too long", []string{"-fake"}, "http://example.com/\n\n" + long + "\n" + malware + "\n",
			"http://example.com/\tSAFE\n" + long[:100] + "\tERROR\n" + malware + "\tUNSAFE\tMALWARE\tmalware.testing.google.test/testing/malware/\n",
			"sblookup: line 3: too long", 1},
		// A too-long line whose 100th byte is inside a rune is cut before
		// the rune, as inputerr clips every input: no invalid UTF-8.
		{"too long, rune at the cut", []string{"-fake"}, "http://a.example/" + strings.Repeat("a", 82) + "é" + strings.Repeat("a", maxLine) + "\n",
			"http://a.example/" + strings.Repeat("a", 82) + "\tERROR\n", "sblookup: line 1: too long", 1},
		// A line of exactly 2 MiB is read, and checked.
		{"longest line", []string{"-fake"}, "http://a.example/" + strings.Repeat("a", maxLine-len("http://a.example/")) + "\n",
			"http://a.example/" + strings.Repeat("a", maxLine-len("http://a.example/")) + "\tSAFE\n", "", 0},
		// No key and no -fake.
		{"no key", []string{"-key", "", malware}, "", "", "no API key", 2},
		// A bad mode.
		{"bad mode", []string{"-fake", "-mode", "fast", malware}, "", "", "unknown mode", 2},
		// -h prints the usage and is no URL.
		{"help", []string{"-h"}, "", "", "usage: sblookup", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %.300q", status, tt.wantStatus, stderr.String())
			}
			if got := stdout.String(); got != tt.want {
				t.Errorf("stdout:\n%.300s\nwant:\n%.300s", got, tt.want)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %.300q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}

// TestStreaming: each line's result is written before the next line comes,
// as behind tail -f.
func TestStreaming(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() { done <- run([]string{"-fake"}, inR, outW, io.Discard); outW.Close() }()
	out := bufio.NewReader(outR)
	for _, u := range []string{malware, "http://example.com/", "mailto:x"} {
		if _, err := io.WriteString(inW, u+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { s, _ := out.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if !strings.HasPrefix(s, u+"\t") {
				t.Errorf("got %q for %s", s, u)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no output for %s while the input stays open", u)
		}
	}
	inW.Close()
	if status := <-done; status != 1 {
		t.Errorf("status %d, want 1 (mailto:x is an ERROR)", status)
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
