// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/minwait"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// Defaults and bounds.
const (
	// DefaultVersions is how many versions of each list are kept for
	// partial updates when Config.Versions is 0, and the least allowed.
	DefaultVersions = 4
	// MaxRequestBytes is the most bytes a request's body, or its $req
	// decoded, may hold: a fetch of every list Chromium asks, or a search
	// of MaxFindPrefixes prefixes in JSON, takes a fraction of it.
	MaxRequestBytes = 64 << 10
	// MaxListUpdateRequests is the most lists one fetch may ask for: the
	// 32 that are served (4 threat types on 8 platforms), and many more
	// that are not, as Chromium asks for.
	MaxListUpdateRequests = 256
	// MaxFindPrefixes is the most distinct prefixes one fullHashes:find
	// may search, what one search of the source takes.
	MaxFindPrefixes = lookup.MaxSearchPrefixes
	// MaxFindReply is the most bytes a fullHashes:find reply may hold; a
	// longer one, which only an upstream that lists thousands of full
	// hashes a prefix can cause, is a 503 that asks for fewer prefixes.
	MaxFindReply = 16 << 20
	// MinWait and MaxWait bound the minimumWaitDuration of update
	// replies; FrozenWait is that of a frozen server. They are the
	// mirror's.
	MinWait    = minwait.Min
	MaxWait    = minwait.Max
	FrozenWait = minwait.Frozen
)

// Config configures a Server. Its zero values mean the defaults.
type Config struct {
	// Versions is how many versions of each list are kept, so that a
	// client at one of them gets a partial update; 0 means
	// DefaultVersions, and less than DefaultVersions is an error. Each
	// holds a copy of the list: 4 bytes a prefix, and for a Web Risk
	// list of mixed lengths 1 byte an entry more.
	Versions int
	// Frozen says that the source's lists are never updated: every
	// update reply carries a minimumWaitDuration of FrozenWait.
	Frozen bool
	// Logger receives a line for each new list version, and at Debug
	// level one for each search that a failed upstream search failed;
	// nil means silent.
	Logger *slog.Logger
}

// A Server serves the Safe Browsing v4 Update API from one
// [lookup.Client], the source: threatListUpdates:fetch from the source's
// lists, fullHashes:find through its searches, and threatLists. It is an
// http.Handler, safe for concurrent use. It checks no key: mount it behind
// the access rules of the server.
type Server struct {
	src   *lookup.Client
	cfg   Config
	log   *slog.Logger
	api   api
	lists [numTypes]*list // by v4 threat type; nil: not served
	// served are the threat types served, in the order of the v4 enum.
	served []v4wire.ThreatType
	status atomic.Pointer[statuses] // the source's Lists, by generation
	stats  counters

	builds  chan struct{} // a slot for each update being built
	now     func() time.Time
	rand    func() float64
	minWait time.Duration // MinWait; less in tests
	// maxFindReply is MaxFindReply; less in tests.
	maxFindReply int
}

// New returns a Server that serves v4 from the lists and searches of
// src, which the caller keeps updated (with [lookup.Client.Run]) and
// closes. Each v4 threat type is served from the source's lists of that
// type (see the package doc); a type of which the source keeps no list is
// not served. New fails for a bad Config, naming the field, and for a
// source that keeps no list (NoStorage).
func New(src *lookup.Client, cfg Config) (*Server, error) {
	if src == nil {
		return nil, errors.New("v4update: New: nil source client")
	}
	if cfg.Versions != 0 && cfg.Versions < DefaultVersions {
		return nil, fmt.Errorf("v4update: Config.Versions %d: at least %d", cfg.Versions, DefaultVersions)
	}
	if cfg.Versions == 0 {
		cfg.Versions = DefaultVersions
	}
	kept := src.Lists()
	if len(kept) == 0 {
		return nil, errors.New("v4update: New: the source keeps no lists (NoStorage)")
	}
	s := &Server{src: src, cfg: cfg, log: cfg.Logger, api: apiOf(src), now: time.Now, rand: rand.Float64, minWait: MinWait, maxFindReply: MaxFindReply}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	for _, m := range s.api.mapping {
		var idx []int
		var names []string
		for i, st := range kept {
			for _, name := range m.lists {
				if st.Name == name {
					idx, names = append(idx, i), append(names, name)
				}
			}
		}
		if len(idx) > 0 {
			s.lists[m.t] = newList(m.t, names, idx)
			s.served = append(s.served, m.t)
		}
	}
	s.builds = make(chan struct{}, maxBuilds)
	return s, nil
}

// Stats are a Server's counters since New, as [Server.Stats] reports
// them. Each only grows, but ListCacheBytes and VersionBytes.
type Stats struct {
	// Requests counts the requests served, by method:
	// "threatListUpdates:fetch", "fullHashes:find" and "threatLists";
	// whatever their answer.
	Requests map[string]uint64
	// BytesServed counts the bytes of the reply bodies.
	BytesServed uint64
	// FullUpdates and PartialUpdates count the list updates served of
	// the lists served, chunks included; Unserved counts the empty full
	// updates of lists asked for that are not served.
	FullUpdates, PartialUpdates, Unserved uint64
	// Builds counts the updates built and encoded: each once, in binary
	// and again in JSON when first asked so, for every request that asks
	// for it while it is cached or being built.
	Builds uint64
	// SearchedPrefixes counts the prefixes fullHashes:find asked the
	// source about; the source's [lookup.Stats] tells how many of them
	// its cache answered, and how many upstream searches they made.
	SearchedPrefixes uint64
	// ListCacheBytes is what the lists' caches of encoded updates and
	// chunk states hold now, in bytes, as they count it: within four
	// times the bytes of each list's current version, plus 64 KiB.
	// VersionBytes is what the versions kept for partial updates hold:
	// at most Config.Versions copies of each list.
	ListCacheBytes, VersionBytes int64
}

// counters are a Server's Stats, each updated atomically.
type counters struct {
	requests                       [numMethods]atomic.Uint64
	bytes, full, partial, unserved atomic.Uint64
	searched, builds               atomic.Uint64
}

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	st := Stats{Requests: make(map[string]uint64, numMethods)}
	for i, name := range methodNames {
		st.Requests[name] = s.stats.requests[i].Load()
	}
	st.BytesServed = s.stats.bytes.Load()
	st.FullUpdates, st.PartialUpdates = s.stats.full.Load(), s.stats.partial.Load()
	st.Unserved, st.SearchedPrefixes = s.stats.unserved.Load(), s.stats.searched.Load()
	st.Builds = s.stats.builds.Load()
	for _, l := range s.lists {
		if l != nil {
			st.ListCacheBytes += l.cache.Bytes()
			st.VersionBytes += l.versionBytes()
		}
	}
	return st
}

// The methods served, as Stats names them.
const (
	methodFetch = iota
	methodFind
	methodLists
	numMethods
)

var methodNames = [numMethods]string{"threatListUpdates:fetch", "fullHashes:find", "threatLists"}

// paths are the paths of the methods.
var paths = [numMethods]string{"/v4/threatListUpdates:fetch", "/v4/fullHashes:find", "/v4/threatLists"}

// Methods returns the names of the methods a Server serves, as
// Stats.Requests names them: threatListUpdates:fetch, fullHashes:find and
// threatLists, each at /v4/ and its name.
func Methods() []string { return methodNames[:] }

// route returns the method of a request path, -1 for one not served.
func route(path string) int {
	for i, p := range paths {
		if path == p {
			return i
		}
	}
	return -1
}

// Handles reports whether s serves the path: a server mounts it on these
// paths alone.
func Handles(path string) bool { return route(path) >= 0 }

// An apiError is a reply other than 200, in Google's error shape.
type apiError struct {
	status     int
	msg        string
	retryAfter time.Duration // > 0: a Retry-After header
}

func (e *apiError) Error() string { return e.msg }

func invalid(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, msg: "v4update: " + fmt.Sprintf(format, args...)}
}

// ServeHTTP serves POST /v4/threatListUpdates:fetch, POST
// /v4/fullHashes:find (each also as Chromium's GET with $req) and GET
// /v4/threatLists, in JSON or binary protobuf, with errors in Google's
// JSON shape. It checks no key: mount it behind the access rules of the
// server.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := route(r.URL.Path)
	if method < 0 {
		s.fail(w, &apiError{status: http.StatusNotFound, msg: fmt.Sprintf("v4update: no method at %s", inputerr.Quote(r.URL.Path))})
		return
	}
	s.stats.requests[method].Add(1)
	req, aerr := parseRequest(method, r)
	if aerr != nil {
		if aerr.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", allow[method])
		}
		s.fail(w, aerr)
		return
	}
	var body [][]byte
	switch method { // each returns a *apiError, nil or not
	case methodFetch:
		body, aerr = s.serveFetch(req)
	case methodFind:
		body, aerr = s.serveFind(r.Context(), req)
	default:
		body, aerr = s.serveLists(req)
	}
	if aerr != nil {
		s.fail(w, aerr)
		return
	}
	n := 0
	for _, b := range body {
		n += len(b)
	}
	h := w.Header()
	if req.proto {
		h.Set("Content-Type", v4wire.ReqContentType)
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
	s.stats.bytes.Add(uint64(n))
}

// fail sends e in Google's error shape,
// {"error": {"code": 503, "message": "...", "status": "UNAVAILABLE"}},
// with Retry-After when the source backs off.
func (s *Server) fail(w http.ResponseWriter, e *apiError) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.retryAfter.Seconds()))))
	}
	status := v5http.StatusName(e.status)
	if e.status == http.StatusRequestEntityTooLarge || e.status == http.StatusUnsupportedMediaType {
		status = "INVALID_ARGUMENT" // google.rpc.Code has none of its own
	}
	n := v5http.WriteError(w, e.status, status, e.msg)
	s.stats.bytes.Add(uint64(n))
}
