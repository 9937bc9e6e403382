// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Sblookup checks URLs against Google Safe Browsing v5, as Chrome does, with
// the client of package safebrowse/lookup. It is made to be piped into.
//
// Usage:
//
//	sblookup [-key key] [-mode LocalList|RealTime|NoStorage] [-dir dir] [-fake] [-timeout 2m] [url ...]
//
// It reads URLs from its arguments or, if there are none, one per line from
// standard input, and writes exactly one line per non-blank input line to
// standard output, in input order, as soon as it is checked, so that it
// works behind tail -f (lines already waiting in the input are checked as
// one batch). Each line is tab-separated: the URL as given (white space
// trimmed), then SAFE, UNSAFE or ERROR; after SAFE or UNSAFE, each threat's
// type (with its attributes, as in MALWARE+CANARY) and the expression whose
// hash matched:
//
//	http://malware.testing.google.test/testing/malware/	UNSAFE	MALWARE	malware.testing.google.test/testing/malware/
//	http://example.com/	SAFE
//	mailto:a@b	ERROR
//
// A URL with only CANARY threats is SAFE, its threats shown. For ERROR,
// the cause goes to standard error, naming the input line. A line over
// 2 MiB, the longest URL the library accepts, is ERROR, with its first 100
// bytes as the URL and "line N: too long" on standard error; reading goes
// on after it. sblookup exits with status 1 if any line was ERROR, 2 for a
// bad command line.
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
//	go run ./cmd/sblookup -fake http://malware.testing.google.test/testing/malware/
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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// maxBatch is the most lines checked in one LookupAll.
const maxBatch = 100

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
	key := fs.String("key", "", "API key (default $SAFE_BROWSING_API_KEY)")
	modeName := fs.String("mode", "LocalList", "lookup procedure: LocalList, RealTime or NoStorage")
	dir := fs.String("dir", "", "directory keeping the lists across runs (default: memory only)")
	fake := fs.Bool("fake", false, "use a fake server on loopback seeded with test URLs: no key, no network")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long to wait for the lists to load")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sblookup [flags] [url ...]\n\nChecks each URL, or each line of standard input, against Safe Browsing v5:\none line out per URL, url<TAB>SAFE|UNSAFE|ERROR.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *key == "" {
		*key = os.Getenv("SAFE_BROWSING_API_KEY") // not the flag's default, which -h shows
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

	lines := make(chan line, maxBatch)
	if fs.NArg() > 0 {
		go func() {
			defer close(lines)
			for i, a := range fs.Args() {
				lines <- line{n: i + 1, url: a}
			}
		}()
	} else {
		go readLines(stdin, lines)
	}
	return check(ctx, c, lines, stdout, stderr)
}

// check checks the lines as they come and writes one result line per
// input line, flushing after each batch: a line, and those already waiting
// behind it, up to maxBatch.
func check(ctx context.Context, c *lookup.Client, lines <-chan line, stdout, stderr io.Writer) int {
	w := bufio.NewWriter(stdout)
	status := 0
	fail := func(l line, msg string) {
		w.WriteString(l.url + "\tERROR\n")
		w.Flush()
		fmt.Fprintf(stderr, "sblookup: line %d: %s\n", l.n, msg)
		status = 1
	}
	batch := make([]line, 0, maxBatch)
	urls := make([]string, 0, maxBatch)
	for l := range lines {
		batch = append(batch[:0], l)
	more:
		for len(batch) < maxBatch {
			select {
			case l, ok := <-lines:
				if !ok {
					break more
				}
				batch = append(batch, l)
			default:
				break more
			}
		}
		urls = urls[:0]
		for _, l := range batch {
			if !l.tooLong && l.err == nil {
				urls = append(urls, l.url)
			}
		}
		vs, err := c.LookupAll(ctx, urls)
		errs := perURLErrors(err, len(urls))
		i := 0
		for _, l := range batch {
			switch {
			case l.err != nil:
				w.Flush()
				fmt.Fprintf(stderr, "sblookup: reading standard input: line %d: %v\n", l.n, l.err)
				status = 1
			case l.tooLong:
				fail(l, "too long: over "+strconv.Itoa(maxLine)+" bytes")
			case errs[i] != nil:
				fail(l, errs[i].Error())
				i++
			default:
				w.WriteString(format(l.url, vs[i]))
				i++
			}
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintln(stderr, "sblookup:", err)
			return 1
		}
	}
	return status
}

// perURLErrors returns the error of each of n URLs from LookupAll's
// error: nil for a URL checked. An error that is not a *lookup.BatchError
// of n URLs is every URL's.
func perURLErrors(err error, n int) []error {
	var be *lookup.BatchError
	if errors.As(err, &be) && len(be.Errs) == n {
		return be.Errs
	}
	errs := make([]error, n)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
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
			n, hashes := 0, 0
			for _, l := range c.Lists() {
				n++
				hashes += l.Entries
			}
			fmt.Fprintf(stderr, "sblookup: %d lists ready, %d hashes, in %v\n", n, hashes, time.Since(start).Round(time.Millisecond))
			return nil
		case <-tick.C:
			loaded, n := 0, 0
			for _, l := range c.Lists() {
				n++
				if l.Loaded {
					loaded++
				}
			}
			fmt.Fprintf(stderr, "sblookup: loading lists: %d of %d loaded\n", loaded, n)
		}
	}
}

// format formats the verdict on url as its output line.
func format(url string, v lookup.Verdict) string {
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
