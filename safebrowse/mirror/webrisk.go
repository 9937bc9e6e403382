// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// A WebRisk serves the Web Risk API's list and search methods,
// threatLists.computeDiff and hashes.search, to other clients from one
// [lookup.Client] of Web Risk, the source, as a [Mirror] serves v5's (see
// the package doc, "Web Risk"). It is an http.Handler, safe for
// concurrent use.
type WebRisk struct {
	src    *lookup.Client
	cfg    Config
	log    *slog.Logger
	lists  map[string]*wrList // by threat type
	search *wrSearcher
	stats  wrCounters
	status atomic.Pointer[statuses]

	builds  chan struct{} // a slot for each reply being built
	now     func() time.Time
	rand    func() float64
	minWait time.Duration
}

// NewWebRisk returns a WebRisk serving the lists and searches of src, a
// client of the Web Risk API (lookup.Config.API WebRisk) that the caller
// keeps updated (with [lookup.Client.Run]) and closes. src should keep
// all four of Web Risk's lists, as [lookup.NewMirrorSource] makes it
// under WebRisk. cfg is read as by [New], but for Lists, which Web Risk
// has no method to serve: it must be nil. NewWebRisk fails for a bad
// Config, naming the field, and for a source of another API or that
// keeps no list.
func NewWebRisk(src *lookup.Client, cfg Config) (*WebRisk, error) {
	if src == nil {
		return nil, errors.New("mirror: NewWebRisk: nil source client")
	}
	if cfg.Lists != nil {
		return nil, errors.New("mirror: NewWebRisk: Config.Lists must be nil: Web Risk's lists are its threat types")
	}
	cfg, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	w := &WebRisk{src: src, cfg: cfg, log: cfg.Logger, lists: make(map[string]*wrList), now: time.Now, rand: rand.Float64, minWait: MinWait}
	w.builds = make(chan struct{}, maxBuilds)
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if src.API() != lookup.WebRisk {
		return nil, errors.New("mirror: NewWebRisk: the source is no client of Web Risk: its Config.API must be WebRisk")
	}
	for i, st := range src.Lists() {
		w.lists[st.Name] = newWRList(st.Name, i)
	}
	if len(w.lists) == 0 {
		return nil, errors.New("mirror: NewWebRisk: the source keeps no lists (NoStorage)")
	}
	w.search = newWRSearcher(w, cfg.CacheSize, cfg.CacheBytes)
	return w, nil
}

// checkConfig checks cfg and sets its defaults, as [New] reads it.
func checkConfig(cfg Config) (Config, error) {
	switch {
	case cfg.CacheSize < 0:
		return cfg, fmt.Errorf("mirror: Config.CacheSize %d is negative", cfg.CacheSize)
	case cfg.CacheBytes < 0:
		return cfg, fmt.Errorf("mirror: Config.CacheBytes %d is negative", cfg.CacheBytes)
	case cfg.Versions != 0 && cfg.Versions < DefaultVersions:
		return cfg, fmt.Errorf("mirror: Config.Versions %d: at least %d", cfg.Versions, DefaultVersions)
	}
	if cfg.CacheSize == 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	if cfg.CacheBytes == 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	if cfg.Versions == 0 {
		cfg.Versions = DefaultVersions
	}
	return cfg, nil
}

// The methods a WebRisk serves, as Stats names them, and their paths.
const (
	wrMethodDiff = iota
	wrMethodSearch
	wrNumMethods
)

var (
	wrMethodNames = [wrNumMethods]string{"threatLists:computeDiff", "hashes:search"}
	wrPaths       = [wrNumMethods]string{"/v1/threatLists:computeDiff", "/v1/hashes:search"}
)

// WebRiskMethods returns the names of the methods a WebRisk serves, as
// its Stats.Requests names them: threatLists:computeDiff and
// hashes:search. Each is served at /v1/{name}.
func WebRiskMethods() []string { return wrMethodNames[:] }

// wrParams are the query parameters of each method, under their JSON and
// their proto names, each mapped to itself: v4wire's parsers read both
// names, and refuse a field given under both. Every method also takes
// v5http's common parameters.
var wrParams = [wrNumMethods]map[string]string{
	wrMethodDiff: identity("threatType", "threat_type", "versionToken", "version_token",
		"constraints.maxDiffEntries", "constraints.max_diff_entries",
		"constraints.maxDatabaseEntries", "constraints.max_database_entries",
		"constraints.supportedCompressions", "constraints.supported_compressions"),
	wrMethodSearch: identity("hashPrefix", "hash_prefix", "threatTypes", "threat_types"),
}

func identity(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = n
	}
	return m
}

// wrCounters are a WebRisk's Stats, each updated atomically.
type wrCounters struct {
	requests                             [wrNumMethods]atomic.Uint64
	bytes, upstream, saved, hits, joined atomic.Uint64
}

// Stats returns the WebRisk's counters, as [Mirror.Stats] does, its
// Requests by the names [WebRiskMethods] gives.
func (w *WebRisk) Stats() Stats {
	s := Stats{Requests: make(map[string]uint64, wrNumMethods)}
	for i := range wrMethodNames {
		s.Requests[wrMethodNames[i]] = w.stats.requests[i].Load()
	}
	s.BytesServed = w.stats.bytes.Load()
	s.UpstreamSearches = w.stats.upstream.Load()
	s.UpstreamSaved = w.stats.saved.Load()
	s.CacheHits, s.Coalesced = w.stats.hits.Load(), w.stats.joined.Load()
	s.CacheEntries, s.CacheBytes = w.search.held()
	for _, l := range w.lists {
		s.ListCacheBytes += l.cache.Bytes()
	}
	return s
}

// statuses returns the source's Lists, as [Mirror.statuses] does.
func (w *WebRisk) statuses() []lookup.ListStatus { return sourceStatuses(w.src, &w.status) }

// ServeHTTP serves GET /v1/threatLists:computeDiff and /v1/hashes:search,
// in Google's JSON mapping (no alt, or alt=json) or in binary protobuf
// (alt=proto), with errors in Google's JSON shape. It checks no key:
// mount it behind the access rules of the server.
func (w *WebRisk) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	method := -1
	for i, p := range wrPaths {
		if r.URL.Path == p {
			method = i
		}
	}
	if method < 0 {
		w.fail(rw, &apiError{status: http.StatusNotFound, msg: fmt.Sprintf("mirror: no method at %s", inputerr.Quote(r.URL.Path))})
		return
	}
	w.stats.requests[method].Add(1)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rw.Header().Set("Allow", "GET, HEAD")
		w.fail(rw, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("mirror: method %s not allowed; use GET", inputerr.Quote(r.Method))})
		return
	}
	req, aerr := parseWebRiskRequest(wrParams[method], r.URL.RawQuery)
	if aerr != nil {
		w.fail(rw, aerr)
		return
	}
	var body [][]byte
	if method == wrMethodDiff {
		body, aerr = w.serveDiff(req)
	} else {
		body, aerr = w.search.serve(r, req)
	}
	if aerr != nil {
		w.fail(rw, aerr)
		return
	}
	w.stats.bytes.Add(uint64(writeBody(rw, r, body, req.proto)))
}

// parseWebRiskRequest checks a query's parameters, those of the method
// (params) and v5http's common ones, and the encoding asked: alt=proto
// for binary protobuf; alt=json or none for JSON, as Google's servers
// default.
func parseWebRiskRequest(params map[string]string, rawQuery string) (*request, *apiError) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, invalid("malformed query: %s", inputerr.Quote(err.Error()))
	}
	p, err := v5http.Params(q, params)
	if err != nil {
		return nil, invalid("%v", err)
	}
	req := &request{p: p}
	switch alt := p["alt"]; {
	case len(alt) > 1:
		return nil, invalid("alt given twice")
	case len(alt) == 1 && alt[0] == "proto":
		req.proto = true
	case len(alt) == 1 && alt[0] != "json":
		return nil, invalid("alt=%s is not served; use alt=json or alt=proto", inputerr.Quote(alt[0]))
	}
	if len(p["$ct"]) > 0 {
		return nil, invalid("$ct is not served by Web Risk's methods; use alt")
	}
	return req, nil
}

// writeBody writes a 200 reply of body, its pieces in turn, as protobuf
// or JSON, and returns its length; a HEAD request gets the headers alone.
func writeBody(w http.ResponseWriter, r *http.Request, body [][]byte, proto bool) int {
	n := 0
	for _, b := range body {
		n += len(b)
	}
	h := w.Header()
	if proto {
		h.Set("Content-Type", "application/x-protobuf")
	} else {
		h.Set("Content-Type", "application/json; charset=UTF-8")
	}
	h.Set("Content-Length", strconv.Itoa(n))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return 0
	}
	for _, b := range body {
		w.Write(b)
	}
	return n
}

// fail sends err in Google's error shape, with Retry-After while the
// source backs off.
func (w *WebRisk) fail(rw http.ResponseWriter, e *apiError) {
	w.stats.bytes.Add(uint64(writeAPIError(rw, e)))
}

// writeAPIError writes e in Google's error shape and returns the length
// of the body.
func writeAPIError(w http.ResponseWriter, e *apiError) int {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.retryAfter+time.Second-1)/time.Second)))
	}
	return v5http.WriteError(w, e.status, v5http.StatusName(e.status), e.msg)
}
