// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Sbserver is a Safe Browsing v5 server: an HTTP server in front of one
// client of package safebrowse/lookup, so that programs in any language
// share one set of lists, one cache and one back-off, and only 4-byte hash
// prefixes of the URLs they check ever reach Google. It serves Google's own
// v5 urls.search and the v4 Lookup API's threatMatches.find, so that
// Google's generated client libraries, and v4 clients, work with only their
// root URL changed. With -api webrisk it does the same from Google's Web
// Risk API, the service for commercial use, and serves Web Risk's own
// uris.search too (see "Web Risk" below). From the lists it keeps, it
// serves the v4 Update API too, so that v4 clients that keep a local
// database (github.com/google/safebrowsing, Chromium-family browsers) keep
// working after Google ends v4 (see "v4 Update API" below).
//
// Usage:
//
//	sbserver [-addr 127.0.0.1:8080] [-key key | -key-file file] [-api SafeBrowsing|WebRisk] [-mode LocalList|RealTime|NoStorage]
//	         [-dir dir] [-frozen] [-fake | -upstream URL] [-client-keys file] [-cache-duration 300s]
//	         [-tls-cert file -tls-key file] [-log-format text|json] [-log-level info]
//	         [-mirror [-cache-size 1048576]] [-ohttp-relay URL [-ohttp-key-url URL] [-ohttp-padding]]
//	         [-cache-bytes 67108864] [-upstream-searches 8] [-max-searches-per-minute 0]
//
// The -key flag gives the API key of a Google Cloud project with the Safe
// Browsing API enabled (the Web Risk API under -api webrisk); it defaults
// to $SAFE_BROWSING_API_KEY. -key-file reads it from a file, so that it
// does not show in ps. The key is never shown in a reply, a log line or a
// metric, and never accepted from a client. The -api flag chooses the
// upstream's API: SafeBrowsing (v5, the default) or WebRisk, in any case
// ("webrisk"); $SBSERVER_API. The -mode flag chooses the lookup procedure
// (LocalList by default); -dir keeps the lists in a directory across
// restarts. -upstream names the server (Google's by default,
// https://safebrowsing.googleapis.com, or https://webrisk.googleapis.com
// under -api webrisk; a fake, or an sbserver -mirror of the same API
// whose -client-keys holds this server's -key).
//
// The -frozen flag loads the lists from -dir and never updates them: the
// database stays as it was, for reproducible answers. Searches still go to
// the server for URLs the frozen lists hold. Every list must be in -dir.
//
// The -fake flag starts a fake v5 server on loopback (package
// safebrowse/sbtest), so that sbserver runs with no key and no network. It
// is seeded with sbtest.TestURLs, as sblookup -fake is: Google's test pages
// for each threat list, and www.google.com/ on the Global Cache. Like
// Google's v5 server, the fake answers protobuf only; sbserver itself
// answers JSON to its own clients. -fake -api webrisk uses the fake's Web
// Risk API, which serves the same test pages from Web Risk's lists
// (MALWARE, SOCIAL_ENGINEERING, UNWANTED_SOFTWARE; extended coverage
// empty). -fake and -upstream together are a usage error.
//
// Each flag from -upstream on in the usage line falls back to the variable
// SBSERVER_<FLAG> in upper snake case: SBSERVER_UPSTREAM, SBSERVER_KEY_FILE,
// SBSERVER_CACHE_DURATION, SBSERVER_TLS_CERT, SBSERVER_TLS_KEY,
// SBSERVER_CLIENT_KEYS, SBSERVER_LOG_FORMAT, SBSERVER_LOG_LEVEL, and the
// others named below; -api falls back to SBSERVER_API.
//
// # Searches upstream
//
// Every endpoint that needs the upstream's full hashes (urls:search,
// threatMatches:find, urls:lookup, and the mirror's hashes:search) goes
// through the client's one search path (package safebrowse/lookup,
// "Searches in flight"): concurrent requests that need one uncached hash
// prefix share one upstream hashes:search, so that 64 concurrent
// urls:search for one new URL cost one upstream search, and at most
// -upstream-searches requests (default 8) are in flight upstream at once,
// for every endpoint and the mirror together. A request that gives up
// (its client goes away) ends only its own wait: a search goes on for the
// requests that joined it, and is dropped once none waits on it; a search
// runs at most 30 seconds. The replies are cached by the client: at most
// 65536 hash prefixes and -cache-bytes bytes (default 67108864, 64 MiB),
// full hashes and their details counted, so that an upstream answering
// thousands of full hashes a prefix cannot fill the heap. With -mirror,
// the mirror's own search cache has the same byte budget beside the
// client's: the two together hold at most twice -cache-bytes.
// -max-searches-per-minute caps the upstream hashes:search requests sent
// in any 60 seconds, for every endpoint and the mirror together
// (lookup.Config.MaxSearchesPerMinute; 0, the default, sets no cap): a
// check that needs a search past it fails (503), never "safe". Each is
// billed under Web Risk, where a NoStorage check may send 30.
// -upstream-searches, -cache-bytes and -max-searches-per-minute fall back
// to SBSERVER_UPSTREAM_SEARCHES, SBSERVER_CACHE_BYTES and
// SBSERVER_MAX_SEARCHES_PER_MINUTE. /metrics counts
// sbserver_coalesced_total (hash prefixes that joined a search in flight),
// sbserver_search_waits_total (searches that waited for a slot) and
// sbserver_searches_over_budget_total (searches held back by
// -max-searches-per-minute).
//
// # Mirror
//
// The -mirror flag makes sbserver a v5 mirror (package safebrowse/mirror)
// for a fleet (under -api webrisk, a Web Risk mirror: see "Web Risk"):
// every v5 client whose server can be set, lookup.Config's BaseURL among
// them, points at it, and only the mirror talks to the upstream. It serves GET /v5/hashList/{name}, /v5/hashLists:batchGet,
// /v5/hashLists and /v5/hashes:search (also in Chromium's $req= form),
// in alt=json (the default) or alt=proto ($ct=application/x-protobuf),
// with the same access rules as the other endpoints. Its client keeps
// every list the upstream's hashLists names, gc-32b included, whatever
// -mode says; -mode still chooses how sbserver's own endpoints look URLs
// up, and -mode NoStorage with -mirror is a usage error. List versions
// derive from the lists' contents, so replicas behind a load balancer,
// each with its own -dir, serve the same versions. -mirror -frozen serves
// the lists saved in -dir as they are, with a minimumWaitDuration of
// 24 h. Searches are answered from the mirror's cache where fresh, else
// through the client's searches (above), with concurrent identical
// prefixes asked once. The mirror's cache holds at most -cache-size
// prefixes (default 1048576; a cap on the count) and at most -cache-bytes
// bytes, each prefix counted at 64 bytes and its full hashes as replies
// carry them, encoded once, so that a cached answer is copied into each
// reply, never encoded again. A hashes:search reply is at most 4 MiB
// (lookup.MaxSearchReply, what the mirror's own clients accept): a longer
// one is a 503 that asks for fewer prefixes at once. -mirror and
// -cache-size fall back to SBSERVER_MIRROR and SBSERVER_CACHE_SIZE.
//
// # Web Risk
//
// Google's terms keep the Safe Browsing API to non-commercial use; a
// commercial user must use the Web Risk API (webrisk.googleapis.com/v1),
// billed by the call. -api webrisk makes sbserver a client of Web Risk
// (lookup.Config.API WebRisk): -mode LocalList (the default) keeps
// MALWARE, SOCIAL_ENGINEERING and UNWANTED_SOFTWARE, fetched with
// threatLists:computeDiff, which is free, and confirms a URL whose hash
// prefix they hold with one hashes:search an entry, each billed; -mode
// NoStorage keeps no list and searches every expression of every URL, up
// to 30 billed calls a URL, which -max-searches-per-minute caps. RealTime
// (Web Risk has no Global Cache) and -ohttp-relay (Google runs no Web
// Risk gateway) are usage errors.
//
// urls:search, threatMatches:find and urls:lookup answer from Web Risk's
// lists as they do from v5's. SOCIAL_ENGINEERING_EXTENDED_COVERAGE, a
// list of more false positives that the v5 and v4 enums lack, shows only
// where the endpoint's enum has it: in urls:lookup and /v1/uris:search;
// urls:search and threatMatches:find leave it out.
//
// GET /v1/uris:search?uri=...&threatTypes=... is Web Risk's uris.search,
// a drop-in for programs written against it, answered from the client's
// lists, cache and searches (package safebrowse/mirror, URISearch), so
// that a URL the lists rule out costs no billed call:
//
//	{"threat": {"threatTypes": ["MALWARE"], "expireTime": "2026-01-02T15:04:05Z"}}
//
// the types listed among those asked, whose expireTime is the reply's time
// plus -cache-duration; {} when the URL is on no list asked; a 503
// UNAVAILABLE when it could not be checked (lists not loaded, a failed
// search, the client backing off, the search budget spent), never {}.
// threatTypes is required, as Google requires it: without it, or with a
// type Web Risk lacks, or a uri that is no URL, the reply is a 400
// INVALID_ARGUMENT.
//
// With -mirror, sbserver serves Web Risk's own list and search methods
// to a fleet of Web Risk clients (github.com/google/webrisk, Google's
// generated clients, lookup with Config.API WebRisk) with only their
// server URL changed, at the root path (package safebrowse/mirror,
// WebRisk): GET /v1/threatLists:computeDiff, keeping all four lists,
// extended coverage included, since google/webrisk asks for it by
// default, and GET /v1/hashes:search, in JSON (the default) or alt=proto.
// The version tokens derive from the lists' contents, so replicas agree;
// constraints.maxDiffEntries chunks follow the v5 mirror's fixed sizes
// and byte budget; a hashes:search is answered from the mirror's cache
// where fresh, so that a fleet costs Google at most one billed search a
// distinct prefix while its answer holds. v5's mirror endpoints
// (/v5/hashList/..., /v5/hashLists:batchGet, /v5/hashLists,
// /v5/hashes:search) are not served under -api webrisk: a 404.
//
// On Web Risk's endpoints, errors are in Google's shape, and a refused
// client key's ErrorInfo names the service webrisk.googleapis.com.
//
// # v4 Update API
//
// Whenever sbserver keeps lists (-mode LocalList or RealTime, with or
// without -mirror, under either -api), it serves the Safe Browsing v4
// Update API from them (package safebrowse/v4update), which v4 clients
// that keep a local database use: github.com/google/safebrowsing and the
// libraries built on it, and Chromium-family browsers. They keep working
// after Google ends v4, with only their server URL changed (a browser
// compiles it in), and their key among -client-keys:
//
//   - POST /v4/threatListUpdates:fetch, full and partial updates of the
//     lists, from the lists the client keeps;
//   - POST /v4/fullHashes:find, the full hashes of hash prefixes, through
//     the client's searches (above: cached, coalesced and bounded with
//     every other endpoint's);
//   - GET /v4/threatLists, the lists served.
//
// Bodies and replies are in Google's JSON mapping of the v4 protos, int64
// as strings, or, with Content-Type application/x-protobuf and alt=proto,
// binary protobuf, as google/safebrowsing sends them: these two methods
// alone take a body that is not JSON. They also take Chromium's GET form,
// ?$req=<the binary request in base64url>&$ct=application/x-protobuf,
// with X-HTTP-Method-Override: POST, answered in binary. They take the
// client key as the other endpoints do (key= or X-Goog-Api-Key), behind
// the same access rules (see "Access"), and answer errors in Google's
// shape, with its ErrorInfo for a refused key, naming the Safe Browsing
// service under either -api.
//
// Each v4 threat type is served from the lists of that type: MALWARE from
// mw-4b, SOCIAL_ENGINEERING from se-4b, UNWANTED_SOFTWARE from uws-4b and
// uwsa-4b, POTENTIALLY_HARMFUL_APPLICATION from pha-4b; under -api
// webrisk, MALWARE, SOCIAL_ENGINEERING and UNWANTED_SOFTWARE from Web
// Risk's lists of those names, prefixes longer than 4 bytes included
// (raw), and no POTENTIALLY_HARMFUL_APPLICATION, which Web Risk lacks.
// Every platform type (ANY_PLATFORM, WINDOWS, LINUX, OSX, ANDROID, IOS,
// CHROME, ALL_PLATFORMS) serves the same content, a superset of what v4
// served on any one, which errs on the safe side. A list asked for that
// is not served (another threat type, platform or entry type) gets an
// empty full update, so that a client asking for many lists at once, as
// Chromium does, does not fail whole. Updates are as v4 specifies: RICE
// when the client supports it, else RAW, 4-byte prefixes Rice-coded as
// little-endian integers, a checksum on every list, a partial update from
// any of a list's last 4 versions. A list's client state derives from its
// contents, so that replicas agree and a client may move between them.
// minimumWaitDuration follows the mirror's rule: the next upstream update
// of the lists asked, plus up to 10%, within 60 s and 24 h (24 h under
// -frozen). A fetch before the lists have loaded, or a fullHashes:find
// whose upstream search fails, is a 503, never an empty reply; a
// fullHashes:find reply has a minimumWaitDuration of 0s, and every
// platform asked in its matches.
//
// Limits: a request body, or its $req decoded, holds at most 64 KiB; a
// fetch asks for at most 256 lists; a find holds at most 1000 distinct
// prefixes, and its reply at most 16 MiB (a longer one is a 503).
// constraints.maxUpdateEntries chunks an update in the mirror's fixed
// sizes, the powers of two from 2^10 to 2^20 (1 to 1023 is a 400), and a
// list holding more than constraints.maxDatabaseEntries is a 400 naming
// both sizes. Nothing v4 is held until a v4 client asks; then each list
// keeps its last 4 versions, 4 bytes a prefix
// (sbserver_v4_version_bytes), and a cache of the updates it has encoded
// and the chunk states it has served, within 4 times the bytes of its
// current version plus 64 KiB (sbserver_v4_list_cache_bytes). Under -mode
// NoStorage, which keeps no list, the three paths are a 404.
//
// # Oblivious HTTP
//
// The -ohttp-relay flag sends every upstream hashes:search of the server,
// the mirror's included, through that Oblivious HTTP relay to the
// gateway, never directly (lookup.Config.OHTTP): the relay sees who asks
// but not what, the gateway what is asked but not by whom. -ohttp-key-url
// names the gateway's key configuration (Google's by default; with -fake,
// the fake server's own gateway). List updates still go directly. A search
// that fails on that path fails, with no fallback. -ohttp-padding pads
// each encapsulated search to 512 B, 1, 2, 4 or 8 KiB
// (lookup.OHTTPConfig.Padding), so that the relay cannot tell from its
// length how many prefixes it holds; the reply's length still shows. It is
// off by default: Google's gateway has not been tried with it. The flags
// fall back to SBSERVER_OHTTP_RELAY, SBSERVER_OHTTP_KEY_URL and
// SBSERVER_OHTTP_PADDING. /status shows the key
// held, and /metrics counts sbserver_ohttp_searches_total,
// sbserver_ohttp_key_fetches_total and sbserver_ohttp_key_errors_total.
//
// # Access
//
// The -addr host must be a loopback address unless -client-keys names a
// file of client keys: one a line, white space trimmed, blank lines and
// lines starting with '#' ignored. Every request must then carry one, as
// Google's clients send theirs: the key= parameter, the X-Goog-Api-Key
// header or Authorization: Bearer. A request without one is a 401
// (UNAUTHENTICATED), with a wrong one a 403 (PERMISSION_DENIED); on the
// endpoints in Google's shape, each carries a google.rpc.ErrorInfo in
// "details", as Google's APIs do: reason CREDENTIALS_MISSING for no key,
// API_KEY_INVALID for a wrong one, domain googleapis.com. /healthz
// and /readyz need none. Keys are compared in constant time. Without
// -client-keys, a key= parameter is accepted and ignored.
//
// Browsers are kept out, so that no web page can spend the key's quota,
// push the client into back-off or read verdicts: a request marked
// cross-site (Sec-Fetch-Site cross-site or same-site, or an Origin other
// than the server's own) is a 403; on a loopback address, so is a Host that
// is neither a loopback name nor the listen address (DNS rebinding); and a
// POST body must be application/json, or application/x-protobuf on
// /v4/threatListUpdates:fetch and /v4/fullHashes:find (else a 415), which
// no page can send cross-origin without a preflight.
//
// # Drop-in endpoints
//
// These take Google's JSON mapping and answer errors in Google's shape,
// {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}}.
// The system parameters of Google's APIs (alt=json, $.xgafv, prettyPrint,
// fields, quotaUser, ...) are accepted and ignored; another parameter is a
// 400.
//
// GET /v5/urls:search?urls=...&urls=... is Google's v5 urls.search, at most
// 50 URLs. It answers
//
//	{"threats": [{"url": "...", "threatTypes": ["MALWARE"]}], "cacheDuration": "300s"}
//
// where threats lists only the unsafe URLs, and cacheDuration, the value of
// -cache-duration, is always there: it covers every URL asked.
//
// POST /v4/threatMatches:find is the v4 Lookup API, at most 500
// threatEntries and 1 MiB. It answers
//
//	{"matches": [{"threatType": "MALWARE", "platformType": "ANY_PLATFORM", "threatEntryType": "URL",
//	  "threat": {"url": "..."}, "cacheDuration": "300s"}]}
//
// or {} when nothing matches. Only the threat types asked match, once per
// URL and threat type, with the first platform type asked as platformType.
// v5 lists carry no platform, so every v4 platform type (ANY_PLATFORM,
// ALL_PLATFORMS, WINDOWS, LINUX, OSX, CHROME, ANDROID, IOS) covers every
// threat type: a superset of what v4 answered, which errs on the safe side.
// A threat entry type other than URL, an unknown enum name, or an entry
// without url is a 400.
//
// On both, no URL is ever reported safe unchecked: if any URL could not be
// checked (lists not loaded, a failed search, the client backing off), the
// reply is a 503 UNAVAILABLE, with Retry-After while backing off; a URL
// that cannot be parsed, or is not valid UTF-8, is a 400 INVALID_ARGUMENT
// naming its index. A threat whose every detail is CANARY (Google's "do not
// enforce") is not reported; FRAME_ONLY threats are.
//
// # sbserver's own endpoints
//
// These answer errors as {"error": "..."}.
//
// POST /v5/urls:lookup takes {"urls": ["..."]}, at most 1000 URLs and 1 MiB,
// and answers one verdict per URL, in order:
//
//	{"verdicts": [{"url": "...", "unsafe": true, "threats": [{"threatType": "MALWARE",
//	  "attributes": ["CANARY"], "expression": "evil.example/"}]}]}
//
// A URL that cannot be parsed, or is not valid UTF-8, gets "error" and no
// "unsafe". When the check fails for some URL (the lists are not loaded
// yet, a search failed, or the client is backing off after failed
// searches), the reply is a 503 with "error", and Retry-After while backing
// off; the verdict of each URL that could not be checked carries "error"
// and, unless a threat is already known, no "unsafe": a failure is never
// reported as safe.
//
// GET /status answers the state of each list (name, entries, version,
// loaded, next update, last update and its error) and "ready": a 200 once
// every list is loaded, a 503 before.
//
// GET /healthz is a 200 while the process serves. GET /readyz is a 200
// once the lists are loaded, else a 503 with the cause; it turns 503 as
// soon as shutdown begins, before the requests in flight drain.
//
// GET /metrics serves the Prometheus text format: the client's counters as
// sbserver_<counter>_total (sbserver_lookups_total, sbserver_cache_hits_total,
// ...), sbserver_list_entries{list}, sbserver_list_last_update_timestamp_seconds{list},
// sbserver_list_update_success{list}, sbserver_backoff_until_timestamp_seconds{method},
// sbserver_ready, sbserver_requests_total{endpoint,code} and the
// sbserver_request_duration_seconds{endpoint} histogram, whose endpoint is
// a route name (urls:lookup, urls:search, threatMatches:find, status,
// healthz, readyz, metrics, unless -mode NoStorage threatListUpdates:fetch,
// fullHashes:find and threatLists, with -mirror hashList,
// hashLists:batchGet, hashLists, hashes:search, and under -api webrisk
// uris:search, with -mirror threatLists:computeDiff and hashes:search) or
// other.
// sbserver_upstream_requests_total{method} counts the requests sent
// upstream by method, whatever their answer: hashList,
// hashLists:batchGet, hashLists and hashes:search under v5,
// threatLists:computeDiff (free) and hashes:search (billed by the call)
// under Web Risk, the API's methods shown from 0; other, such as an
// OHTTP key fetch, once counted. With -mirror it also serves
// sbserver_mirror_requests_total{method}, sbserver_mirror_served_bytes_total,
// sbserver_mirror_upstream_requests_saved_total,
// sbserver_mirror_upstream_searches_total, sbserver_mirror_cache_hits_total,
// sbserver_mirror_cache_entries, sbserver_mirror_cache_bytes (the bytes
// of its search cache, as -cache-bytes counts them) and
// sbserver_mirror_list_cache_bytes (the bytes of its lists' encoded
// replies and chunk states, within three times each list's bytes).
// Unless -mode NoStorage, it serves the v4 Update API's counters
// (package safebrowse/v4update, Stats): sbserver_v4_requests_total{method},
// sbserver_v4_bytes_served_total, sbserver_v4_full_updates_total,
// sbserver_v4_partial_updates_total, sbserver_v4_unserved_total (empty
// updates of lists not served), sbserver_v4_builds_total (updates
// encoded, the others answered from the cache),
// sbserver_v4_searched_prefixes_total, and the gauges
// sbserver_v4_list_cache_bytes (its encoded updates and chunk states,
// within four times each v4 list's bytes plus 64 KiB) and
// sbserver_v4_version_bytes (the versions kept for partial updates).
//
// Other methods get a 405 and other paths a 404; a path that names an
// endpoint once cleaned ("/./status") gets a 307 to it. Every reply but
// /metrics and the v4 Update API's binary replies is JSON; error messages
// quote at most 100 bytes of the request.
// SIGINT or SIGTERM shuts the server down gracefully: /readyz turns 503,
// requests in flight finish (10 s at most), then the client closes.
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
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
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
	getenv    func(string) string  // nil: os.Getenv
}

// run is main with its inputs as arguments, for the tests: it serves until
// ctx ends, then shuts down gracefully. h may be nil.
func run(ctx context.Context, args []string, stderr io.Writer, h *hooks) int {
	if h == nil {
		h = &hooks{}
	}
	getenv := h.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c, err := parseFlags(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", strings.TrimPrefix(err.Error(), "usage: "))
		return 2
	}
	upstream := newUpstreamCounter(defaultTransport())
	cfg := lookup.Config{APIKey: c.key, API: c.lookupAPI, Mode: c.lookupMode, Dir: c.dir, BaseURL: c.upstream,
		CacheBytes: c.cacheBytes, MaxSearchesInFlight: c.upstreamSearches, MaxSearchesPerMinute: c.maxSearchesPerMinute,
		HTTPClient: upstreamClient(upstream)}
	if c.fake {
		s := sbtest.NewServer(sbtest.WithTestURLs())
		defer s.Close()
		cfg.APIKey, cfg.BaseURL = s.APIKey, s.URL
		fmt.Fprintln(stderr, "sbserver: using a fake server at", s.URL)
		if h.fake != nil {
			h.fake(s)
		}
		if c.ohttpRelay != "" && c.ohttpKeyURL == "" {
			c.ohttpKeyURL = s.OHTTPKeyURL() // the fake is the gateway too
		}
	}
	if c.ohttpRelay != "" {
		cfg.OHTTP = &lookup.OHTTPConfig{RelayURL: c.ohttpRelay, KeyURL: c.ohttpKeyURL, Padding: c.ohttpPadding}
	}
	if cfg.APIKey == "" {
		fmt.Fprintln(stderr, "sbserver: no API key: give -key or -key-file, or set SAFE_BROWSING_API_KEY (or try -fake)")
		return 2
	}
	var lh slog.Handler = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.level})
	if c.logFormat == "json" {
		lh = slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: c.level})
	}
	log := slog.New(lh)
	cfg.Logger = log
	var client *lookup.Client
	var infos []lookup.ListInfo
	switch {
	case c.mirror && c.lookupAPI == lookup.WebRisk:
		// A Web Risk mirror keeps all four lists, extended coverage
		// included, whatever -mode says.
		client, err = lookup.NewMirrorSource(clientConfig(cfg, c.frozen))
	case c.mirror:
		// A mirror keeps every list the upstream names, gc-32b included,
		// whatever -mode says.
		mcfg := clientConfig(cfg, c.frozen)
		mcfg.Lists, infos = mirrorLists(ctx, mcfg, c.frozen, log)
		client, err = lookup.NewMirrorSource(mcfg)
	default:
		client, err = lookup.New(clientConfig(cfg, c.frozen))
	}
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", err)
		return 2
	}
	defer client.Close()
	o := options{
		API: c.lookupAPI, Mode: c.lookupMode, Frozen: c.frozen, UpstreamKey: cfg.APIKey, ClientKeys: c.keys,
		CacheDuration: c.cacheDuration, Logger: log, OHTTP: cfg.OHTTP != nil, Upstream: upstream,
	}
	mcfg := mirror.Config{CacheSize: c.cacheSize, CacheBytes: c.cacheBytes, Frozen: c.frozen, Logger: log}
	switch {
	case c.mirror && c.lookupAPI == lookup.WebRisk:
		o.WebRisk, err = mirror.NewWebRisk(client, mcfg)
	case c.mirror:
		mcfg.Lists = infos
		o.Mirror, err = mirror.New(client, mcfg)
	}
	if err == nil && c.lookupAPI == lookup.WebRisk {
		o.URIs, err = mirror.NewURISearch(client, mirror.URISearchConfig{CacheDuration: c.cacheDuration})
	}
	if err == nil && c.lookupMode != lookup.NoStorage {
		// The v4 Update API, from the lists the client keeps.
		o.V4, err = v4update.New(client, v4update.Config{Frozen: c.frozen, Logger: log})
	}
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", err)
		return 2
	}
	if c.frozen && !client.IsReady() {
		var missing []string
		for _, l := range client.Lists() {
			if !l.Loaded {
				missing = append(missing, l.Name)
			}
		}
		fmt.Fprintf(stderr, "sbserver: -frozen: %s not in %s: run once without -frozen first\n", strings.Join(missing, ", "), c.dir)
		return 1
	}

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintln(stderr, "sbserver:", err)
		return 1
	}
	srvAddr := ln.Addr().String()
	o.Addr = srvAddr
	s := newServer(client, o)
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !c.frozen {
		go client.Run(runCtx) // ends with runCtx, or with client.Close
	}
	served := make(chan error, 1)
	scheme := "http://"
	if c.tlsCert != "" {
		scheme = "https://"
		go func() { served <- srv.ServeTLS(ln, c.tlsCert, c.tlsKey) }()
	} else {
		go func() { served <- srv.Serve(ln) }()
	}
	log.Info("sbserver listening", "addr", scheme+srvAddr, "api", c.lookupAPI.String(), "mode", c.lookupMode.String(), "frozen", c.frozen, "mirror", c.mirror, "client_keys", len(c.keys))
	if h.listening != nil {
		h.listening(srvAddr)
	}

	select {
	case err := <-served:
		log.Error("sbserver stopped", "err", err)
		return 1
	case <-ctx.Done():
	}
	s.closing.Store(true) // /readyz turns 503 before the drain
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
