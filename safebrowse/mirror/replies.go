// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/listdiff"
	"github.com/urlspec/urlspec/safebrowse/internal/replycache"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// This file builds a list's replies and the states chunked updates lead
// to, and counts what each costs the list's cache.

// Bounds of what a list keeps besides its versions.
const (
	// listCacheFactor and minListCache make the budget of a list's cache
	// of replies and chunk states: listCacheFactor times the bytes of the
	// list's current version, plus minListCache, so that the whole list
	// in proto and JSON (about 2.2 times the list's bytes for 32-byte
	// hashes, 1.1 times for 4-byte ones) fits with room for chunks and
	// partial updates, and a small list's replies fit at all.
	listCacheFactor = 3
	minListCache    = 64 << 10
	// maxBuilds bounds the replies a mirror builds at once, so that the
	// memory of the builds in flight (a few times a list each) is
	// bounded too. A request for a cached reply never waits for it.
	maxBuilds = 4
	// replyOverhead and stateOverhead are what a reply and a state cost
	// the cache beside their bytes: the structs and their cached wrapper.
	replyOverhead = 96
	stateOverhead = 128
)

// listCacheLimit returns the budget of the cache of a list whose current
// version holds n bytes of hashes.
func listCacheLimit(n int) int64 { return listCacheFactor*int64(n) + minListCache }

// A version is one state of a list: its hashes, sorted and concatenated,
// their checksum, and the version named after it (v, and s as a string).
type version struct {
	v      []byte
	s      string
	hashes []byte
	sum    [32]byte
}

func newVersion(name string, hashes []byte, sum [32]byte) *version {
	v := versionOf(name, sum)
	return &version{v: v, s: string(v), hashes: hashes, sum: sum}
}

// The kinds of entry in a list's cache.
const (
	keyProto = iota // a reply in binary protobuf
	keyJSON         // a reply in Google's JSON mapping
	keyState        // a chunk state
)

// A cacheKey names an entry of a list's cache: a reply, in the encoding
// kind says, that takes a client at version from ("" for none or one the
// list does not know) towards version to, the list's current one, in
// chunks of max entries (0: no limit); or, of kind keyState, the chunk
// state named from.
type cacheKey struct {
	kind     uint8
	to, from string
	max      int
}

// size is what the key's strings cost.
func (k cacheKey) size() int64 { return int64(len(k.to) + len(k.from)) }

// A cached entry is a reply or a state.
type cached struct {
	reply *reply
	state *state
}

// A reply is one HashList, built once and shared by every request for
// it: in binary protobuf in two parts either side of the minimum wait,
// the only field written per request; or in Google's JSON mapping,
// without its minimum wait.
type reply struct {
	final      bool // the last of its update, which carries a minimum wait
	head, tail []byte
	json       []byte
}

// size is what the reply costs the cache: its bytes as allocated.
func (r *reply) size() int64 {
	return int64(cap(r.head)+cap(r.tail)+cap(r.json)) + replyOverhead
}

// parts returns the body of the reply with the minimum wait wait, in
// pieces to write in turn.
func (r *reply) parts(proto bool, wait time.Duration) [][]byte {
	switch {
	case proto && !r.final:
		return [][]byte{r.head, r.tail}
	case proto:
		return [][]byte{r.head, v5wire.AppendMinimumWait(nil, wait), r.tail}
	case !r.final:
		return [][]byte{r.json}
	}
	return [][]byte{[]byte(`{"minimumWaitDuration":"` + v5wire.FormatDuration(wait) + `",`), r.json[1:]}
}

// jsonOf returns the JSON form of the binary reply r.
func jsonOf(r *reply) (*reply, error) {
	h, err := v5wire.ParseHashList(r.head)
	if err != nil {
		return nil, err
	}
	t, err := v5wire.ParseHashList(r.tail)
	if err != nil {
		return nil, err
	}
	h.Checksum, h.Metadata = t.Checksum, t.Metadata
	if t.AddWidth != 0 {
		h.AddWidth, h.Additions = t.AddWidth, t.Additions
	}
	j, err := h.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return &reply{final: r.final, json: bytes.Clone(j)}, nil
}

// A state is a list as a client holds it part way through a chunked
// update: its base with the first k entries of the base's update to
// version to applied, the removals first, then the smallest additions,
// as [listdiff.Limit] takes them. Each chunk of one update starts from
// the same base, so a state is a few words, whatever the list's size.
// The base is a version the list keeps (named by from), the empty list
// (from "" and held nil), or, for a client whose update was overtaken by
// a newer version, the client's list itself, held and counted. A state
// names its versions rather than holding them, so that a version the
// list drops is freed, and its states become unknown.
type state struct {
	v    []byte
	sum  [32]byte
	to   string
	from string
	held *version
	k    int
}

// size is what the state costs the cache.
func (s *state) size() int64 {
	n := int64(len(s.v)+len(s.to)+len(s.from)) + stateOverhead
	if s.held != nil {
		n += int64(cap(s.held.hashes)+len(s.held.v)+len(s.held.s)) + stateOverhead
	}
	return n
}

// A start is where a client stands, as the version it sent names it:
// base (nil: the empty list) with the first k entries of its update to
// target applied. from is the version the client named when the list
// knows it, else "", and sum that version's checksum. partial is false
// for a client with no version the list knows, which gets the whole list.
type start struct {
	from    string
	sum     [32]byte
	base    *version
	target  *version
	k       int
	partial bool
}

// locate returns where a client at version v stands. l.mu must be held,
// and l loaded.
func (l *list) locate(v []byte) start {
	whole := start{target: l.cur}
	if len(v) == 0 {
		return whole
	}
	for _, h := range l.history {
		if bytes.Equal(h.v, v) {
			return start{from: h.s, sum: h.sum, base: h, target: l.cur, partial: true}
		}
	}
	e, ok := l.cache.Get(cacheKey{kind: keyState, from: string(v)})
	if !ok {
		return whole
	}
	s := e.state
	target, base := l.kept(s.to), s.held
	if s.from != "" {
		base = l.kept(s.from)
	}
	if target == nil || (s.from != "" && base == nil) {
		return whole
	}
	return start{from: string(s.v), sum: s.sum, base: base, target: target, k: s.k, partial: true}
}

// kept returns the version of l's history named v, or nil.
func (l *list) kept(v string) *version {
	for _, h := range l.history {
		if h.s == v {
			return h
		}
	}
	return nil
}

// hashesOf returns the hashes of v, nil for the empty list.
func hashesOf(v *version) []byte {
	if v == nil {
		return nil
	}
	return v.hashes
}

// diff returns the update from old to cur, as [listdiff.Diff], without
// copying cur when old is empty.
func diff(old, cur []byte, w int) ([]uint32, []byte) {
	if len(old) == 0 {
		return nil, cur
	}
	return listdiff.Diff(old, cur, w)
}

// split returns how many of the first k entries of an update of r
// removals are removals, and how many additions.
func split(k, r int) (int, int) {
	n := min(k, r)
	return n, k - n
}

// build returns the reply that takes a client at s towards cur, the
// list's current version, in a chunk of at most limit entries (0: no
// limit):
//
//   - a client at cur gets an empty partial update;
//   - a client at a version or a chunk state the list keeps gets a
//     partial update: removals as indices into its sorted hashes, then
//     additions;
//   - any other gets the whole list (partial_update false);
//   - an update of more entries than limit holds the removals first
//     and then the smallest additions, up to limit, and is named after
//     the state it leads to, which the list's cache keeps; it has no
//     minimum wait, so that the client fetches the rest at once;
//   - every reply carries the checksum of the state it leads to.
//
// It diffs, hashes and encodes with no lock held.
func (l *list) build(s start, cur *version, limit int) (*reply, error) {
	w := l.width
	base, k := s.base, s.k
	var held *version
	if s.target != cur {
		// The client's update was overtaken by a newer version: its list
		// is built, and taken to cur from there.
		rem, add := diff(hashesOf(base), s.target.hashes, w)
		r, a := split(k, len(rem))
		held = &version{v: []byte(s.from), s: s.from, sum: s.sum, hashes: listdiff.Apply(hashesOf(base), rem[:r], add[:w*a], w)}
		base, k = held, 0
	}
	msg := hashlist.Message{Name: l.name, Width: w, Partial: s.partial}
	var rem []uint32
	var add []byte
	if base != cur {
		rem, add = diff(hashesOf(base), cur.hashes, w)
	}
	r, a := split(k, len(rem))
	rest := make([]uint32, len(rem)-r)
	for i, x := range rem[r:] {
		rest[i] = x - uint32(r) // the first r removals are gone, all before x
	}
	var cut bool
	msg.Removals, msg.Additions, cut = listdiff.Limit(rest, add[w*a:], w, limit)
	final := !cut
	if final {
		msg.Version, msg.Checksum = cur.v, cur.sum[:]
	} else {
		k += len(msg.Removals) + len(msg.Additions)/w
		r, a := split(k, len(rem))
		sum := listdiff.Sum(hashesOf(base), rem[:r], add[:w*a], w)
		st := &state{v: versionOf(l.name, sum), sum: sum, to: cur.s, held: held, k: k}
		if held == nil && base != nil {
			st.from = base.s
		}
		l.cache.Add(cacheKey{kind: keyState, from: string(st.v)}, &cached{state: st}, st.size())
		msg.Version, msg.Checksum = st.v, st.sum[:]
	}
	b, err := msg.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	hl, err := v5wire.ParseHashList(b)
	if err != nil {
		return nil, err
	}
	head, tail := v5wire.AppendHashListParts(nil, nil, &hl)
	return &reply{final: final, head: bytes.Clone(head), tail: bytes.Clone(tail)}, nil
}

// A listCache is a list's cache of replies and chunk states.
type listCache = replycache.Cache[cacheKey, *cached]
