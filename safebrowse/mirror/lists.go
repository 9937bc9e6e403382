// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/minwait"
	"github.com/urlspec/urlspec/safebrowse/internal/replycache"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// versionOf returns the version of the list name whose hashes have the
// checksum sum: the name, so that batchGet's versions may come in any
// order, and 128 bits of the checksum, so that every mirror holding the
// same list gives it the same version.
func versionOf(name string, sum [32]byte) []byte {
	return []byte(name + ":" + hex.EncodeToString(sum[:16]))
}

// A list is the mirror's copy of one of the source's lists.
type list struct {
	name  string
	width int
	index int // in the source's Lists

	mu      sync.Mutex
	src     []byte        // the source's version at the last copy
	copying chan struct{} // closed when the copy in progress ends; nil when none is
	loaded  bool
	cur     *version
	history []*version // the last Config.Versions versions, oldest first; cur last
	// cache holds the replies to cur and the chunk states served, within
	// listCacheLimit of cur's bytes. It has a lock of its own, and builds
	// with neither held.
	cache *listCache
}

func newList(name string, width, index int) *list {
	return &list{name: name, width: width, index: index, cache: replycache.New[cacheKey, *cached](minListCache)}
}

// A statuses is the source's Lists, as its ListsGeneration gen named it.
type statuses struct {
	gen uint64
	st  []lookup.ListStatus
}

// statuses returns the source's Lists, shared and read-only: the copy
// kept since the source's last update, or a new one, so that a list
// request copies nothing that only an update changes.
func (m *Mirror) statuses() []lookup.ListStatus { return sourceStatuses(m.src, &m.status) }

// sourceStatuses returns src's Lists as held in *p, its copy of them,
// which it renews when src's ListsGeneration has moved.
func sourceStatuses(src *lookup.Client, p *atomic.Pointer[statuses]) []lookup.ListStatus {
	g := src.ListsGeneration() // before Lists, as its doc asks
	if s := p.Load(); s != nil && s.gen == g {
		return s.st
	}
	s := &statuses{gen: g, st: src.Lists()}
	p.Store(s)
	return s.st
}

// refresh copies the source's list when its version has changed since
// the last copy. The copy, with its checksum, is made with no lock held,
// once: requests that find it in progress wait for it, as they all need
// the list's current version. A list whose contents did not change keeps
// its version.
func (m *Mirror) refresh(l *list, st lookup.ListStatus) {
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
	snap, ok := m.src.ListSnapshot(l.name)
	if !ok || !snap.Loaded {
		return
	}
	v := newVersion(l.name, snap.Hashes, snap.Checksum)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loaded, l.src = true, snap.Version
	if l.cur != nil && l.cur.sum == snap.Checksum {
		return
	}
	l.history = slices.DeleteFunc(l.history, func(h *version) bool { return h.sum == v.sum })
	l.history = append(l.history, v)
	if n := len(l.history) - m.cfg.Versions; n > 0 {
		l.history = slices.Delete(l.history, 0, n)
	}
	l.cur = v
	// The replies lead to the old version; the chunk states name theirs,
	// and those of a version dropped become unknown.
	l.cache.DeleteFunc(func(k cacheKey) bool { return k.kind != keyState })
	l.cache.SetLimit(listCacheLimit(len(v.hashes)))
	m.log.Info("mirror: new list version", "list", l.name, "version", v.s, "entries", len(v.hashes)/l.width)
}

// constraints are a request's sizeConstraints.
type constraints struct {
	maxUpdate, maxDatabase int // 0: no limit
}

// parseConstraints reads sizeConstraints. maxUpdateEntries must be 0
// (no limit) or at least 1024, as the v5 reference requires, and is
// served as the chunk size at or below it ([replycache.ChunkSize]).
func parseConstraints(r *request) (constraints, *apiError) {
	n, err := r.int32Param("maxUpdateEntries")
	if err != nil {
		return constraints{}, err
	}
	if n != 0 && n < replycache.MinChunk {
		return constraints{}, invalid("sizeConstraints.maxUpdateEntries=%d: must be 0 or at least %d", n, replycache.MinChunk)
	}
	db, err := r.int32Param("maxDatabaseEntries")
	if err != nil {
		return constraints{}, err
	}
	return constraints{maxUpdate: replycache.ChunkSize(n), maxDatabase: db}, nil
}

// reply returns the reply that takes a client at version from (nil:
// none) towards the list's current version, in chunks of c.maxUpdate
// entries, as [list.build] makes it, from the list's cache, built once
// for every request that asks for it meanwhile. It holds l.mu only to
// read the list's state.
func (m *Mirror) reply(l *list, st lookup.ListStatus, from []byte, c constraints, proto bool) (*reply, *apiError) {
	m.refresh(l, st)
	l.mu.Lock()
	if !l.loaded {
		l.mu.Unlock()
		return nil, &apiError{status: http.StatusServiceUnavailable, msg: "mirror: list " + l.name + " not loaded yet"}
	}
	cur := l.cur
	s := l.locate(from)
	l.mu.Unlock()
	if n := len(cur.hashes) / l.width; c.maxDatabase > 0 && n > c.maxDatabase {
		return nil, invalid("list %s holds %d entries, more than sizeConstraints.maxDatabaseEntries=%d", l.name, n, c.maxDatabase)
	}
	limit := c.maxUpdate
	if s.base == cur || (!s.partial && limit >= len(cur.hashes)/l.width) {
		limit = 0 // no chunk cuts it: one reply for every limit
	}
	key := cacheKey{kind: keyProto, to: cur.s, from: s.from, max: limit}
	binary := func() (*reply, error) {
		e, err := l.cache.Do(key, func() (*cached, int64, error) {
			m.builds <- struct{}{}
			defer func() { <-m.builds }()
			if m.onBuild != nil {
				m.onBuild(limit)
			}
			r, err := l.build(s, cur, limit)
			if err != nil {
				return nil, 0, err
			}
			return &cached{reply: r}, r.size() + key.size(), nil
		})
		if err != nil {
			return nil, err
		}
		return e.reply, nil
	}
	var r *reply
	var err error
	if proto {
		r, err = binary()
	} else {
		jkey := key
		jkey.kind = keyJSON
		var e *cached
		e, err = l.cache.Do(jkey, func() (*cached, int64, error) {
			b, err := binary()
			if err != nil {
				return nil, 0, err
			}
			m.builds <- struct{}{}
			defer func() { <-m.builds }()
			j, err := jsonOf(b)
			if err != nil {
				return nil, 0, err
			}
			return &cached{reply: j}, j.size() + jkey.size(), nil
		})
		if err == nil {
			r = e.reply
		}
	}
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: encoding list " + l.name + ": " + err.Error()}
	}
	return r, nil
}

// minimumWait returns the minimum_wait_duration of a list whose source
// is next due at next, by [minwait.Wait]: the time until then plus up to
// 10% more, at random, so that a fleet does not arrive at once, within
// MinWait and MaxWait, in whole seconds; FrozenWait for a frozen mirror.
func (m *Mirror) minimumWait(next time.Time) time.Duration {
	return nextWait(m.now(), next, m.cfg.Frozen, m.rand, m.minWait)
}

// nextWait is the wait of a client of a list whose source is next due at
// next, as minimumWait gives it, now being now, rand a source of random
// numbers in [0, 1) and minWait the least wait.
func nextWait(now, next time.Time, frozen bool, rand func() float64, minWait time.Duration) time.Duration {
	if frozen {
		return FrozenWait
	}
	return minwait.Wait(now, next, rand(), minWait)
}

// serveLists answers hashList and hashLists:batchGet from the mirror's
// copies of the lists.
func (m *Mirror) serveLists(req *request) ([][]byte, *apiError) {
	c, err := parseConstraints(req)
	if err != nil {
		return nil, err
	}
	var names []string
	versions := map[string][]byte{}
	if req.method == methodList {
		name := listname.Trim(req.name)
		if m.lists[name] == nil {
			return nil, &apiError{status: http.StatusNotFound, msg: "mirror: unknown list " + inputerr.Quote(name)}
		}
		names = []string{name}
		v, err := req.single("version")
		if err != nil {
			return nil, err
		}
		b, derr := v5wire.DecodeBytes(v)
		if derr != nil {
			return nil, invalid("version=%s is not base64", inputerr.Quote(v))
		}
		versions[name] = b
	} else {
		names = slices.Clone(req.p["names"])
		if len(names) == 0 {
			return nil, invalid("names is required")
		}
		for i, name := range names {
			name = listname.Trim(name)
			names[i] = name
			if m.lists[name] == nil {
				return nil, &apiError{status: http.StatusNotFound, msg: "mirror: unknown list " + inputerr.Quote(name)}
			}
			if slices.Contains(names[:i], name) {
				return nil, invalid("names holds %s twice", inputerr.Quote(name))
			}
		}
		// Each version names its list, so versions come in any order; one
		// that names no list asked for is foreign, and ignored.
		for _, v := range req.p["version"] {
			b, derr := v5wire.DecodeBytes(v)
			if derr != nil {
				return nil, invalid("version=%s is not base64", inputerr.Quote(v))
			}
			name, _, _ := strings.Cut(string(b), ":")
			if !slices.Contains(names, name) {
				continue
			}
			if _, seen := versions[name]; seen {
				return nil, invalid("two versions for list %q", name)
			}
			versions[name] = b
		}
	}
	status := m.statuses()
	var out [][]byte
	if req.method == methodBatch && !req.proto {
		out = append(out, []byte(`{"hashLists":[`))
	}
	for i, name := range names {
		l := m.lists[name]
		st := status[l.index]
		r, err := m.reply(l, st, versions[name], c, req.proto)
		if err != nil {
			return nil, err
		}
		parts := r.parts(req.proto, m.minimumWait(st.Next))
		switch {
		case req.method == methodList:
		case req.proto:
			n := 0
			for _, p := range parts {
				n += len(p)
			}
			out = append(out, v5wire.AppendBatchListHeader(nil, n))
		case i > 0:
			out = append(out, []byte{','})
		}
		out = append(out, parts...)
	}
	if req.method == methodBatch && !req.proto {
		out = append(out, []byte("]}"))
	}
	m.stats.saved.Add(1)
	return out, nil
}

// knownLists is the metadata of the lists of the v5 reference, for a
// mirror whose Config.Lists does not give it.
var knownLists = map[string]lookup.ListInfo{
	"gc-32b":  {Description: "Global Cache: expressions likely to be safe", LikelySafeTypes: []lookup.LikelySafeType{lookup.GeneralBrowsing}},
	"se-4b":   {Description: "Social engineering", ThreatTypes: []lookup.ThreatType{lookup.SocialEngineering}},
	"mw-4b":   {Description: "Malware, desktop", ThreatTypes: []lookup.ThreatType{lookup.Malware}},
	"uws-4b":  {Description: "Unwanted software, desktop", ThreatTypes: []lookup.ThreatType{lookup.UnwantedSoftware}},
	"uwsa-4b": {Description: "Unwanted software, Android", ThreatTypes: []lookup.ThreatType{lookup.UnwantedSoftware}},
	"pha-4b":  {Description: "Potentially harmful applications, Android", ThreatTypes: []lookup.ThreatType{lookup.PotentiallyHarmfulApplication}},
}

// listInfo returns the metadata of the lists served, in the source's
// order: from the first entry of given that names the list (trimmed of
// "hashLists/" once), else from knownLists. The hash length is always
// the list's own, which its name gives ([listname.Width]), whatever
// given says.
func listInfo(order []string, lists map[string]*list, given []lookup.ListInfo) []lookup.ListInfo {
	var out []lookup.ListInfo
	for _, name := range order {
		i := slices.IndexFunc(given, func(l lookup.ListInfo) bool { return listname.Trim(l.Name) == name })
		info := knownLists[name]
		if i >= 0 {
			info = given[i]
		}
		info.Name = name
		info.HashLength = lists[name].width
		out = append(out, info)
	}
	return out
}

// serveInfo answers ListHashLists (GET /v5/hashLists): the lists served
// with their metadata, paged by pageSize (0: all) and pageToken, the
// decimal offset of the next page.
func (m *Mirror) serveInfo(req *request) ([][]byte, *apiError) {
	size, err := req.int32Param("pageSize")
	if err != nil {
		return nil, err
	}
	token, err := req.single("pageToken")
	if err != nil {
		return nil, err
	}
	start := 0
	if token != "" {
		n, perr := strconv.Atoi(token)
		if perr != nil || n <= 0 || n >= len(m.info) {
			return nil, invalid("pageToken=%s is not one this server gave", inputerr.Quote(token))
		}
		start = n
	}
	end := len(m.info)
	if size > 0 && start+size < end {
		end = start + size
	}
	var r v5wire.ListHashListsResponse
	for _, info := range m.info[start:end] {
		r.HashLists = append(r.HashLists, v5wire.HashList{Name: info.Name, Metadata: &v5wire.Metadata{
			ThreatTypes: info.ThreatTypes, LikelySafeTypes: info.LikelySafeTypes,
			Description: info.Description, HashLength: v5wire.HashLengthOf(info.HashLength),
		}})
	}
	if end < len(m.info) {
		r.NextPageToken = strconv.Itoa(end)
	}
	m.stats.saved.Add(1)
	if req.proto {
		return [][]byte{v5wire.AppendListHashListsResponse(nil, &r)}, nil
	}
	b, jerr := r.MarshalJSON()
	if jerr != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: " + jerr.Error()}
	}
	return [][]byte{b}, nil
}
