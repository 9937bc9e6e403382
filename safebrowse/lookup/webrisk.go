// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file is what a Client does under Web Risk that it does otherwise
// under v5: its lists' updates (threatLists:computeDiff), the list step
// of its Local List procedure, and its searches (hashes:search, one
// prefix a request). The messages are read and written by
// safebrowse/internal/v4wire, in JSON, and the lists are hashlist's
// PrefixSets. The rest (the cache, the searches in flight, the back-offs,
// Dir, the masking of the key) is the v5 client's.

// The limits on Web Risk's reply bodies, in JSON as Google's servers send
// it. A longer body is an error ([ErrCorruptReply]), refused before a
// byte is read when its Content-Length says so, as under v5.
const (
	// MaxWebRiskSearchReply bounds a hashes:search reply, which answers
	// one prefix. A ThreatHash takes about 250 bytes of JSON as Google
	// writes it, indented, with its four threat types, its hash in
	// base64 and its expireTime, so 1 MiB holds some 4,000 full hashes
	// for one prefix, where Google lists a few; the JSON reader then
	// allocates at most 40 MiB (package v4wire's bound of 40 bytes a
	// byte of input).
	MaxWebRiskSearchReply = 1 << 20

	// MaxWebRiskListReply caps a threatLists:computeDiff reply, which
	// holds one list. A reply is bounded first by the most entries the
	// list may hold, N (Config.MaxDatabaseEntries, or what the client
	// sends as constraints.maxDatabaseEntries if less): a diff adds at
	// most N entries and removes at most N. In base64, an entry of w
	// bytes sent raw takes 4w/3 bytes, at most 43 for 32 bytes, and a
	// 4-byte one Rice-coded at most 7 (5 bytes of Rice data at a
	// parameter that fits, as [MaxListReply] derives it); an index
	// removed takes at most 7 Rice-coded, or about 20 as a number of an
	// indented JSON array. So a reply takes at most 64 bytes an entry
	// (43 + 20, rounded up), and 64 KiB for its version token (at most
	// [MaxVersion] bytes), checksum, times and framing: N×64 + 64 KiB,
	// never more than MaxWebRiskListReply, the cap of [MaxListReply],
	// reached from N = 4M. A list of a million entries, as Web Risk's
	// are, takes about 7 MB Rice-coded.
	MaxWebRiskListReply = MaxListReply
)

// webRiskListLimit returns the most bytes a computeDiff reply may have,
// when the list may hold at most n entries, as MaxWebRiskListReply
// derives it.
func webRiskListLimit(n int) int64 {
	return min(int64(n)*64+64<<10, MaxWebRiskListReply)
}

// The schedule of Web Risk's list updates.
const (
	// webRiskWait is the wait before a list's next update when the reply
	// recommends none: 30 minutes, as github.com/google/webrisk's
	// DefaultUpdatePeriod, give or take webRiskJitter.
	webRiskWait   = 30 * time.Minute
	webRiskJitter = 30 * time.Second
	// minDiffWait is the shortest wait a recommendedNextDiff may set, so
	// that a time in the past cannot make updates loop.
	minDiffWait = time.Second
)

// webRiskConstraint returns the constraints.maxDatabaseEntries and
// maxDiffEntries sent for Config.MaxDatabaseEntries n > 0: Web Risk takes
// only the powers of two from 2^10 to 2^20, so the one at or below n,
// 2^10 for less and 2^20 for more.
func webRiskConstraint(n int) int32 {
	p := int32(1 << 10)
	for p < 1<<20 && int(p)*2 <= n {
		p *= 2
	}
	return p
}

// nextDiff returns when a list is next due after a reply at now that
// recommended rec (zero: none): rec held within minDiffWait and
// MaxMinimumWait of now, or, when the reply recommended none,
// webRiskWait give or take webRiskJitter, so that clients started
// together do not stay in step.
func (c *Client) nextDiff(now, rec time.Time) time.Time {
	if rec.IsZero() {
		return now.Add(webRiskWait + time.Duration((2*c.rand()-1)*float64(webRiskJitter)))
	}
	lo, hi := now.Add(minDiffWait), now.Add(MaxMinimumWait)
	switch {
	case rec.Before(lo):
		return lo
	case rec.After(hi):
		return hi
	}
	return rec
}

// fetchDueWebRisk fetches each due list with its own computeDiff request,
// in the order of Config.Lists, and applies the replies. A request that
// fails for the network or the server (a timeout, a 5xx, 408 or 429)
// stops the round, since the next would fail too: the lists not asked
// stay due, after the updates' back-off. One the server refuses (another
// 4xx) fails its list alone, whose version is dropped, and the round goes
// on, so that no list stops the others.
func (c *Client) fetchDueWebRisk(ctx context.Context, due []*listState) error {
	var errs []error
	failed := false
	now := c.now()
	for _, s := range due {
		c.stats.updates.Add(1)
		req := v4wire.ComputeThreatListDiffRequest{
			ThreatType: webRiskType(s.name),
			Constraints: v4wire.DiffConstraints{
				MaxDiffEntries:        c.wrConstraint,
				MaxDatabaseEntries:    c.wrConstraint,
				SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRice, v4wire.CompressionRaw},
			},
		}
		if v := s.set.Version(); !s.whole && len(v) > 0 {
			req.VersionToken = v
		}
		q := v4wire.AppendComputeThreatListDiffRequestQuery(nil, &req)
		body, isJSON, err := c.getForm(ctx, methodDiff, methodDiff, string(q), webRiskListLimit(c.maxEntries))
		now = c.now()
		if err != nil {
			c.stats.updateErrors.Add(1)
			failed = true
			errs = append(errs, err)
			if ctx.Err() != nil || c.closing.Err() != nil {
				break
			}
			drop := refusesRequest(err)
			c.statusMu.Lock()
			s.err = err
			s.whole = s.whole || drop
			c.statusMu.Unlock()
			if !drop {
				break
			}
			continue
		}
		err = c.applyDiff(now, s, body, isJSON)
		s.unsaved = s.unsaved || (err == nil && c.dir != "")
		c.statusMu.Lock()
		s.err = err
		c.statusMu.Unlock()
		if err != nil {
			errs = append(errs, err)
			if !errors.Is(err, hashlist.ErrChecksum) {
				c.stats.updateErrors.Add(1)
				failed = true
			}
		}
	}
	err := errors.Join(errs...)
	if failed {
		c.failed(ctx, &c.updates, now, err)
	} else {
		c.updates.reset()
	}
	c.refreshActive()
	c.markReady()
	return err
}

// applyDiff applies the ComputeThreatListDiffResponse body, binary or
// JSON, to the list s and sets when it is due next; update saves it to
// Dir. Any failure keeps the old list answering and drops its version, so
// that the next fetch is whole: after a checksum mismatch, due as the
// reply recommends; after a corrupt reply, at once but for the updates'
// back-off.
func (c *Client) applyDiff(now time.Time, s *listState, body []byte, isJSON bool) error {
	var m v4wire.ComputeThreatListDiffResponse
	var err error
	if isJSON {
		m, err = v4wire.ParseComputeThreatListDiffResponseJSON(body)
	} else {
		m, err = v4wire.ParseComputeThreatListDiffResponse(body)
	}
	switch {
	case err != nil:
		err = corrupt("%v", err)
	case !m.ResponseType.Valid():
		err = corrupt("responseType %d is neither DIFF nor RESET", int(m.ResponseType))
	case len(m.NewVersionToken) > MaxVersion:
		err = corrupt("newVersionToken of %d bytes, over %d", len(m.NewVersionToken), MaxVersion)
	}
	if err != nil {
		s.whole = true
		return fmt.Errorf("lookup: list %s: %w", s.name, err)
	}
	d := diffOf(&m)
	before := s.set.Len()
	next := c.nextDiff(now, m.RecommendedNextDiff)
	// Config.MaxDatabaseEntries (or the constraint sent, if less) bounds
	// the list: hashlist checks the counts before it decodes a byte.
	if err := c.scrub(s.set.Apply(&d, c.maxEntries)); err != nil {
		s.whole = true
		if errors.Is(err, hashlist.ErrChecksum) {
			c.statusMu.Lock()
			s.next = next
			c.statusMu.Unlock()
			c.log.Warn("lookup: list checksum mismatch; keeping the old list, to be fetched whole",
				"list", s.name, "entries", before, "next", next)
		}
		return fmt.Errorf("lookup: list %s: %w", s.name, err)
	}
	s.whole = false
	c.statusMu.Lock()
	s.next, s.updated = next, now
	c.statusMu.Unlock()
	s.loaded.Store(true)
	c.log.Info("lookup: list updated", "list", s.name, "reset", d.Reset,
		"entries", s.set.Len(), "before", before, "next", next)
	return nil
}

// diffOf returns the hashlist Diff of a computeDiff reply, field for
// field: hashlist checks it all.
func diffOf(m *v4wire.ComputeThreatListDiffResponse) hashlist.Diff {
	d := hashlist.Diff{Reset: m.ResponseType == v4wire.FullUpdate, Version: m.NewVersionToken, Checksum: m.Checksum}
	if a := m.Additions; a != nil {
		for _, g := range a.RawHashes {
			d.Raw = append(d.Raw, hashlist.RawHashes(g))
		}
		if a.RiceHashes != nil {
			r := hashlist.Rice(*a.RiceHashes)
			d.Rice = &r
		}
	}
	if r := m.Removals; r != nil {
		if r.RawIndices != nil {
			d.RawRemovals = r.RawIndices.Indices
		}
		if r.RiceIndices != nil {
			ri := hashlist.Rice(*r.RiceIndices)
			d.RiceRemovals = &ri
		}
	}
	return d
}

// planWebRisk is plan under Web Risk. In NoStorage mode it is v5's: the
// cache, by 4-byte prefix, then every prefix it did not answer. In Local
// List mode the lists come first, since they say which prefix of a hash is
// searched and cached:
//
//  1. The lists: each hash that an entry of a list matches, on the
//     entry's whole length, needs the shortest such entry of any list
//     (one search of it covers every list, as the search asks every
//     threat type); the others are safe.
//  2. The cache, by that entry: an unexpired entry answers, and one that
//     holds the hash makes the URL unsafe at once.
//  3. The rest goes to hashes:search (in the caller).
func (c *Client) planWebRisk(q *query) {
	if c.mode == NoStorage {
		if c.cached(q) {
			return
		}
		q.needUncached()
		return
	}
	q.local = true
	sets := *c.activeSets.Load()
	if len(sets) == 0 {
		return
	}
	n := len(q.hashes)
	matched := false
	for _, s := range sets {
		for i := range n {
			if p, ok := s.Match(q.hashes[i][:]); ok && (q.lens[i] == 0 || len(p) < int(q.lens[i])) {
				q.lens[i] = uint8(len(p))
				matched = true
			}
		}
	}
	if !matched {
		return
	}
	now := c.now()
	for i := range n {
		if q.lens[i] == 0 {
			continue
		}
		e := c.cache.getPrefix(now, q.prefix(i))
		if e == nil {
			q.need |= 1 << i
			continue
		}
		q.entries[i] = e
		c.stats.cacheHits.Add(1)
		if e.holds(&q.hashes[i]) {
			q.hit = true
		}
	}
}

// searchWebRisk sends the Web Risk hashes:search request of f, which asks
// one prefix for the threat types of the client's lists, and returns its
// entry, which it caches until it expires.
func (c *Client) searchWebRisk(f *flight) (map[key]*entry, error) {
	k := f.prefixes[0]
	prefix := k.appendTo(make([]byte, 0, 32))
	q := v4wire.AppendSearchHashesRequestQuery(nil, &v4wire.SearchHashesRequest{HashPrefix: prefix, ThreatTypes: c.wrTypes})
	body, isJSON, err := c.getForm(f.ctx, methodSearch, methodSearch, string(q), MaxWebRiskSearchReply)
	c.stats.searches.Add(1)
	now := c.now()
	var hashes []fullHash
	var expires time.Time
	if err == nil {
		hashes, expires, err = c.parseWebRiskSearch(body, isJSON, prefix, now)
		if err != nil {
			err = fmt.Errorf("lookup: %s: %w", methodSearch, err)
		}
	}
	if err != nil {
		c.stats.searchErrors.Add(1)
		if !f.cancelled() && c.closing.Err() == nil {
			c.backOff(&c.searches, now, err)
		}
		return nil, err
	}
	mine := map[key]*entry{k: newEntry(expires, hashes)}
	c.searches.reset()
	if expires.After(now) {
		c.cache.put(now, mine)
	}
	return mine, nil
}

// parseWebRiskSearch reads a SearchHashesResponse, binary or in JSON, the
// reply for prefix at now, and returns its full hashes, each with the threat types
// this package knows and the client asked (others are dropped), and until
// when the answer may be cached: the earliest of negativeExpireTime and
// the expireTime of every full hash kept, at most MaxCacheDuration from
// now, and now itself when one is absent or past. So the cache answers
// only while every part of the answer holds. A full hash that does not
// start with prefix is dropped, as v5's decision 3 drops one of a prefix
// not asked; the same full hash given twice is one, with the threat types
// of both.
func (c *Client) parseWebRiskSearch(body []byte, isJSON bool, prefix []byte, now time.Time) ([]fullHash, time.Time, error) {
	var m v4wire.SearchHashesResponse
	var err error
	if isJSON {
		m, err = v4wire.ParseSearchHashesResponseJSON(body)
	} else {
		m, err = v4wire.ParseSearchHashesResponse(body)
	}
	if err != nil {
		return nil, time.Time{}, corrupt("%v", err)
	}
	expires := m.NegativeExpireTime
	var hashes []fullHash
	seen := make(map[safebrowse.Hash]int, min(len(m.Threats), 64))
	for i := range m.Threats {
		t := &m.Threats[i]
		if !bytes.HasPrefix(t.Hash[:], prefix) {
			c.log.Debug("lookup: dropped a full hash for a prefix not asked for", "hash", fmt.Sprintf("%x", t.Hash[:]))
			continue
		}
		var ds []detail
		for _, wt := range t.ThreatTypes {
			if typ, ok := threatOfWebRisk(wt); ok && slices.Contains(c.wrTypes, wt) {
				ds = addDetail(ds, typ, nil)
			}
		}
		if len(ds) == 0 {
			continue
		}
		if t.ExpireTime.Before(expires) {
			expires = t.ExpireTime
		}
		k, ok := seen[t.Hash]
		if !ok {
			seen[t.Hash] = len(hashes)
			hashes = append(hashes, fullHash{hash: t.Hash, details: ds})
			continue
		}
		for _, d := range ds {
			hashes[k].details = addDetail(hashes[k].details, d.typ, nil)
		}
	}
	if limit := now.Add(MaxCacheDuration); expires.After(limit) {
		expires = limit
	}
	if expires.Before(now) {
		expires = now
	}
	return hashes, expires, nil
}
