// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"net/url"
	"slices"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// maxPrefixes is the most hashPrefixes one hashes:search takes.
const maxPrefixes = 1000

// search answers SearchHashes (GET /v5/hashes:search): a
// SearchHashesResponse { 1 full_hashes; 2 cache_duration } holding every
// full hash on a 4-byte threat list whose 4-byte prefix was asked, once
// per distinct hash, with one FullHashDetail per list it is on (in the
// order of [Lists]), sorted by hash. gc-32b is never searched. An empty
// reply is a 200 with no full_hashes, as the API's "not found" is.
func (s *Server) search(p url.Values) (reply, *badRequest) {
	raw := p["hashPrefixes"]
	switch {
	case len(raw) == 0:
		return nil, invalid("hashPrefixes is required")
	case len(raw) > maxPrefixes:
		return nil, invalid("%d hashPrefixes, more than %d", len(raw), maxPrefixes)
	}
	asked := make(map[[4]byte]bool, len(raw))
	for i, v := range raw {
		b, err := decodeBytes(v)
		switch {
		case err != nil:
			return nil, invalid("hashPrefixes[%d]=%s is not base64", i, inputerr.Quote(v))
		case len(b) != 4:
			return nil, invalid("hashPrefixes[%d] is %d bytes, not 4", i, len(b))
		}
		asked[[4]byte(b)] = true
	}

	found := make(map[[32]byte][]v5wire.FullHashDetail)
	s.mu.Lock()
	for i := range listDefs {
		l := s.lists[listDefs[i].name]
		if l.def.threat == 0 {
			continue
		}
		for prefix := range asked {
			for _, h := range l.byPrefix[prefix] {
				found[h] = append(found[h], v5wire.FullHashDetail{ThreatType: l.def.threat, Attributes: slices.Clone(l.entries[h])})
			}
		}
	}
	cacheDuration := s.cacheDuration
	s.mu.Unlock()

	hashes := make([][32]byte, 0, len(found))
	for h := range found {
		hashes = append(hashes, h)
	}
	slices.SortFunc(hashes, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	r := &searchReply{v5wire.SearchHashesResponse{CacheDuration: cacheDuration}}
	for _, h := range hashes {
		r.FullHashes = append(r.FullHashes, v5wire.FullHash{Hash: h, Details: found[h]})
	}
	return r, nil
}
