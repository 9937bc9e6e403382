// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"net/url"
	"slices"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file holds Web Risk's searches, hashes.search and uris.search.

// expiry returns the time a reply's entries may be cached until: now
// plus the server's cache duration, or the zero time, which leaves the
// field out, when it is 0.
func expiry(now time.Time, d time.Duration) time.Time {
	if d == 0 {
		return time.Time{}
	}
	return now.Add(d).UTC()
}

// searchWRHashes answers Web Risk's hashes.search (GET
// /v1/hashes:search): a SearchHashesResponse holding every full hash on
// a list of the threat types asked that starts with hashPrefix (4 to 32
// bytes), once, with the threat types of those of its lists asked, in
// the enum's order; sorted by hash. Each expires, as the negative answer
// does, after the cache duration of [WithCacheDuration]. A prefix
// matches the full hashes it starts, whatever the length of their
// entries.
func (s *Server) searchWRHashes(p url.Values) (wrReply, *badRequest) {
	req, err := v4wire.ParseSearchHashesRequestQuery(p)
	if err != nil {
		return nil, invalid("%v", err)
	}
	switch n := len(req.HashPrefix); {
	case n == 0:
		return nil, invalid("hashPrefix is required")
	case n < minEntry || n > maxEntry:
		return nil, invalid("hashPrefix is %d bytes; want 4 to 32", n)
	}
	types, berr := wrThreatTypes(p, req.ThreatTypes)
	if berr != nil {
		return nil, berr
	}
	found := make(map[[32]byte][]v4wire.WebRiskThreatType)
	s.mu.Lock()
	for _, t := range types {
		for _, name := range s.wrList(t).def.sources {
			for _, h := range s.seedList(name).byPrefix[[4]byte(req.HashPrefix)] {
				if bytes.HasPrefix(h[:], req.HashPrefix) && !slices.Contains(found[h], t) {
					found[h] = append(found[h], t)
				}
			}
		}
	}
	cacheDuration := s.cacheDuration
	s.mu.Unlock()

	exp := expiry(time.Now(), cacheDuration)
	r := &wrHashesReply{v4wire.SearchHashesResponse{NegativeExpireTime: exp}}
	for h, ts := range found {
		r.Threats = append(r.Threats, v4wire.ThreatHash{ThreatTypes: ts, Hash: h, ExpireTime: exp})
	}
	slices.SortFunc(r.Threats, func(a, b v4wire.ThreatHash) int { return bytes.Compare(a.Hash[:], b.Hash[:]) })
	return r, nil
}

// searchURIs answers Web Risk's uris.search (GET /v1/uris:search): the
// threat types asked, in the enum's order, of the lists that hold the
// full hash of an expression of uri, with the expiry of hashes:search;
// {} when there are none. A uri that safebrowse cannot canonicalise is a
// 400, as is one that is not UTF-8 (serveWREndpoint).
func (s *Server) searchURIs(p url.Values) (wrReply, *badRequest) {
	req, err := v4wire.ParseSearchUrisRequestQuery(p)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if req.URI == "" {
		return nil, invalid("uri is required")
	}
	types, berr := wrThreatTypes(p, req.ThreatTypes)
	if berr != nil {
		return nil, berr
	}
	hashes, herr := safebrowse.Hashes(req.URI)
	if herr != nil {
		return nil, invalid("uri=%s is not a URL Web Risk checks", inputerr.Quote(req.URI))
	}
	var listed []v4wire.WebRiskThreatType
	s.mu.Lock()
	for _, t := range types {
		if s.holdsAny(s.wrList(t), hashes) {
			listed = append(listed, t)
		}
	}
	cacheDuration := s.cacheDuration
	s.mu.Unlock()

	r := new(wrURIsReply)
	if len(listed) > 0 {
		r.Threat = &v4wire.ThreatURI{ThreatTypes: listed, ExpireTime: expiry(time.Now(), cacheDuration)}
	}
	return r, nil
}

// holdsAny reports whether a source of l holds one of hashes. s.mu must
// be held.
func (s *Server) holdsAny(l *wrList, hashes []safebrowse.Hash) bool {
	for _, name := range l.def.sources {
		src := s.seedList(name)
		for _, h := range hashes {
			if _, ok := src.entries[h]; ok {
				return true
			}
		}
	}
	return false
}
