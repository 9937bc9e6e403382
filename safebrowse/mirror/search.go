// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// A centry is what the cache knows of one prefix: until when, in Unix
// nanoseconds, and the full hashes the upstream listed for it, nil for
// none, which most entries hold (a pointer keeps those small).
type centry struct {
	expires int64
	hashes  *[]lookup.FullHash
}

// entryOf returns the cache entry of r.
func entryOf(r *lookup.PrefixResult) centry {
	e := centry{expires: r.Expires.UnixNano()}
	if len(r.FullHashes) > 0 {
		e.hashes = &r.FullHashes
	}
	return e
}

// fullHashes returns the full hashes of e.
func (e centry) fullHashes() []lookup.FullHash {
	if e.hashes == nil {
		return nil
	}
	return *e.hashes
}

// A call is one upstream search of a prefix in flight, which other
// requests for the same prefix wait on rather than ask again.
type call struct {
	done chan struct{}
	res  lookup.PrefixResult
	err  error
}

// searcher answers hashes:search from its cache, and otherwise from the
// source's SearchPrefixes, with concurrent requests for one prefix
// coalesced and the upstream requests in flight bounded.
type searcher struct {
	m    *Mirror
	size int
	sem  chan struct{} // a token per upstream search in flight

	mu       sync.Mutex
	cache    map[[4]byte]centry
	inflight map[[4]byte]*call
}

func newSearcher(m *Mirror, size, upstream int) *searcher {
	return &searcher{m: m, size: size, sem: make(chan struct{}, upstream),
		cache: make(map[[4]byte]centry), inflight: make(map[[4]byte]*call)}
}

func (s *searcher) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache)
}

// prefixes returns the distinct prefixes a search asks, from its
// hashPrefixes or from Chromium's $req= form, a base64url
// SearchHashesRequest: 1 to MaxSearchPrefixes, each of 4 bytes.
func (req *request) prefixes() ([][4]byte, *apiError) {
	raw := req.p["hashPrefixes"]
	var ps [][]byte
	for i, v := range raw {
		b, err := v5wire.DecodeBytes(v)
		if err != nil {
			return nil, invalid("hashPrefixes[%d]=%s is not base64", i, inputerr.Quote(v))
		}
		ps = append(ps, b)
	}
	if rq, err := req.single("$req"); err != nil {
		return nil, err
	} else if rq != "" {
		if len(raw) > 0 {
			return nil, invalid("$req and hashPrefixes together")
		}
		b, derr := v5wire.DecodeBytes(rq)
		if derr != nil {
			return nil, invalid("$req is not base64")
		}
		m, derr := v5wire.ParseSearchHashesRequest(b, MaxSearchPrefixes)
		if derr != nil {
			return nil, invalid("$req is not a SearchHashesRequest: %s", inputerr.Quote(derr.Error()))
		}
		ps = m.HashPrefixes
	}
	switch {
	case len(ps) == 0:
		return nil, invalid("hashPrefixes is required")
	case len(ps) > MaxSearchPrefixes:
		return nil, invalid("%d hashPrefixes, more than %d", len(ps), MaxSearchPrefixes)
	}
	out := make([][4]byte, 0, len(ps))
	seen := make(map[[4]byte]bool, len(ps))
	for i, p := range ps {
		if len(p) != 4 {
			return nil, invalid("hashPrefixes[%d] is %d bytes, not 4", i, len(p))
		}
		if k := [4]byte(p); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, nil
}

// serve answers hashes:search: every full hash the upstream lists for a
// prefix asked, and a cacheDuration that is the least time left among the
// answers given, so that no client keeps one longer than the mirror
// would. A failed upstream search is a 503, never an empty reply; while
// the source backs off, with Retry-After.
func (s *searcher) serve(r *http.Request, req *request) ([][]byte, *apiError) {
	prefixes, aerr := req.prefixes()
	if aerr != nil {
		return nil, aerr
	}
	now := s.m.now()
	nowNano := now.UnixNano()
	answers := make(map[[4]byte]centry, len(prefixes))
	var mine []([4]byte)
	var calls []*call
	var waits []*call
	s.mu.Lock()
	hits, joined := 0, 0
	for _, p := range prefixes {
		if e, ok := s.cache[p]; ok {
			if e.expires > nowNano {
				answers[p] = e
				hits++
				continue
			}
			delete(s.cache, p)
		}
		if c := s.inflight[p]; c != nil {
			waits = append(waits, c)
			joined++
			continue
		}
		c := &call{done: make(chan struct{}), res: lookup.PrefixResult{Prefix: p}}
		s.inflight[p] = c
		mine = append(mine, p)
		calls = append(calls, c)
	}
	s.mu.Unlock()
	s.m.stats.hits.Add(uint64(hits))
	s.m.stats.joined.Add(uint64(joined))
	if len(mine) == 0 {
		s.m.stats.saved.Add(1)
	} else {
		s.ask(r.Context(), mine, calls)
	}
	var failed error
	for _, c := range append(calls, waits...) {
		select {
		case <-c.done:
		case <-r.Context().Done():
			return nil, &apiError{status: http.StatusServiceUnavailable, msg: "mirror: request canceled"}
		}
		if c.err != nil {
			failed = c.err
			continue
		}
		answers[c.res.Prefix] = entryOf(&c.res)
	}
	if failed != nil {
		return nil, upstreamError(failed, s.m.now())
	}
	var reply v5wire.SearchHashesResponse
	least := int64(-1)
	for _, p := range prefixes {
		e := answers[p]
		if left := e.expires - nowNano; least < 0 || left < least {
			least = left
		}
		for _, fh := range e.fullHashes() {
			h := v5wire.FullHash{Hash: fh.Hash}
			for _, d := range fh.Details {
				h.Details = append(h.Details, v5wire.FullHashDetail{ThreatType: d.Type, Attributes: d.Attributes})
			}
			reply.FullHashes = append(reply.FullHashes, h)
		}
	}
	reply.CacheDuration = max(time.Duration(least), 0).Truncate(time.Second)
	reply.HasCacheDuration = true
	if req.proto {
		return [][]byte{v5wire.AppendSearchHashesResponse(nil, &reply)}, nil
	}
	b, err := reply.MarshalJSON()
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: " + err.Error()}
	}
	return [][]byte{b}, nil
}

// ask searches mine upstream, once a token of the bound is free, caches
// the answers and hands each call its result. The search goes on if the
// request that made it goes away, for the requests waiting on it, within
// upstreamTimeout.
func (s *searcher) ask(ctx context.Context, mine [][4]byte, calls []*call) {
	var res []lookup.PrefixResult
	var err error
	select {
	case s.sem <- struct{}{}:
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), upstreamTimeout)
		s.m.stats.upstream.Add(1)
		res, err = s.m.src.SearchPrefixes(uctx, mine)
		cancel()
		<-s.sem
		if err != nil {
			s.m.log.Warn("mirror: upstream search failed", "prefixes", len(mine), "err", err)
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.m.now().UnixNano()
	for i, c := range calls {
		delete(s.inflight, mine[i])
		if err != nil {
			c.err = err
		} else {
			c.res = res[i]
			if e := entryOf(&c.res); e.expires > now {
				s.put(now, mine[i], e)
			}
		}
		close(c.done)
	}
}

// put caches e for p. When the cache is full, the expired entries are
// purged, and if that is not enough, an eighth of the entries, chosen
// arbitrarily, are dropped: a flood of distinct prefixes costs at worst
// more upstream searches, never a wrong answer. s.mu must be held.
func (s *searcher) put(now int64, p [4]byte, e centry) {
	if len(s.cache) >= s.size {
		for k, v := range s.cache {
			if v.expires <= now {
				delete(s.cache, k)
			}
		}
		for k := range s.cache {
			if len(s.cache) < s.size-s.size/8 {
				break
			}
			delete(s.cache, k)
		}
	}
	s.cache[p] = e
}

// upstreamError returns the reply to a failed upstream search: a 503,
// with Retry-After while the source backs off.
func upstreamError(err error, now time.Time) *apiError {
	e := &apiError{status: http.StatusServiceUnavailable, msg: "mirror: upstream search failed: " + err.Error()}
	var be *lookup.BackoffError
	if errors.As(err, &be) {
		e.retryAfter = max(be.Until.Sub(now), time.Second)
		e.msg = fmt.Sprintf("mirror: upstream searches backing off until %s after %d failures", be.Until.UTC().Format(time.RFC3339), be.Failures)
	}
	return e
}
