// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"net/url"
	"slices"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// maxURLs is the most urls one urls:search takes, as Google's discovery
// document says.
const maxURLs = 50

// searchURLs answers urls:search (GET /v5/urls:search?urls=...), the
// method of Google's discovery document that sends URLs in the clear: a
// SearchUrlsResponse holding, for each URL asked (in the order asked, once
// each) that an expression of puts on a 4-byte threat list, the URL as
// sent and the threat types of those lists, in the order of [Lists]. Its
// cache_duration is that of hashes:search. A URL that safebrowse cannot
// canonicalise is a 400; none, or more than 50, is a 400.
func (s *Server) searchURLs(p url.Values) (reply, *badRequest) {
	urls := p["urls"]
	switch {
	case len(urls) == 0:
		return nil, invalid("urls is required")
	case len(urls) > maxURLs:
		return nil, invalid("%d urls, more than %d", len(urls), maxURLs)
	}
	hashes := make([][]safebrowse.Hash, len(urls))
	for i, u := range urls {
		h, err := safebrowse.Hashes(u)
		if err != nil {
			return nil, invalid("urls[%d]=%s is not a URL Safe Browsing checks", i, inputerr.Quote(u))
		}
		hashes[i] = h
	}
	r := new(urlsReply)
	s.mu.Lock()
	r.CacheDuration = s.cacheDuration
	for i, u := range urls {
		if slices.Contains(urls[:i], u) {
			continue
		}
		var types []v5wire.ThreatType
		for j := range listDefs {
			l := s.lists[listDefs[j].name]
			if l.def.threat == 0 || slices.Contains(types, l.def.threat) {
				continue
			}
			for _, h := range hashes[i] {
				if _, ok := l.entries[h]; ok {
					types = append(types, l.def.threat)
					break
				}
			}
		}
		if len(types) > 0 {
			r.Threats = append(r.Threats, v5wire.ThreatURL{URL: u, ThreatTypes: types})
		}
	}
	s.mu.Unlock()
	return r, nil
}
