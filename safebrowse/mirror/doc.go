// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package mirror serves the Safe Browsing v5 API's list and search
// methods to a fleet of clients from one [lookup.Client], so that a
// fleet makes one list download per update and one search per prefix,
// from one project's quota, and only the mirror talks to Google; and
// those of the Web Risk API likewise (see "Web Risk" below). See
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
// serves, in Google's JSON mapping (alt=json, or no alt) and in binary
// protobuf (alt=proto, or Chromium's $ct=application/x-protobuf), written
// by the module's one owner of the v5 wire format. Google's own v5 server
// answers protobuf only, and refuses alt=json; the mirror serves JSON too,
// so that Google's generated JSON clients work against it:
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
//     Chunks come in the powers of two from 1024 to 2^20 alone: a
//     client's limit is served as the one at or below it (see
//     Decisions). A client part way through a chunked update when the
//     list changes goes on from where it stands to the new version.
//     A list larger than sizeConstraints.maxDatabaseEntries is a 400
//     naming both sizes.
//   - Every reply carries the sha256Checksum of the state it leads to.
//   - minimumWaitDuration is the time until the source's next update of
//     the list plus up to 10% more, at random, so that a fleet does not
//     arrive at once, within [MinWait] and [MaxWait], in whole seconds;
//     [FrozenWait] when Config.Frozen says the lists never change. It is
//     the only field written per request.
//   - A list the source has not loaded yet is a 503.
//
// A list request costs at most a small constant times the list, whatever
// its parameters, and nothing a client asks for grows the mirror beyond
// a fixed budget:
//
//   - Each reply (a whole list, a partial update, a chunk) is built once,
//     in binary protobuf, and again in JSON when first asked so, and kept
//     in the list's cache, which it shares with the list's chunk states.
//     The cache holds at most three times the bytes of the list's current
//     version, plus 64 KiB, counted as allocated (the encoded bytes, a
//     chunk state's words, and a few hundred bytes of bookkeeping each),
//     the least recently used evicted first. [Stats.ListCacheBytes]
//     reports what the caches hold. Besides it, a list keeps its last
//     Config.Versions versions.
//   - A chunk state is a few words: the version the client started from,
//     the version it is on its way to, and how many entries of that
//     update it holds. Following a chunked update costs the mirror no
//     copy of the list; only a client whose update a newer version
//     overtook has its list held, once, counted in the cache.
//   - Diffing, hashing and encoding happen with no lock held: a request
//     for a cached reply never waits for a build, and concurrent requests
//     for one reply that is not cached share one build. At most 4 replies
//     are built at once by a mirror, so that the memory of the builds in
//     flight is bounded too; a request for another waits for a slot. The
//     source's list is copied (and hashed) when its version changes, once,
//     by the first request to see it, which the list's other requests
//     wait for, as they all need it.
//
// # Searches
//
// A prefix whose answer is cached and fresh is answered from the cache.
// The others go to the source in one call of
// [lookup.Client.SearchPrefixes], the client's one search for servers of
// others, which answers from its own cache where fresh, and otherwise
// coalesces: a prefix that a search in flight asks already, whether a
// client of the mirror or a lookup of the source's made it, waits for
// that answer, so concurrent identical prefixes make one upstream
// request, and at most lookup.Config.MaxSearchesInFlight requests go at
// once, for the mirror and the source's own lookups together: one bound,
// not two in series. The reply's cacheDuration is the least time left
// among the answers for the prefixes asked. A failed upstream search is a
// 503, never an empty "not found".
//
// The cache is bounded twice: at most [Config].CacheSize prefixes, and at
// most Config.CacheBytes bytes ([DefaultCacheBytes], 64 MiB). An entry
// keeps a prefix's full hashes as replies carry them, encoded once: in
// protobuf when it is cached, about 40 bytes a full hash, and in JSON
// once a JSON client has asked for it, about 105 more. A reply is those
// bytes, one prefix after another, and the cacheDuration: a cached answer
// is copied, never encoded again, whatever its full hashes. The bytes
// counted are an estimate of the heap, checked by a test to be at least
// what the entries take and at most half more: [BytesPerCacheEntry] a
// prefix, and for one with full hashes, 48 bytes and its encodings, as
// the allocator rounds them. When either cap is reached, the expired
// entries are purged, then entries chosen arbitrarily are dropped until
// an eighth of that cap is free. An answer larger than the whole budget
// is served and not cached.
//
// A reply is at most [lookup.MaxSearchReply] bytes, what the mirror's own
// clients accept: a search whose reply would be longer, which only an
// upstream that lists thousands of full hashes a prefix can cause, is a
// 503 that asks for fewer prefixes at once, checked before a byte is
// written.
//
// # Web Risk
//
// A [WebRisk] serves the Web Risk API's list and search methods
// (webrisk.googleapis.com/v1; google/cloud/webrisk/v1/webrisk.proto and
// cloud.google.com/web-risk/docs), the commercial heir of v4, from one
// [lookup.Client] of Web Risk, the way a Mirror serves v5's, so that a
// fleet of Web Risk clients (github.com/google/webrisk, Google's
// generated clients, lookup's with Config.API WebRisk) make one list
// download per update and one billed hashes:search per prefix, with only
// their server URL changed:
//
//	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: key, API: lookup.WebRisk})
//	if err != nil { ... }
//	go src.Run(ctx)
//	w, err := mirror.NewWebRisk(src, mirror.Config{})
//	if err != nil { ... }
//	http.Handle("/v1/", w) // behind the server's own access rules
//
// It serves, in Google's JSON mapping (no alt, or alt=json) and in binary
// protobuf (alt=proto), written by the module's one owner of Web Risk's
// wire, with no field webrisk.proto lacks (google/webrisk refuses a whole
// update for one):
//
//   - GET /v1/threatLists:computeDiff?threatType=...&versionToken=..., the
//     list of one threat type from the mirror's own copy. The four of Web
//     Risk's lists are kept, SOCIAL_ENGINEERING_EXTENDED_COVERAGE
//     included, since google/webrisk asks for it by default. The lists'
//     versions, the replies and their bounds are as a Mirror's (see
//     "Lists"), but for the wire: a client with no token, or one the
//     mirror does not know, gets a RESET; one at a version or a chunk
//     state the mirror keeps gets a DIFF, its removals as indices into
//     its entries in byte order, of every length. The version token is
//     the threat type and 128 bits of the list's checksum
//     ("MALWARE:5ef4…"), so that replicas agree. With RICE among
//     constraints.supportedCompressions, the 4-byte additions are
//     riceHashes, little-endian as Web Risk codes them, and the removals
//     riceIndices; otherwise both are raw. Longer entries are rawHashes,
//     one group a length. Every reply carries checksum.sha256, the
//     SHA-256 of the client's entries after it, sorted bytewise and
//     concatenated, and a recommendedNextDiff: the source's next update
//     plus up to 10%, within [MinWait] and [MaxWait] (now plus
//     [FrozenWait] when frozen); now, for a chunk, so that the client
//     fetches the rest at once.
//   - GET /v1/hashes:search?hashPrefix=...&threatTypes=..., one prefix of
//     4 to 32 bytes, from the mirror's cache where fresh, keyed by the
//     exact prefix, else through [lookup.Client.SearchHashPrefixes], which
//     coalesces concurrent searches of one prefix and bounds them with the
//     source's own: N clients asking one prefix cost the upstream one
//     search for as long as its answer holds. The reply lists every full
//     hash the upstream listed that has one of the threat types asked,
//     with those types; each expireTime and the negativeExpireTime are
//     the time the mirror holds the answer until, the earliest of the
//     upstream's times ([lookup.PrefixResult].Expires). threatTypes is
//     required, as Google requires it. The cache is bounded as a Mirror's
//     is, by Config.CacheSize and Config.CacheBytes; a reply is at most
//     [lookup.MaxWebRiskSearchReply] bytes, else a 503.
//
// A [URISearch] answers Web Risk's uris.search (GET /v1/uris:search) from
// a lookup.Client of Web Risk in any mode: {} when no list of the threat
// types asked holds the URI, {"threat": {"threatTypes": [...],
// "expireTime": "..."}} when some does, and a 503 when the URI could not
// be checked, never {}. Only hash prefixes of the URI leave the server,
// and a URI the client's lists rule out costs no billed call at all.
//
// Errors come in Google's shape, as the v5 methods' do. Decisions for Web
// Risk, where its documentation is silent:
//
//   - constraints.maxDiffEntries is served as v5's maxUpdateEntries is:
//     1 to 1023 is a 400, 0 no limit, any other the largest power of two
//     at or below both it and 2^20 ([replycache.ChunkSize]), which are
//     the values webrisk.proto allows, so that a list has few kinds of
//     reply. A chunk holds the removals first, then the smallest
//     additions: its state is a part of the old list or of the new one,
//     so no entry of it is a prefix of another.
//   - A list that holds more entries than constraints.maxDatabaseEntries
//     is a 400 naming both sizes, as the v5 mirror answers, rather than a
//     smaller list chosen by the mirror: Web Risk serves a client a
//     database cut to its size by Google's own ranking, which a mirror
//     does not know, and a list cut by another rule would miss threats
//     silently.
//   - hashes:search answers from the source's full hashes, each with the
//     threat types the source knows (all four, as NewMirrorSource keeps
//     them): a full hash with none of the types asked is left out, and
//     one time, the answer's, stands for expireTime and
//     negativeExpireTime, so that no client holds an answer longer than
//     the mirror would.
//   - uris:search's expireTime is the time of the reply plus
//     [URISearchConfig].CacheDuration (sbserver's -cache-duration, as its
//     urls:search's cacheDuration), the verdict carrying no time of its
//     own.
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
//   - A client that goes away, while its search waits for an upstream
//     slot or while the request is in flight, ends only its own request:
//     the search goes on for the clients and lookups that joined it, and
//     is dropped once none waits on it, as package lookup's "Searches in
//     flight" says; a search runs at most 30 seconds.
//   - The search cache and the source's are two caches, each with its
//     own bounds: the mirror's keeps the encoded replies, the source's
//     the full hashes its lookups match, and a prefix the mirror has
//     dropped may still be answered by the source's, with no request.
//   - The reply size is checked against lookup.MaxSearchReply in the
//     encoding served, JSON included, although a JSON client may accept
//     more: one bound for every client.
//   - sizeConstraints.maxUpdateEntries: the v5 reference says only that
//     it "MUST be at least 1024" and that 0 or none sets no limit
//     (SizeConstraints). A value from 1 to 1023 is a 400
//     INVALID_ARGUMENT; 0 is no limit; any other is served as the largest
//     power of two at or below both it and 2^20, so that a list has at
//     most 12 kinds of update from each state however many limits its
//     clients send. The update holds no more entries than the client
//     asked, which is all the field promises ("it is possible that the
//     update will contain fewer entries than this value"), and Google's
//     own servers "only pre-generate a finite number of possible update
//     response ... sizes" (v4 reference, Update Constraints). A limit the
//     whole list fits in gets the same reply as no limit.
//   - A client part way through a chunked update whose chunk state the
//     mirror no longer holds (evicted from the list's cache, on its way
//     to a version no longer among the last Config.Versions, or made by
//     another replica) gets the whole list: correct, and rare.
//   - ListHashLists serves each list's hash_length from the list's name,
//     the width its hashes are served at, whatever Config.Lists says. The
//     names and descriptions are the source's: [lookup.Client.HashLists]
//     keeps only names lookup accepts, and masks the API key.
package mirror
