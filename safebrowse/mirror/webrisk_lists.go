// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/replycache"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// This file serves Web Risk's threatLists.computeDiff from the mirror's
// copies of the source's lists: their versions, the replies that take a
// client from one state to the current one, and the chunk states that
// constraints.maxDiffEntries leads to.

// A wrVersion is one state of a Web Risk list: its entries, their
// checksum, and the version token named after it (v, and s as a string).
type wrVersion struct {
	v   []byte
	s   string
	e   entries
	sum [32]byte
}

func newWRVersion(name string, e entries, sum [32]byte) *wrVersion {
	v := versionOf(name, sum)
	return &wrVersion{v: v, s: string(v), e: e, sum: sum}
}

// entriesOf returns the entries of v, none for nil, the empty list.
func entriesOf(v *wrVersion) entries {
	if v == nil {
		return entries{}
	}
	return v.e
}

// A wrList is the mirror's copy of one of the source's Web Risk lists.
type wrList struct {
	name  string // the threat type, such as "MALWARE"
	index int    // in the source's Lists

	mu      sync.Mutex
	src     []byte        // the source's version at the last copy
	copying chan struct{} // closed when the copy in progress ends; nil when none is
	loaded  bool
	cur     *wrVersion
	history []*wrVersion // the last Config.Versions versions, oldest first; cur last
	// cache holds the replies to cur and the chunk states served, within
	// listCacheLimit of cur's bytes.
	cache *replycache.Cache[wrKey, *wrCached]
}

func newWRList(name string, index int) *wrList {
	return &wrList{name: name, index: index, cache: replycache.New[wrKey, *wrCached](minListCache)}
}

// A wrKey names an entry of a list's cache: a reply, in the encoding kind
// says (keyProto, keyJSON), that takes a client at version from ("" for
// none) towards version to in chunks of max entries (0: no limit), its
// 4-byte additions and its removals Rice-coded when rice is set; or, of
// kind keyState, the chunk state named from.
type wrKey struct {
	kind     uint8
	rice     bool
	to, from string
	max      int
}

func (k wrKey) size() int64 { return int64(len(k.to) + len(k.from)) }

// A wrCached is a reply or a chunk state.
type wrCached struct {
	reply *wrReply
	state *wrState
}

// A wrReply is one ComputeThreatListDiffResponse, built once and shared
// by every request for it, in binary protobuf or in Google's JSON
// mapping, without its recommendedNextDiff, the only field written per
// request.
type wrReply struct {
	final bool // the last of its update: the client is up to date once applied
	body  []byte
}

func (r *wrReply) size() int64 { return int64(cap(r.body)) + replyOverhead }

// A wrState is a list as a client holds it part way through a chunked
// update, as [state] is for v5: its base (a version the list keeps, named
// by from; the empty list, from "" and held nil; or, for a client whose
// update a newer version overtook, the client's list itself, held and
// counted) with the first k entries of the base's update to version to
// applied.
type wrState struct {
	v    []byte
	sum  [32]byte
	to   string
	from string
	held *wrVersion
	k    int
}

func (s *wrState) size() int64 {
	n := int64(len(s.v)+len(s.to)+len(s.from)) + stateOverhead
	if s.held != nil {
		n += int64(cap(s.held.e.hashes)+cap(s.held.e.lengths)+len(s.held.v)+len(s.held.s)) + stateOverhead
	}
	return n
}

// A wrStart is where a client stands, as its version token names it, as
// [start] is for v5.
type wrStart struct {
	from    string
	sum     [32]byte
	base    *wrVersion
	target  *wrVersion
	k       int
	partial bool
}

// locate returns where a client at version token v stands. l.mu must be
// held, and l loaded.
func (l *wrList) locate(v []byte) wrStart {
	whole := wrStart{target: l.cur}
	if len(v) == 0 {
		return whole
	}
	for _, h := range l.history {
		if bytes.Equal(h.v, v) {
			return wrStart{from: h.s, sum: h.sum, base: h, target: l.cur, partial: true}
		}
	}
	c, ok := l.cache.Get(wrKey{kind: keyState, from: string(v)})
	if !ok {
		return whole
	}
	s := c.state
	target, base := l.kept(s.to), s.held
	if s.from != "" {
		base = l.kept(s.from)
	}
	if target == nil || (s.from != "" && base == nil) {
		return whole
	}
	return wrStart{from: string(s.v), sum: s.sum, base: base, target: target, k: s.k, partial: true}
}

// kept returns the version of l's history named v, or nil.
func (l *wrList) kept(v string) *wrVersion {
	for _, h := range l.history {
		if h.s == v {
			return h
		}
	}
	return nil
}

// build returns the reply that takes a client at s towards cur, the
// list's current version, in a chunk of at most limit entries (0: no
// limit), as v5's [list.build] does: a client at cur gets an empty DIFF;
// a client at a version or a chunk state the list keeps gets a DIFF, its
// removals as indices into its entries in byte order, then additions;
// any other gets a RESET, the whole list. A chunk holds the removals
// first, then the smallest additions, and is named after the state it
// leads to, which the list's cache keeps. Every reply carries the
// checksum of the state it leads to. With rice, the 4-byte additions are
// riceHashes and the removals riceIndices; the longer additions are
// rawHashes, one group a length, in either case. It diffs, hashes and
// encodes with no lock held.
func (l *wrList) build(s wrStart, cur *wrVersion, limit int, rice bool) (*wrReply, error) {
	base, k := s.base, s.k
	var held *wrVersion
	if s.target != cur {
		// The client's update was overtaken by a newer version: its list
		// is built, and taken to cur from there.
		rem, add := diffEntries(entriesOf(base), s.target.e)
		r, a := split(k, len(rem))
		held = &wrVersion{v: []byte(s.from), s: s.from, sum: s.sum, e: applyEntries(entriesOf(base), rem[:r], add.head(a))}
		base, k = held, 0
	}
	var rem []uint32
	var add entries
	switch {
	case base == nil:
		add = cur.e
	case base != cur:
		rem, add = diffEntries(base.e, cur.e)
	}
	r, a := split(k, len(rem))
	rest := make([]uint32, len(rem)-r)
	for i, x := range rem[r:] {
		rest[i] = x - uint32(r) // the first r removals are gone, all before x
	}
	removals, additions, cut := limitUpdate(rest, add.tail(a), limit)
	m := v4wire.ComputeThreatListDiffResponse{ResponseType: v4wire.PartialUpdate}
	if !s.partial {
		m.ResponseType = v4wire.FullUpdate
	}
	if cut {
		k += len(removals) + additions.n()
		r, a := split(k, len(rem))
		sum := appliedEntriesSum(entriesOf(base), rem[:r], add.head(a))
		st := &wrState{v: versionOf(l.name, sum), sum: sum, to: cur.s, held: held, k: k}
		if held == nil && base != nil {
			st.from = base.s
		}
		l.cache.Add(wrKey{kind: keyState, from: string(st.v)}, &wrCached{state: st}, st.size())
		m.NewVersionToken, m.Checksum = st.v, st.sum[:]
	} else {
		m.NewVersionToken, m.Checksum = cur.v, cur.sum[:]
	}
	if err := setUpdate(&m, removals, additions, rice); err != nil {
		return nil, err
	}
	return &wrReply{final: !cut, body: v4wire.AppendComputeThreatListDiffResponse(nil, &m)}, nil
}

// setUpdate sets the additions and removals of m: with rice, the 4-byte
// additions as riceHashes (little-endian, as
// [hashlist.RiceHashes] codes them) and the removals as riceIndices;
// without, all raw. The longer additions are rawHashes in either case,
// one group a length, in byte order.
func setUpdate(m *v4wire.ComputeThreatListDiffResponse, removals []uint32, additions entries, rice bool) error {
	if len(removals) > 0 {
		m.Removals = new(v4wire.ThreatEntryRemovals)
		if rice {
			ri, err := hashlist.RiceIndices(removals, 0)
			if err != nil {
				return err
			}
			m.Removals.RiceIndices = (*v4wire.Rice)(&ri)
		} else {
			idx := make([]int32, len(removals))
			for i, x := range removals {
				idx[i] = int32(x)
			}
			m.Removals.RawIndices = &v4wire.RawIndices{Indices: idx}
		}
	}
	if additions.n() == 0 {
		return nil
	}
	var bySize [33][]byte
	for c := (cursor{e: additions}); !c.done(); c.next() {
		e := c.at()
		bySize[len(e)] = append(bySize[len(e)], e...)
	}
	m.Additions = new(v4wire.ThreatEntryAdditions)
	for size, hs := range bySize {
		switch {
		case len(hs) == 0:
		case size == 4 && rice:
			rh, err := hashlist.RiceHashes(hs, 0)
			if err != nil {
				return err
			}
			m.Additions.RiceHashes = (*v4wire.Rice)(&rh)
		default:
			m.Additions.RawHashes = append(m.Additions.RawHashes, v4wire.RawHashes{PrefixSize: int32(size), Hashes: hs})
		}
	}
	return nil
}

// jsonOfDiff returns the JSON form of the binary reply r.
func jsonOfDiff(r *wrReply) (*wrReply, error) {
	m, err := v4wire.ParseComputeThreatListDiffResponse(r.body)
	if err != nil {
		return nil, err
	}
	return &wrReply{final: r.final, body: v4wire.AppendComputeThreatListDiffResponseJSON(nil, &m)}, nil
}

// refresh copies the source's list when its version has changed since
// the last copy, as [Mirror.refresh] does for v5.
func (w *WebRisk) refresh(l *wrList, st lookup.ListStatus) {
	l.mu.Lock()
	if !st.Loaded || (l.loaded && bytes.Equal(st.Version, l.src)) {
		l.mu.Unlock()
		return
	}
	if done := l.copying; done != nil {
		l.mu.Unlock()
		<-done
		return
	}
	done := make(chan struct{})
	l.copying = done
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.copying = nil
		l.mu.Unlock()
		close(done)
	}()
	snap, ok := w.src.ListSnapshot(l.name)
	if !ok || !snap.Loaded {
		return
	}
	v := newWRVersion(l.name, entries{hashes: snap.Hashes, lengths: snap.Lengths}, snap.Checksum)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loaded, l.src = true, snap.Version
	if l.cur != nil && l.cur.sum == snap.Checksum {
		return
	}
	l.history = slices.DeleteFunc(l.history, func(h *wrVersion) bool { return h.sum == v.sum })
	l.history = append(l.history, v)
	if n := len(l.history) - w.cfg.Versions; n > 0 {
		l.history = slices.Delete(l.history, 0, n)
	}
	l.cur = v
	l.cache.DeleteFunc(func(k wrKey) bool { return k.kind != keyState })
	l.cache.SetLimit(listCacheLimit(v.e.size()))
	w.log.Info("mirror: new list version", "list", l.name, "version", v.s, "entries", v.e.n())
}

// A diffRequest is a computeDiff request, checked.
type diffRequest struct {
	list        *wrList
	token       []byte
	maxDiff     int // a chunk size (replycache.ChunkSize), or 0: no limit
	maxDatabase int // 0: no limit
	rice        bool
}

// parseDiffRequest reads a computeDiff request: threatType, one of the
// lists served; versionToken; constraints.maxDiffEntries, 0 or at least
// 1024, served as the chunk size at or below it; maxDatabaseEntries; and
// supportedCompressions, RICE or RAW.
func (w *WebRisk) parseDiffRequest(req *request) (diffRequest, *apiError) {
	m, err := v4wire.ParseComputeThreatListDiffRequestQuery(req.p)
	if err != nil {
		return diffRequest{}, invalid("%v", err)
	}
	if m.ThreatType == 0 {
		return diffRequest{}, invalid("threatType is required")
	}
	l := w.lists[m.ThreatType.String()]
	if !m.ThreatType.Valid() || l == nil {
		return diffRequest{}, invalid("threatType=%s is not a list this mirror serves", inputerr.Quote(firstOf(req.p, "threatType", "threat_type")))
	}
	c := m.Constraints
	switch {
	case c.MaxDiffEntries < 0 || (c.MaxDiffEntries > 0 && c.MaxDiffEntries < replycache.MinChunk):
		return diffRequest{}, invalid("constraints.maxDiffEntries=%d: must be 0 or at least %d", c.MaxDiffEntries, replycache.MinChunk)
	case c.MaxDatabaseEntries < 0:
		return diffRequest{}, invalid("constraints.maxDatabaseEntries=%d is negative", c.MaxDatabaseEntries)
	}
	d := diffRequest{list: l, token: m.VersionToken, maxDiff: replycache.ChunkSize(int(c.MaxDiffEntries)), maxDatabase: int(c.MaxDatabaseEntries)}
	for i, t := range c.SupportedCompressions {
		if t != 0 && !t.Valid() { // 0 is COMPRESSION_TYPE_UNSPECIFIED
			return diffRequest{}, invalid("constraints.supportedCompressions[%d] is not RAW or RICE", i)
		}
		d.rice = d.rice || t == v4wire.CompressionRice
	}
	return d, nil
}

// serveDiff answers threatLists.computeDiff from the mirror's copy of the
// list: the reply, from the list's cache or built once for every request
// that asks for it meanwhile, and its recommendedNextDiff.
func (w *WebRisk) serveDiff(req *request) ([][]byte, *apiError) {
	d, aerr := w.parseDiffRequest(req)
	if aerr != nil {
		return nil, aerr
	}
	l := d.list
	st := w.statuses()[l.index]
	w.refresh(l, st)
	l.mu.Lock()
	if !l.loaded {
		l.mu.Unlock()
		return nil, &apiError{status: http.StatusServiceUnavailable, msg: "mirror: list " + l.name + " not loaded yet"}
	}
	cur := l.cur
	s := l.locate(d.token)
	l.mu.Unlock()
	if n := cur.e.n(); d.maxDatabase > 0 && n > d.maxDatabase {
		return nil, invalid("list %s holds %d entries, more than constraints.maxDatabaseEntries=%d", l.name, n, d.maxDatabase)
	}
	limit := d.maxDiff
	if s.base == cur || (!s.partial && limit >= cur.e.n()) {
		limit = 0 // no chunk cuts it: one reply for every limit
	}
	key := wrKey{kind: keyProto, rice: d.rice, to: cur.s, from: s.from, max: limit}
	binary := func() (*wrReply, error) {
		c, err := l.cache.Do(key, func() (*wrCached, int64, error) {
			w.builds <- struct{}{}
			defer func() { <-w.builds }()
			r, err := l.build(s, cur, limit, d.rice)
			if err != nil {
				return nil, 0, err
			}
			return &wrCached{reply: r}, r.size() + key.size(), nil
		})
		if err != nil {
			return nil, err
		}
		return c.reply, nil
	}
	var r *wrReply
	var err error
	if req.proto {
		r, err = binary()
	} else {
		jkey := key
		jkey.kind = keyJSON
		var c *wrCached
		c, err = l.cache.Do(jkey, func() (*wrCached, int64, error) {
			b, err := binary()
			if err != nil {
				return nil, 0, err
			}
			w.builds <- struct{}{}
			defer func() { <-w.builds }()
			j, err := jsonOfDiff(b)
			if err != nil {
				return nil, 0, err
			}
			return &wrCached{reply: j}, j.size() + jkey.size(), nil
		})
		if err == nil {
			r = c.reply
		}
	}
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: encoding list " + l.name + ": " + err.Error()}
	}
	// A chunk's recommendedNextDiff is now: the client fetches the rest
	// at once.
	now := w.now()
	next := now
	if r.final {
		next = now.Add(nextWait(now, st.Next, w.cfg.Frozen, w.rand, w.minWait))
	}
	w.stats.saved.Add(1)
	return nextDiffParts(r.body, next.UTC().Truncate(time.Second), req.proto), nil
}

// nextDiffParts returns the reply body with recommendedNextDiff t, in
// pieces to write in turn: in binary, its field before the others, as
// the field numbers go; in JSON, its key after the others, as Google's
// mapping orders them.
func nextDiffParts(body []byte, t time.Time, proto bool) [][]byte {
	m := v4wire.ComputeThreatListDiffResponse{RecommendedNextDiff: t}
	if proto {
		return [][]byte{v4wire.AppendComputeThreatListDiffResponse(nil, &m), body}
	}
	head := v4wire.AppendComputeThreatListDiffResponseJSON(nil, &m) // {"recommendedNextDiff":"…"}
	return [][]byte{body[:len(body)-1], []byte(","), head[1:]}
}

// firstOf returns the first value of the parameter named camel, or else
// of the one named proto, as sent, to quote in an error.
func firstOf(p map[string][]string, camel, proto string) string {
	for _, name := range []string{camel, proto} {
		if vs := p[name]; len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}
