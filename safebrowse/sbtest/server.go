// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Defaults of the options.
const (
	// DefaultAPIKey is the key a server accepts unless [WithAPIKey] says
	// otherwise.
	DefaultAPIKey = "sbtest-key"
	// DefaultCacheDuration is the cache_duration of hashes:search replies
	// unless [WithCacheDuration] says otherwise.
	DefaultCacheDuration = 5 * time.Minute
	// DefaultMinimumWait is the minimum_wait_duration of list replies
	// unless [WithMinimumWait] says otherwise.
	DefaultMinimumWait = 30 * time.Minute
	// DefaultRecommendedNextDiff is how long after a Web Risk computeDiff
	// reply its recommendedNextDiff lies, unless
	// [WithRecommendedNextDiff] says otherwise.
	DefaultRecommendedNextDiff = 30 * time.Minute
)

// Server is a fake Safe Browsing v5 server listening on a loopback address,
// like an [net/http/httptest.Server]. Point a client at it with its URL and
// APIKey. Its methods are safe for concurrent use, also while it serves.
type Server struct {
	// URL is the base URL of the server, "http://127.0.0.1:port", with no
	// trailing slash: a client appends /v5/....
	URL string
	// APIKey is the key the server accepts in the key query parameter.
	APIKey string

	cacheDuration time.Duration
	minimumWait   time.Duration
	nextDiff      time.Duration // WithRecommendedNextDiff
	testURLs      bool
	json          bool // WithJSON: Google's JSON mapping too

	srv       *httptest.Server
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	lists    map[string]*list
	extended *list          // Web Risk's SOCIAL_ENGINEERING_EXTENDED_COVERAGE, seeded by name
	wr       []*wrList      // Web Risk's lists, in the order of wrDefs
	requests map[string]int // endpoint → requests; "" → all
	prefixes [][]byte
	faults   []*Fault
	gateway  gateway // the OHTTP gateway's key (gateway.go)
}

// Option configures a [Server] in [NewServer].
type Option func(*Server)

// WithAPIKey sets the key the server accepts; the default is
// [DefaultAPIKey]. An empty key keeps the default.
func WithAPIKey(key string) Option {
	return func(s *Server) {
		if key != "" {
			s.APIKey = key
		}
	}
}

// WithCacheDuration sets the cache_duration of hashes:search replies; the
// default is [DefaultCacheDuration]. Zero leaves the field out of the
// reply, which tells a client to cache nothing; a negative d is sent as it
// is, to test how a client takes it.
func WithCacheDuration(d time.Duration) Option {
	return func(s *Server) { s.cacheDuration = d }
}

// WithMinimumWait sets the minimum_wait_duration of list replies; the
// default is [DefaultMinimumWait]. Zero leaves the field out, which tells a
// client to fetch again at once; a negative d is sent as it is, to test how
// a client takes it. A reply cut short by sizeConstraints.maxUpdateEntries
// never carries it.
func WithMinimumWait(d time.Duration) Option {
	return func(s *Server) { s.minimumWait = d }
}

// WithRecommendedNextDiff sets how long after a Web Risk computeDiff reply
// its recommendedNextDiff lies; the default is
// [DefaultRecommendedNextDiff]. Zero leaves the field out, which tells a
// client to choose its own time; a negative d gives a time in the past,
// to test how a client takes it.
func WithRecommendedNextDiff(d time.Duration) Option {
	return func(s *Server) { s.nextDiff = d }
}

// WithJSON makes the server answer in Google's JSON mapping of the v5
// messages too, for a test of a client that reads JSON, such as Google's
// generated clients: alt=json, or no alt, is JSON, and alt=proto binary
// protobuf. Without it the server answers as Google's v5 API does, in
// binary protobuf only: no alt, or alt=proto, is protobuf, and alt=json is
// a 400 INVALID_ARGUMENT "Unsupported Output Format". A client that passes
// its tests only with WithJSON fails against Google; see the package doc.
func WithJSON() Option {
	return func(s *Server) { s.json = true }
}

// TestURLs are the entries [WithTestURLs] seeds: Google's public test
// pages, one for each threat list, as listed at
// https://testsafebrowsing.appspot.com, plus www.google.com/ in the Global
// Cache, so that a RealTime client finds one likely-safe expression.
var TestURLs = []struct{ List, Expression string }{
	{"mw-4b", "malware.testing.google.test/testing/malware/"},
	{"se-4b", "testsafebrowsing.appspot.com/s/phishing.html"},
	{"uws-4b", "testsafebrowsing.appspot.com/s/unwanted.html"},
	{"pha-4b", "testsafebrowsing.appspot.com/apiv4/ANY_PLATFORM/POTENTIALLY_HARMFUL_APPLICATION/URL/"},
	{"gc-32b", "www.google.com/"},
}

// WithTestURLs seeds the server with [TestURLs], as if [Server.Add] had
// been called for each: a demo or a test that wants known-unsafe URLs
// without choosing its own.
func WithTestURLs() Option {
	return func(s *Server) { s.testURLs = true }
}

// NewServer starts and returns a server on a loopback address, with every
// list empty. The caller should call Close when finished, to shut it down.
// Like [net/http/httptest.NewServer], it panics if it cannot listen.
func NewServer(opts ...Option) *Server {
	s := &Server{
		APIKey:        DefaultAPIKey,
		cacheDuration: DefaultCacheDuration,
		minimumWait:   DefaultMinimumWait,
		nextDiff:      DefaultRecommendedNextDiff,
		closed:        make(chan struct{}),
		lists:         make(map[string]*list, len(listDefs)),
		requests:      make(map[string]int),
		gateway:       newGateway(1),
	}
	for _, o := range opts {
		o(s)
	}
	for i := range listDefs {
		s.lists[listDefs[i].name] = newList(&listDefs[i])
	}
	s.extended = newList(&extendedDef)
	for i := range wrDefs {
		s.wr = append(s.wr, newWRList(&wrDefs[i]))
	}
	if s.testURLs {
		for _, e := range TestURLs {
			if err := s.Add(e.List, e.Expression); err != nil {
				panic("sbtest: TestURLs: " + err.Error()) // a fixed list that Add must take
			}
		}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.srv.URL
	return s
}

// Close shuts down the server and blocks until every request it is
// serving has finished. A request held by a [Fault]'s Latency ends at
// once, with a 503. Close may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
	s.srv.Close()
}

// Client returns an HTTP client configured for making requests to the
// server; [Server.Close] closes its idle connections. The server sends no
// redirects.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Add puts the SHA-256 hash of expression on list, with attrs on each of
// its search replies: a list of 4-byte prefixes gets the hash's 4-byte
// prefix, gc-32b the full hash. The expression is as safebrowse yields it,
// a canonical URL without its scheme, such as "evil.example/" or
// "evil.example/login?x=1"; any other is [ErrExpression]. The list is one
// of [Lists], or SOCIAL_ENGINEERING_EXTENDED_COVERAGE, a list that Web
// Risk serves and v5 does not; any other is [ErrUnknownList]. The threat
// type of its search replies comes from the list's name: se-4b
// SOCIAL_ENGINEERING, mw-4b MALWARE, uws-4b and uwsa-4b
// UNWANTED_SOFTWARE, pha-4b POTENTIALLY_HARMFUL_APPLICATION; gc-32b is the
// Global Cache of likely safe expressions, never in search replies. Web
// Risk serves mw-4b as MALWARE, se-4b as SOCIAL_ENGINEERING, uws-4b with
// uwsa-4b as UNWANTED_SOFTWARE, and SOCIAL_ENGINEERING_EXTENDED_COVERAGE
// as itself, each hash as a 4-byte entry ([Server.AddPrefix] sets
// another length).
//
// Adding an expression already on the list replaces its attributes, and
// its Web Risk entry becomes 4 bytes again. The list gets a new version
// when its hashes change: not when another expression already held the
// same 4-byte prefix.
func (s *Server) Add(list, expression string, attrs ...ThreatAttribute) error {
	if err := checkExpression(expression); err != nil {
		return err
	}
	return s.AddHash(list, sha256.Sum256([]byte(expression)), attrs...)
}

// AddHash is [Server.Add] for a full hash rather than an expression: a test
// can so put two full hashes sharing one 4-byte prefix on a list.
func (s *Server) AddHash(list string, fullHash [32]byte, attrs ...ThreatAttribute) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.seedList(list)
	if l == nil {
		return newError(ErrUnknownList, list, "")
	}
	l.add(fullHash, attrs)
	delete(l.wrLen, fullHash)
	return nil
}

// AddPrefix is [Server.Add] for Web Risk's lists, whose entries are 4 to
// 32 bytes long: it puts the SHA-256 hash of expression on list, with no
// attributes, and Web Risk serves its first n bytes as the list's entry
// (computeDiff sends an entry longer than 4 bytes raw). v5 is unchanged:
// it serves the hash's 4-byte prefix. The list is one that Web Risk
// serves: mw-4b, se-4b, uws-4b, uwsa-4b or
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, else [ErrUnknownList]; n outside
// 4 to 32 is [ErrPrefixLength]. Adding the expression again, with Add or
// AddPrefix, replaces its entry's length.
//
// No entry of a Web Risk list may be a prefix of another: where one
// hash's entry would be a prefix of another's, the shorter entry is
// served, and covers both, as a client that matches it searches it and
// finds both full hashes.
func (s *Server) AddPrefix(list, expression string, n int) error {
	if err := checkExpression(expression); err != nil {
		return err
	}
	if !servedByWebRisk(list) {
		return newError(ErrUnknownList, list, "not served by Web Risk")
	}
	if n < minEntry || n > maxEntry {
		return newError(ErrPrefixLength, strconv.Itoa(n), "want 4 to 32")
	}
	h := sha256.Sum256([]byte(expression))
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.seedList(list)
	l.add(h, nil)
	if n == minEntry {
		delete(l.wrLen, h)
	} else {
		l.wrLen[h] = n
	}
	return nil
}

// seedList returns the list a test seeds by name, one of [Lists] or Web
// Risk's SOCIAL_ENGINEERING_EXTENDED_COVERAGE, or nil. s.mu must be held.
func (s *Server) seedList(name string) *list {
	if name == extendedDef.name {
		return s.extended
	}
	return s.lists[name]
}

// Remove takes the SHA-256 hash of expression off list, which gets a new
// version when its hashes change; a partial update from an older version
// carries the removal. An expression not on the list is [ErrNotListed].
func (s *Server) Remove(list, expression string) error {
	if err := checkExpression(expression); err != nil {
		return err
	}
	if findDef(list) == nil && list != extendedDef.name {
		return newError(ErrUnknownList, list, "")
	}
	if err := s.RemoveHash(list, sha256.Sum256([]byte(expression))); err != nil {
		return newError(ErrNotListed, expression, "on "+list)
	}
	return nil
}

// RemoveHash is [Server.Remove] for a full hash.
func (s *Server) RemoveHash(list string, fullHash [32]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.seedList(list)
	if l == nil {
		return newError(ErrUnknownList, list, "")
	}
	if !l.remove(fullHash) {
		return newError(ErrNotListed, hex.EncodeToString(fullHash[:]), "on "+list)
	}
	return nil
}

// Requests returns how many requests the server has received for
// endpoint: "hashes:search", "hashList", "hashLists:batchGet",
// "hashLists" (ListHashLists) or "urls:search" of v5;
// "v1/threatLists:computeDiff", "v1/hashes:search" or "v1/uris:search" of
// Web Risk; "hpkekeyconfig" and "ohttp" for the OHTTP gateway's key
// configuration and encapsulated requests; "" counts every request, to
// any path. A request counts
// whatever its answer: a fault, a bad key, a 404. A request the gateway
// decapsulates counts as "ohttp" only: "hashes:search" counts the
// searches that came directly.
func (s *Server) Requests(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[endpoint]
}

// SearchedPrefixes returns a copy of every prefix received by
// hashes:search, directly or through the OHTTP gateway, in the REST form
// or Chromium's $req, and by Web Risk's v1/hashes:search, in the order
// received, including the prefixes of
// requests the server refused (a bad key, a fault, a prefix of the wrong
// length): what a client sent, so a test can check what it revealed. A
// value that is not base64 is not a prefix and is left out.
func (s *Server) SearchedPrefixes() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]byte, len(s.prefixes))
	for i, p := range s.prefixes {
		out[i] = slices.Clone(p)
	}
	return out
}
