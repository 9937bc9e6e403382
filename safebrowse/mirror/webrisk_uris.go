// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// DefaultURICacheDuration is how long a uris:search reply may be cached,
// its expireTime from now, when URISearchConfig.CacheDuration is 0.
const DefaultURICacheDuration = 300 * time.Second

// URISearchConfig configures a URISearch. Its zero values mean the
// defaults.
type URISearchConfig struct {
	// CacheDuration sets a listed URI's expireTime: the time of the reply
	// plus CacheDuration; 0 means DefaultURICacheDuration. It must not be
	// negative.
	CacheDuration time.Duration
}

// A URISearch answers Web Risk's uris.search, GET /v1/uris:search, from
// the verdicts of one [lookup.Client] of Web Risk, in any mode, so that a
// program written against Web Risk's uris:search (Google's generated
// clients, with only their server URL changed) gets its answers from the
// client's lists, cache and searches, and only hash prefixes reach
// Google (see the package doc, "Web Risk"). It is an http.Handler, safe
// for concurrent use.
type URISearch struct {
	src      *lookup.Client
	expire   time.Duration
	now      func() time.Time
	requests atomic.Uint64
}

// NewURISearch returns a URISearch answering from src, a client of Web
// Risk (lookup.Config.API WebRisk), which the caller keeps updated and
// closes. It fails for a source of another API, and for a bad Config,
// naming the field.
func NewURISearch(src *lookup.Client, cfg URISearchConfig) (*URISearch, error) {
	switch {
	case src == nil:
		return nil, errors.New("mirror: NewURISearch: nil source client")
	case src.API() != lookup.WebRisk:
		return nil, errors.New("mirror: NewURISearch: the source is no client of Web Risk: its Config.API must be WebRisk")
	case cfg.CacheDuration < 0:
		return nil, fmt.Errorf("mirror: URISearchConfig.CacheDuration %v is negative", cfg.CacheDuration)
	case cfg.CacheDuration == 0:
		cfg.CacheDuration = DefaultURICacheDuration
	}
	return &URISearch{src: src, expire: cfg.CacheDuration, now: time.Now}, nil
}

// URISearchPath is the path a URISearch serves.
const URISearchPath = "/v1/uris:search"

// uriParams are the query parameters of uris:search, under their JSON
// and their proto names.
var uriParams = identity("uri", "threatTypes", "threat_types")

// Requests returns the number of requests served, whatever their answer.
func (u *URISearch) Requests() uint64 { return u.requests.Load() }

// ServeHTTP answers GET /v1/uris:search?uri=...&threatTypes=...: {} when
// no list of the threat types asked holds the URI, else
// {"threat": {"threatTypes": [...], "expireTime": "..."}}, the types
// listed among those asked, in the order of Web Risk's enum, in Google's
// JSON mapping (no alt, or alt=json) or binary protobuf (alt=proto).
// threatTypes is required, as Google requires it; a missing or bad
// parameter, or a URI that cannot be checked (not UTF-8, or not a URL),
// is a 400 INVALID_ARGUMENT. A URI that could not be checked (the lists
// not loaded, a failed search, the client backing off, the search budget
// spent) is a 503 UNAVAILABLE, with Retry-After while the client backs
// off: never {}. It checks no key: mount it behind the access rules of
// the server.
func (u *URISearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != URISearchPath {
		writeAPIError(w, &apiError{status: http.StatusNotFound, msg: fmt.Sprintf("mirror: no method at %s", inputerr.Quote(r.URL.Path))})
		return
	}
	u.requests.Add(1)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeAPIError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("mirror: method %s not allowed; use GET", inputerr.Quote(r.Method))})
		return
	}
	body, aerr := u.serve(r)
	if aerr != nil {
		writeAPIError(w, aerr)
		return
	}
	writeBody(w, r, [][]byte{body.b}, body.proto)
}

type uriReply struct {
	b     []byte
	proto bool
}

func (u *URISearch) serve(r *http.Request) (uriReply, *apiError) {
	req, aerr := parseWebRiskRequest(uriParams, r.URL.RawQuery)
	if aerr != nil {
		return uriReply{}, aerr
	}
	m, err := v4wire.ParseSearchUrisRequestQuery(req.p)
	if err != nil {
		return uriReply{}, invalid("%v", err)
	}
	switch {
	case m.URI == "":
		return uriReply{}, invalid("uri is required")
	case !utf8.ValidString(m.URI):
		return uriReply{}, invalid("uri is not valid UTF-8")
	}
	mask, aerr := threatTypesMask(m.ThreatTypes)
	if aerr != nil {
		return uriReply{}, aerr
	}
	v, err := u.src.Lookup(r.Context(), m.URI)
	if err != nil {
		return uriReply{}, u.lookupError(err)
	}
	var found uint8
	for _, t := range v.Threats {
		if wt, ok := wrTypes[t.Type]; ok && !t.Has(lookup.Canary) {
			found |= typeBit(wt)
		}
	}
	var reply v4wire.SearchUrisResponse
	if found&mask != 0 {
		th := &v4wire.ThreatURI{ExpireTime: u.now().Add(u.expire).UTC().Truncate(time.Second)}
		for t := v4wire.WebRiskMalware; t <= v4wire.WebRiskSocialEngineeringExtendedCoverage; t++ {
			if found&mask&typeBit(t) != 0 {
				th.ThreatTypes = append(th.ThreatTypes, t)
			}
		}
		reply.Threat = th
	}
	if req.proto {
		return uriReply{v4wire.AppendSearchUrisResponse(nil, &reply), true}, nil
	}
	return uriReply{b: v4wire.AppendSearchUrisResponseJSON(nil, &reply)}, nil
}

// lookupError returns the reply to a failed lookup: a 400 for a URI
// lookup cannot check, a 503 for a check that failed, with Retry-After
// while the client backs off, or while its lists cannot load before
// its update back-off ends.
func (u *URISearch) lookupError(err error) *apiError {
	if errors.Is(err, lookup.ErrInvalidURL) {
		return invalid("uri: %v", err)
	}
	e := &apiError{status: http.StatusServiceUnavailable, msg: "mirror: uri not checked: " + err.Error()}
	var until time.Time
	var be *lookup.BackoffError
	switch {
	case errors.As(err, &be):
		until = be.Until
	case errors.Is(err, lookup.ErrNotReady):
		until = u.src.Backoff().UpdateUntil
	}
	if d := until.Sub(u.now()); d > 0 {
		e.retryAfter = d
	}
	return e
}
