// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// This file turns the v5 messages, read by v5wire under its strictness
// policy, into what the client keeps. A message v5wire finds corrupt is an
// ErrCorruptReply.

// A fullHash is one FullHash of a SearchHashesResponse, holding only the
// details this package understands.
type fullHash struct {
	hash    safebrowse.Hash
	details []detail
}

// A detail is one FullHashDetail whose threat type and attributes are all
// known.
type detail struct {
	typ   ThreatType
	attrs []ThreatAttribute
}

// A searchReply is a SearchHashesResponse.
type searchReply struct {
	hashes      []fullHash
	duration    time.Duration // cache_duration
	hasDuration bool          // whether cache_duration was present
}

func corrupt(msg string, args ...any) error {
	return fmt.Errorf("%w: "+msg, append([]any{ErrCorruptReply}, args...)...)
}

// parseSearchReply reads a SearchHashesResponse. A FullHashDetail with an
// unknown or unspecified threat type or attribute is dropped whole, as the
// spec asks; a full hash that is not 32 bytes makes the reply corrupt.
//
// A reply costs what it weighs, whatever the server repeats: the same full
// hash given twice is one, with the details of both; an attribute given
// twice in a detail is kept once; and a detail with the threat type and
// the set of attributes of one before it is dropped. So a full hash keeps
// at most 16 details (4 threat types × 4 sets of attributes), of at most
// two attributes each, in fresh
// storage that holds nothing else of the reply.
func parseSearchReply(b []byte) (searchReply, error) {
	m, err := v5wire.ParseSearchHashesResponse(b)
	if err != nil {
		return searchReply{}, corrupt("%v", err)
	}
	r := searchReply{duration: m.CacheDuration, hasDuration: m.HasCacheDuration}
	seen := make(map[safebrowse.Hash]int, min(len(m.FullHashes), 64))
	for i := range m.FullHashes {
		fh := &m.FullHashes[i]
		k, ok := seen[fh.Hash]
		if !ok {
			k = len(r.hashes)
			seen[fh.Hash] = k
			r.hashes = append(r.hashes, fullHash{hash: fh.Hash})
		}
		h := &r.hashes[k]
		for j := range fh.Details {
			if d := &fh.Details[j]; d.Known() {
				h.details = addDetail(h.details, d.ThreatType, d.Attributes)
			}
		}
	}
	return r, nil
}

// addDetail appends to ds the detail of typ with attrs, known values all,
// unless ds has one of the same type and set of attributes already. The
// attributes are copied, each once, in the server's order.
func addDetail(ds []detail, typ ThreatType, attrs []ThreatAttribute) []detail {
	set := attrSet(attrs)
	for _, d := range ds {
		if d.typ == typ && attrSet(d.attrs) == set {
			return ds
		}
	}
	var kept []ThreatAttribute
	for _, a := range attrs {
		if bit := attrBit(a); set&bit != 0 {
			set &^= bit
			kept = append(kept, a)
		}
	}
	return append(ds, detail{typ: typ, attrs: kept})
}

// attrSet returns the attributes as a bit set.
func attrSet(attrs []ThreatAttribute) uint64 {
	var set uint64
	for _, a := range attrs {
		set |= attrBit(a)
	}
	return set
}

// attrBit returns the bit of a in a set of attributes.
func attrBit(a ThreatAttribute) uint64 { return 1 << (uint(a) % 64) }

// A listHeader is what the client reads itself of a HashList: the rest is
// the hashlist package's to read.
type listHeader struct {
	name    string        // without the "hashLists/" prefix (decision 4)
	minWait time.Duration // minimum_wait_duration; 0 when absent
	partial bool
	adds    int64 // the additions' entries_count+1; 0 when none
	removes int64 // the removals' entries_count+1; 0 when none
}

// parseListHeader reads the name, partial_update and
// minimum_wait_duration of a HashList, checking that the message is well
// formed and its version at most MaxVersion bytes. The wait is capped at
// MaxMinimumWait.
func parseListHeader(b []byte) (listHeader, error) {
	m, err := v5wire.ParseHashList(b)
	if err != nil {
		return listHeader{}, corrupt("%v", err)
	}
	if len(m.Version) > MaxVersion {
		return listHeader{}, corrupt("version of %d bytes, over %d", len(m.Version), MaxVersion)
	}
	h := listHeader{name: listname.Trim(m.Name), minWait: min(m.MinimumWait, MaxMinimumWait), partial: m.Partial}
	if m.AddWidth != 0 {
		h.adds = int64(m.Additions.Count) + 1
	}
	if m.HasRemovals {
		h.removes = int64(m.Removals.Count) + 1
	}
	return h, nil
}

// parseBatch reads a BatchGetHashListsResponse and returns each HashList's
// bytes, which share b.
func parseBatch(b []byte) ([][]byte, error) {
	lists, err := v5wire.ParseBatch(b)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	return lists, nil
}
