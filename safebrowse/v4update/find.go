// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// This file answers fullHashes:find, through the source's one search.

// v4Types maps the threat types of the source's full hashes, numbered
// as v5 numbers them, to v4's: the four share their names and numbers.
var v4Types = map[lookup.ThreatType]v4wire.ThreatType{
	lookup.Malware:                       v4wire.Malware,
	lookup.SocialEngineering:             v4wire.SocialEngineering,
	lookup.UnwantedSoftware:              v4wire.UnwantedSoftware,
	lookup.PotentiallyHarmfulApplication: v4wire.PotentiallyHarmfulApplication,
}

// serveFind answers fullHashes:find. For each prefix asked (4 to 32
// bytes), every full hash the upstream lists that begins with it gets one
// ThreatMatch per threat type asked that is served and is among the full
// hash's own (those of its details that are not CANARY), and per platform
// asked, of threatEntryType URL, with a cacheDuration that is the time
// its answer has left. The reply's negativeCacheDuration is the least
// time left among the answers, and its minimumWaitDuration 0s. The
// searches go through the source's [lookup.Client.SearchPrefixes], which
// reads and fills its cache, joins the searches in flight and bounds
// them; a failed search is a 503, never an empty reply.
func (s *Server) serveFind(ctx context.Context, req *request) ([][]byte, *apiError) {
	m, aerr := req.parseFind()
	if aerr != nil {
		return nil, aerr
	}
	ti := &m.ThreatInfo
	switch {
	case len(ti.ThreatEntries) == 0:
		return nil, invalid("threatInfo.threatEntries is required")
	case len(ti.ThreatTypes) == 0:
		return nil, invalid("threatInfo.threatTypes is required")
	case len(ti.PlatformTypes) == 0:
		return nil, invalid("threatInfo.platformTypes is required")
	case len(ti.ThreatEntryTypes) == 0:
		return nil, invalid("threatInfo.threatEntryTypes is required")
	}
	var prefixes [][]byte
	var keys [][4]byte
	asked := make(map[string]bool, len(ti.ThreatEntries))
	searched := make(map[[4]byte]bool, len(ti.ThreatEntries))
	for i, e := range ti.ThreatEntries {
		if n := len(e.Hash); n < 4 || n > 32 {
			return nil, invalid("threatInfo.threatEntries[%d].hash is %d bytes, not 4 to 32", i, n)
		}
		if asked[string(e.Hash)] {
			continue
		}
		asked[string(e.Hash)] = true
		prefixes = append(prefixes, e.Hash)
		if len(prefixes) > MaxFindPrefixes {
			return nil, invalid("more than %d distinct threatInfo.threatEntries", MaxFindPrefixes)
		}
		if k := [4]byte(e.Hash); !searched[k] {
			searched[k] = true
			keys = append(keys, k)
		}
	}
	// The lists asked that are served: each threat type and platform
	// once, in the request's order.
	var types []v4wire.ThreatType
	for _, t := range ti.ThreatTypes {
		if t > 0 && int(t) < numTypes && s.lists[t] != nil && !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	var plats []v4wire.PlatformType
	for _, p := range ti.PlatformTypes {
		if p.Valid() && !slices.Contains(plats, p) {
			plats = append(plats, p)
		}
	}
	if !slices.Contains(ti.ThreatEntryTypes, v4wire.URL) {
		types = nil // the lists served are of URLs alone
	}

	var res []lookup.PrefixResult
	var err error
	if s.api.whole {
		s.stats.searched.Add(uint64(len(prefixes)))
		res, err = s.src.SearchHashPrefixes(ctx, prefixes)
	} else {
		s.stats.searched.Add(uint64(len(keys)))
		res, err = s.src.SearchPrefixes(ctx, keys)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, &apiError{status: http.StatusServiceUnavailable, msg: "v4update: request canceled"}
		}
		s.log.Debug("v4update: upstream search failed", "prefixes", len(keys), "err", err)
		return nil, upstreamError(err, s.now())
	}
	now := s.now()
	reply := v4wire.FindFullHashesResponse{HasMinimumWait: true, HasNegativeCacheDuration: true}
	least := time.Duration(-1)
	for i := range res {
		if left := max(res[i].Expires.Sub(now), 0); least < 0 || left < least {
			least = left
		}
	}
	reply.NegativeCacheDuration = max(least, 0).Truncate(time.Second)
	// The answer of each prefix asked: its own, searched whole, or that of
	// its first 4 bytes.
	answer := make(map[string]*lookup.PrefixResult, len(res))
	for i := range res {
		answer[string(res[i].HashPrefix)] = &res[i]
	}
	// The matches: each full hash once, whatever prefixes it answers,
	// counted before they are built, so that a reply past MaxFindReply
	// is refused before it takes memory.
	type found struct {
		hash [32]byte
		own  []v4wire.ThreatType
		cd   time.Duration
	}
	var hits []found
	seen := make(map[safebrowse.Hash]bool)
	count := 0
	for _, p := range prefixes {
		r := answer[string(p)]
		if !s.api.whole {
			r = answer[string(p[:4])]
		}
		cd := max(r.Expires.Sub(now), 0).Truncate(time.Second)
		for _, fh := range r.FullHashes {
			if !bytes.HasPrefix(fh.Hash[:], p) || seen[fh.Hash] {
				continue
			}
			seen[fh.Hash] = true
			own := slices.DeleteFunc(threatTypes(fh.Details), func(t v4wire.ThreatType) bool { return !slices.Contains(types, t) })
			if len(own) > 0 {
				hits = append(hits, found{fh.Hash, own, cd})
				count += len(own) * len(plats)
			}
		}
	}
	if n := count * minMatchBytes; n > s.maxFindReply {
		return nil, tooLong(n, s.maxFindReply)
	}
	reply.Matches = make([]v4wire.ThreatMatch, 0, count)
	for _, h := range hits {
		for _, t := range types { // in the request's order
			if !slices.Contains(h.own, t) {
				continue
			}
			for _, pt := range plats {
				reply.Matches = append(reply.Matches, v4wire.ThreatMatch{
					ThreatType: t, PlatformType: pt, ThreatEntryType: v4wire.URL,
					Threat:        v4wire.ThreatEntry{Hash: slices.Clone(h.hash[:])},
					CacheDuration: h.cd, HasCacheDuration: true,
					Metadata: noMetadata,
				})
			}
		}
	}
	var b []byte
	if req.proto {
		b = v4wire.AppendFindFullHashesResponse(nil, &reply)
	} else {
		b = v4wire.AppendFindFullHashesResponseJSON(nil, &reply)
	}
	if len(b) > s.maxFindReply {
		return nil, tooLong(len(b), s.maxFindReply)
	}
	return [][]byte{b}, nil
}

// minMatchBytes is the least a ThreatMatch takes in a reply, in binary:
// its tag and length, three enums, a 32-byte hash in its ThreatEntry, an
// empty threatEntryMetadata and a cacheDuration.
const minMatchBytes = 2 + 6 + 36 + 2 + 2

// noMetadata is the threatEntryMetadata of every match: present, with no
// entries, as Google's matches carried it where it had none to give
// ("entries": [] in the v4 reference's example), since a client may read
// it unconditionally (gglsbl reads threatEntryMetadata.entries of every
// match). It is never written to.
var noMetadata = []v4wire.MetadataEntry{}

// tooLong is the reply to a find whose reply would be n bytes, more than
// max.
func tooLong(n, max int) *apiError {
	return &apiError{status: http.StatusServiceUnavailable,
		msg: fmt.Sprintf("v4update: the reply would be %d bytes, over %d: ask for fewer prefixes at once", n, max)}
}

// threatTypes returns the v4 threat types of a full hash's details, each
// once: those of its details that are not CANARY, as on the other
// Google-shaped endpoints, since a canary is not to be enforced.
func threatTypes(details []lookup.FullHashDetail) []v4wire.ThreatType {
	var out []v4wire.ThreatType
	for _, d := range details {
		t, ok := v4Types[d.Type]
		if ok && !slices.Contains(d.Attributes, lookup.Canary) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// upstreamError returns the reply to a failed upstream search: a 503,
// with Retry-After while the source backs off.
func upstreamError(err error, now time.Time) *apiError {
	e := &apiError{status: http.StatusServiceUnavailable, msg: "v4update: upstream search failed: " + err.Error()}
	var be *lookup.BackoffError
	if errors.As(err, &be) {
		e.retryAfter = max(be.Until.Sub(now), time.Second)
		e.msg = fmt.Sprintf("v4update: upstream searches backing off until %s after %d failures", be.Until.UTC().Format(time.RFC3339), be.Failures)
	}
	return e
}
