// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// This file serves Web Risk's hashes.search: one prefix of 4 to 32 bytes
// a request, answered from the mirror's cache where fresh, else through
// the source's one search for servers of others.

// A wrEntry is what the cache knows of one prefix: until when, in Unix
// nanoseconds, and the reply listing its full hashes, encoded; nil when
// none is listed, which most entries are.
type wrEntry struct {
	expires int64
	enc     *wrEncoded
}

// wrEncoded is the reply of a prefix whose full hashes are listed: every
// threat type the upstream gave them, the types (a bit for each
// WebRiskThreatType, 1 to 4) they hold, and the reply encoded once in
// binary, and in JSON once a JSON client has asked, so that a request
// asking every type held copies it, never encodes it again.
type wrEncoded struct {
	types uint8
	proto []byte
	// json is guarded by wrSearcher.mu; the other fields never change.
	json []byte
}

// bytes estimates the heap that e and its slot, keyed by a prefix of n
// bytes, take, as [centry.bytes] does.
func (e wrEntry) bytes(n int) int64 {
	b := int64(BytesPerCacheEntry) + allocBytes(n)
	if e.enc != nil {
		b += encodedBytes + allocBytes(cap(e.enc.proto)) + allocBytes(cap(e.enc.json))
	}
	return b
}

// wrSearcher answers hashes:search from its cache, and otherwise from the
// source's SearchHashPrefixes, which coalesces concurrent searches of one
// prefix and bounds the requests in flight, as [searcher] does for v5.
type wrSearcher struct {
	w        *WebRisk
	size     int
	maxBytes int64

	mu    sync.Mutex
	cache map[string]wrEntry // by the prefix, whole
	bytes int64
}

func newWRSearcher(w *WebRisk, size int, maxBytes int64) *wrSearcher {
	return &wrSearcher{w: w, size: size, maxBytes: maxBytes, cache: make(map[string]wrEntry)}
}

// held returns the number of prefixes cached and their bytes.
func (s *wrSearcher) held() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache), s.bytes
}

// typeBit is the bit of a Web Risk threat type in a mask.
func typeBit(t v4wire.WebRiskThreatType) uint8 { return 1 << (t - 1) }

// wrTypes maps lookup's threat types to Web Risk's.
var wrTypes = map[lookup.ThreatType]v4wire.WebRiskThreatType{
	lookup.Malware:                           v4wire.WebRiskMalware,
	lookup.SocialEngineering:                 v4wire.WebRiskSocialEngineering,
	lookup.UnwantedSoftware:                  v4wire.WebRiskUnwantedSoftware,
	lookup.SocialEngineeringExtendedCoverage: v4wire.WebRiskSocialEngineeringExtendedCoverage,
}

// threatTypesMask reads a request's threatTypes: required, each one of
// Web Risk's four, as Google requires.
func threatTypesMask(types []v4wire.WebRiskThreatType) (uint8, *apiError) {
	if len(types) == 0 {
		return 0, invalid("threatTypes is required")
	}
	var mask uint8
	for i, t := range types {
		if !t.Valid() {
			return 0, invalid("threatTypes[%d] is not a Web Risk threat type", i)
		}
		mask |= typeBit(t)
	}
	return mask, nil
}

// serve answers hashes:search: every full hash the upstream lists that
// begins with the prefix, each with those of its threat types asked
// (one with none of them left out), its expireTime and the reply's
// negativeExpireTime both the time until which the mirror holds the
// answer. A failed upstream search is a 503, never an empty reply; while
// the source backs off, with Retry-After. A reply longer than
// lookup.MaxWebRiskSearchReply, which the mirror's own clients refuse, is
// a 503 too.
func (s *wrSearcher) serve(r *http.Request, req *request) ([][]byte, *apiError) {
	m, err := v4wire.ParseSearchHashesRequestQuery(req.p)
	if err != nil {
		return nil, invalid("%v", err)
	}
	switch n := len(m.HashPrefix); {
	case n == 0:
		return nil, invalid("hashPrefix is required")
	case n < 4 || n > 32:
		return nil, invalid("hashPrefix is %d bytes; want 4 to 32", n)
	}
	mask, aerr := threatTypesMask(m.ThreatTypes)
	if aerr != nil {
		return nil, aerr
	}
	now := s.w.now()
	key := string(m.HashPrefix)
	s.mu.Lock()
	e, ok := s.cache[key]
	if ok && e.expires <= now.UnixNano() {
		s.deleteLocked(key, e)
		ok = false
	}
	s.mu.Unlock()
	if ok {
		s.w.stats.hits.Add(1)
		s.w.stats.saved.Add(1)
	} else if e, aerr = s.ask(r.Context(), now, key); aerr != nil {
		return nil, aerr
	}
	body, aerr := s.reply(key, e, mask, req.proto)
	if aerr != nil {
		return nil, aerr
	}
	if len(body) > lookup.MaxWebRiskSearchReply {
		return nil, &apiError{status: http.StatusServiceUnavailable,
			msg: fmt.Sprintf("mirror: the reply would be %d bytes, over the %d a client accepts", len(body), lookup.MaxWebRiskSearchReply)}
	}
	return [][]byte{body}, nil
}

// reply returns the reply of e, the entry of the prefix key, to a request
// asking the threat types mask: the cached encoding when the request asks
// every type the entry holds, else one encoded for the request.
func (s *wrSearcher) reply(key string, e wrEntry, mask uint8, proto bool) ([]byte, *apiError) {
	exp := time.Unix(0, e.expires).UTC()
	if e.enc == nil || e.enc.types&mask == 0 {
		m := v4wire.SearchHashesResponse{NegativeExpireTime: exp}
		if proto {
			return v4wire.AppendSearchHashesResponse(nil, &m), nil
		}
		return v4wire.AppendSearchHashesResponseJSON(nil, &m), nil
	}
	if e.enc.types&^mask == 0 {
		if proto {
			return e.enc.proto, nil
		}
		s.mu.Lock()
		j := e.enc.json
		s.mu.Unlock()
		if j != nil {
			return j, nil
		}
	}
	m, err := v4wire.ParseSearchHashesResponse(e.enc.proto)
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: " + err.Error()}
	}
	if e.enc.types&^mask == 0 {
		j := v4wire.AppendSearchHashesResponseJSON(nil, &m)
		s.mu.Lock()
		if cur, ok := s.cache[key]; ok && cur.enc == e.enc && e.enc.json == nil {
			s.bytes -= cur.bytes(len(key))
			e.enc.json = j
			s.bytes += cur.bytes(len(key))
			s.fitLocked(s.w.now().UnixNano(), 0, 0)
		}
		s.mu.Unlock()
		return j, nil
	}
	m.Threats = filterThreats(m.Threats, mask)
	if proto {
		return v4wire.AppendSearchHashesResponse(nil, &m), nil
	}
	return v4wire.AppendSearchHashesResponseJSON(nil, &m), nil
}

// filterThreats keeps, of each threat, the threat types in mask, and the
// threats with one left, in place.
func filterThreats(ts []v4wire.ThreatHash, mask uint8) []v4wire.ThreatHash {
	out := ts[:0]
	for _, t := range ts {
		types := make([]v4wire.WebRiskThreatType, 0, len(t.ThreatTypes))
		for _, x := range t.ThreatTypes {
			if typeBit(x)&mask != 0 {
				types = append(types, x)
			}
		}
		if len(types) > 0 {
			t.ThreatTypes = types
			out = append(out, t)
		}
	}
	return out
}

// ask asks the source about the prefix key, which the cache did not
// answer, and caches the answer, encoded once. The source coalesces it
// with the searches in flight and bounds its requests; when ctx ends
// first, only this request fails.
func (s *wrSearcher) ask(ctx context.Context, now time.Time, key string) (wrEntry, *apiError) {
	res, err := s.w.src.SearchHashPrefixes(ctx, [][]byte{[]byte(key)})
	if err != nil {
		if ctx.Err() != nil {
			return wrEntry{}, &apiError{status: http.StatusServiceUnavailable, msg: "mirror: request canceled"}
		}
		s.w.log.Debug("mirror: upstream search failed", "err", err)
		return wrEntry{}, upstreamError(err, s.w.now())
	}
	switch res[0].Origin {
	case lookup.OriginSearch:
		s.w.stats.upstream.Add(1)
	case lookup.OriginJoined:
		s.w.stats.joined.Add(1)
		s.w.stats.saved.Add(1)
	default:
		s.w.stats.hits.Add(1)
		s.w.stats.saved.Add(1)
	}
	e := entryOf(&res[0])
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.cache[key]; ok && cur.expires == e.expires && (cur.enc == nil) == (e.enc == nil) {
		return cur, nil // another request cached the same answer meanwhile
	}
	if e.expires > now.UnixNano() {
		s.putLocked(now.UnixNano(), key, e)
	}
	return e, nil
}

// entryOf returns the cache entry of r: the reply listing every full hash
// of r that has one of Web Risk's threat types, with those types, in the
// order of the enum, each hash's expireTime and the negativeExpireTime
// being r.Expires, the earliest of the upstream's times.
func entryOf(r *lookup.PrefixResult) wrEntry {
	exp := r.Expires.UTC()
	e := wrEntry{expires: exp.UnixNano()}
	var m v4wire.SearchHashesResponse
	var mask uint8
	for _, fh := range r.FullHashes {
		var bits uint8
		for _, d := range fh.Details {
			if t, ok := wrTypes[d.Type]; ok {
				bits |= typeBit(t)
			}
		}
		if bits == 0 {
			continue
		}
		th := v4wire.ThreatHash{Hash: fh.Hash, ExpireTime: exp}
		for t := v4wire.WebRiskMalware; t <= v4wire.WebRiskSocialEngineeringExtendedCoverage; t++ {
			if bits&typeBit(t) != 0 {
				th.ThreatTypes = append(th.ThreatTypes, t)
			}
		}
		m.Threats = append(m.Threats, th)
		mask |= bits
	}
	if len(m.Threats) == 0 {
		return e
	}
	m.NegativeExpireTime = exp
	e.enc = &wrEncoded{types: mask, proto: bytes.Clone(v4wire.AppendSearchHashesResponse(nil, &m))}
	return e
}

// putLocked caches e for key, unless it takes more than the whole budget.
// s.mu must be held.
func (s *wrSearcher) putLocked(now int64, key string, e wrEntry) {
	n := e.bytes(len(key))
	if n > s.maxBytes {
		return
	}
	if old, ok := s.cache[key]; ok {
		s.deleteLocked(key, old)
	}
	s.fitLocked(now, 1, n)
	s.cache[key] = e
	s.bytes += n
}

// deleteLocked deletes e, the entry of key. s.mu must be held.
func (s *wrSearcher) deleteLocked(key string, e wrEntry) {
	delete(s.cache, key)
	s.bytes -= e.bytes(len(key))
}

// fitLocked makes room for add more entries (0 or 1) and need more bytes,
// as [searcher.fitLocked] does. s.mu must be held.
func (s *wrSearcher) fitLocked(now int64, add int, need int64) {
	count := len(s.cache)+add > s.size
	over := s.bytes+need > s.maxBytes
	if !count && !over {
		return
	}
	for k, e := range s.cache {
		if e.expires <= now {
			s.deleteLocked(k, e)
		}
	}
	count = len(s.cache)+add > s.size
	over = s.bytes+need > s.maxBytes
	for k, e := range s.cache {
		if (!count || len(s.cache) < s.size-s.size/8) && (!over || s.bytes+need <= s.maxBytes-s.maxBytes/8) {
			break
		}
		s.deleteLocked(k, e)
	}
}
