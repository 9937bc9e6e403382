// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/minwait"
	"github.com/urlspec/urlspec/safebrowse/internal/replycache"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file answers threatListUpdates:fetch: it builds each list's
// updates, full, partial and chunked, encodes them, and keeps them in the
// list's cache.

// Bounds of what a list keeps besides its versions.
const (
	// listCacheFactor and minListCache make the budget of a list's cache
	// of updates and chunk states: listCacheFactor times the bytes of
	// the list's current version, plus minListCache, so that the whole
	// list Rice-coded and raw, in binary and in JSON (about 0.4, 1, 0.55
	// and 1.35 times the list's bytes), fits with room for partial
	// updates and chunks, and a small list's updates fit at all.
	listCacheFactor = 4
	minListCache    = 64 << 10
	// maxBuilds bounds the updates a server builds at once, so that the
	// memory of the builds in flight (a few times a list each) is
	// bounded too. A request for a cached update never waits for it.
	maxBuilds = 4
	// updateOverhead and stateOverhead are what an update and a chunk
	// state cost the cache beside their bytes.
	updateOverhead = 96
	stateOverhead  = 128
)

// listCacheLimit returns the budget of the cache of a list whose current
// version holds n bytes of entries.
func listCacheLimit(n int) int64 { return listCacheFactor*int64(n) + minListCache }

// The kinds of entry in a list's cache.
const (
	keyProto = iota // an update in binary protobuf
	keyJSON         // an update in Google's JSON mapping
	keyState        // a chunk state
)

// A cacheKey names an entry of a list's cache: an update, in the encoding
// kind says, that takes a client at state from ("" for none or one the
// list does not know) towards version to, the list's current one, in
// chunks of chunk entries (0: no limit), its additions Rice-coded or raw;
// or, of kind keyState, the chunk state named from.
type cacheKey struct {
	kind     uint8
	rice     bool
	to, from string
	chunk    int
}

// size is what the key's strings cost.
func (k cacheKey) size() int64 { return int64(len(k.to) + len(k.from)) }

// A cached entry is an update or a chunk state.
type cached struct {
	update *update
	state  *chunkState
}

// A listCache is a list's cache of updates and chunk states.
type listCache = replycache.Cache[cacheKey, *cached]

// An update is one list's ListUpdateResponse but its three types, which
// each request sets: its body, encoded once and shared by every reply
// that carries it (see [v4wire.AppendListUpdateResponseBody]).
type update struct {
	body    []byte
	partial bool // PARTIAL_UPDATE, else FULL_UPDATE
	// final is false for a chunk that is not the last of its update: the
	// reply then has no minimum wait, so that the client asks again at
	// once.
	final bool
}

func (u *update) size() int64 { return int64(cap(u.body)) + updateOverhead }

// A chunkState is a list as a client holds it part way through a chunked
// update: its base with the first k entries of the base's update to
// version to applied, the removals first, then the smallest additions.
// The base is a version the list keeps (named by from), the empty list
// (from "" and held nil), or, for a client whose update a newer version
// overtook, the client's list itself, held and counted. As the mirror's,
// a state names its versions rather than holding them, so that a version
// the list drops is freed, and its states become unknown.
type chunkState struct {
	state []byte
	sum   [32]byte
	to    string
	from  string
	held  *version
	k     int
}

func (s *chunkState) size() int64 {
	n := int64(len(s.state)+len(s.to)+len(s.from)) + stateOverhead
	if s.held != nil {
		n += s.held.ent.bytes() + int64(len(s.held.state)+len(s.held.s)) + stateOverhead
	}
	return n
}

// A start is where a client stands, as the state it sent names it: base
// (nil: the empty list) with the first k entries of its update to target
// applied. from is the state the client named when the list knows it,
// else "", and sum that state's checksum. partial is false for a client
// with no state the list knows, which gets the whole list.
type start struct {
	from    string
	sum     [32]byte
	base    *version
	target  *version
	k       int
	partial bool
}

// locate returns where a client at state st stands. l.mu must be held,
// and l loaded.
func (l *list) locate(st []byte) start {
	whole := start{target: l.cur}
	if len(st) == 0 {
		return whole
	}
	for _, h := range l.history {
		if bytes.Equal(h.state, st) {
			return start{from: h.s, sum: h.sum, base: h, target: l.cur, partial: true}
		}
	}
	e, ok := l.cache.Get(cacheKey{kind: keyState, from: string(st)})
	if !ok {
		return whole
	}
	cs := e.state
	target, base := l.kept(cs.to), cs.held
	if cs.from != "" {
		base = l.kept(cs.from)
	}
	if target == nil || (cs.from != "" && base == nil) {
		return whole
	}
	return start{from: string(cs.state), sum: cs.sum, base: base, target: target, k: cs.k, partial: true}
}

// kept returns the version of l's history named s, or nil.
func (l *list) kept(s string) *version {
	for _, h := range l.history {
		if h.s == s {
			return h
		}
	}
	return nil
}

// split returns how many of the first k entries of an update of r
// removals are removals, and how many additions.
func split(k, r int) (int, int) {
	n := min(k, r)
	return n, k - n
}

// build returns the update that takes a client at s towards cur, the
// list's current version, in a chunk of at most chunk entries (0: no
// limit), its additions Rice-coded when rice is set, else raw:
//
//   - a client at cur gets an empty partial update;
//   - a client at a version or a chunk state the list keeps gets a
//     partial update: removals as indices into its list in byte order,
//     then additions;
//   - any other gets the whole list, a full update with no removals;
//   - an update of more entries than chunk holds the removals first and
//     then the smallest additions, up to chunk, and leads to a state of
//     its own, which the list's cache keeps; its reply has no minimum
//     wait, so that the client asks for the rest at once;
//   - every update carries the checksum of the list it leads to, and the
//     client state named after it.
//
// It diffs, hashes and encodes with no lock held.
func (l *list) build(s start, cur *version, chunk int, rice bool) (*update, error) {
	base, k := s.base, s.k
	var held *version
	if s.target != cur {
		// The client's update was overtaken by a newer version: its list
		// is built, and taken to cur from there.
		rem, add := diff(entriesOf(base), s.target.ent)
		r, a := split(k, len(rem))
		done, _ := add.cut(a)
		held = &version{state: []byte(s.from), s: s.from, sum: s.sum, ent: apply(entriesOf(base), rem[:r], done)}
		base, k = held, 0
	}
	var rem []uint32
	var add entries
	if base != cur {
		rem, add = diff(entriesOf(base), cur.ent)
	}
	r, a := split(k, len(rem))
	rest := make([]uint32, len(rem)-r)
	for i, x := range rem[r:] {
		rest[i] = x - uint32(r) // the first r removals are gone, all before x
	}
	_, left := add.cut(a)
	chunkRem, chunkAdd, cut := limit(rest, left, chunk)
	lr := v4wire.ListUpdateResponse{ResponseType: v4wire.FullUpdate}
	if s.partial {
		lr.ResponseType = v4wire.PartialUpdate
	}
	if !cut {
		lr.NewClientState, lr.Checksum = cur.state, cur.sum[:]
	} else {
		k += len(chunkRem) + chunkAdd.n()
		r, a := split(k, len(rem))
		done, _ := add.cut(a)
		at := sum(entriesOf(base), rem[:r], done)
		cs := &chunkState{state: stateOf(l.name, at), sum: at, to: cur.s, held: held, k: k}
		if held == nil && base != nil {
			cs.from = base.s
		}
		l.cache.Add(cacheKey{kind: keyState, from: string(cs.state)}, &cached{state: cs}, cs.size())
		lr.NewClientState, lr.Checksum = cs.state, cs.sum[:]
	}
	var err error
	if lr.Removals, err = removals(chunkRem, rice); err != nil {
		return nil, err
	}
	if lr.Additions, err = additions(chunkAdd, rice); err != nil {
		return nil, err
	}
	return &update{body: v4wire.AppendListUpdateResponseBody(nil, &lr), partial: s.partial, final: !cut}, nil
}

// removals returns the ThreatEntrySet of the removal indices rem: none
// for none; Rice-coded when rice is set, else raw.
func removals(rem []uint32, rice bool) ([]v4wire.ThreatEntrySet, error) {
	switch {
	case len(rem) == 0:
		return nil, nil
	case !rice:
		idx := make([]int32, len(rem))
		for i, x := range rem {
			idx[i] = int32(x)
		}
		return []v4wire.ThreatEntrySet{{Compression: v4wire.CompressionRaw, RawIndices: &v4wire.RawIndices{Indices: idx}}}, nil
	}
	r, err := hashlist.RiceIndices(rem, 0)
	if err != nil {
		return nil, err
	}
	return []v4wire.ThreatEntrySet{{Compression: v4wire.CompressionRice, RiceIndices: wireRice(r)}}, nil
}

// additions returns the ThreatEntrySets of the entries add: the 4-byte
// ones Rice-coded as little-endian uint32s when rice is set
// ([hashlist.RiceHashes] byte-swaps and re-sorts them), else raw; the
// longer ones raw, one set a length.
func additions(add entries, rice bool) ([]v4wire.ThreatEntrySet, error) {
	four, longer := add.bySize()
	var sets []v4wire.ThreatEntrySet
	switch {
	case len(four) == 0:
	case rice:
		r, err := hashlist.RiceHashes(four, 0)
		if err != nil {
			return nil, err
		}
		sets = append(sets, v4wire.ThreatEntrySet{Compression: v4wire.CompressionRice, RiceHashes: wireRice(r)})
	default:
		sets = append(sets, v4wire.ThreatEntrySet{Compression: v4wire.CompressionRaw, RawHashes: &v4wire.RawHashes{PrefixSize: 4, Hashes: four}})
	}
	for _, g := range longer {
		sets = append(sets, v4wire.ThreatEntrySet{Compression: v4wire.CompressionRaw, RawHashes: &v4wire.RawHashes{PrefixSize: int32(g.size), Hashes: g.b}})
	}
	return sets, nil
}

// wireRice returns r as the wire writes it.
func wireRice(r hashlist.Rice) *v4wire.Rice {
	return &v4wire.Rice{First: r.First, K: r.K, Count: r.Count, Data: r.Data}
}

// emptySum is the checksum of the empty list.
var emptySum = sha256.Sum256(nil)

// unserved returns the update of a list asked for that is not served: an
// empty full update, with the checksum of the empty list, so that a
// client asking for many lists in one request, as Chromium does, does not
// fail whole.
func unserved(t v4wire.ThreatType, proto bool) []byte {
	lr := v4wire.ListUpdateResponse{ResponseType: v4wire.FullUpdate, NewClientState: stateOf(t.String(), emptySum), Checksum: emptySum[:]}
	if proto {
		return v4wire.AppendListUpdateResponseBody(nil, &lr)
	}
	return v4wire.AppendListUpdateResponseBodyJSON(nil, &lr)
}

// constraints are a list request's constraints, as served.
type constraints struct {
	maxUpdate, maxDatabase int // 0: no limit
	rice                   bool
}

// parseConstraints reads a ListUpdateRequest's constraints.
// maxUpdateEntries must be 0 (no limit) or at least 1024, and is served
// as the chunk size at or below it ([replycache.ChunkSize]), as the v5
// mirror serves it; RICE is used when supportedCompressions has it.
func parseConstraints(i int, c *v4wire.Constraints) (constraints, *apiError) {
	n := int(c.MaxUpdateEntries)
	if n < 0 || (n != 0 && n < replycache.MinChunk) {
		return constraints{}, invalid("listUpdateRequests[%d].constraints.maxUpdateEntries=%d: must be 0 or at least %d", i, n, replycache.MinChunk)
	}
	if c.MaxDatabaseEntries < 0 {
		return constraints{}, invalid("listUpdateRequests[%d].constraints.maxDatabaseEntries=%d is negative", i, c.MaxDatabaseEntries)
	}
	return constraints{maxUpdate: replycache.ChunkSize(n), maxDatabase: int(c.MaxDatabaseEntries),
		rice: slices.Contains(c.SupportedCompressions, v4wire.CompressionRice)}, nil
}

// reply returns the update that takes a client at state from (nil: none)
// towards l's current version, as [list.build] makes it, from the list's
// cache, built once for every request that asks for it meanwhile. It
// holds l.mu only to read the list's state.
func (s *Server) reply(l *list, from []byte, c constraints, proto bool) (*update, *apiError) {
	l.mu.Lock()
	if !l.loaded {
		l.mu.Unlock()
		return nil, &apiError{status: http.StatusServiceUnavailable, msg: "v4update: list " + l.name + " not loaded yet"}
	}
	cur := l.cur
	st := l.locate(from)
	l.mu.Unlock()
	if n := cur.ent.n(); c.maxDatabase > 0 && n > c.maxDatabase {
		return nil, invalid("list %s holds %d entries, more than constraints.maxDatabaseEntries=%d", l.name, n, c.maxDatabase)
	}
	chunk := c.maxUpdate
	if st.base == cur || (!st.partial && chunk >= cur.ent.n()) {
		chunk = 0 // no chunk cuts it: one update for every limit
	}
	key := cacheKey{kind: keyProto, rice: c.rice, to: cur.s, from: st.from, chunk: chunk}
	binary := func() (*update, error) {
		e, err := l.cache.Do(key, func() (*cached, int64, error) {
			s.builds <- struct{}{}
			defer func() { <-s.builds }()
			s.stats.builds.Add(1)
			u, err := l.build(st, cur, chunk, c.rice)
			if err != nil {
				return nil, 0, err
			}
			return &cached{update: u}, u.size() + key.size(), nil
		})
		if err != nil {
			return nil, err
		}
		return e.update, nil
	}
	var u *update
	var err error
	if proto {
		u, err = binary()
	} else {
		jkey := key
		jkey.kind = keyJSON
		var e *cached
		e, err = l.cache.Do(jkey, func() (*cached, int64, error) {
			b, err := binary()
			if err != nil {
				return nil, 0, err
			}
			s.builds <- struct{}{}
			defer func() { <-s.builds }()
			s.stats.builds.Add(1)
			j, err := jsonOf(b)
			if err != nil {
				return nil, 0, err
			}
			return &cached{update: j}, j.size() + jkey.size(), nil
		})
		if err == nil {
			u = e.update
		}
	}
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "v4update: encoding list " + l.name + ": " + err.Error()}
	}
	return u, nil
}

// jsonOf returns the JSON form of the binary update u.
func jsonOf(u *update) (*update, error) {
	msg := v4wire.AppendListUpdateResponseHead(nil, v4wire.ThreatListDescriptor{}, len(u.body))
	m, err := v4wire.ParseFetchThreatListUpdatesResponse(append(msg, u.body...))
	if err != nil {
		return nil, err
	}
	if len(m.ListUpdateResponses) != 1 {
		return nil, fmt.Errorf("%d list updates in one", len(m.ListUpdateResponses))
	}
	return &update{body: v4wire.AppendListUpdateResponseBodyJSON(nil, &m.ListUpdateResponses[0]), partial: u.partial, final: u.final}, nil
}

// serveFetch answers threatListUpdates:fetch: one ListUpdateResponse a
// list asked, in the request's order, echoing its three types, and one
// minimumWaitDuration, the mirror's rule for the soonest due of the
// source's lists that the served lists asked are made of.
func (s *Server) serveFetch(req *request) ([][]byte, *apiError) {
	m, aerr := req.parseFetch()
	if aerr != nil {
		return nil, aerr
	}
	lurs := m.ListUpdateRequests
	switch {
	case len(lurs) == 0:
		return nil, invalid("listUpdateRequests is required")
	case len(lurs) > MaxListUpdateRequests:
		return nil, invalid("%d listUpdateRequests, more than %d", len(lurs), MaxListUpdateRequests)
	}
	cs := make([]constraints, len(lurs))
	seen := make(map[v4wire.ThreatListDescriptor]bool, len(lurs))
	for i := range lurs {
		d := descriptor(&lurs[i])
		if seen[d] {
			return nil, invalid("listUpdateRequests holds %s/%s/%s twice", d.ThreatType, d.PlatformType, d.ThreatEntryType)
		}
		seen[d] = true
		if cs[i], aerr = parseConstraints(i, &lurs[i].Constraints); aerr != nil {
			return nil, aerr
		}
	}
	status := s.statuses()
	bodies := make([][]byte, len(lurs))
	final, served := true, false
	var next time.Time
	for i := range lurs {
		l := s.listOf(descriptor(&lurs[i]))
		if l == nil {
			bodies[i] = unserved(lurs[i].ThreatType, req.proto)
			s.stats.unserved.Add(1)
			continue
		}
		if aerr := s.refresh(l, status); aerr != nil {
			return nil, aerr
		}
		u, aerr := s.reply(l, lurs[i].State, cs[i], req.proto)
		if aerr != nil {
			return nil, aerr
		}
		bodies[i], final = u.body, final && u.final
		if u.partial {
			s.stats.partial.Add(1)
		} else {
			s.stats.full.Add(1)
		}
		for _, at := range l.index {
			if n := status[at].Next; !served || n.Before(next) {
				next, served = n, true
			}
		}
	}
	if !served { // nothing served asked: the soonest due of every list
		for i, st := range status {
			if i == 0 || st.Next.Before(next) {
				next = st.Next
			}
		}
	}
	var wait time.Duration
	if final {
		wait = s.minimumWait(next)
	}
	out := make([][]byte, 0, 2*len(lurs)+2)
	if req.proto {
		for i := range lurs {
			out = append(out, v4wire.AppendListUpdateResponseHead(nil, descriptor(&lurs[i]), len(bodies[i])), bodies[i])
		}
		return append(out, v4wire.AppendMinimumWaitField(nil, wait, final)), nil
	}
	for i := range lurs {
		head := []byte(v4wire.FetchResponseJSONStart)
		if i > 0 {
			head = []byte{','}
		}
		out = append(out, v4wire.AppendListUpdateResponseHeadJSON(head, descriptor(&lurs[i])), bodies[i])
	}
	return append(out, v4wire.AppendFetchResponseJSONEnd(nil, wait, final)), nil
}

// descriptor returns the three types of a list asked.
func descriptor(r *v4wire.ListUpdateRequest) v4wire.ThreatListDescriptor {
	return v4wire.ThreatListDescriptor{ThreatType: r.ThreatType, PlatformType: r.PlatformType, ThreatEntryType: r.ThreatEntryType}
}

// minimumWait returns the minimum wait of a reply whose soonest due
// source list is next due at next, by the mirror's rule
// ([minwait.Wait]); FrozenWait for a frozen server.
func (s *Server) minimumWait(next time.Time) time.Duration {
	if s.cfg.Frozen {
		return FrozenWait
	}
	return minwait.Wait(s.now(), next, s.rand(), s.minWait)
}
