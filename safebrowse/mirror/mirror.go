// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/minwait"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// Defaults and bounds.
const (
	// DefaultCacheSize is the most prefixes the search cache holds when
	// Config.CacheSize is 0: 64 MiB of entries with no full hash (see
	// [BytesPerCacheEntry]), about what a large fleet asks in a day.
	DefaultCacheSize = 1 << 20
	// DefaultCacheBytes is the most bytes the search cache holds when
	// Config.CacheBytes is 0: what DefaultCacheSize prefixes with no full
	// hash take.
	DefaultCacheBytes = 64 << 20
	// BytesPerCacheEntry bounds what one cache entry of a prefix with no
	// full hash costs, as measured (TestCacheMemory: 35 to 53 bytes,
	// depending on how full the map is). A prefix with full hashes costs
	// 48 bytes more, and its full hashes as a reply carries them: about
	// 40 bytes each in protobuf, and once a JSON client has asked for
	// them, about 110 more in JSON (see the package doc's "Searches").
	BytesPerCacheEntry = 64
	// DefaultVersions is how many versions of each list are kept for
	// partial updates when Config.Versions is 0, and the least allowed.
	DefaultVersions = 4
	// MaxSearchPrefixes is the most prefixes one hashes:search takes, as
	// Google's API allows.
	MaxSearchPrefixes = lookup.MaxSearchPrefixes
	// MinWait and MaxWait bound the minimumWaitDuration of list replies;
	// FrozenWait is that of a frozen mirror.
	MinWait    = minwait.Min
	MaxWait    = minwait.Max
	FrozenWait = minwait.Frozen
)

// Config configures a Mirror. Its zero values mean the defaults.
type Config struct {
	// CacheSize caps the number of prefixes the search cache holds,
	// whatever their bytes; 0 means DefaultCacheSize. CacheBytes caps
	// their bytes beside.
	CacheSize int
	// CacheBytes caps the bytes the search cache holds: each prefix
	// costs BytesPerCacheEntry, and one with full hashes costs its full
	// hashes too, as replies carry them; 0 means DefaultCacheBytes. The
	// upstream searches in flight are bounded, and coalesced, by the
	// source (lookup.Config.MaxSearchesInFlight), for the mirror's
	// clients and the source's own lookups together.
	CacheBytes int64
	// Versions is how many versions of each list are kept, so that a
	// client at one of them gets a partial update; 0 means
	// DefaultVersions, and less than DefaultVersions is an error. Each
	// holds a copy of the list (4 bytes a prefix).
	Versions int
	// Frozen says that the source's lists are never updated: every list
	// reply carries a minimumWaitDuration of FrozenWait.
	Frozen bool
	// Lists is the metadata that ListHashLists serves, such as the
	// source's [lookup.Client.HashLists] gave; lists the source does not
	// keep are left out. nil means metadata made from the names of the
	// lists the source keeps.
	Lists []lookup.ListInfo
	// Logger receives a line for each new list version, and at Debug
	// level one for each client search that a failed upstream search
	// failed (the source logs each failed request, with its own
	// lookup.Config.Logger); nil means silent.
	Logger *slog.Logger
}

// A Mirror serves the v5 API's list and search methods to other clients
// from one [lookup.Client], the source. It is an http.Handler, safe for
// concurrent use.
type Mirror struct {
	src    *lookup.Client
	cfg    Config
	log    *slog.Logger
	lists  map[string]*list // by name
	order  []string         // the source's lists, in its order
	info   []lookup.ListInfo
	search *searcher
	stats  counters
	status atomic.Pointer[statuses] // the source's Lists, by generation

	builds  chan struct{} // a slot for each list reply being built
	onBuild func(max int) // nil, or called as a list reply's build starts (tests)
	now     func() time.Time
	rand    func() float64
	minWait time.Duration // MinWait; less in tests
}

// New returns a Mirror serving the lists and searches of src, which the
// caller keeps updated (with [lookup.Client.Run]) and closes. src should
// keep every list, as [lookup.NewMirrorSource] makes it. New fails for a
// bad Config, naming the field.
func New(src *lookup.Client, cfg Config) (*Mirror, error) {
	if src == nil {
		return nil, errors.New("mirror: New: nil source client")
	}
	cfg, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	m := &Mirror{src: src, cfg: cfg, log: cfg.Logger, lists: make(map[string]*list), now: time.Now, rand: rand.Float64, minWait: MinWait}
	m.builds = make(chan struct{}, maxBuilds)
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	for i, st := range src.Lists() {
		snap, _ := src.ListSnapshot(st.Name)
		m.lists[st.Name] = newList(st.Name, snap.Width, i)
		m.order = append(m.order, st.Name)
	}
	if len(m.order) == 0 {
		return nil, errors.New("mirror: New: the source keeps no lists (NoStorage)")
	}
	m.info = listInfo(m.order, m.lists, cfg.Lists)
	m.search = newSearcher(m, cfg.CacheSize, cfg.CacheBytes)
	return m, nil
}

// Stats are a Mirror's counters since New, as [Mirror.Stats] reports them.
// Each counter only grows, but CacheEntries and CacheBytes.
type Stats struct {
	// Requests counts the requests served, by method: "hashes:search",
	// "hashList", "hashLists:batchGet" and "hashLists"; whatever their
	// answer.
	Requests map[string]uint64
	// BytesServed counts the bytes of the reply bodies.
	BytesServed uint64
	// UpstreamSearches counts the client searches that made upstream
	// searches of their own, through the source: each one request,
	// unless it asked more new prefixes than one request carries. The
	// source's [lookup.Stats].Searches counts every request it sent,
	// the mirror's and its own lookups'.
	UpstreamSearches uint64
	// UpstreamSaved counts the client requests answered with no upstream
	// request of their own: every list request (the source fetches lists
	// on its own schedule, once for every client) and every search
	// answered from the caches or by searches already in flight.
	UpstreamSaved uint64
	// CacheHits counts the prefixes answered by a cache, the mirror's or
	// its source's; Coalesced those that joined an upstream search
	// already in flight, whoever made it (a client of the mirror, or a
	// lookup of the source's).
	CacheHits, Coalesced uint64
	// CacheEntries is the number of prefixes cached now, and CacheBytes
	// their bytes, as Config.CacheBytes counts them.
	CacheEntries int
	CacheBytes   int64
	// ListCacheBytes is what the lists' caches of encoded replies and
	// chunk states hold now, in bytes, as they count it: within three
	// times the bytes of each list's current version, plus 64 KiB.
	ListCacheBytes int64
}

// counters are a Mirror's Stats, each updated atomically.
type counters struct {
	requests                             [numMethods]atomic.Uint64
	bytes, upstream, saved, hits, joined atomic.Uint64
}

// Stats returns the mirror's counters.
func (m *Mirror) Stats() Stats {
	s := Stats{Requests: make(map[string]uint64, numMethods)}
	for i := range methodNames {
		s.Requests[methodNames[i]] = m.stats.requests[i].Load()
	}
	s.BytesServed = m.stats.bytes.Load()
	s.UpstreamSearches = m.stats.upstream.Load()
	s.UpstreamSaved = m.stats.saved.Load()
	s.CacheHits, s.Coalesced = m.stats.hits.Load(), m.stats.joined.Load()
	s.CacheEntries, s.CacheBytes = m.search.held()
	for _, l := range m.lists {
		s.ListCacheBytes += l.cache.Bytes()
	}
	return s
}

// The methods served, as Stats names them.
const (
	methodSearch = iota
	methodList
	methodBatch
	methodLists
	numMethods
)

var methodNames = [numMethods]string{"hashes:search", "hashList", "hashLists:batchGet", "hashLists"}

// Methods returns the names of the methods a Mirror serves, as
// Stats.Requests names them: hashes:search, hashList, hashLists:batchGet
// and hashLists.
func Methods() []string { return methodNames[:] }

// route returns the method of a request path and, for hashList, the
// list's name; -1 for a path the mirror does not serve.
func route(path string) (int, string) {
	switch {
	case path == "/v5/hashes:search":
		return methodSearch, ""
	case path == "/v5/hashLists:batchGet":
		return methodBatch, ""
	case path == "/v5/hashLists":
		return methodLists, ""
	case strings.HasPrefix(path, "/v5/hashList/"):
		return methodList, path[len("/v5/hashList/"):]
	}
	return -1, ""
}

// Handles reports whether m serves the path: sbserver mounts the mirror
// on these paths alone.
func Handles(path string) bool {
	method, _ := route(path)
	return method >= 0
}

// params are the query parameters of each method, under the lowerCamel
// names the API documents and the snake_case names Google's APIs also
// accept; every method also takes the common parameters of v5http, of
// which the key is checked by whoever mounts the mirror, and all but alt
// and $ct are ignored. hashes:search also takes Chromium's $req.
var params = [numMethods]map[string]string{
	methodSearch: {"hashPrefixes": "hashPrefixes", "hash_prefixes": "hashPrefixes", "$req": "$req"},
	methodList:   v5http.HashListParams,
	methodBatch:  v5http.BatchGetParams,
	methodLists:  v5http.HashListsParams,
}

// An apiError is a reply other than 200, in Google's error shape.
type apiError struct {
	status     int
	msg        string
	retryAfter time.Duration // > 0: a Retry-After header
}

func (e *apiError) Error() string { return e.msg }

func invalid(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, msg: "mirror: " + fmt.Sprintf(format, args...)}
}

// A request is a parsed request: its method, its parameters under their
// lowerCamel names, and the encoding asked for.
type request struct {
	method int
	name   string // of hashList
	p      url.Values
	proto  bool
}

// ServeHTTP serves GET /v5/hashList/{name}, /v5/hashLists:batchGet,
// /v5/hashLists and /v5/hashes:search, in JSON or binary protobuf, with
// errors in Google's JSON shape. It checks no key: mount it behind the
// access rules of the server.
func (m *Mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method, name := route(r.URL.Path)
	if method < 0 {
		m.fail(w, &apiError{status: http.StatusNotFound, msg: fmt.Sprintf("mirror: no method at %s", inputerr.Quote(r.URL.Path))})
		return
	}
	m.stats.requests[method].Add(1)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		m.fail(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("mirror: method %s not allowed; use GET", inputerr.Quote(r.Method))})
		return
	}
	req, err := parseRequest(method, name, r.URL.RawQuery)
	if err != nil {
		m.fail(w, err)
		return
	}
	var body [][]byte
	switch method { // each returns a *apiError, nil or not
	case methodSearch:
		body, err = m.search.serve(r, req)
	case methodList, methodBatch:
		body, err = m.serveLists(req)
	default:
		body, err = m.serveInfo(req)
	}
	if err != nil {
		m.fail(w, err)
		return
	}
	n := 0
	for _, b := range body {
		n += len(b)
	}
	h := w.Header()
	if req.proto {
		h.Set("Content-Type", "application/x-protobuf")
	} else {
		h.Set("Content-Type", "application/json; charset=UTF-8")
	}
	h.Set("Content-Length", strconv.Itoa(n))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	for _, b := range body {
		w.Write(b)
	}
	m.stats.bytes.Add(uint64(n))
}

// parseRequest checks the query's parameters and the encoding asked:
// alt=proto or $ct=application/x-protobuf for binary protobuf; alt=json,
// $ct=application/json or neither for JSON, as Google's servers default.
func parseRequest(method int, name, rawQuery string) (*request, *apiError) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, invalid("malformed query: %s", inputerr.Quote(err.Error()))
	}
	p, err := v5http.Params(q, params[method])
	if err != nil {
		return nil, invalid("%v", err)
	}
	req := &request{method: method, name: name, p: p}
	alt, ct := req.p["alt"], req.p["$ct"]
	if len(alt) > 1 || len(ct) > 1 {
		return nil, invalid("alt or $ct given twice")
	}
	switch {
	case len(alt) == 1 && alt[0] == "proto", len(ct) == 1 && ct[0] == "application/x-protobuf":
		req.proto = true
	}
	if len(alt) == 1 && alt[0] != "proto" && alt[0] != "json" {
		return nil, invalid("alt=%s is not served; use alt=json or alt=proto", inputerr.Quote(alt[0]))
	}
	if len(ct) == 1 && ct[0] != "application/x-protobuf" && ct[0] != "application/json" {
		return nil, invalid("$ct=%s is not served; use application/x-protobuf or application/json", inputerr.Quote(ct[0]))
	}
	if len(alt) == 1 && len(ct) == 1 && (alt[0] == "proto") != (ct[0] == "application/x-protobuf") {
		return nil, invalid("alt=%s and $ct=%s disagree", alt[0], ct[0])
	}
	return req, nil
}

// single returns the one value of parameter name, as [v5http.Single].
func (r *request) single(name string) (string, *apiError) {
	v, err := v5http.Single(r.p, name)
	if err != nil {
		return "", invalid("%v", err)
	}
	return v, nil
}

// int32Param returns the value of a non-negative int32 parameter, as
// [v5http.Int32].
func (r *request) int32Param(name string) (int, *apiError) {
	n, err := v5http.Int32(r.p, name)
	if err != nil {
		return 0, invalid("%v", err)
	}
	return n, nil
}

// fail sends err in Google's error shape,
// {"error": {"code": 503, "message": "...", "status": "UNAVAILABLE"}},
// with Retry-After when the mirror is backing off.
func (m *Mirror) fail(w http.ResponseWriter, e *apiError) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.retryAfter.Seconds()))))
	}
	n := v5http.WriteError(w, e.status, v5http.StatusName(e.status), e.msg)
	m.stats.bytes.Add(uint64(n))
}
