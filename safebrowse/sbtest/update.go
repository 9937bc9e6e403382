// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/listdiff"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// constraints are a request's sizeConstraints.
type constraints struct {
	maxUpdateEntries int // 0: no limit
}

// parseConstraints reads sizeConstraints.maxUpdateEntries, which must be
// 0 (no limit) or at least 1024, as the API requires, and checks that
// sizeConstraints.maxDatabaseEntries is a non-negative int32 (the server
// ignores it: its lists are small).
func parseConstraints(p url.Values) (constraints, *badRequest) {
	n, err := int32Param(p, "maxUpdateEntries")
	if err != nil {
		return constraints{}, err
	}
	if n != 0 && n < 1024 {
		return constraints{}, invalid("sizeConstraints.maxUpdateEntries=%d: must be 0 or at least 1024", n)
	}
	if _, err := int32Param(p, "maxDatabaseEntries"); err != nil {
		return constraints{}, err
	}
	return constraints{maxUpdateEntries: n}, nil
}

// update returns the HashList that brings a client holding version (nil
// on a first fetch) to the list's current state, and remembers the
// version it names. s.mu must be held.
//
//   - A version this server did not serve, or has forgotten, gets a full
//     update (partial_update false).
//   - A version it served gets a partial update: removals as indices into
//     that version's sorted hashes, then additions.
//   - When the update has more entries (removals and additions) than
//     c.maxUpdateEntries, the reply holds the removals first and then the
//     smallest additions, up to the limit, with a version of its own
//     ("se-4b:7.2": the second chunk served, on the way to version 7) and
//     no minimum_wait_duration, so that the client fetches the rest at
//     once.
//   - A reply that changes the list carries the sha256_checksum of the
//     list after it; one that changes nothing carries none.
func (s *Server) update(l *list, version []byte, c constraints) *hashlist.Message {
	w := l.def.width
	cur := l.sorted()
	m := &hashlist.Message{Name: l.def.name, Width: w}
	old, known := l.snaps[string(version)]
	if len(version) == 0 {
		known = false
	}
	var state []byte
	if known {
		m.Partial = true
		m.Removals, m.Additions = listdiff.Diff(old, cur, w)
	} else {
		m.Additions = slices.Clone(cur)
	}
	var chunked bool
	m.Removals, m.Additions, chunked = listdiff.Limit(m.Removals, m.Additions, w, c.maxUpdateEntries)
	switch {
	case chunked:
		state = listdiff.Apply(old, m.Removals, m.Additions, w)
		l.chunks++
		m.Version = []byte(l.version() + "." + strconv.FormatUint(l.chunks, 10))
	default:
		state = cur
		m.Version = []byte(l.version())
		m.MinimumWait = s.minimumWait
	}
	l.remember(string(m.Version), state)
	if !m.Partial || len(m.Removals) > 0 || len(m.Additions) > 0 {
		m.Checksum = checksum(state)
	}
	return m
}

// encodeList returns m as v5wire's HashList, with a wrong checksum when
// bad. hashlist.Message encodes the Rice streams; it takes no negative
// minimum wait, which is set on the v5wire message.
func encodeList(m *hashlist.Message, bad bool) (v5wire.HashList, *badRequest) {
	if bad {
		sum := checksum(nil)
		if m.Checksum != nil {
			sum = slices.Clone(m.Checksum)
		}
		sum[0] ^= 0xff
		m.Checksum = sum
	}
	wait := m.MinimumWait
	if wait < 0 {
		m.MinimumWait = 0
	}
	b, err := m.AppendBinary(nil)
	if err == nil {
		var hl v5wire.HashList
		hl, err = v5wire.ParseHashList(b)
		hl.MinimumWait = wait
		if err == nil {
			return hl, nil
		}
	}
	return v5wire.HashList{}, &badRequest{status: http.StatusInternalServerError, msg: "sbtest: internal error: " + err.Error()}
}

// hashList answers GetHashList (GET /v5/hashList/{name}) with one HashList;
// an unknown list is a 404.
func (s *Server) hashList(name string, p url.Values, badChecksum bool) (reply, *badRequest) {
	c, err := parseConstraints(p)
	if err != nil {
		return nil, err
	}
	v, err := single(p, "version")
	if err != nil {
		return nil, err
	}
	version, derr := decodeBytes(v)
	if derr != nil {
		return nil, invalid("version=%s is not base64", inputerr.Quote(v))
	}
	s.mu.Lock()
	l, ok := s.lists[listname.Trim(name)]
	var m *hashlist.Message
	if ok {
		m = s.update(l, version, c)
	}
	s.mu.Unlock()
	if !ok {
		return nil, &badRequest{status: http.StatusNotFound, msg: "sbtest: unknown list " + inputerr.Quote(name)}
	}
	hl, err := encodeList(m, badChecksum)
	if err != nil {
		return nil, err
	}
	return &listReply{hl}, nil
}

// batchGet answers BatchGetHashLists (GET /v5/hashLists:batchGet) with a
// BatchGetHashListsResponse { 1 hash_lists }, the lists in the order of
// names. Each version names its list ("se-4b:3"), so versions come in any
// order; a version that names no list asked for is taken as foreign and
// ignored, and two for one list are a 400. A name given twice is a 400,
// an unknown one a 404.
func (s *Server) batchGet(p url.Values, badChecksum bool) (reply, *badRequest) {
	c, err := parseConstraints(p)
	if err != nil {
		return nil, err
	}
	names := p["names"]
	if len(names) == 0 {
		return nil, invalid("names is required")
	}
	versions := make(map[string][]byte, len(names))
	names = slices.Clone(names)
	for i, name := range names {
		name = listname.Trim(name)
		names[i] = name
		if findDef(name) == nil {
			return nil, &badRequest{status: http.StatusNotFound, msg: "sbtest: unknown list " + inputerr.Quote(name)}
		}
		if slices.Contains(names[:i], name) {
			return nil, invalid("names holds %q twice", name)
		}
		versions[name] = nil
	}
	seen := make(map[string]bool, len(names))
	for _, v := range p["version"] {
		version, derr := decodeBytes(v)
		if derr != nil {
			return nil, invalid("version=%s is not base64", inputerr.Quote(v))
		}
		name, _, _ := strings.Cut(string(version), ":")
		if _, asked := versions[name]; !asked {
			continue
		}
		if seen[name] {
			return nil, invalid("two versions for list %q", name)
		}
		seen[name] = true
		versions[name] = version
	}
	msgs := make([]*hashlist.Message, len(names))
	s.mu.Lock()
	for i, name := range names {
		msgs[i] = s.update(s.lists[name], versions[name], c)
	}
	s.mu.Unlock()
	r := new(batchReply)
	for _, m := range msgs {
		hl, err := encodeList(m, badChecksum)
		if err != nil {
			return nil, err
		}
		r.lists = append(r.lists, hl)
	}
	return r, nil
}
