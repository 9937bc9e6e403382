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
func parseSearchReply(b []byte) (searchReply, error) {
	m, err := v5wire.ParseSearchHashesResponse(b)
	if err != nil {
		return searchReply{}, corrupt("%v", err)
	}
	r := searchReply{duration: m.CacheDuration, hasDuration: m.HasCacheDuration}
	for i := range m.FullHashes {
		fh := &m.FullHashes[i]
		h := fullHash{hash: fh.Hash}
		for j := range fh.Details {
			if d := &fh.Details[j]; d.Known() {
				h.details = append(h.details, detail{typ: d.ThreatType, attrs: d.Attributes})
			}
		}
		r.hashes = append(r.hashes, h)
	}
	return r, nil
}

// A listHeader is what the client reads itself of a HashList: the rest is
// the hashlist package's to read.
type listHeader struct {
	name    string        // without the "hashLists/" prefix (decision 4)
	minWait time.Duration // minimum_wait_duration; 0 when absent
	partial bool
}

// parseListHeader reads the name, partial_update and
// minimum_wait_duration of a HashList, checking that the message is well
// formed.
func parseListHeader(b []byte) (listHeader, error) {
	m, err := v5wire.ParseHashList(b)
	if err != nil {
		return listHeader{}, corrupt("%v", err)
	}
	return listHeader{name: listname.Trim(m.Name), minWait: m.MinimumWait, partial: m.Partial}, nil
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
