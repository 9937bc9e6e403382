// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Sblookup checks URLs against Google Safe Browsing v5, as Chrome does, with
// the client of package safebrowse/lookup.
//
// Usage:
//
//	sblookup [-key key] [-mode LocalList|RealTime|NoStorage] [-dir dir] [-fake] [url ...]
//
// It reads URLs from its arguments or, if there are none, one per line from
// standard input (blank lines are skipped), and prints one line per URL of
// tab-separated fields: the URL as given, SAFE or UNSAFE, then for each
// threat its type (with its attributes, as in MALWARE+CANARY) and the
// expression whose hash matched:
//
//	http://malware.testing.google.test/testing/malware/	UNSAFE	MALWARE	malware.testing.google.test/testing/malware/
//
// The -key flag gives the API key of a Google Cloud project with the Safe
// Browsing API enabled; it defaults to $SAFE_BROWSING_API_KEY. The -mode
// flag chooses the lookup procedure (LocalList by default). The -dir flag
// keeps the lists in a directory across runs, so that a second run needs no
// download. While the lists load, progress goes to standard error; if
// loading fails (a refused key, no network), sblookup exits at once with
// status 1 and the cause.
//
// The -fake flag starts a fake v5 server on loopback (package
// safebrowse/sbtest), seeded with Google's test URLs, so that sblookup runs
// with no key and no network:
//
//	go run ./examples/sblookup -fake http://malware.testing.google.test/testing/malware/
//
// A URL that cannot be checked (a bad URL, or a failed request) is reported
// on standard error, and sblookup exits with status 1 after the other URLs.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urlspec/urlspec/examples/internal/input"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// fakeHook, when set by a test, gets the -fake server before the client
// starts, to inject faults.
var fakeHook func(*sbtest.Server)

// run is main with its inputs and outputs as arguments, for the tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The client's log lines, from Run's goroutine, share stderr with ours.
	stderr = &lockedWriter{w: stderr}
	fs := flag.NewFlagSet("sblookup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	key := fs.String("key", os.Getenv("SAFE_BROWSING_API_KEY"), "API key (default $SAFE_BROWSING_API_KEY)")
	modeName := fs.String("mode", "LocalList", "lookup procedure: LocalList, RealTime or NoStorage")
	dir := fs.String("dir", "", "directory keeping the lists across runs (default: memory only)")
	fake := fs.Bool("fake", false, "use a fake server on loopback seeded with test URLs: no key, no network")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long to wait for the lists to load")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	mode, err := lookup.ParseMode(*modeName)
	if err != nil {
		fmt.Fprintln(stderr, "sblookup: -mode:", err)
		return 2
	}
	cfg := lookup.Config{APIKey: *key, Mode: mode, Dir: *dir}
	if *fake {
		s := sbtest.NewServer(sbtest.WithTestURLs())
		defer s.Close()
		if fakeHook != nil {
			fakeHook(s)
		}
		cfg.APIKey, cfg.BaseURL = s.APIKey, s.URL
		fmt.Fprintln(stderr, "sblookup: using a fake server at", s.URL)
	}
	if cfg.APIKey == "" {
		fmt.Fprintln(stderr, "sblookup: no API key: give -key or set SAFE_BROWSING_API_KEY (or try -fake)")
		return 2
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{} // progress lines, not a log file
			}
			return a
		},
	}))
	c, err := lookup.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "sblookup:", err)
		return 2
	}
	defer c.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if mode != lookup.NoStorage {
		// Run keeps the lists fresh; it ends, and logs no more, before run
		// returns.
		ran := make(chan struct{})
		go func() {
			defer close(ran)
			c.Run(ctx)
		}()
		defer func() {
			cancel()
			<-ran
		}()
		if err := load(ctx, c, *timeout, stderr); err != nil {
			fmt.Fprintln(stderr, "sblookup: loading the lists:", err)
			return 1
		}
	}

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	status := 0
	check := func(urls []string) {
		vs, err := c.LookupAll(ctx, urls)
		failed := make([]error, len(urls))
		var be *lookup.BatchError
		if errors.As(err, &be) {
			failed = be.Errs
		}
		for i, v := range vs {
			if err := failed[i]; err != nil {
				w.Flush()
				fmt.Fprintf(stderr, "sblookup: %s: %v\n", urls[i], err)
				status = 1
				continue
			}
			w.WriteString(line(urls[i], v))
		}
	}
	// URLs go to LookupAll 100 at a time.
	var batch []string
	err = input.Each(fs.Args(), stdin, func(url string) {
		if batch = append(batch, url); len(batch) == 100 {
			check(batch)
			batch = batch[:0]
		}
	})
	if len(batch) > 0 {
		check(batch)
	}
	if err != nil {
		w.Flush()
		fmt.Fprintln(stderr, "sblookup: reading standard input:", err)
		return 1
	}
	return status
}

// load waits until the lists are loaded by Run, printing progress each
// second. It returns as soon as an update fails, with the cause (a refused
// key, no network), rather than wait out the timeout.
func load(ctx context.Context, c *lookup.Client, timeout time.Duration, stderr io.Writer) error {
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	done := make(chan error, 1)
	go func() { done <- c.Ready(wctx) }()
	for {
		select {
		case err := <-done:
			if err != nil {
				return err
			}
			hashes := 0
			lists := c.Lists()
			for _, l := range lists {
				hashes += l.Entries
			}
			fmt.Fprintf(stderr, "sblookup: %d lists ready, %d hashes, in %v\n", len(lists), hashes, time.Since(start).Round(time.Millisecond))
			return nil
		case <-tick.C:
			loaded, lists := 0, c.Lists()
			for _, l := range lists {
				if l.Loaded {
					loaded++
				}
			}
			fmt.Fprintf(stderr, "sblookup: loading lists: %d of %d loaded\n", loaded, len(lists))
		}
	}
}

// line formats the verdict on url.
func line(url string, v lookup.Verdict) string {
	var b strings.Builder
	b.WriteString(url)
	if v.Unsafe() {
		b.WriteString("\tUNSAFE")
	} else {
		b.WriteString("\tSAFE")
	}
	for _, t := range v.Threats {
		b.WriteString("\t")
		b.WriteString(t.Type.String())
		for _, a := range t.Attributes {
			b.WriteString("+")
			b.WriteString(a.String())
		}
		b.WriteString("\t")
		b.WriteString(t.Expression)
	}
	b.WriteString("\n")
	return b.String()
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
