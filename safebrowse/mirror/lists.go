// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/listdiff"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// Bounds of what a list remembers besides its versions.
const (
	// maxChunks is how many intermediate states of chunked updates a list
	// remembers, so that a client part way through gets the next chunk.
	maxChunks = 64
	// maxReplies is how many encoded replies to the current version a
	// list keeps, one per version asked from and maxUpdateEntries.
	maxReplies = 256
)

// A version is one state of a list: its hashes, sorted and concatenated,
// their checksum, and the version named after it.
type version struct {
	v      []byte
	hashes []byte
	sum    [32]byte
}

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
	src     []byte // the source's version at the last copy
	loaded  bool
	cur     *version
	history []*version // the last Config.Versions versions, oldest first; cur last
	chunks  []*version // intermediate states of chunked updates served, oldest first
	replies map[replyKey]*encoded
}

func newList(name string, width, index int) *list {
	return &list{name: name, width: width, index: index, replies: make(map[replyKey]*encoded)}
}

// A statuses is the source's Lists, as its ListsGeneration gen named it.
type statuses struct {
	gen uint64
	st  []lookup.ListStatus
}

// statuses returns the source's Lists, shared and read-only: the copy
// kept since the source's last update, or a new one, so that a list
// request copies nothing that only an update changes.
func (m *Mirror) statuses() []lookup.ListStatus {
	g := m.src.ListsGeneration() // before Lists, as its doc asks
	if s := m.status.Load(); s != nil && s.gen == g {
		return s.st
	}
	s := &statuses{gen: g, st: m.src.Lists()}
	m.status.Store(s)
	return s.st
}

// A replyKey names a reply to the current version: the version asked
// from ("" for none) and maxUpdateEntries.
type replyKey struct {
	from string
	max  int
}

// An encoded reply is one HashList, encoded once and shared by every
// request for it: binary protobuf in two parts either side of the
// minimum wait, the only field written per request, and JSON made the
// first time it is asked.
type encoded struct {
	final      bool // the last of its update, which carries a minimum wait
	head, tail []byte
	msg        v5wire.HashList
	jsonOnce   sync.Once
	json       []byte
	jsonErr    error
}

// jsonBody returns the reply in Google's JSON mapping, without its
// minimum wait.
func (e *encoded) jsonBody() ([]byte, error) {
	e.jsonOnce.Do(func() { e.json, e.jsonErr = e.msg.MarshalJSON() })
	return e.json, e.jsonErr
}

// parts returns the body of the reply with the minimum wait wait, in
// pieces to write in turn.
func (e *encoded) parts(proto bool, wait time.Duration) ([][]byte, error) {
	if proto {
		if !e.final {
			return [][]byte{e.head, e.tail}, nil
		}
		return [][]byte{e.head, v5wire.AppendMinimumWait(nil, wait), e.tail}, nil
	}
	j, err := e.jsonBody()
	if err != nil {
		return nil, err
	}
	if !e.final {
		return [][]byte{j}, nil
	}
	return [][]byte{[]byte(`{"minimumWaitDuration":"` + v5wire.FormatDuration(wait) + `",`), j[1:]}, nil
}

// refresh copies the source's list when its version has changed since
// the last copy. A list whose contents did not change keeps its version.
// l.mu must be held.
func (m *Mirror) refresh(l *list, st lookup.ListStatus) {
	if !st.Loaded || (l.loaded && bytes.Equal(st.Version, l.src)) {
		return
	}
	snap, ok := m.src.ListSnapshot(l.name)
	if !ok || !snap.Loaded {
		return
	}
	l.loaded, l.src = true, snap.Version
	if l.cur != nil && l.cur.sum == snap.Checksum {
		return
	}
	v := &version{v: versionOf(l.name, snap.Checksum), hashes: snap.Hashes, sum: snap.Checksum}
	l.history = slices.DeleteFunc(l.history, func(h *version) bool { return h.sum == v.sum })
	l.history = append(l.history, v)
	if n := len(l.history) - m.cfg.Versions; n > 0 {
		l.history = slices.Delete(l.history, 0, n)
	}
	l.cur = v
	clear(l.replies)
	m.log.Info("mirror: new list version", "list", l.name, "version", string(v.v), "entries", len(v.hashes)/l.width)
}

// find returns the state that version v names, or nil.
func (l *list) find(v []byte) *version {
	if len(v) == 0 {
		return nil
	}
	for _, s := range slices.Backward(l.history) {
		if bytes.Equal(s.v, v) {
			return s
		}
	}
	for _, s := range slices.Backward(l.chunks) {
		if bytes.Equal(s.v, v) {
			return s
		}
	}
	return nil
}

// constraints are a request's sizeConstraints.
type constraints struct {
	maxUpdate, maxDatabase int // 0: no limit
}

// parseConstraints reads sizeConstraints: maxUpdateEntries must be 0 (no
// limit) or at least 1024, as the API requires.
func parseConstraints(r *request) (constraints, *apiError) {
	n, err := r.int32Param("maxUpdateEntries")
	if err != nil {
		return constraints{}, err
	}
	if n != 0 && n < 1024 {
		return constraints{}, invalid("sizeConstraints.maxUpdateEntries=%d: must be 0 or at least 1024", n)
	}
	db, err := r.int32Param("maxDatabaseEntries")
	if err != nil {
		return constraints{}, err
	}
	return constraints{maxUpdate: n, maxDatabase: db}, nil
}

// reply returns the HashList that brings a client at version from (nil:
// none) to the current version, encoded. l.mu must be held, and l loaded.
//
//   - A client at the current version gets an empty partial update.
//   - A client at a version the list keeps (one of its last versions, or
//     a chunk it served) gets a partial update: removals as indices into
//     that version's sorted hashes, then additions.
//   - Any other gets the whole list (partial_update false).
//   - An update of more entries than c.maxUpdate holds the removals
//     first and then the smallest additions, up to the limit, and is
//     named after the state it leads to; it has no minimum wait, so that
//     the client fetches the rest at once.
//   - Every reply carries the checksum of the state it leads to.
func (l *list) reply(from []byte, c constraints) (*encoded, *apiError) {
	cur := l.cur
	if n := len(cur.hashes) / l.width; c.maxDatabase > 0 && n > c.maxDatabase {
		return nil, invalid("list %s holds %d entries, more than sizeConstraints.maxDatabaseEntries=%d", l.name, n, c.maxDatabase)
	}
	base := l.find(from)
	key := replyKey{max: c.maxUpdate}
	if base != nil {
		key.from = string(base.v)
	}
	if e := l.replies[key]; e != nil {
		return e, nil
	}
	w := l.width
	msg := hashlist.Message{Name: l.name, Width: w}
	var old []byte
	switch {
	case base == cur:
		msg.Partial = true
	case base != nil:
		msg.Partial, old = true, base.hashes
		msg.Removals, msg.Additions = listdiff.Diff(base.hashes, cur.hashes, w)
	default:
		msg.Additions = cur.hashes
	}
	to, final := cur, true
	var cut bool
	if msg.Removals, msg.Additions, cut = listdiff.Limit(msg.Removals, msg.Additions, w, c.maxUpdate); cut {
		hashes := listdiff.Apply(old, msg.Removals, msg.Additions, w)
		sum := sha256.Sum256(hashes)
		to, final = &version{v: versionOf(l.name, sum), hashes: hashes, sum: sum}, false
		if l.find(to.v) == nil {
			l.chunks = append(l.chunks, to)
			if len(l.chunks) > maxChunks {
				l.chunks = slices.Delete(l.chunks, 0, 1)
			}
		}
	}
	msg.Version, msg.Checksum = to.v, to.sum[:]
	b, err := msg.AppendBinary(nil)
	var hl v5wire.HashList
	if err == nil {
		hl, err = v5wire.ParseHashList(b)
	}
	if err != nil {
		return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: encoding list " + l.name + ": " + err.Error()}
	}
	e := &encoded{final: final, msg: hl}
	e.head, e.tail = v5wire.AppendHashListParts(nil, nil, &hl)
	if len(l.replies) >= maxReplies {
		clear(l.replies)
	}
	l.replies[key] = e
	return e, nil
}

// minimumWait returns the minimum_wait_duration of a list whose source
// is next due at next: the time until then plus up to 10% more, at
// random, so that a fleet does not arrive at once, within MinWait and
// MaxWait, in whole seconds; FrozenWait for a frozen mirror.
func (m *Mirror) minimumWait(next time.Time) time.Duration {
	if m.cfg.Frozen {
		return FrozenWait
	}
	d := next.Sub(m.now())
	if d > 0 {
		d += time.Duration(m.rand() * 0.1 * float64(d))
	}
	return min(max(d, m.minWait), MaxWait).Truncate(time.Second)
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
		l.mu.Lock()
		m.refresh(l, st)
		var e *encoded
		var err *apiError
		if l.loaded {
			e, err = l.reply(versions[name], c)
		} else {
			err = &apiError{status: http.StatusServiceUnavailable, msg: "mirror: list " + name + " not loaded yet"}
		}
		l.mu.Unlock()
		if err != nil {
			return nil, err
		}
		parts, perr := e.parts(req.proto, m.minimumWait(st.Next))
		if perr != nil {
			return nil, &apiError{status: http.StatusInternalServerError, msg: "mirror: " + perr.Error()}
		}
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
