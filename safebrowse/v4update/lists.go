// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"sync"

	"github.com/urlspec/urlspec/safebrowse/internal/replycache"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// This file maps v4's lists onto the source's, and keeps each v4 list's
// versions.

// numTypes bounds the v4 threat types served: MALWARE to
// POTENTIALLY_HARMFUL_APPLICATION.
const numTypes = int(v4wire.PotentiallyHarmfulApplication) + 1

// A source names the lists of the source that make one v4 threat type's
// list, their union.
type source struct {
	t     v4wire.ThreatType
	lists []string
}

// An api is what v4 is served from: the lists of each v4 threat type,
// and how a prefix is searched.
type api struct {
	mapping []source
	// whole says that a prefix is searched whole, 4 to 32 bytes, as Web
	// Risk's hashes:search takes it; else by its first 4 bytes, as v5's
	// takes them.
	whole bool
}

// v5API serves v4 from a v5 source's lists.
var v5API = api{mapping: []source{
	{v4wire.Malware, []string{"mw-4b"}},
	{v4wire.SocialEngineering, []string{"se-4b"}},
	{v4wire.UnwantedSoftware, []string{"uws-4b", "uwsa-4b"}},
	{v4wire.PotentiallyHarmfulApplication, []string{"pha-4b"}},
}}

// webRiskAPI serves v4 from a Web Risk source's lists, which are named
// by their threat types. Web Risk has no PHA list, and v4 no
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE.
var webRiskAPI = api{whole: true, mapping: []source{
	{v4wire.Malware, []string{"MALWARE"}},
	{v4wire.SocialEngineering, []string{"SOCIAL_ENGINEERING"}},
	{v4wire.UnwantedSoftware, []string{"UNWANTED_SOFTWARE"}},
}}

// apiOf returns the api of the source src: Web Risk's mapping when it
// speaks Web Risk, else v5's.
func apiOf(src *lookup.Client) api {
	if src.API() == lookup.WebRisk {
		return webRiskAPI
	}
	return v5API
}

// platforms are the platform types each served threat type is served on,
// in the order GET /v4/threatLists names them. v5 and Web Risk lists
// carry no platform: each serves the same list, a superset of what v4
// served on any one, which errs on the safe side.
var platforms = []v4wire.PlatformType{
	v4wire.AnyPlatform, v4wire.Windows, v4wire.Linux, v4wire.OSX,
	v4wire.Android, v4wire.IOS, v4wire.Chrome, v4wire.AllPlatforms,
}

// listOf returns the list that serves the v4 list d, nil when none does:
// a threat type served, on any of the platforms, of URLs.
func (s *Server) listOf(d v4wire.ThreatListDescriptor) *list {
	if d.ThreatType <= 0 || int(d.ThreatType) >= numTypes || d.ThreatEntryType != v4wire.URL || !d.PlatformType.Valid() {
		return nil
	}
	return s.lists[d.ThreatType]
}

// stateOf returns the client state of the list name whose entries have
// the checksum sum: the name, and 128 bits of the checksum, so that every
// server holding the same list gives it the same state, as the mirror
// names its versions.
func stateOf(name string, sum [32]byte) []byte {
	return []byte(name + ":" + hex.EncodeToString(sum[:16]))
}

// A version is one state of a list: its entries, their checksum, and the
// client state named after it (state, and s as a string).
type version struct {
	state []byte
	s     string
	ent   entries
	sum   [32]byte
}

func newVersion(name string, ent entries, sum [32]byte) *version {
	st := stateOf(name, sum)
	return &version{state: st, s: string(st), ent: ent, sum: sum}
}

// entriesOf returns the entries of v, none for nil (the empty list).
func entriesOf(v *version) entries {
	if v == nil {
		return entries{}
	}
	return v.ent
}

// A list is one v4 threat type's list, made from the source's lists of
// that type.
type list struct {
	t     v4wire.ThreatType
	name  string // t's name, which its states begin with
	names []string
	index []int // of each of names in the source's Lists

	mu      sync.Mutex
	src     [][]byte      // the source's versions at the last copy
	copying chan struct{} // closed when the copy in progress ends; nil when none is
	loaded  bool
	cur     *version
	history []*version // the last Config.Versions versions, oldest first; cur last
	// cache holds the encoded updates to cur and the chunk states
	// served, within listCacheLimit of cur's bytes. It has a lock of its
	// own, and builds with neither held.
	cache *listCache
}

func newList(t v4wire.ThreatType, names []string, index []int) *list {
	return &list{t: t, name: t.String(), names: names, index: index, cache: replycache.New[cacheKey, *cached](minListCache)}
}

// versionBytes returns what the list's versions hold.
func (l *list) versionBytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for _, v := range l.history {
		n += v.ent.bytes() + int64(len(v.state)+len(v.s))
	}
	return n
}

// A statuses is the source's Lists, as its ListsGeneration gen named it.
type statuses struct {
	gen uint64
	st  []lookup.ListStatus
}

// statuses returns the source's Lists, shared and read-only: the copy
// kept since the source's last update, or a new one, so that a request
// copies nothing that only an update changes.
func (s *Server) statuses() []lookup.ListStatus {
	g := s.src.ListsGeneration() // before Lists, as its doc asks
	if st := s.status.Load(); st != nil && st.gen == g {
		return st.st
	}
	st := &statuses{gen: g, st: s.src.Lists()}
	s.status.Store(st)
	return st.st
}

// loaded reports whether every source list of l has loaded once, and
// whether the source holds another version of one than l copied.
func (l *list) changed(status []lookup.ListStatus) (loaded, changed bool) {
	for i, at := range l.index {
		st := status[at]
		if !st.Loaded {
			return false, false
		}
		if !l.loaded || !bytes.Equal(st.Version, l.src[i]) {
			changed = true
		}
	}
	return true, changed
}

// refresh copies the source's lists of l when a version of one has
// changed since the last copy, so that the v4 lists follow the source's
// at each of its updates. The copy, the union of two lists and its
// checksum are made with no lock held, once: requests that find the copy
// in progress wait for it, as they all need the list's current version.
// A list whose contents did not change keeps its version. It returns a
// 503 while a source list has not loaded.
func (s *Server) refresh(l *list, status []lookup.ListStatus) *apiError {
	l.mu.Lock()
	loaded, changed := l.changed(status)
	if !loaded && !l.loaded {
		l.mu.Unlock()
		return &apiError{status: http.StatusServiceUnavailable, msg: "v4update: list " + l.name + " not loaded yet"}
	}
	if !changed {
		l.mu.Unlock()
		return nil
	}
	if done := l.copying; done != nil {
		l.mu.Unlock()
		<-done
		return nil
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
	var ent entries
	var sum [32]byte
	srcVersions := make([][]byte, len(l.names))
	for i, name := range l.names {
		snap, ok := s.src.ListSnapshot(name)
		if !ok || !snap.Loaded {
			return nil // an update in progress: the next request copies it
		}
		srcVersions[i] = snap.Version
		e := snapshotEntries(&snap)
		if i == 0 {
			ent, sum = e, snap.Checksum
			continue
		}
		ent = union(ent, e)
		sum = [32]byte{}
	}
	if len(l.names) > 1 {
		sum = sha256.Sum256(ent.b)
	}
	v := newVersion(l.name, ent, sum)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loaded, l.src = true, srcVersions
	if l.cur != nil && l.cur.sum == sum {
		return nil
	}
	l.history = slices.DeleteFunc(l.history, func(h *version) bool { return h.sum == v.sum })
	l.history = append(l.history, v)
	if n := len(l.history) - s.cfg.Versions; n > 0 {
		l.history = slices.Delete(l.history, 0, n)
	}
	l.cur = v
	// The updates lead to the old version; the chunk states name theirs,
	// and those of a version dropped become unknown.
	l.cache.DeleteFunc(func(k cacheKey) bool { return k.kind != keyState })
	l.cache.SetLimit(listCacheLimit(len(v.ent.b)))
	s.log.Info("v4update: new list version", "list", l.name, "state", v.s, "entries", v.ent.n())
	return nil
}

// snapshotEntries returns the entries of a snapshot of one of the
// source's lists: a v5 list's 4-byte hashes, or a Web Risk list's entries of 4 to
// 32 bytes, in byte order, with their lengths.
func snapshotEntries(snap *lookup.ListSnapshot) entries {
	if snap.Width == 0 {
		return mixed(snap.Hashes, snap.Lengths)
	}
	return entries{b: snap.Hashes}
}

// serveLists answers GET /v4/threatLists: each threat type served, on
// each platform, of URLs.
func (s *Server) serveLists(req *request) ([][]byte, *apiError) {
	var m v4wire.ListThreatListsResponse
	for _, t := range s.served {
		for _, p := range platforms {
			m.ThreatLists = append(m.ThreatLists, v4wire.ThreatListDescriptor{ThreatType: t, PlatformType: p, ThreatEntryType: v4wire.URL})
		}
	}
	if req.proto {
		return [][]byte{v4wire.AppendListThreatListsResponse(nil, &m)}, nil
	}
	return [][]byte{v4wire.AppendListThreatListsResponseJSON(nil, &m)}, nil
}
