// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
)

// MaxSearchPrefixes is the most hash prefixes one hashes:search request
// carries, as the API allows.
const MaxSearchPrefixes = 1000

// A query is the state of one URL's lookup.
type query struct {
	hashes  []safebrowse.Hash
	entries [safebrowse.MaxExpressions]*entry // what the cache or the server knows of each hash's prefix
	need    uint64                            // bit i: hashes[i]'s prefix goes to hashes:search
	hit     bool                              // the cache alone makes the URL unsafe
	local   bool                              // Local List step 2 ran
}

// localMiss reports whether the local lists answered SAFE, with no request.
func (q *query) localMiss() bool { return q.local && !q.hit && q.need == 0 }

// Lookup returns the verdict of the Safe Browsing v5 API on rawURL, by the
// procedure of the client's Mode (see the package doc).
//
// A failure is never a verdict. When hashes:search fails (network, a status
// other than 200, a corrupt body, ctx ending, or the client backing off after
// failures), Lookup returns the error with a Verdict holding only what the
// cache already knew: never a made-up threat, never "safe" with a nil error.
// Before the lists are loaded it returns [ErrNotReady]; after Close,
// [ErrClosed]. A URL that cannot be canonicalised is an error wrapping
// both [ErrInvalidURL] and the safebrowse error, such as
// [safebrowse.ErrEmpty].
func (c *Client) Lookup(ctx context.Context, rawURL string) (Verdict, error) {
	c.stats.lookups.Add(1)
	v, err := c.lookup(ctx, rawURL)
	c.stats.countVerdict(&v, err)
	return v, err
}

func (c *Client) lookup(ctx context.Context, rawURL string) (Verdict, error) {
	if err := c.usable(); err != nil {
		return Verdict{}, err
	}
	var q query
	var buf [safebrowse.MaxExpressions]safebrowse.Hash
	hashes, err := safebrowse.AppendHashes(buf[:0], rawURL)
	if err != nil {
		return Verdict{}, &invalidURLError{err}
	}
	q.hashes = hashes
	c.plan(&q)
	if q.hit || q.need == 0 {
		if q.localMiss() {
			c.stats.localMisses.Add(1)
		}
		return q.verdict(rawURL), nil
	}
	// Local List step 3, Real-Time step 3, No-Storage step 2: ask the server.
	var pbuf [safebrowse.MaxExpressions]uint32
	prefixes := q.appendNeeded(pbuf[:0])
	res := c.searchAll(ctx, prefixes)
	reply := make(map[uint32]*entry, len(prefixes))
	err = nil
	for i, p := range prefixes {
		switch {
		case res[i].err == nil:
			reply[p] = res[i].e
		case err == nil:
			err = res[i].err
		}
	}
	// Local List step 4: match the reply (cached by searchAll).
	q.fill(reply)
	return q.verdict(rawURL), err
}

// LookupAll returns one Verdict per URL, in order, as Lookup would, sending
// the prefixes that need the server in as few hashes:search requests as
// MaxSearchPrefixes allows. A URL that cannot be parsed, or whose search
// failed, gets the Verdict of what is known (empty for a bad URL), and the
// other verdicts stand. The error, if not nil, is a [*BatchError] with one
// entry per URL: the error of each URL that could not be checked, nil for
// the others. Before the lists are loaded, every URL gets an empty verdict
// and an error that is an [ErrNotReady]; after Close, [ErrClosed].
func (c *Client) LookupAll(ctx context.Context, rawURLs []string) ([]Verdict, error) {
	c.stats.lookups.Add(uint64(len(rawURLs)))
	out := make([]Verdict, len(rawURLs))
	if err := c.usable(); err != nil {
		c.stats.errors.Add(uint64(len(rawURLs)))
		errs := make([]error, len(rawURLs))
		for i := range errs {
			errs[i] = err
		}
		return out, batchError(errs)
	}
	qs := make([]query, len(rawURLs))
	errs := make([]error, len(rawURLs))
	var prefixes []uint32
	seen := make(map[uint32]bool)
	for i, raw := range rawURLs {
		hashes, err := safebrowse.Hashes(raw)
		if err != nil {
			errs[i] = &invalidURLError{err}
			continue
		}
		q := &qs[i]
		q.hashes = hashes
		c.plan(q)
		if q.hit {
			continue
		}
		for _, p := range q.appendNeeded(nil) {
			if !seen[p] {
				seen[p] = true
				prefixes = append(prefixes, p)
			}
		}
	}
	// Step 3, in requests of at most MaxSearchPrefixes.
	replies := make(map[uint32]*entry, len(prefixes))
	failed := make(map[uint32]error)
	for i, r := range c.searchAll(ctx, prefixes) {
		if r.err != nil {
			failed[prefixes[i]] = r.err
		} else {
			replies[prefixes[i]] = r.e
		}
	}
	// Step 4.
	for i := range qs {
		q := &qs[i]
		if q.hashes == nil {
			continue
		}
		if !q.hit {
			q.fill(replies)
			for j := range q.hashes {
				if q.need&(1<<j) == 0 {
					continue
				}
				if err := failed[prefixOf(&q.hashes[j])]; err != nil {
					errs[i] = err
					break
				}
			}
		}
		out[i] = q.verdict(rawURLs[i])
		if q.localMiss() {
			c.stats.localMisses.Add(1)
		}
	}
	for i := range out {
		c.stats.countVerdict(&out[i], errs[i])
	}
	return out, batchError(errs)
}

// plan takes the steps of the client's procedure that need no request:
// it fills q.entries from the cache and sets q.need to the hashes whose
// prefixes must go to the server, or q.hit when the cache alone makes the
// URL unsafe.
func (c *Client) plan(q *query) {
	n := len(q.hashes)
	if c.mode == RealTime && !c.inGlobalCache(q.hashes) {
		// Real-Time step 1: no full hash is in the Global Cache, so the
		// Real-Time procedure goes on (else it is UNSURE, and the Local List
		// procedure below decides).
		// Real-Time step 2: the cache.
		if c.cached(q) {
			return
		}
		// Real-Time step 3 (in the caller): every prefix the cache did not
		// answer goes to the server, whether or not a local list holds it.
		q.needUncached()
		return
	}
	if c.mode == NoStorage {
		// No-Storage step 1: the cache.
		if c.cached(q) {
			return
		}
		// No-Storage step 2 (in the caller): the rest goes to the server.
		q.needUncached()
		return
	}
	// Local List step 1: the cache.
	if c.cached(q) {
		return
	}
	// Local List step 2: drop the prefixes that no local threat list holds
	// (an empty list holds none).
	q.local = true
	for _, l := range *c.active.Load() {
		for i := range n {
			if q.need&(1<<i) == 0 && q.entries[i] == nil && l.Contains(q.hashes[i][:]) {
				q.need |= 1 << i
			}
		}
	}
}

// needUncached sets q.need to every hash whose prefix the cache did not
// answer: the Real-Time and No-Storage procedures send them all to the
// server.
func (q *query) needUncached() {
	for i := range q.hashes {
		if q.entries[i] == nil {
			q.need |= 1 << i
		}
	}
}

// cached takes the cache step shared by the three procedures: an unexpired
// entry answers for its prefix, and expired entries are deleted. It reports
// whether an entry holds one of the URL's full hashes: then the URL is
// unsafe at once, with no request.
func (c *Client) cached(q *query) bool {
	n := len(q.hashes)
	if c.cache.len() == 0 {
		return false
	}
	if !c.cache.get(c.now(), q.hashes, q.entries[:n]) {
		return false
	}
	for i := range n {
		if e := q.entries[i]; e != nil {
			c.stats.cacheHits.Add(1)
			if e.holds(&q.hashes[i]) {
				q.hit = true
			}
		}
	}
	return q.hit
}

// inGlobalCache reports whether one of hashes is in gc-32b.
func (c *Client) inGlobalCache(hashes []safebrowse.Hash) bool {
	for i := range hashes {
		if c.gc.Contains(hashes[i][:]) {
			return true
		}
	}
	return false
}

// holds reports whether e has the full hash h.
func (e *entry) holds(h *safebrowse.Hash) bool {
	for i := range e.hashes {
		if e.hashes[i].hash == *h {
			return true
		}
	}
	return false
}

// appendNeeded appends the distinct prefixes q needs from the server.
func (q *query) appendNeeded(dst []uint32) []uint32 {
	n := len(dst)
	for i := range q.hashes {
		if q.need&(1<<i) != 0 {
			if p := prefixOf(&q.hashes[i]); !slices.Contains(dst[n:], p) {
				dst = append(dst, p)
			}
		}
	}
	return dst
}

// fill sets the entries of the needed hashes from the server's reply.
func (q *query) fill(reply map[uint32]*entry) {
	for i := range q.hashes {
		if q.need&(1<<i) != 0 {
			if e := reply[prefixOf(&q.hashes[i])]; e != nil {
				q.entries[i] = e
			}
		}
	}
}

// verdict returns the threats the entries of q give: for each hash, in
// expression order, each valid detail of the same full hash.
func (q *query) verdict(rawURL string) Verdict {
	var v Verdict
	var exprs []string
	for i := range q.hashes {
		e := q.entries[i]
		if e == nil {
			continue
		}
		for _, fh := range e.hashes {
			if fh.hash != q.hashes[i] {
				continue
			}
			if exprs == nil {
				var err error
				if exprs, err = safebrowse.Expressions(rawURL); err != nil || len(exprs) != len(q.hashes) {
					exprs = make([]string, len(q.hashes)) // cannot happen: the hashes came from rawURL
				}
			}
			for _, d := range fh.details {
				v.Threats = append(v.Threats, Threat{Type: d.typ, Attributes: slices.Clone(d.attrs), Expression: exprs[i]})
			}
		}
	}
	return v
}

// maxURL bounds the length of a request URL: a search for more prefixes
// than fit is split (decision 1). 8 KiB is the limit reported for Google's
// frontends.
const maxURL = 8 << 10

// prefixParam is the length of one hashPrefixes parameter:
// "&hashPrefixes=" and 8 characters of base64.
const prefixParam = len("&hashPrefixes=") + 8

// splitSearch cuts prefixes into runs whose search URLs are at most maxURL
// bytes long; a run holds one prefix at least.
func (c *Client) splitSearch(prefixes []uint32) [][]uint32 {
	per := max((maxURL-len(c.requestURL(methodSearch, "")))/prefixParam, 1)
	var parts [][]uint32
	for len(prefixes) > per {
		parts = append(parts, prefixes[:per])
		prefixes = prefixes[per:]
	}
	return append(parts, prefixes)
}

// appendPrefixQuery appends the hashPrefixes parameters of a search: each
// prefix in URL-safe base64 with its padding, as Chromium encodes its
// requests (decision 2). Neither the alphabet nor "=" needs escaping in a
// query value.
func appendPrefixQuery(dst []byte, prefixes []uint32) []byte {
	for i, p := range prefixes {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, "hashPrefixes="...)
		dst = base64.URLEncoding.AppendEncode(dst, binary.BigEndian.AppendUint32(nil, p))
	}
	return dst
}

// search1 sends the hashes:search request of f and returns an entry for
// each of its prefixes, which it caches.
func (c *Client) search1(f *flight) (map[uint32]*entry, error) {
	prefixes := f.prefixes
	q := appendPrefixQuery(make([]byte, 0, prefixParam*len(prefixes)), prefixes)
	body, err := c.getRaw(f.ctx, methodSearch, methodSearch, string(q), MaxSearchReply)
	if !unsent(err) {
		c.stats.searches.Add(1)
	}
	var reply searchReply
	if err == nil {
		reply, err = parseSearchReply(body)
		if err != nil {
			err = fmt.Errorf("lookup: %s: %w", methodSearch, err)
		}
	}
	now := c.now()
	if err != nil {
		c.stats.searchErrors.Add(1)
		if !f.cancelled() && c.closing.Err() == nil {
			c.backOff(&c.searches, now, err)
		}
		return nil, err
	}
	// Local List step 4: the cache. cache_duration applies to every prefix
	// sent, matched or not (the negative cache).
	d := min(reply.duration, MaxCacheDuration)
	byPrefix := make(map[uint32][]fullHash, len(prefixes))
	for _, p := range prefixes {
		byPrefix[p] = nil
	}
	for _, fh := range reply.hashes {
		p := prefixOf(&fh.hash)
		hs, ok := byPrefix[p]
		if !ok {
			// Decision 3: a full hash for a prefix not asked for is
			// dropped, as Chromium drops it: never cached, never a
			// verdict, and the rest of the reply stands.
			c.log.Debug("lookup: dropped a full hash for a prefix not asked for", "hash", fmt.Sprintf("%x", fh.hash[:]))
			continue
		}
		byPrefix[p] = append(hs, fh)
	}
	mine := make(map[uint32]*entry, len(prefixes))
	for p, hs := range byPrefix {
		mine[p] = newEntry(now.Add(d), hs)
	}
	c.searches.reset()
	// A reply without cache_duration caches nothing.
	if reply.hasDuration && d > 0 {
		c.cache.put(now, mine)
	}
	return mine, nil
}

// failed records a failed request in b, unless it failed because the
// caller's ctx ended or the client was closed: that is no sign of a server
// in trouble.
func (c *Client) failed(ctx context.Context, b *backoff, now time.Time, err error) {
	if ctx.Err() != nil || c.closing.Err() != nil {
		return
	}
	c.backOff(b, now, err)
}

// backOff records a failed request in b, and logs it.
func (c *Client) backOff(b *backoff, now time.Time, err error) {
	if !b.fail(now, c.rand(), err) {
		n, _ := b.state()
		c.log.Warn("lookup: request failed", "method", b.method, "failures", n, "err", err)
		return
	}
	n, until := b.state()
	c.log.Warn("lookup: request failed; backing off", "method", b.method, "failures", n, "until", until, "err", err)
}
