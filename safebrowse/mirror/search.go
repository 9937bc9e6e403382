// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// A centry is what the cache knows of one prefix: until when, in Unix
// nanoseconds, and the full hashes the upstream listed for it, encoded as
// replies carry them; nil for none, which most entries hold (a pointer
// keeps those small).
type centry struct {
	expires int64
	enc     *encodedHashes
}

// encodedHashes is the full hashes of one prefix as a reply carries them, so
// that a cached answer is copied into replies, never encoded again.
type encodedHashes struct {
	// proto is the SearchHashesResponse.full_hashes fields, tags
	// included: replies are these, one prefix after another, then the
	// cache_duration field.
	proto []byte
	// json is the elements of the reply's "fullHashes" array, comma
	// separated, set once a JSON request has asked for the prefix.
	// Guarded by searcher.mu: the other fields never change.
	json []byte
}

// bytes estimates the heap that e and its slot in the cache take:
// BytesPerCacheEntry, and for a prefix with full hashes, encodedBytes and
// its encodings, as the allocator rounds them.
func (e centry) bytes() int64 {
	n := int64(BytesPerCacheEntry)
	if e.enc != nil {
		n += encodedBytes + allocBytes(cap(e.enc.proto)) + allocBytes(cap(e.enc.json))
	}
	return n
}

// encodedBytes is what an encodedHashes takes beside its encodings.
const encodedBytes = 48

// allocBytes bounds what an allocation of n bytes takes: Go's allocator
// rounds small sizes up to a size class, at most 16 bytes up to 256 and
// an eighth above, and large ones up to whole 8 KiB pages.
func allocBytes(n int) int64 {
	switch {
	case n == 0:
		return 0
	case n <= 256:
		return int64(n+15) &^ 15
	case n <= 32<<10:
		return int64(n + n/8 + 16)
	}
	return int64(n+8<<10-1) &^ (8<<10 - 1)
}

// wireHashes returns the full hashes of r as the wire writes them.
func wireHashes(r *lookup.PrefixResult) []v5wire.FullHash {
	hs := make([]v5wire.FullHash, len(r.FullHashes))
	for i, fh := range r.FullHashes {
		hs[i].Hash = fh.Hash
		if len(fh.Details) > 0 {
			hs[i].Details = make([]v5wire.FullHashDetail, len(fh.Details))
			for j, d := range fh.Details {
				hs[i].Details[j] = v5wire.FullHashDetail{ThreatType: d.Type, Attributes: d.Attributes}
			}
		}
	}
	return hs
}

// encodeProto returns the full_hashes fields of hs, in storage of their
// own.
func encodeProto(hs []v5wire.FullHash) []byte {
	return slices.Clone(v5wire.AppendSearchHashesResponse(nil, &v5wire.SearchHashesResponse{FullHashes: hs}))
}

// The JSON of a reply with full hashes and no cacheDuration is
// jsonHead, the elements of the array, and jsonTail.
const (
	jsonHead = `{"fullHashes":[`
	jsonTail = `]}`
)

// encodeJSON returns the elements of the "fullHashes" array of hs, comma
// separated, in storage of their own: the JSON of hs, less jsonHead and
// jsonTail.
func encodeJSON(hs []v5wire.FullHash) ([]byte, error) {
	b, err := (&v5wire.SearchHashesResponse{FullHashes: hs}).MarshalJSON()
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(jsonHead)) || !bytes.HasSuffix(b, []byte(jsonTail)) {
		return nil, fmt.Errorf("the JSON of full hashes is %.40q..., not %s...%s", b, jsonHead, jsonTail)
	}
	return slices.Clone(b[len(jsonHead) : len(b)-len(jsonTail)]), nil
}

// hashesJSON returns the JSON elements of e's full hashes, decoding its
// protobuf.
func hashesJSON(e *encodedHashes) ([]byte, error) {
	m, err := v5wire.ParseSearchHashesResponse(e.proto)
	if err != nil {
		return nil, err
	}
	return encodeJSON(m.FullHashes)
}

// searcher answers hashes:search from its cache, and otherwise from the
// source's SearchPrefixes, which coalesces concurrent searches of one
// prefix and bounds the requests in flight, for the mirror's clients and
// the source's own lookups together.
type searcher struct {
	m        *Mirror
	size     int   // Config.CacheSize
	maxBytes int64 // Config.CacheBytes

	mu    sync.Mutex
	cache map[[4]byte]centry
	bytes int64 // the entries' bytes, as centry.bytes estimates them
}

func newSearcher(m *Mirror, size int, maxBytes int64) *searcher {
	return &searcher{m: m, size: size, maxBytes: maxBytes, cache: make(map[[4]byte]centry)}
}

// held returns the number of prefixes cached and their bytes.
func (s *searcher) held() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache), s.bytes
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
// the source backs off, with Retry-After. A reply longer than
// lookup.MaxSearchReply, which the mirror's own clients refuse, is a 503
// too, before it is written.
func (s *searcher) serve(r *http.Request, req *request) ([][]byte, *apiError) {
	prefixes, aerr := req.prefixes()
	if aerr != nil {
		return nil, aerr
	}
	now := s.m.now()
	nowNano := now.UnixNano()
	answers := make([]centry, len(prefixes))
	var miss [][4]byte
	var missAt []int
	hits := 0
	s.mu.Lock()
	for i, p := range prefixes {
		if e, ok := s.cache[p]; ok {
			if e.expires > nowNano {
				answers[i] = e
				hits++
				continue
			}
			s.deleteLocked(p, e)
		}
		miss, missAt = append(miss, p), append(missAt, i)
	}
	s.mu.Unlock()
	s.m.stats.hits.Add(uint64(hits))
	if len(miss) == 0 {
		s.m.stats.saved.Add(1)
	} else if aerr := s.ask(r.Context(), now, miss, missAt, answers, !req.proto); aerr != nil {
		return nil, aerr
	}
	least := int64(-1)
	size := 0
	for _, e := range answers {
		if left := e.expires - nowNano; least < 0 || left < least {
			least = left
		}
		if e.enc != nil {
			size += len(e.enc.proto)
		}
	}
	d := max(time.Duration(least), 0).Truncate(time.Second)
	// A JSON reply is longer than the protobuf one.
	if size > lookup.MaxSearchReply {
		return nil, tooLong(size)
	}
	if req.proto {
		tail := v5wire.AppendSearchHashesResponse(nil, &v5wire.SearchHashesResponse{CacheDuration: d, HasCacheDuration: true})
		body := make([][]byte, 0, len(answers)+1)
		for _, e := range answers {
			if e.enc != nil && len(e.enc.proto) > 0 {
				body = append(body, e.enc.proto)
			}
		}
		return append(body, tail), nil
	}
	return s.serveJSON(prefixes, answers, d)
}

// serveJSON returns the JSON reply of answers, the answers of prefixes,
// with cacheDuration d: the elements of each prefix's full hashes, which
// the cache keeps once a JSON request has asked for them.
func (s *searcher) serveJSON(prefixes [][4]byte, answers []centry, d time.Duration) ([][]byte, *apiError) {
	frags := make([][]byte, len(answers))
	s.mu.Lock()
	for i, e := range answers {
		if e.enc != nil {
			frags[i] = e.enc.json
		}
	}
	s.mu.Unlock()
	size := 0
	for i, e := range answers {
		if e.enc == nil || frags[i] != nil {
			size += len(frags[i])
			continue
		}
		b, err := hashesJSON(e.enc)
		if err != nil {
			return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: " + err.Error()}
		}
		frags[i] = b
		size += len(b)
		s.mu.Lock()
		if cur, ok := s.cache[prefixes[i]]; ok && cur.enc == e.enc && e.enc.json == nil {
			s.bytes -= cur.bytes()
			e.enc.json = b
			s.bytes += cur.bytes()
			s.fitLocked(s.m.now().UnixNano(), 0, 0)
		}
		s.mu.Unlock()
	}
	body := make([][]byte, 0, 2*len(frags)+1)
	sep := []byte(jsonHead)
	for _, f := range frags {
		if len(f) > 0 {
			body = append(body, sep, f)
			sep = []byte{','}
		}
	}
	dur := `"cacheDuration":"` + v5wire.FormatDuration(d) + `"}`
	if len(body) == 0 {
		body = append(body, []byte("{"+dur))
	} else {
		body = append(body, []byte("],"+dur))
	}
	n := 0
	for _, b := range body {
		n += len(b)
	}
	if n > lookup.MaxSearchReply {
		return nil, tooLong(n)
	}
	return body, nil
}

// tooLong is the reply to a search whose reply would be n bytes, more
// than the mirror's clients accept.
func tooLong(n int) *apiError {
	return &apiError{status: http.StatusServiceUnavailable,
		msg: fmt.Sprintf("mirror: the reply would be %d bytes, over the %d a client accepts: ask for fewer prefixes at once", n, lookup.MaxSearchReply)}
}

// ask asks the source about miss, the prefixes of a request at missAt
// that the cache did not answer, sets their answers, and caches them,
// each encoded once, in JSON too when json is set. The source coalesces
// them with the searches in flight and bounds its requests; when ctx
// ends first, only this request fails.
func (s *searcher) ask(ctx context.Context, now time.Time, miss [][4]byte, missAt []int, answers []centry, json bool) *apiError {
	res, err := s.m.src.SearchPrefixes(ctx, miss)
	if err != nil {
		if ctx.Err() != nil {
			return &apiError{status: http.StatusServiceUnavailable, msg: "mirror: request canceled"}
		}
		s.m.log.Debug("mirror: upstream search failed", "prefixes", len(miss), "err", err)
		return upstreamError(err, s.m.now())
	}
	own := false
	joined, hits := 0, 0
	for i := range res {
		switch res[i].Origin {
		case lookup.OriginSearch:
			own = true
		case lookup.OriginJoined:
			joined++
		case lookup.OriginCache:
			hits++
		}
	}
	if own {
		s.m.stats.upstream.Add(1)
	} else {
		s.m.stats.saved.Add(1)
	}
	s.m.stats.joined.Add(uint64(joined))
	s.m.stats.hits.Add(uint64(hits))
	// An answer another request has cached since is taken as it is.
	nowNano := now.UnixNano()
	fresh := make([]bool, len(res))
	s.mu.Lock()
	for i, p := range miss {
		exp := res[i].Expires.UnixNano()
		if cur, ok := s.cache[p]; ok && cur.expires == exp && (cur.enc == nil) == (len(res[i].FullHashes) == 0) {
			answers[missAt[i]] = cur
			continue
		}
		fresh[i] = true
	}
	s.mu.Unlock()
	for i := range res {
		if !fresh[i] {
			continue
		}
		e := centry{expires: res[i].Expires.UnixNano()}
		if len(res[i].FullHashes) > 0 {
			hs := wireHashes(&res[i])
			e.enc = &encodedHashes{proto: encodeProto(hs)}
			if json {
				b, err := encodeJSON(hs)
				if err != nil {
					return &apiError{status: http.StatusInternalServerError, msg: "mirror: " + err.Error()}
				}
				e.enc.json = b
			}
		}
		answers[missAt[i]] = e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range miss {
		if e := answers[missAt[i]]; fresh[i] && e.expires > nowNano {
			s.putLocked(nowNano, p, e)
		}
	}
	return nil
}

// putLocked caches e for p, unless it takes more than the whole budget.
// s.mu must be held.
func (s *searcher) putLocked(now int64, p [4]byte, e centry) {
	n := e.bytes()
	if n > s.maxBytes {
		return
	}
	if old, ok := s.cache[p]; ok {
		s.deleteLocked(p, old)
	}
	s.fitLocked(now, 1, n)
	s.cache[p] = e
	s.bytes += n
}

// deleteLocked deletes e, the entry of p. s.mu must be held.
func (s *searcher) deleteLocked(p [4]byte, e centry) {
	delete(s.cache, p)
	s.bytes -= e.bytes()
}

// fitLocked makes room for add more entries (0 or 1) and need more
// bytes. When the cache would hold more than Config.CacheSize prefixes,
// or more than Config.CacheBytes, the expired entries are purged, and if
// that is not enough, entries chosen arbitrarily are dropped until an
// eighth of the cap that binds is free: a flood of distinct prefixes, or
// of full hashes, costs at worst more upstream searches, never a wrong
// answer. s.mu must be held.
func (s *searcher) fitLocked(now int64, add int, need int64) {
	count := len(s.cache)+add > s.size
	bytes := s.bytes+need > s.maxBytes
	if !count && !bytes {
		return
	}
	for p, e := range s.cache {
		if e.expires <= now {
			s.deleteLocked(p, e)
		}
	}
	count = len(s.cache)+add > s.size
	bytes = s.bytes+need > s.maxBytes
	for p, e := range s.cache {
		if (!count || len(s.cache) < s.size-s.size/8) && (!bytes || s.bytes+need <= s.maxBytes-s.maxBytes/8) {
			break
		}
		s.deleteLocked(p, e)
	}
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
