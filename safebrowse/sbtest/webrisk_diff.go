// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file holds Web Risk's threat lists and computeDiff.

// The lengths of a Web Risk entry, in bytes.
const (
	minEntry = 4
	maxEntry = 32
)

// The bounds of computeDiff's maxDiffEntries and maxDatabaseEntries, which
// Web Risk takes as powers of two from 2^10 to 2^20, or 0 for no limit.
const (
	minDiffLimit = 1 << 10
	maxDiffLimit = 1 << 20
)

// extendedDef is the list of Web Risk's
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, which v5 does not serve: a test
// seeds it by that name with [Server.Add] and the like.
var extendedDef = listDef{name: "SOCIAL_ENGINEERING_EXTENDED_COVERAGE", width: 4, description: "Social engineering, extended coverage: Web Risk only (sbtest)"}

// wrDef is one Web Risk threat list: its threat type, and the lists
// whose hashes it holds.
type wrDef struct {
	threat  v4wire.WebRiskThreatType
	sources []string
}

// wrDefs are Web Risk's threat lists, in the order of the ThreatType
// enum of webrisk.proto.
var wrDefs = []wrDef{
	{v4wire.WebRiskMalware, []string{"mw-4b"}},
	{v4wire.WebRiskSocialEngineering, []string{"se-4b"}},
	{v4wire.WebRiskUnwantedSoftware, []string{"uws-4b", "uwsa-4b"}},
	{v4wire.WebRiskSocialEngineeringExtendedCoverage, []string{extendedDef.name}},
}

// servedByWebRisk reports whether Web Risk serves the hashes of the list
// named name.
func servedByWebRisk(name string) bool {
	for _, d := range wrDefs {
		if slices.Contains(d.sources, name) {
			return true
		}
	}
	return false
}

// wrList is the state of one Web Risk threat list: the states its
// version tokens name, the last maxSnapshots served. The Server's mutex
// guards it.
type wrList struct {
	def   *wrDef
	snaps map[string][]string // version token → the entries it names
	order []string            // snaps' keys, oldest first
}

func newWRList(def *wrDef) *wrList {
	return &wrList{def: def, snaps: make(map[string][]string)}
}

// wrList returns the Web Risk list of threat type t, or nil.
func (s *Server) wrList(t v4wire.WebRiskThreatType) *wrList {
	for _, l := range s.wr {
		if l.def.threat == t {
			return l
		}
	}
	return nil
}

// entries returns the entries of the list, sorted in byte order: for each
// hash on its sources, its first 4 bytes, or as many as
// [Server.AddPrefix] set, once each, and none that has a shorter entry as
// its prefix (the shorter one covers it). s.mu must be held.
func (s *Server) entries(l *wrList) []string {
	var out []string
	for _, name := range l.def.sources {
		src := s.seedList(name)
		for h := range src.entries {
			n := minEntry
			if m, ok := src.wrLen[h]; ok {
				n = m
			}
			out = append(out, string(h[:n]))
		}
	}
	slices.Sort(out)
	// Every entry that starts with a kept entry follows it, before any
	// entry that does not: so the last one kept is the only candidate.
	kept := out[:0]
	for _, e := range out {
		if len(kept) > 0 && strings.HasPrefix(e, kept[len(kept)-1]) {
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// wrUpdate is what computeDiff sends: a RESET of the state, or a DIFF
// from the client's state to it.
type wrUpdate struct {
	reset     bool
	removals  []uint32 // indices into the client's entries
	additions [][]byte
	state     []string // the entries after the update
	sum       [32]byte // SHA-256 of state, concatenated
	token     string
}

// update returns the update that brings a client holding the state that
// token names (none, or one forgotten, when it is not in snaps) to the
// list's entries full, within maxDB entries and maxDiff entries a reply
// (0: no limit), and remembers the token it names. s.mu must be held.
//
// The list a client gets is full, or its first maxDB entries in byte
// order when full is longer: Web Risk serves a database of the size a
// client asks for. A DIFF to it is sent when the client's state is known
// and the DIFF's removals and additions fit in maxDiff; else a RESET when
// its entries fit. Otherwise the client gets the list cut to maxDiff
// entries, by a DIFF when one fits, else a RESET, as Web Risk resets a
// client too far behind to a smaller database (cloud.google.com/web-risk/
// docs/update-constraints, "Client state"): a reply never holds more than
// maxDiff entries, and leaves the client up to date.
func (l *wrList) update(token []byte, full []string, maxDB, maxDiff int) wrUpdate {
	old, known := l.snaps[string(token)]
	known = known && len(token) > 0
	sizes := []int{maxDB}
	if maxDiff > 0 && (maxDB == 0 || maxDiff < maxDB) {
		sizes = append(sizes, maxDiff)
	}
	var u wrUpdate
	for i, n := range sizes {
		target := full
		if n > 0 && len(target) > n {
			target = target[:n]
		}
		if known {
			rem, add := diffEntries(old, target)
			if maxDiff == 0 || len(rem)+len(add) <= maxDiff {
				u = wrUpdate{removals: rem, additions: add, state: target}
				break
			}
		}
		// The last size fits: it is maxDiff, or maxDB at or below it.
		if maxDiff == 0 || len(target) <= maxDiff || i == len(sizes)-1 {
			u = wrUpdate{reset: true, additions: asBytes(target), state: target}
			break
		}
	}
	u.sum = sha256.Sum256([]byte(strings.Join(u.state, "")))
	u.token = l.def.threat.String() + ":" + hex.EncodeToString(u.sum[:8])
	l.remember(u.token, u.state)
	return u
}

// remember records the state a token names, keeping the last
// maxSnapshots.
func (l *wrList) remember(token string, state []string) {
	if _, ok := l.snaps[token]; ok {
		return
	}
	l.snaps[token] = state
	l.order = append(l.order, token)
	if len(l.order) > maxSnapshots {
		delete(l.snaps, l.order[0])
		l.order = slices.Delete(l.order, 0, 1)
	}
}

// diffEntries returns the indices into old of the entries that cur does
// not hold, and the entries of cur that old does not, both sorted in
// byte order: a merge of the two.
func diffEntries(old, cur []string) (removals []uint32, additions [][]byte) {
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(old) && old[i] < cur[j]):
			removals = append(removals, uint32(i))
			i++
		case i == len(old) || cur[j] < old[i]:
			additions = append(additions, []byte(cur[j]))
			j++
		default:
			i++
			j++
		}
	}
	return removals, additions
}

func asBytes(entries []string) [][]byte {
	out := make([][]byte, len(entries))
	for i, e := range entries {
		out[i] = []byte(e)
	}
	return out
}

// diffLimit reads maxDiffEntries or maxDatabaseEntries: 0, or a power of
// two from 2^10 to 2^20, as webrisk.proto asks; any other value is a 400,
// as Google's servers refuse a field out of its documented range.
func diffLimit(name string, v int32) (int, *badRequest) {
	if v != 0 && (v < minDiffLimit || v > maxDiffLimit || v&(v-1) != 0) {
		return 0, invalid("%s=%d: must be 0 or a power of two from 1024 (2^10) to 1048576 (2^20)", name, v)
	}
	return int(v), nil
}

// computeDiff answers Web Risk's threatLists.computeDiff (GET
// /v1/threatLists:computeDiff): a ComputeThreatListDiffResponse holding a
// RESET or a DIFF (see wrList.update), the new version token, the
// checksum of the client's entries after it, and recommendedNextDiff.
// With RICE among constraints.supportedCompressions, the 4-byte
// additions are Rice-coded as little-endian integers and the removals
// Rice-coded; the longer additions are raw, one group a length.
// Otherwise all are raw.
func (s *Server) computeDiff(p url.Values, badChecksum bool) (wrReply, *badRequest) {
	req, err := v4wire.ParseComputeThreatListDiffRequestQuery(p)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if req.ThreatType == 0 {
		return nil, invalid("threatType is required")
	}
	l := s.wrList(req.ThreatType)
	if l == nil {
		return nil, invalid("threatType=%s is not a Web Risk threat type", inputerr.Quote(rawValue(p, "threatType", "threat_type", 0)))
	}
	maxDB, berr := diffLimit("constraints.maxDatabaseEntries", req.Constraints.MaxDatabaseEntries)
	if berr != nil {
		return nil, berr
	}
	maxDiff, berr := diffLimit("constraints.maxDiffEntries", req.Constraints.MaxDiffEntries)
	if berr != nil {
		return nil, berr
	}
	rice := false
	for i, c := range req.Constraints.SupportedCompressions {
		if c != 0 && !c.Valid() {
			return nil, invalid("constraints.supportedCompressions[%d]=%s is not RAW or RICE", i,
				inputerr.Quote(rawValue(p, "constraints.supportedCompressions", "constraints.supported_compressions", i)))
		}
		rice = rice || c == v4wire.CompressionRice
	}

	s.mu.Lock()
	u := l.update(req.VersionToken, s.entries(l), maxDB, maxDiff)
	nextDiff := s.nextDiff
	s.mu.Unlock()

	d, err := hashlist.NewDiff(u.additions, u.removals, rice)
	if err != nil {
		return nil, &badRequest{status: http.StatusInternalServerError, msg: "sbtest: internal error: " + err.Error()}
	}
	m := v4wire.ComputeThreatListDiffResponse{
		ResponseType:    v4wire.PartialUpdate,
		NewVersionToken: []byte(u.token),
		Checksum:        u.sum[:],
	}
	if u.reset {
		m.ResponseType = v4wire.FullUpdate
	}
	if badChecksum {
		m.Checksum[0] ^= 0xff
	}
	if nextDiff != 0 {
		m.RecommendedNextDiff = time.Now().Add(nextDiff).UTC()
	}
	if d.Rice != nil || len(d.Raw) > 0 {
		a := &v4wire.ThreatEntryAdditions{RiceHashes: (*v4wire.Rice)(d.Rice)}
		for _, r := range d.Raw {
			a.RawHashes = append(a.RawHashes, v4wire.RawHashes(r))
		}
		m.Additions = a
	}
	switch {
	case d.RiceRemovals != nil:
		m.Removals = &v4wire.ThreatEntryRemovals{RiceIndices: (*v4wire.Rice)(d.RiceRemovals)}
	case len(d.RawRemovals) > 0:
		m.Removals = &v4wire.ThreatEntryRemovals{RawIndices: &v4wire.RawIndices{Indices: d.RawRemovals}}
	}
	return &wrDiffReply{m}, nil
}
