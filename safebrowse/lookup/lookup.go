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
	"sync"
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
	// lens holds, under Web Risk, the length of the prefix of each hash
	// that is searched and cached: the local entry it matched, of 4 to 32
	// bytes; 0 means 4, as every prefix is under v5.
	lens  [safebrowse.MaxExpressions]uint8
	need  uint64 // bit i: hashes[i]'s prefix goes to hashes:search
	hit   bool   // the cache alone makes the URL unsafe
	local bool   // Local List step 2 ran
}

// reset zeroes q, as cheaply as it can: q sets entries and lens only
// below len(hashes), so the others are zero still. Every field of query
// is zeroed here.
func (q *query) reset() {
	clear(q.entries[:len(q.hashes)])
	clear(q.lens[:len(q.hashes)])
	q.hashes, q.need, q.hit, q.local = nil, 0, false, false
}

// prefix returns the prefix of hashes[i] that is searched and cached.
func (q *query) prefix(i int) []byte {
	n := max(int(q.lens[i]), 4)
	return q.hashes[i][:n]
}

// key returns the key of the prefix of hashes[i].
func (q *query) key(i int) key {
	if q.lens[i] <= 4 {
		return key{p: prefixOf(&q.hashes[i])}
	}
	return key{long: string(q.hashes[i][:q.lens[i]])}
}

// localMiss reports whether the local lists answered SAFE, with no request.
func (q *query) localMiss() bool { return q.local && !q.hit && q.need == 0 }

// Lookup returns the verdict of the Safe Browsing v5 API on rawURL (or of
// the Web Risk API, with Config.API), by the procedure of the client's
// Mode (see the package doc).
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
	hashes, err := c.hosts.AppendHashes(buf[:0], rawURL)
	if err != nil {
		return Verdict{}, &invalidURLError{err}
	}
	q.hashes = hashes
	c.plan(&q)
	if q.hit || q.need == 0 {
		if q.localMiss() {
			c.stats.localMisses.Add(1)
		}
		return q.verdict(rawURL, c.hosts), nil
	}
	// Local List step 3, Real-Time step 3, No-Storage step 2: ask the server.
	var pbuf [safebrowse.MaxExpressions]key
	prefixes := q.appendNeeded(pbuf[:0])
	res := c.searchAll(ctx, prefixes)
	reply := make(map[key]*entry, len(prefixes))
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
	return q.verdict(rawURL, c.hosts), err
}

// LookupAll returns one Verdict per URL, in order, as Lookup would, sending
// the prefixes that need the server in as few hashes:search requests as
// MaxSearchPrefixes allows. A URL that cannot be parsed, or whose search
// failed, gets the Verdict of what is known (empty for a bad URL), and the
// other verdicts stand. The error, if not nil, is a [*BatchError] with one
// entry per URL: the error of each URL that could not be checked, nil for
// the others. Before the lists are loaded, every URL gets an empty verdict
// and an error that is an [ErrNotReady]; after Close, [ErrClosed].
//
// The verdicts are the caller's: no two share memory, and the Client keeps
// none of it.
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
	b := getBatch(len(rawURLs))
	defer putBatch(b)
	qs := b.qs
	var errs []error // made at the first error
	fail := func(i int, err error) {
		if errs == nil {
			errs = make([]error, len(rawURLs))
		}
		errs[i] = err
	}
	var prefixes []key
	seen := make(map[key]bool)
	for i, raw := range rawURLs {
		// The hashes of every URL lie end to end in b.hashes. A query
		// keeps its own slice, which stays valid when a later append
		// moves b.hashes: hashes are never changed once appended.
		start := len(b.hashes)
		hashes, err := c.hosts.AppendHashes(b.hashes, raw)
		if err != nil {
			fail(i, &invalidURLError{err})
			continue
		}
		b.hashes = hashes
		q := &qs[i]
		q.hashes = hashes[start:len(hashes):len(hashes)]
		c.plan(q)
		if q.hit || q.need == 0 {
			continue
		}
		var pbuf [safebrowse.MaxExpressions]key
		for _, p := range q.appendNeeded(pbuf[:0]) {
			if !seen[p] {
				seen[p] = true
				prefixes = append(prefixes, p)
			}
		}
	}
	if len(prefixes) > 0 {
		// Step 3, in requests of at most MaxSearchPrefixes.
		replies := make(map[key]*entry, len(prefixes))
		failed := make(map[key]error)
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
			if q.hit || q.need == 0 {
				continue
			}
			q.fill(replies)
			for j := range q.hashes {
				if q.need&(1<<j) == 0 {
					continue
				}
				if err := failed[q.key(j)]; err != nil {
					fail(i, err)
					break
				}
			}
		}
	}
	verdicts(out, qs, rawURLs, c.hosts)
	for i := range qs {
		if qs[i].localMiss() {
			c.stats.localMisses.Add(1)
		}
	}
	for i := range out {
		var err error
		if errs != nil {
			err = errs[i]
		}
		c.stats.countVerdict(&out[i], err)
	}
	if errs == nil {
		return out, nil
	}
	return out, batchError(errs)
}

// A batch is the working memory of one LookupAll: the query of each URL
// and their hashes. Batches are pooled, so that a LookupAll allocates only
// what it returns. Nothing in a batch reaches a Verdict.
type batch struct {
	qs     []query
	hashes []safebrowse.Hash
}

// maxPooledURLs bounds what the pool keeps: a batch that has held more
// URLs, or their hashes, is dropped when its LookupAll returns, so that a
// pooled batch holds at most maxPooledURLs queries and
// maxPooledURLs×MaxExpressions hashes (about 80 KB).
const maxPooledURLs = 64

var batches = sync.Pool{New: func() any { return new(batch) }}

// getBatch returns a batch of n zero queries and no hashes.
func getBatch(n int) *batch {
	b := batches.Get().(*batch)
	b.qs = slices.Grow(b.qs[:0], n)[:n]
	b.hashes = b.hashes[:0]
	return b
}

// putBatch zeroes the queries of b, so that it keeps no cache entry alive,
// and returns it to the pool unless it has grown past maxPooledURLs.
func putBatch(b *batch) {
	for i := range b.qs {
		b.qs[i].reset()
	}
	if cap(b.qs) > maxPooledURLs || cap(b.hashes) > maxPooledURLs*safebrowse.MaxExpressions {
		return
	}
	batches.Put(b)
}

// plan takes the steps of the client's procedure that need no request:
// it fills q.entries from the cache and sets q.need to the hashes whose
// prefixes must go to the server, or q.hit when the cache alone makes the
// URL unsafe.
func (c *Client) plan(q *query) {
	if c.api == WebRisk {
		c.planWebRisk(q) // webrisk.go
		return
	}
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
func (q *query) appendNeeded(dst []key) []key {
	n := len(dst)
	for i := range q.hashes {
		if q.need&(1<<i) != 0 {
			if p := q.key(i); !slices.Contains(dst[n:], p) {
				dst = append(dst, p)
			}
		}
	}
	return dst
}

// fill sets the entries of the needed hashes from the server's reply.
func (q *query) fill(reply map[key]*entry) {
	for i := range q.hashes {
		if q.need&(1<<i) != 0 {
			if e := reply[q.key(i)]; e != nil {
				q.entries[i] = e
			}
		}
	}
}

// verdict returns the threats the entries of q give: for each hash, in
// expression order, each valid detail of the same full hash. Its Threats
// and their Attributes lie in two arrays of its own. hosts is the host
// rule the hashes came from.
func (q *query) verdict(rawURL string, hosts safebrowse.HostRule) Verdict {
	nt, na := q.count()
	if nt == 0 {
		return Verdict{}
	}
	threats, _ := q.appendThreats(make([]Threat, 0, nt), make([]ThreatAttribute, 0, na), rawURL, hosts)
	return Verdict{Threats: threats}
}

// verdicts sets vs[i] to the verdict of qs[i], the query of rawURLs[i], as
// verdict gives it. The Threats of all the verdicts lie in one array, and
// their Attributes in another, both allocated here, each verdict's slices
// capped at its own part: no verdict aliases another's, and an append to
// one copies it.
func verdicts(vs []Verdict, qs []query, rawURLs []string, hosts safebrowse.HostRule) {
	nt, na := 0, 0
	for i := range qs {
		t, a := qs[i].count()
		nt, na = nt+t, na+a
	}
	if nt == 0 {
		return
	}
	threats, attrs := make([]Threat, 0, nt), make([]ThreatAttribute, 0, na)
	for i := range qs {
		if t, _ := qs[i].count(); t == 0 {
			continue
		}
		start := len(threats)
		threats, attrs = qs[i].appendThreats(threats, attrs, rawURLs[i], hosts)
		vs[i].Threats = threats[start:len(threats):len(threats)]
	}
}

// count returns the threats of q's verdict and their attributes.
func (q *query) count() (threats, attrs int) {
	for i := range q.hashes {
		e := q.entries[i]
		if e == nil {
			continue
		}
		for _, fh := range e.hashes {
			if fh.hash != q.hashes[i] {
				continue
			}
			threats += len(fh.details)
			for _, d := range fh.details {
				attrs += len(d.attrs)
			}
		}
	}
	return threats, attrs
}

// appendThreats appends the threats of q's verdict to threats, and their
// attributes to attrs: each Threat's Attributes is its part of attrs,
// capped, or nil when it has none. Each Expression is a substring of
// rawURL's canonical form, made once for the URL.
func (q *query) appendThreats(threats []Threat, attrs []ThreatAttribute, rawURL string, hosts safebrowse.HostRule) ([]Threat, []ThreatAttribute) {
	var exprs [safebrowse.MaxExpressions]string
	parsed := false
	for i := range q.hashes {
		e := q.entries[i]
		if e == nil {
			continue
		}
		for _, fh := range e.hashes {
			if fh.hash != q.hashes[i] {
				continue
			}
			if !parsed {
				parsed = true
				expressions(&exprs, rawURL, len(q.hashes), hosts)
			}
			for _, d := range fh.details {
				t := Threat{Type: d.typ, Expression: exprs[i]}
				if len(d.attrs) > 0 {
					a := len(attrs)
					attrs = append(attrs, d.attrs...)
					t.Attributes = attrs[a:len(attrs):len(attrs)]
				}
				threats = append(threats, t)
			}
		}
	}
	return threats, attrs
}

// expressions sets exprs to the n expressions of rawURL under the host
// rule hosts, in the order of its hashes, all substrings of one string. It leaves them all empty if
// rawURL has not n expressions, which cannot happen: its n hashes came
// from it.
func expressions(exprs *[safebrowse.MaxExpressions]string, rawURL string, n int, hosts safebrowse.HostRule) {
	u, err := safebrowse.Parse(rawURL)
	if err != nil {
		return
	}
	k := 0
	for e := range u.Expressions(hosts) {
		if k == len(exprs) {
			break
		}
		exprs[k] = e
		k++
	}
	if k != n {
		clear(exprs[:])
	}
}

// maxURL bounds the length of a request URL: a search for more prefixes
// than fit is split (decision 1). 8 KiB is the limit reported for Google's
// frontends.
const maxURL = 8 << 10

// prefixParam is the length of one hashPrefixes parameter:
// "&hashPrefixes=" and 8 characters of base64.
const prefixParam = len("&hashPrefixes=") + 8

// splitSearch cuts prefixes into runs whose search URLs are at most maxURL
// bytes long; a run holds one prefix at least. Under Web Risk, whose
// hashes:search takes one prefix, each run holds one.
func (c *Client) splitSearch(prefixes []key) [][]key {
	per := max((maxURL-len(c.requestURL(methodSearch, "")))/prefixParam, 1)
	if c.api == WebRisk {
		per = 1
	}
	var parts [][]key
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
func appendPrefixQuery(dst []byte, prefixes []key) []byte {
	var b [4]byte
	for i, p := range prefixes {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, "hashPrefixes="...)
		binary.BigEndian.PutUint32(b[:], p.p)
		dst = base64.URLEncoding.AppendEncode(dst, b[:])
	}
	return dst
}

// search1 sends the v5 hashes:search request of f and returns an entry
// for each of its prefixes, which it caches.
func (c *Client) search1(f *flight) (map[key]*entry, error) {
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
	byPrefix := make(map[key][]fullHash, len(prefixes))
	for _, p := range prefixes {
		byPrefix[p] = nil
	}
	for _, fh := range reply.hashes {
		p := key{p: prefixOf(&fh.hash)}
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
	mine := make(map[key]*entry, len(prefixes))
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
