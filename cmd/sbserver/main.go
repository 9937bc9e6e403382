// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Sbserver is a local Safe Browsing v5 proxy: a small HTTP server on a
// loopback address in front of one client of package safebrowse/lookup, so
// that programs in any language on the host share one set of lists, one
// cache and one back-off, as the sbserver command of
// github.com/google/safebrowsing does for v4.
//
// Usage:
//
//	sbserver [-addr 127.0.0.1:8080] [-key key] [-mode LocalList|RealTime|NoStorage] [-dir dir] [-frozen] [-fake]
//
// The -key flag gives the API key of a Google Cloud project with the Safe
// Browsing API enabled; it defaults to $SAFE_BROWSING_API_KEY. It is never
// shown in a reply. The -mode flag chooses the lookup procedure (LocalList by
// default); -dir keeps the lists in a directory across restarts. The -addr
// host must be a loopback address: the proxy spends the key's quota for
// whoever reaches it.
//
// The -frozen flag loads the lists from -dir and never updates them: the
// database stays as it was, for reproducible answers. Searches still go to
// the server for URLs the frozen lists hold. Every list must be in -dir.
//
// The -fake flag starts a fake v5 server on loopback (package
// safebrowse/sbtest), so that sbserver runs with no key and no network. It
// is seeded with sbtest.TestURLs, as sblookup -fake is: Google's test pages
// for each threat list, and www.google.com/ on the Global Cache.
//
// # Endpoints
//
// POST /v5/urls:lookup takes {"urls": ["..."]}, at most 1000 URLs and 1 MiB,
// and answers one verdict per URL, in order:
//
//	{"verdicts": [{"url": "...", "unsafe": true, "threats": [{"threatType": "MALWARE",
//	  "attributes": ["CANARY"], "expression": "evil.example/"}]}]}
//
// A URL that cannot be parsed gets "error" and no "unsafe". When the check
// fails for some URL (the lists are not loaded yet, a search failed, or the
// proxy is backing off after failed searches), the reply is a 503 with
// "error", and Retry-After while backing off; the verdict of each URL that
// could not be checked carries "error" and, unless a threat is already
// known, no "unsafe": a failure is never reported as safe.
//
// GET /status answers the state of each list (name, entries, version,
// loaded, next update) and "ready": a 200 once every list is loaded, a 503
// before.
//
// Other methods get a 405 and other paths a 404, with {"error": "..."}.
// SIGINT or SIGTERM shuts the server down gracefully: requests in flight
// finish, then the client closes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr, nil))
}

// hooks let the tests see what run starts.
type hooks struct {
	fake      func(*sbtest.Server) // the -fake server, once seeded
	listening func(addr string)    // the address served, once listening
}

// run is main with its inputs as arguments, for the tests: it serves until
// ctx ends, then shuts down gracefully. h may be nil.
func run(ctx context.Context, args []string, stderr io.Writer, h *hooks) int {
	if h == nil {
		h = &hooks{}
	}
	fs := flag.NewFlagSet("sbserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "loopback address to listen on")
	key := fs.String("key", os.Getenv("SAFE_BROWSING_API_KEY"), "API key (default $SAFE_BROWSING_API_KEY)")
	modeName := fs.String("mode", "LocalList", "lookup procedure: LocalList, RealTime or NoStorage")
	dir := fs.String("dir", "", "directory keeping the lists across restarts (default: memory only)")
	frozen := fs.Bool("frozen", false, "load the lists from -dir and never update them")
	fake := fs.Bool("fake", false, "use a fake server on loopback seeded with test URLs: no key, no network")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "sbserver: unexpected arguments:", fs.Args())
		return 2
	}
	mode, err := lookup.ParseMode(*modeName)
	if err != nil {
		fmt.Fprintln(stderr, "sbserver: -mode:", err)
		return 2
	}
	if err := checkLoopback(*addr); err != nil {
		fmt.Fprintln(stderr, "sbserver: -addr:", err)
		return 2
	}
	if *frozen && (*dir == "" || mode == lookup.NoStorage) {
		fmt.Fprintln(stderr, "sbserver: -frozen needs -dir, and a mode that keeps lists")
		return 2
	}
	cfg := lookup.Config{APIKey: *key, Mode: mode, Dir: *dir}
	if *fake {
		s := sbtest.NewServer(sbtest.WithTestURLs())
		defer s.Close()
		cfg.APIKey, cfg.BaseURL = s.APIKey, s.URL
		fmt.Fprintln(stderr, "sbserver: using a fake server at", s.URL)
		if h.fake != nil {
			h.fake(s)
		}
	}
	if cfg.APIKey == "" {
		fmt.Fprintln(stderr, "sbserver: no API key: give -key or set SAFE_BROWSING_API_KEY (or try -fake)")
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg.Logger = log
	c, err := lookup.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", err)
		return 2
	}
	defer c.Close()
	if *frozen && !c.IsReady() {
		var missing []string
		for _, l := range c.Lists() {
			if !l.Loaded {
				missing = append(missing, l.Name)
			}
		}
		fmt.Fprintf(stderr, "sbserver: -frozen: %s not in %s: run once without -frozen first\n", strings.Join(missing, ", "), *dir)
		return 1
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", err)
		return 1
	}
	srv := &http.Server{
		Handler:           newHandler(c, mode, *frozen, cfg.APIKey),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !*frozen {
		go c.Run(runCtx) // ends with runCtx, or with c.Close
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("sbserver listening", "addr", "http://"+ln.Addr().String(), "mode", mode, "frozen", *frozen)
	if h.listening != nil {
		h.listening(ln.Addr().String())
	}

	select {
	case err := <-served:
		log.Error("sbserver stopped", "err", err)
		return 1
	case <-ctx.Done():
	}
	log.Info("sbserver shutting down")
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("sbserver shutdown", "err", err)
		return 1
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		log.Error("sbserver stopped", "err", err)
		return 1
	}
	return 0
}

// checkLoopback reports an error unless addr's host is a loopback address
// or "localhost".
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q is not a loopback address (127.0.0.1, ::1 or localhost)", host)
}
