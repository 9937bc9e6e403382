// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
)

// maxKeyFile bounds a -key-file or -client-keys file.
const maxKeyFile = 1 << 20

// config is the command line, parsed and checked.
type config struct {
	addr, key, keyFile, mode, dir, upstream string
	api                                     string
	clientKeys, tlsCert, tlsKey             string
	logFormat, logLevel                     string
	ohttpRelay, ohttpKeyURL                 string
	frozen, fake, mirror, ohttpPadding      bool
	cacheDuration                           time.Duration
	cacheSize, upstreamSearches             int
	maxSearchesPerMinute                    int
	cacheBytes                              int64

	lookupMode lookup.Mode
	lookupAPI  lookup.API
	keys       []string // from -client-keys
	level      slog.Level
}

// envFlags are the flags that fall back to $SBSERVER_<FLAG>: those from
// -upstream on; the older ones keep their behaviour.
var envFlags = []string{"upstream", "key-file", "cache-duration", "tls-cert", "tls-key", "client-keys", "log-format", "log-level", "mirror", "cache-size", "ohttp-relay", "ohttp-key-url",
	"cache-bytes", "upstream-searches", "ohttp-padding", "max-searches-per-minute", "api"}

// envName is the variable a flag falls back to: SBSERVER_ and the flag in
// upper snake case.
func envName(flagName string) string {
	return "SBSERVER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// errUsage is a bad command line: exit status 2.
var errUsage = errors.New("usage")

// parseFlags parses args, falling back to the environment (getenv), and
// checks the combination. An error wraps errUsage for a bad command line,
// or is flag.ErrHelp.
func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("sbserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sbserver [flags]\n\nA Safe Browsing v5 server: POST /v5/urls:lookup, GET /v5/urls:search,\nPOST /v4/threatMatches:find, /status, /healthz, /readyz, /metrics;\nunless -mode NoStorage, the v4 Update API: POST /v4/threatListUpdates:fetch,\nPOST /v4/fullHashes:find (JSON or application/x-protobuf; also Chromium's GET ?$req=),\nGET /v4/threatLists;\nwith -mirror, the v5 list and search methods too (Web Risk's under -api webrisk).\nEach flag from -upstream on falls back to $SBSERVER_<FLAG> (SBSERVER_CLIENT_KEYS, ...).\n\nflags:")
		fs.PrintDefaults()
	}
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on: loopback, unless -client-keys is set")
	fs.StringVar(&c.key, "key", "", "API key (default $SAFE_BROWSING_API_KEY)")
	fs.StringVar(&c.mode, "mode", "LocalList", "lookup procedure: LocalList, RealTime or NoStorage")
	fs.StringVar(&c.dir, "dir", "", "directory keeping the lists across restarts (default: memory only)")
	fs.BoolVar(&c.frozen, "frozen", false, "load the lists from -dir and never update them")
	fs.BoolVar(&c.fake, "fake", false, "use a fake server on loopback seeded with test URLs: no key, no network")
	fs.StringVar(&c.api, "api", "SafeBrowsing", "the upstream's API: SafeBrowsing (v5, non-commercial) or WebRisk (Google's Web Risk, for commercial use)")
	fs.StringVar(&c.upstream, "upstream", "", "the server to talk to: Google's ("+lookup.DefaultBaseURL+", or "+lookup.DefaultWebRiskBaseURL+" under -api WebRisk), a fake, or an sbserver -mirror")
	fs.StringVar(&c.keyFile, "key-file", "", "file holding the API key, so that it need not show in ps")
	fs.DurationVar(&c.cacheDuration, "cache-duration", 300*time.Second, "the cacheDuration of urls:search and threatMatches:find replies")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "TLS certificate file (PEM): serve HTTPS, with -tls-key")
	fs.StringVar(&c.tlsKey, "tls-key", "", "TLS private key file (PEM), with -tls-cert")
	fs.StringVar(&c.clientKeys, "client-keys", "", "file of client keys, one a line (# comments): every request but the probes must carry one")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.BoolVar(&c.mirror, "mirror", false, "also serve the list and search methods to other clients (v5: hashList, hashLists:batchGet, hashLists, hashes:search; Web Risk: threatLists:computeDiff, hashes:search), keeping every list")
	fs.IntVar(&c.cacheSize, "cache-size", mirror.DefaultCacheSize, "prefixes the -mirror search cache holds at most, whatever their bytes (a cap on the count beside -cache-bytes)")
	fs.Int64Var(&c.cacheBytes, "cache-bytes", mirror.DefaultCacheBytes, "bytes each search cache holds at most, full hashes counted: the client's, and with -mirror the mirror's")
	fs.IntVar(&c.upstreamSearches, "upstream-searches", lookup.DefaultMaxSearchesInFlight, "hashes:search requests in flight upstream at most, for every endpoint and the -mirror together")
	fs.IntVar(&c.maxSearchesPerMinute, "max-searches-per-minute", 0, "hashes:search requests sent upstream in any minute at most, for every endpoint and the -mirror together; past it a check fails, never safe (0: no cap)")
	fs.StringVar(&c.ohttpRelay, "ohttp-relay", "", "send every upstream hashes:search through this Oblivious HTTP relay to the gateway, never directly")
	fs.StringVar(&c.ohttpKeyURL, "ohttp-key-url", "", "the gateway's key configuration URL, with -ohttp-relay (default Google's; with -fake, the fake's)")
	fs.BoolVar(&c.ohttpPadding, "ohttp-padding", false, "with -ohttp-relay, pad each encapsulated search to 512 B, 1, 2, 4 or 8 KiB, so that the relay cannot tell how many prefixes it holds")
	for _, name := range envFlags {
		if v := getenv(envName(name)); v != "" {
			if err := fs.Set(name, v); err != nil {
				return nil, fmt.Errorf("%w: $%s: %v", errUsage, envName(name), err)
			}
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["key"] {
		c.key = getenv("SAFE_BROWSING_API_KEY") // not the flag's default, which -h shows
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected arguments: %q", errUsage, fs.Args())
	}
	return c, c.check(set, getenv)
}

// check checks the combination of flags and reads the key files. set
// holds the flags given on the command line.
func (c *config) check(set map[string]bool, getenv func(string) string) error {
	var err error
	if c.lookupMode, err = lookup.ParseMode(c.mode); err != nil {
		return fmt.Errorf("%w: -mode: %v", errUsage, err)
	}
	if c.lookupAPI, err = lookup.ParseAPI(c.api); err != nil {
		return fmt.Errorf("%w: -api: %v", errUsage, err)
	}
	if c.lookupAPI == lookup.WebRisk {
		switch {
		case c.lookupMode == lookup.RealTime:
			return fmt.Errorf("%w: -api WebRisk and -mode RealTime: Web Risk has no Global Cache; use LocalList or NoStorage", errUsage)
		case c.ohttpRelay != "":
			return fmt.Errorf("%w: -api WebRisk and -ohttp-relay: Google runs no Oblivious HTTP gateway for Web Risk", errUsage)
		}
	}
	if err := c.level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("%w: -log-level: %v", errUsage, err)
	}
	if c.logFormat != "text" && c.logFormat != "json" {
		return fmt.Errorf("%w: -log-format %q: want text or json", errUsage, c.logFormat)
	}
	if c.fake && (set["upstream"] || getenv(envName("upstream")) != "") {
		return fmt.Errorf("%w: -fake and -upstream: the fake server is the upstream", errUsage)
	}
	if c.frozen && (c.dir == "" || c.lookupMode == lookup.NoStorage) {
		return fmt.Errorf("%w: -frozen needs -dir, and a mode that keeps lists", errUsage)
	}
	if c.mirror && c.lookupMode == lookup.NoStorage {
		return fmt.Errorf("%w: -mirror and -mode NoStorage: a mirror keeps lists to serve", errUsage)
	}
	if c.ohttpKeyURL != "" && c.ohttpRelay == "" {
		return fmt.Errorf("%w: -ohttp-key-url needs -ohttp-relay", errUsage)
	}
	if c.ohttpPadding && c.ohttpRelay == "" {
		return fmt.Errorf("%w: -ohttp-padding needs -ohttp-relay", errUsage)
	}
	if c.cacheSize <= 0 {
		return fmt.Errorf("%w: -cache-size %d: want a positive number of prefixes", errUsage, c.cacheSize)
	}
	if c.cacheBytes <= 0 {
		return fmt.Errorf("%w: -cache-bytes %d: want a positive number of bytes", errUsage, c.cacheBytes)
	}
	if c.upstreamSearches <= 0 {
		return fmt.Errorf("%w: -upstream-searches %d: want a positive number of requests", errUsage, c.upstreamSearches)
	}
	if c.maxSearchesPerMinute < 0 || c.maxSearchesPerMinute > lookup.MaxSearchesPerMinute {
		return fmt.Errorf("%w: -max-searches-per-minute %d: want 0 (no cap) to %d requests", errUsage, c.maxSearchesPerMinute, lookup.MaxSearchesPerMinute)
	}
	if c.cacheDuration <= 0 {
		return fmt.Errorf("%w: -cache-duration %v: want a positive duration", errUsage, c.cacheDuration)
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return fmt.Errorf("%w: -tls-cert and -tls-key go together", errUsage)
	}
	if c.keyFile != "" {
		if set["key"] {
			return fmt.Errorf("%w: -key and -key-file: give one", errUsage)
		}
		keys, err := readKeys(c.keyFile)
		if err != nil {
			return fmt.Errorf("%w: -key-file: %v", errUsage, err)
		}
		if len(keys) != 1 {
			return fmt.Errorf("%w: -key-file %s: want one key, found %d", errUsage, c.keyFile, len(keys))
		}
		c.key = keys[0]
	}
	if c.clientKeys != "" {
		if c.keys, err = readKeys(c.clientKeys); err != nil {
			return fmt.Errorf("%w: -client-keys: %v", errUsage, err)
		}
		if len(c.keys) == 0 {
			return fmt.Errorf("%w: -client-keys %s holds no key", errUsage, c.clientKeys)
		}
		for _, k := range c.keys {
			if c.key != "" && k == c.key {
				return fmt.Errorf("%w: -client-keys %s holds the upstream API key, which no client may use", errUsage, c.clientKeys)
			}
		}
	} else if err := checkLoopback(c.addr); err != nil {
		return fmt.Errorf("%w: -addr: %v; a non-loopback address needs -client-keys", errUsage, err)
	}
	return nil
}

// readKeys reads a key file: one key a line, white space trimmed, blank
// lines and lines starting with '#' ignored.
func readKeys(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxKeyFile {
		return nil, fmt.Errorf("%s: over %d bytes", name, maxKeyFile)
	}
	var keys []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxKeyFile+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		keys = append(keys, line)
	}
	return keys, sc.Err()
}
