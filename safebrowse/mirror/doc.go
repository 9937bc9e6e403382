// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package mirror serves the Safe Browsing v5 API's list and search
// methods to a fleet of clients from one [lookup.Client], so that a
// fleet makes one list download per update and one search per prefix,
// from one project's quota, and only the mirror talks to Google. See
// https://developers.google.com/safe-browsing/reference (Local.Database,
// the methods of hashList, hashLists and hashes).
//
//	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: key, Dir: dir})
//	if err != nil { ... }
//	go src.Run(ctx)
//	m, err := mirror.New(src, mirror.Config{})
//	if err != nil { ... }
//	http.Handle("/v5/", m) // behind the server's own access rules
//
// Every v5 client whose server can be set points at it: ours through
// lookup.Config.BaseURL, Chromium's, Google's generated libraries. It
// serves, in Google's JSON mapping (alt=json, or no alt, as Google's
// servers default) and in binary protobuf (alt=proto, or Chromium's
// $ct=application/x-protobuf), written by the module's one owner of the
// v5 wire format:
//
//   - GET /v5/hashList/{name} and GET /v5/hashLists:batchGet, from the
//     mirror's own copy of each list;
//   - GET /v5/hashLists, the lists and their metadata ([Config].Lists);
//   - GET /v5/hashes:search, with hashPrefixes or Chromium's $req= form
//     (a base64url SearchHashesRequest), from the mirror's cache where
//     fresh, else upstream through the source.
//
// Errors come in Google's shape, {"error": {"code", "message",
// "status"}}, whatever alt says. The mirror checks no key: mount it
// behind the access rules of the server (cmd/sbserver -mirror does).
//
// # Lists
//
// The mirror copies a list from its source when the source's version of
// it changes ([lookup.Client.ListSnapshot]), and names each copy after
// its contents: the list's name and 128 bits of its SHA-256 checksum
// ("se-4b:1f…"). Two mirrors, or one mirror before and after a restart,
// that hold the same list give it the same version, so a client that
// moves between replicas gets a correct update, never a wrong one.
//
//   - A client at the current version gets an empty partial update.
//   - A client at one of the last Config.Versions versions (at least 4)
//     gets a partial update to the current one.
//   - Any other version, or none, gets the whole list (partialUpdate
//     false).
//   - sizeConstraints.maxUpdateEntries is honoured by chunking, as
//     Google's server does: removals first, then the smallest additions,
//     up to the limit, named after the state they lead to, with no
//     minimumWaitDuration, so that the client fetches the rest at once.
//     A list larger than sizeConstraints.maxDatabaseEntries is a 400
//     naming both sizes.
//   - Every reply carries the sha256Checksum of the state it leads to.
//   - minimumWaitDuration is the time until the source's next update of
//     the list plus up to 10% more, at random, so that a fleet does not
//     arrive at once, within [MinWait] and [MaxWait], in whole seconds;
//     [FrozenWait] when Config.Frozen says the lists never change. It is
//     the only field written per request: each version's whole list and
//     each partial update is encoded once and shared.
//   - A list the source has not loaded yet is a 503.
//
// # Searches
//
// A prefix whose answer is cached and fresh is answered from the cache
// ([Config].CacheSize prefixes, [BytesPerCacheEntry] bytes each). The
// others go upstream in one request through
// [lookup.Client.SearchPrefixes]; a prefix that another request is
// already asking waits for that answer, so concurrent identical prefixes
// make one upstream request, and at most Config.UpstreamSearches go at
// once. The reply's cacheDuration is the least time left among the
// answers for the prefixes asked. A failed upstream search is a 503,
// never an empty "not found".
//
// # Decisions where the spec is silent
//
//   - Versions derive from contents (above), not from the upstream's
//     versions: replicas that fetched at different times agree whenever
//     their lists do, and a restart keeps its versions.
//   - Every list reply carries the checksum, also an empty partial
//     update: a client can always verify what it holds.
//   - Back-off: the mirror's upstream searches share the source's
//     back-off, Chromium's rule as package lookup's Decisions give it (3
//     consecutive failures start 5 minutes, doubling up to 30), so one
//     upstream blip does not stop a fleet's searches for long; while it
//     lasts, searches that need the upstream are a 503 with Retry-After
//     set to its end.
//   - The mirror caches what the upstream said for a prefix for the
//     upstream's cache_duration, capped at a day as lookup caps it, and
//     sends on only the full hash details the source knows (lookup drops
//     the others, as the spec asks of a client).
//   - An upstream search goes on when the client that caused it goes
//     away, for the others waiting on it, at most 30 seconds.
//   - ListHashLists serves each list's hash_length from the list's name,
//     the width its hashes are served at, whatever Config.Lists says. The
//     names and descriptions are the source's: [lookup.Client.HashLists]
//     keeps only names lookup accepts, and masks the API key.
//   - A client part way through a chunked update whose state the mirror
//     no longer holds (more than 64 chunks ago, or another replica) gets
//     the whole list: correct, and rare.
package mirror
