// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import "sync/atomic"

// Stats are the counters of a Client since [New], as [Client.Stats] reports
// them: what an operator graphs, as the Stats of
// github.com/google/safebrowsing did for v4. Each counter only grows.
type Stats struct {
	// Lookups counts the URLs asked about, by Lookup or LookupAll, bad
	// ones included.
	Lookups uint64
	// Unsafe counts the verdicts returned whose Unsafe() is true.
	Unsafe uint64
	// Errors counts the URLs that got an error: a bad URL, a failed
	// search, a search refused by the back-off, lists not ready, a closed
	// client.
	Errors uint64
	// CacheHits counts the hash prefixes that the cache answered, with no
	// request: a URL's, or one SearchPrefixes asked.
	CacheHits uint64
	// LocalMisses counts the URLs answered SAFE by the local lists (Local
	// List step 2), with no request.
	LocalMisses uint64
	// Searches counts the hashes:search requests sent, under either API;
	// a search refused by the back-off or by Config.MaxSearchesPerMinute,
	// or one with Config.OHTTP and no key to seal it for, sends none and
	// is not counted. Under Web Risk each is billed, and asks one prefix.
	Searches uint64
	// SearchErrors counts the searches that failed: no reply, a status
	// other than 200, a corrupt reply, or, with Config.OHTTP, no key to
	// seal the request for (a search sent nothing, counted here only).
	SearchErrors uint64
	// Coalesced counts the hash prefixes that a lookup or SearchPrefixes
	// needed from the server and found asked already by a search in
	// flight, which it joined rather than ask again: one for each prefix
	// and each caller that joined. So concurrent callers that need one
	// uncached prefix cost one request, counted in Searches, and
	// Coalesced counts the others.
	Coalesced uint64
	// SearchWaits counts the searches that waited for a slot because
	// Config.MaxSearchesInFlight requests were in flight: a count that
	// grows under steady load says the bound is too low for it.
	SearchWaits uint64
	// Updates counts the list fetch requests sent: hashList and
	// hashLists:batchGet under v5, threatLists:computeDiff (one a list,
	// not billed) under Web Risk.
	Updates uint64
	// UpdateErrors counts the list fetches that failed: no reply, a status
	// other than 200, or a corrupt reply or list. A checksum mismatch is
	// not a failed fetch.
	UpdateErrors uint64
	// SearchesOverBudget counts the hashes:search requests not sent
	// because Config.MaxSearchesPerMinute had gone in the last minute:
	// the lookups and searches that needed them failed with
	// [ErrSearchBudget]. A count that grows says that the cap binds.
	SearchesOverBudget uint64
	// OHTTPKeyFetches counts the requests for the OHTTP gateway's key, with
	// Config.OHTTP. Searches through the relay count in Searches and
	// SearchErrors, as direct ones do; a search that failed for want of a
	// key sent nothing, and counts in SearchErrors only.
	OHTTPKeyFetches uint64
	// OHTTPKeyErrors counts the failed key fetches, and the searches whose
	// key the gateway refused (a 422 or the ohttp-key problem).
	OHTTPKeyErrors uint64
}

// counters are a Client's Stats, each updated atomically, so that counting
// costs a lookup no lock and no allocation.
type counters struct {
	lookups, unsafe, errors, cacheHits, localMisses atomic.Uint64
	searches, searchErrors, updates, updateErrors   atomic.Uint64
	coalesced, searchWaits, searchesOverBudget      atomic.Uint64
	ohttpKeyFetches, ohttpKeyErrors                 atomic.Uint64
}

// Stats returns the client's counters since New. Each is read atomically;
// a lookup running meanwhile may be counted in some of them and not yet in
// others.
func (c *Client) Stats() Stats {
	s := &c.stats
	return Stats{
		Lookups:      s.lookups.Load(),
		Unsafe:       s.unsafe.Load(),
		Errors:       s.errors.Load(),
		CacheHits:    s.cacheHits.Load(),
		LocalMisses:  s.localMisses.Load(),
		Searches:     s.searches.Load(),
		SearchErrors: s.searchErrors.Load(),
		Coalesced:    s.coalesced.Load(),
		SearchWaits:  s.searchWaits.Load(),
		Updates:      s.updates.Load(),
		UpdateErrors: s.updateErrors.Load(),

		SearchesOverBudget: s.searchesOverBudget.Load(),

		OHTTPKeyFetches: s.ohttpKeyFetches.Load(),
		OHTTPKeyErrors:  s.ohttpKeyErrors.Load(),
	}
}

// countVerdict counts one URL's verdict and error.
func (s *counters) countVerdict(v *Verdict, err error) {
	if err != nil {
		s.errors.Add(1)
	}
	if v.Unsafe() {
		s.unsafe.Add(1)
	}
}
