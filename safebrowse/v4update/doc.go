// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package v4update serves the Safe Browsing v4 Update API
// (threatListUpdates:fetch, fullHashes:find and threatLists, see
// https://developers.google.com/safe-browsing/v4/update-api) from one
// [lookup.Client]'s lists and searches, beside the v5 mirror
// (safebrowse/mirror), so that a v4 client that keeps a local database
// (github.com/google/safebrowsing and the libraries built on it, a
// Chromium-family browser) keeps working after Google ends v4, with only
// its server URL changed.
//
//	src, err := lookup.New(lookup.Config{APIKey: key, Dir: dir})
//	if err != nil { ... }
//	go src.Run(ctx)
//	v4, err := v4update.New(src, v4update.Config{})
//	if err != nil { ... }
//	http.Handle("/v4/", v4) // behind the server's own access rules
//
// It serves, in Google's JSON mapping of the v4 protos and in binary
// protobuf, written by the module's one owner of the v4 wire
// (safebrowse/internal/v4wire):
//
//   - POST /v4/threatListUpdates:fetch, from the source's lists;
//   - POST /v4/fullHashes:find, through the source's one search;
//   - GET /v4/threatLists, the lists served.
//
// A request's body is JSON (application/json, or no Content-Type), as
// Google's generated clients post it, or binary (application/x-protobuf),
// as github.com/google/safebrowsing posts it with alt=proto in the query.
// Chromium's GET form is taken for both methods that take a request:
// ?$req=<the binary request in base64url>&$ct=application/x-protobuf,
// with X-HTTP-Method-Override: POST. The reply is binary with alt=proto,
// JSON with alt=json, and otherwise in the request's own encoding: binary
// for a binary body or $req. JSON writes int64 as strings, which Google's
// generated Go client reads with ",string". Errors come in Google's
// shape, {"error": {"code", "message", "status"}}, whatever the request's
// encoding. The Server checks no key: mount it behind the access rules
// of the server, which take the client's key as key= or X-Goog-Api-Key
// (as cmd/sbserver mounts the mirror); [Handles] names its paths.
//
// # Lists
//
// A v4 list is named by three types (threatType, platformType,
// threatEntryType URL). Each threat type is served from the source's
// lists of that type:
//
//   - from a v5 source, MALWARE from mw-4b, SOCIAL_ENGINEERING from
//     se-4b, UNWANTED_SOFTWARE from the union of uws-4b and uwsa-4b, and
//     POTENTIALLY_HARMFUL_APPLICATION from pha-4b, each from those of them
//     the source keeps; a threat type of which the source keeps none is
//     not served;
//   - from a Web Risk source (lookup.Config.API WebRisk, which the
//     source's list names tell), MALWARE, SOCIAL_ENGINEERING and
//     UNWANTED_SOFTWARE from Web Risk's lists of those names, prefixes of
//     every length, 4 to 32 bytes, included; Web Risk has no
//     POTENTIALLY_HARMFUL_APPLICATION, and v4 no
//     SOCIAL_ENGINEERING_EXTENDED_COVERAGE, so neither is served;
//   - every platform type (ANY_PLATFORM, WINDOWS, LINUX, OSX, ANDROID,
//     IOS, CHROME, ALL_PLATFORMS) serves the same list: v5 lists carry no
//     platform, so each is a superset of what v4 served on any one, which
//     errs on the safe side;
//   - a list asked for that is not served (another threat type, platform
//     or entry type) gets an empty full update, with the checksum of the
//     empty list, so that a client asking for many lists in one request,
//     as Chromium does, does not fail whole;
//   - GET /v4/threatLists names the lists served: each threat type
//     served × each platform type above × URL.
//
// A fetch's reply holds one ListUpdateResponse a list asked, in the
// request's order, echoing its three types exactly, as
// google/safebrowsing matches them (database.go).
//
// # Updates, as v4 specifies
//
//   - A client with no state, or one the list does not know, gets a
//     FULL_UPDATE, with no removals; a client at one of the list's last
//     Config.Versions versions (at least 4), or part way through a
//     chunked update the list knows, a PARTIAL_UPDATE; a client at the
//     current version an empty PARTIAL_UPDATE.
//   - The additions are RICE when the request's
//     constraints.supportedCompressions has it, else RAW, and so are the
//     removals; every ThreatEntrySet has its compressionType set to the
//     one field it holds.
//   - The 4-byte prefixes are Rice-coded as little-endian uint32s, as v4
//     reads them (github.com/google/safebrowsing hash.go): the opposite of
//     v5, so each update's prefixes are byte-swapped and re-sorted when it
//     is encoded ([hashlist.RiceHashes]), never passed through. Prefixes
//     longer than 4 bytes, which a Web Risk source's lists hold, go raw,
//     one set a length.
//   - Removals are indices into the client's list in byte order, the
//     order of the checksum.
//   - Every update carries checksum.sha256, the SHA-256 of the client's
//     list after it, sorted in byte order and concatenated: on every list,
//     the empty and the unchanged included.
//   - newClientState is derived from the list's contents: the threat
//     type's name and 128 bits of its checksum ("MALWARE:1f…"), so that
//     replicas, and one server across restarts, agree.
//   - One minimumWaitDuration per reply: the time until the source's next
//     update of the soonest due of the lists the served lists asked are
//     made of, plus up to 10% more at random, held within [MinWait] and
//     [MaxWait], in whole seconds, the mirror's rule; [FrozenWait] under
//     Config.Frozen.
//   - constraints.maxUpdateEntries chunks an update as the mirror chunks
//     its own: removals first, then the smallest additions, up to the
//     chunk size, the powers of two from 2^10 to 2^20 alone, the client's
//     limit served as the one at or below it; a chunk leads to a state of
//     its own, from which the next request goes on, and a reply holding a
//     chunk that is not the last has no minimumWaitDuration, so that the
//     client asks for the rest at once. A limit from 1 to 1023 is a 400.
//   - A list holding more entries than constraints.maxDatabaseEntries is
//     a 400 that names both sizes, as the v5 mirror answers.
//   - The v4 lists follow the source's at each of its updates: the first
//     request after one copies the source's lists that changed, once. A
//     fetch of a served list before the source has loaded it is a 503,
//     never an empty 200.
//
// # fullHashes:find
//
// For each prefix asked (4 to 32 bytes), every full hash the upstream
// lists that begins with it gets one ThreatMatch per threat type asked
// that is served and is among the full hash's own, and per platform type
// asked, each with threatEntryType URL, threat.hash (the 32-byte full
// hash), an empty threatEntryMetadata and a cacheDuration, the time its
// answer has left. Unlike
// threatMatches:find, every platform asked is reported, since
// google/safebrowsing drops a match for a platform it did not subscribe
// to. A full hash's threat types are those of its details that are not
// CANARY: a hash listed only as a canary is dropped, as on the other
// Google-shaped endpoints. The reply carries negativeCacheDuration, the
// least time left among the answers, and a minimumWaitDuration of 0s,
// since Chromium answers from its cache alone until that wait passes.
//
// The searches go through the source's one search for servers of others,
// [lookup.Client.SearchHashPrefixes] (SearchPrefixes, its 4-byte form):
// under v5 with the first 4 bytes of each prefix, the only length v5's
// hashes:search takes; under Web Risk with each prefix whole, as Web
// Risk's takes it and a v4 client sends an entry of its list. It answers
// from the source's cache where fresh, joins the searches in flight, and
// bounds and caches its own, for this server, the mirror and the source's
// lookups together. A failed search is a 503, with Retry-After while the
// source backs off, never an empty "safe" reply.
//
// # Limits
//
// A request body, or its $req decoded, holds at most [MaxRequestBytes]; a
// fetch asks at most [MaxListUpdateRequests] lists, a find at most
// [MaxFindPrefixes] distinct prefixes, and a find's reply is at most
// [MaxFindReply] bytes, or a 503, checked before a byte is written.
//
// Nothing v4 is held until a v4 client asks: the first request for a
// list copies the source's lists it is made of. Each list then keeps its
// last Config.Versions versions (4 bytes a prefix each) and a cache of
// the updates it has encoded, each built once, in binary and again in
// JSON when first asked so, and of the chunk states it has served, the
// least recently used evicted first, within four times the bytes of the
// list's current version plus 64 KiB ([Stats].ListCacheBytes). Concurrent
// requests for one update that is not cached share one build; at most 4
// updates are built at once by a server, and a request for a cached one
// never waits for a build. A full update of a 1,000,000-prefix list
// (swapped, sorted, Rice-coded, its checksum computed) costs at most 5×
// SHA-256 over the list (BenchmarkFullUpdate); a partial update costs its
// change and one merge walk over the two versions.
//
// # Decisions where the v4 reference is silent
//
//   - A list not served always gets an empty FULL_UPDATE, whatever state
//     it sends: there is nothing to keep partial.
//   - A list asked twice in one fetch, by the same three types, is a 400,
//     as protobuf's repeated fields give no way to answer both.
//   - A reply's encoding follows the request's when alt is absent, as
//     Chromium, which sends no alt, reads binary; alt=json on a binary
//     request gets JSON.
//   - A fetch with no list, or a find with no threat type, platform type,
//     entry type or entry, is a 400: no reply could be right.
//   - A find whose entry types do not name URL matches nothing: every
//     list served is of URLs.
//   - Under v5, a prefix longer than 4 bytes is searched by its first 4
//     bytes, and only the full hashes that begin with the whole prefix
//     are returned.
//   - A Web Risk full hash listed as SOCIAL_ENGINEERING_EXTENDED_COVERAGE
//     alone matches nothing: v4 has no such threat type, and its lists
//     have more false positives than SOCIAL_ENGINEERING's.
//   - Every match carries threatEntryMetadata, with no entries, as
//     Google's matches did where they had none (the reference's example
//     shows "entries": []): gglsbl reads it on every match. Its one
//     entry Google gave, malware_threat_type, v5 lists do not hold.
//   - A GET without $req on the two methods that take a request is a 400;
//     X-HTTP-Method-Override, when present, must be POST.
package v4update
