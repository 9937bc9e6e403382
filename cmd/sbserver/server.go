// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

// The bounds of a request.
const (
	maxBody       = 1 << 20 // bytes of a POST body
	maxURLs       = 1000    // URLs of one POST /v5/urls:lookup
	maxSearchURLs = 50      // URLs of one GET /v5/urls:search, as Google allows
	maxEntries    = 500     // threatEntries of one POST /v4/threatMatches:find, as v4 allowed
)

// options configure a server.
type options struct {
	Mode          lookup.Mode
	Frozen        bool
	UpstreamKey   string        // masked out of every reply; never accepted from clients
	ClientKeys    []string      // nil: no key needed (loopback only)
	CacheDuration time.Duration // the cacheDuration of the drop-in replies; 0 means 300s
	// Addr is the address listened on. When it is a loopback address (or
	// ""), a request's Host must be a loopback name or Addr (no DNS
	// rebinding).
	Addr   string
	Logger *slog.Logger // nil: discard
	// API is the upstream's: under WebRisk, /v1/uris:search is served,
	// and Web Risk's ErrorInfo on its routes.
	API lookup.API
	// Mirror, when not nil, serves the v5 list and search methods
	// (sbserver -mirror).
	Mirror *mirror.Mirror
	// WebRisk, when not nil, serves Web Risk's list and search methods
	// (sbserver -api webrisk -mirror).
	WebRisk *mirror.WebRisk
	// URIs, when not nil, serves Web Risk's uris:search (sbserver -api
	// webrisk).
	URIs *mirror.URISearch
	// V4, when not nil, serves the v4 Update API (sbserver in a mode
	// that keeps lists).
	V4 *v4update.Server
	// Upstream, when not nil, counts the requests sent upstream, for
	// /metrics.
	Upstream *upstreamCounter
	// OHTTP says the client sends its searches through an Oblivious HTTP
	// relay (sbserver -ohttp-relay): /status and /metrics report its key.
	OHTTP bool
}

// A server answers sbserver's endpoints from one lookup.Client. It is an
// http.Handler that a test can mount with httptest.
type server struct {
	c        *lookup.Client
	o        options
	loopback bool
	keys     keySet
	closing  atomic.Bool // shutdown has begun: /readyz is a 503
	reg      *prometheus.Registry
	metrics  *requestMetrics
	routes   map[string]*route
	// cacheDuration is o.CacheDuration in JSON, as the drop-in replies
	// give it.
	cacheDuration string
}

// A route is one endpoint.
type route struct {
	name    string // the metrics' endpoint label
	methods string // allowed, as in an Allow header
	shape   errorShape
	open    bool // needs no client key: the probes
	// protoBody says a POST body may be application/x-protobuf as well
	// as application/json: the v4 Update API's, as google/safebrowsing
	// posts them.
	protoBody bool
	serve     func(w http.ResponseWriter, r *http.Request)
	metrics   *endpointMetrics // the series of name
}

// newServer returns the server of c.
func newServer(c *lookup.Client, o options) *server {
	if o.CacheDuration == 0 {
		o.CacheDuration = 300 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &server{c: c, o: o, loopback: o.Addr == "" || checkLoopback(o.Addr) == nil, keys: newKeySet(o.ClientKeys),
		cacheDuration: durationJSON(o.CacheDuration)}
	s.routes = map[string]*route{
		"/v5/urls:lookup":        {name: "urls:lookup", methods: "POST", serve: s.lookup},
		"/v5/urls:search":        {name: "urls:search", methods: "GET", shape: googleErrors, serve: s.search},
		"/v4/threatMatches:find": {name: "threatMatches:find", methods: "POST", shape: googleErrors, serve: s.find},
		"/status":                {name: "status", methods: "GET, HEAD", serve: s.status},
		"/healthz":               {name: "healthz", methods: "GET, HEAD", open: true, serve: s.healthz},
		"/readyz":                {name: "readyz", methods: "GET, HEAD", open: true, serve: s.readyz},
		"/metrics":               {name: "metrics", methods: "GET, HEAD"},
	}
	if o.Mirror != nil {
		s.mirrorRoutes(o.Mirror)
	}
	s.webRiskRoutes()
	if o.V4 != nil {
		s.v4Routes(o.V4)
	}
	s.reg, s.metrics = newRegistry(s)
	s.routes["/metrics"].serve = s.metricsHandler()
	for _, rt := range s.routes {
		rt.metrics = s.metrics.endpoint(rt.name)
	}
	return s
}

// ServeHTTP refuses what a browser sends cross-site and requests without a
// valid client key, then routes the request, counting it in the metrics.
// Every reply is JSON, apart from /metrics and the v4 Update API's binary
// replies.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rt := s.routeOf(r.URL.Path)
	rec := &recorder{ResponseWriter: w, code: http.StatusOK}
	s.serve(rec, r, rt)
	m := s.metrics.other
	if rt != nil {
		m = rt.metrics
	}
	m.observe(rec.code, time.Since(start))
}

func (s *server) serve(w http.ResponseWriter, r *http.Request, rt *route) {
	shape := plainErrors
	if rt != nil {
		shape = rt.shape
	}
	if err := s.checkBrowser(r); err != nil {
		s.fail(w, shape, http.StatusForbidden, err)
		return
	}
	if rt == nil || !rt.open {
		if status, err := s.checkKey(r); err != nil {
			s.fail(w, shape, status, err)
			return
		}
	}
	if rt == nil {
		s.notFound(w, r)
		return
	}
	if !allowed(rt.methods, r.Method) {
		w.Header().Set("Allow", rt.methods)
		method := r.Method // a token, as net/http checks, but of any length
		if len(method) > inputerr.MaxQuoted {
			method = inputerr.Quote(method)
		}
		s.fail(w, shape, http.StatusMethodNotAllowed, fmt.Errorf("sbserver: method %s not allowed: use %s", method, rt.methods))
		return
	}
	if r.Method == http.MethodPost {
		if err := checkBodyType(r.Header.Get("Content-Type"), rt.protoBody); err != nil {
			s.fail(w, shape, http.StatusUnsupportedMediaType, err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	rt.serve(w, r)
}

// protobufType is the Content-Type of a binary protobuf body.
const protobufType = "application/x-protobuf"

// checkBodyType refuses a POST body that is not application/json, or,
// where protoBody is set, application/x-protobuf: the types no web page
// can send cross-origin without a CORS preflight, which sbserver never
// answers. A form or text/plain body, which a page can send, is refused.
func checkBodyType(ct string, protoBody bool) error {
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err == nil && mt == "application/json":
		return nil
	case err == nil && protoBody && mt == protobufType:
		return nil
	case protoBody:
		return fmt.Errorf("sbserver: Content-Type %s: the body must be application/json or %s", inputerr.Quote(ct), protobufType)
	}
	return fmt.Errorf("sbserver: Content-Type %s: the body must be application/json", inputerr.Quote(ct))
}

// notFound answers a path that is no endpoint: a JSON redirect to the
// endpoint it names once cleaned (as http.ServeMux redirects, but in JSON),
// else a 404.
func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	clean := path.Clean("/" + r.URL.Path)
	if rt := s.routes[clean]; rt != nil && clean != r.URL.Path {
		u := *r.URL
		u.Path, u.RawPath = clean, ""
		w.Header().Set("Location", u.RequestURI())
		s.fail(w, rt.shape, http.StatusTemporaryRedirect, fmt.Errorf("sbserver: moved to %s", clean))
		return
	}
	s.fail(w, plainErrors, http.StatusNotFound, fmt.Errorf("sbserver: not found: %s: the endpoints are %s", inputerr.Quote(r.URL.Path), s.endpoints()))
}

// endpoints names the endpoints served, for a 404: the drop-in and own
// ones, and the mirror's when there is one.
func (s *server) endpoints() string {
	e := "POST /v5/urls:lookup, GET /v5/urls:search, POST /v4/threatMatches:find"
	if s.o.URIs != nil {
		e += ", GET /v1/uris:search"
	}
	if s.o.V4 != nil {
		e += ", POST /v4/threatListUpdates:fetch, /v4/fullHashes:find, GET /v4/threatLists"
	}
	switch {
	case s.o.Mirror != nil:
		e += ", GET /v5/hashList/{name}, /v5/hashLists:batchGet, /v5/hashLists, /v5/hashes:search"
	case s.o.WebRisk != nil:
		e += ", GET /v1/threatLists:computeDiff, /v1/hashes:search"
	}
	return e + ", GET /status, /healthz, /readyz and /metrics"
}

// allowed reports whether method is in the Allow list methods.
func allowed(methods, method string) bool {
	for m := range strings.SplitSeq(methods, ", ") {
		if m == method {
			return true
		}
	}
	return false
}

// fail replies with err in shape, the upstream key masked, and
// Retry-After when err is the client backing off.
func (s *server) fail(w http.ResponseWriter, shape errorShape, status int, err error) {
	s.retryAfter(w, err)
	writeError(w, shape, status, mask(err.Error(), s.o.UpstreamKey), keyErrorInfo(err, shape))
}

// retryAfter sets Retry-After when err is the client backing off, or the
// lists not being loaded while updates back off: the lists cannot load
// before the back-off ends.
func (s *server) retryAfter(w http.ResponseWriter, err error) {
	var until time.Time
	var be *lookup.BackoffError
	switch {
	case errors.As(err, &be):
		until = be.Until
	case errors.Is(err, lookup.ErrNotReady):
		until = s.c.Backoff().UpdateUntil
	}
	if d := time.Until(until); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(d.Seconds())))))
	}
}

// recorder keeps the status a handler wrote, for the metrics.
type recorder struct {
	http.ResponseWriter
	code int
}

func (r *recorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
