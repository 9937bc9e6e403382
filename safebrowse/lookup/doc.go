// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package lookup is a client of the Google Safe Browsing v5 API: it answers
// whether a URL is unsafe as Chrome does, from local hash lists, a cache and
// the hashes:search method, and keeps its lists fresh and on disk. See
// https://developers.google.com/safe-browsing/reference (Overview,
// Local.Database, Local.List.Mode, Real.Time.Mode, No.Storage.Real.Time.Mode).
// With Config.API set to [WebRisk], it is a client of the Web Risk API, the
// same service for commercial use (see "Web Risk" below).
//
//	c, err := lookup.New(lookup.Config{APIKey: key, Dir: "/var/cache/sb"})
//	if err != nil { ... }
//	defer c.Close()
//	go c.Run(ctx)                 // fetch the lists, then keep them fresh
//	if err := c.Ready(ctx); err != nil { ... }
//	v, err := c.Lookup(ctx, "http://evil.example/login")
//	if err != nil { ... }         // the check is incomplete: never "safe"
//	if v.Unsafe() { ... }
//
// The expressions and hashes of a URL are those of package
// [github.com/urlspec/urlspec/safebrowse]; the lists are those of
// [github.com/urlspec/urlspec/safebrowse/hashlist].
//
// # The three procedures
//
// The Mode of a Client chooses the procedure, whose steps the code names.
//
// Local List ([LocalList], the default):
//
//  1. The cache: an unexpired entry answers for its 4-byte prefix, which is
//     not asked about again; if it holds one of the URL's full hashes, the
//     URL is unsafe at once, with no request. Expired entries are deleted.
//  2. Every prefix that no local threat list holds is dropped; if none is
//     left, the URL is safe, with no request. So no URL that the lists rule
//     out ever reaches the server.
//  3. The rest goes to hashes:search. On an error the spec says SAFE; this
//     package returns the error, with a Verdict of what the cache knew.
//  4. The reply is cached; a returned full hash equal to one of the URL's
//     makes the URL unsafe, with that hash's threats.
//
// Real-Time ([RealTime]) keeps the Global Cache list gc-32b too:
//
//  1. If one of the URL's full hashes is in gc-32b, the answer is UNSURE
//     and the Local List procedure decides.
//  2. Otherwise, the cache, as in Local List step 1.
//  3. Every prefix the cache did not answer goes to hashes:search, whether
//     or not a local list holds it; the reply is handled as in Local List
//     step 4.
//
// No-Storage Real-Time ([NoStorage]) keeps no lists:
//
//  1. The cache, as in Local List step 1.
//  2. The rest goes to hashes:search, handled as in Local List step 4.
//
// # Verdicts and failures
//
// A [Threat] is one expression of the URL whose full hash the server lists,
// with one valid detail; Threats come in the order of the URL's
// expressions. A failure is never a verdict: when a search fails, Lookup
// returns the error, and the Verdict holds only what the cache knew. The
// client never makes up a threat, and never reports "safe" with a nil
// error.
//
// Under v5 only 4-byte prefixes are sent, at most [MaxSearchPrefixes] a
// request;
// [Client.LookupAll] sends the prefixes of many URLs in as few requests as
// that allows, and pairs each URL with its error in a [BatchError]. A URL
// that cannot be canonicalised is an [ErrInvalidURL], which no retry will
// check; any other error is a check that failed.
//
// # Searches in flight
//
// Every call that needs the server for a prefix (Lookup, LookupAll,
// [Client.SearchHashPrefixes], [Client.SearchPrefixes]) goes through one
// path, under either API, so that:
//
//   - concurrent calls that need one uncached prefix share one request:
//     a call joins the search in flight that asks its prefix, if there is
//     one, whoever made it, and waits for its answer ([Stats].Coalesced
//     counts the prefixes that joined so);
//   - at most Config.MaxSearchesInFlight requests
//     ([DefaultMaxSearchesInFlight], 8) are in flight at once; a search
//     beyond it waits for a slot ([Stats].SearchWaits counts those that
//     waited);
//   - a search runs apart from its callers, its wait for a slot
//     included: a caller whose context ends returns at once with its
//     error and leaves only its own wait, and the others keep waiting
//     for the answer; a search whose every caller has gone is dropped
//     (canceled, and taken out of reach, so that no later caller joins
//     it); a search runs at most 30 seconds from when it was made, its
//     wait included; Close ends every search, whose callers get
//     [ErrClosed].
//
// # The cache
//
// The cache maps each prefix sent to the full hashes returned for it, until
// now + cache_duration: the duration applies to every prefix sent, matched
// or not. A reply without cache_duration caches nothing. The client does not
// lengthen the server's durations (the spec allows it for empty replies
// only), and caps them at [MaxCacheDuration]. Expired entries are deleted
// when met and purged every 30 minutes. A FullHashDetail with an unknown
// threat type or attribute is ignored whole.
//
// The cache is bounded twice: at most [CacheSize] prefixes, and at most
// Config.CacheBytes bytes ([DefaultCacheBytes], 32 MiB), full hashes and
// their details counted. The bytes are an estimate of the heap, checked by
// a test to be at least what the entries take and at most half more: 96
// bytes a prefix, for its slot in the map and its entry, and for the full
// hashes of a prefix, 56 bytes each, 32 for each detail and 4 for each
// attribute, in three arrays the entry owns, each rounded up as the
// allocator rounds it. A server that answers 20,000 full hashes a prefix
// costs about 1.8 MB a prefix, so the bytes bind long before the count.
// When either cap is reached, the expired entries are purged, then
// entries chosen arbitrarily are dropped until an eighth of that cap is
// free: more requests, never a wrong verdict. An answer larger than the
// whole budget answers its lookups and is not cached.
//
// # Updates
//
// Each list keeps its own minimum wait. [Client.Update] fetches every due
// list once; [Client.Run] does so until its context ends. After a failed
// request, updates back off as the spec says: [BackoffBase] × 2^(n−1) ×
// (1 + rand), at most [MaxBackoff]. Searches keep a back-off of their own,
// as Chrome's: see the Decisions below. [Client.Backoff] tells until when
// each backs off, for a service's Retry-After. A checksum mismatch keeps the old
// list answering and drops its version, so that it is fetched whole after
// its minimum wait.
//
// Lookups before every list has loaded once return [ErrNotReady]; wait with
// [Client.Ready], which returns as soon as an update has failed while a
// list has never loaded, with that failure, so that a wrong key or no
// network shows at once. [Client.Lists] gives each list's last failure and
// when it was last fetched; [Client.Stats] counts lookups and requests.
//
// # Persistence
//
// With Config.Dir set, each list is saved after each update, with when it
// was fetched, as a temporary file that is synced and then renamed, and
// loaded again by New. A corrupt, truncated or foreign file is discarded,
// never an error. Clients may share a Dir. A client is updated only by Run or Update: one that is never
// updated answers from the lists it loaded, and [ListStatus].Updated shows
// how old they are.
//
// Config.Frozen freezes the lists explicitly, for reproducible answers: the
// client loads them from Dir and never fetches lists ([Client.Update] and
// [Client.Run] return [ErrFrozen]). It is ready at once if Dir held every
// list, and [Client.Ready] returns [ErrNotReady] at once otherwise. Only the
// lists freeze: lookups still send hashes:search what their procedure
// sends, and cache the replies as usual.
//
// # Oblivious HTTP
//
// A search reveals the 4-byte hash prefixes of the URLs asked about, and
// the client's address. With Config.OHTTP ([OHTTPConfig]), every
// hashes:search goes through an Oblivious HTTP relay (RFC 9458) to
// Google's Safe Browsing Oblivious HTTP Gateway
// (https://developers.google.com/safe-browsing/ohttp/reference), as
// Chrome's hash-prefix real-time checks do: the relay learns who asks but
// not what, and Google what is asked but not by whom, as long as the two
// do not share what they see. The relay must therefore be someone else's:
// one run by the client's operator or by Google hides nothing.
//
//   - The inner request is the GET the client would send directly, under
//     BaseURL, with the prefixes, key= and the User-Agent, as Binary HTTP
//     (RFC 9292) sealed for the gateway's key; the API key travels only
//     inside the encryption. The inner authority is BaseURL's host, so the
//     relay's gateway must serve that API: Google's serves Google's only.
//   - The outer request is a POST of message/ohttp-req to RelayURL with
//     no key, no User-Agent and no cookie from HTTPClient.Jar.
//   - Its length tells the relay how many prefixes a search holds, about
//     22 bytes each, unless OHTTPConfig.Padding pads the inner request
//     with zero bytes (RFC 9292 section 3.8) so that the encapsulated
//     request is 512 bytes, 1, 2, 4 or 8 KiB long, the smallest that
//     holds it (past 8 KiB, a multiple of it): the relay then learns only
//     a size class. The reply is never padded: its length still shows
//     roughly how many full hashes came back. Padding is off by default.
//   - Only searches take this path: list updates reveal nothing of what
//     users visit, and go directly to BaseURL.
//   - There is no fallback. A search that fails on this path is an error
//     for its URLs, never a direct request and never "safe": an
//     [ErrOHTTP] with its cause (also a [*StatusError] for an outer status
//     other than 200). A 200 whose inner status is not 200 is a
//     [*StatusError], as directly. These count as SearchErrors and go into
//     the searches' back-off.
//   - The key comes from KeyURL ([DefaultOHTTPKeyURL]), directly, with
//     key=, as Chromium fetches it: [Client.Run] fetches it at once and
//     again when it is a day old, as Google advises; [Client.Update]
//     fetches it when the client has none; [Client.Ready] waits for it. A
//     search never fetches it: with no key, it fails with [ErrOHTTP].
//   - A 422 (what Chromium handles), or a 400 with RFC 9458's ohttp-key
//     problem, means that the gateway could not use the key: that search
//     fails, the key is dropped, and a timer fetches it again after a
//     random delay of up to KeyRefetchJitter (60 s), so that the gateway
//     cannot tie the fetch to the search. Every such refusal costs up to
//     that long of failed searches. A reply carrying
//     X-OhttpPublickey-Rotated keeps the key and schedules the same
//     refetch. Neither starts the searches' back-off: they are key events,
//     not server failures.
//   - A pinned KeyConfig is never fetched, dropped or refetched: a 422
//     fails the search and is logged.
//   - Key fetches back off as Chromium's do (see the Decisions): 3
//     consecutive failures start 5 minutes; failures are then counted
//     afresh, and each 3 more with no success since start a back-off
//     twice the last, up to 24 hours. Outside a back-off, Run retries a
//     failed fetch after a minute. Meanwhile searches fail with the
//     fetch's error as cause, if the client has no key.
//   - [Stats] counts key fetches and key errors; [Client.OHTTPStatus]
//     reports the key in use and the last key error.
//   - Limits: a key configuration of [ohttp.MaxKeyConfigsSize] bytes, and
//     encapsulated requests and replies, and their Binary HTTP, of
//     [ohttp.MaxMessageSize], checked before the work.
//
// # Mirrors
//
// A mirror serves the lists and searches of one Client to a fleet of
// other clients: package [github.com/urlspec/urlspec/safebrowse/mirror],
// which cmd/sbserver -mirror mounts. It needs five things of a Client
// that lookups do not, and any caller may use them:
//
//   - [NewMirrorSource] returns a Client that keeps every list of
//     Config.Lists, gc-32b included, whatever its Mode, since a mirror
//     serves them all; its lookups still follow its Mode. NoStorage keeps
//     no list, and is an error.
//   - [Client.ListSnapshot] copies one list as the client holds it: its
//     version and its hashes (sorted and concatenated, the caller's own)
//     from one state, never half an update, their SHA-256, and the
//     list's status. It copies and hashes the whole list, so a caller
//     takes one when [Client.Lists] shows a new version, not per request.
//   - [Client.ListsGeneration] grows at the end of every update, so that
//     a caller that reads Lists per request keeps what it returned until
//     the number moves, and copies nothing per request; read it first.
//   - [Client.SearchHashPrefixes] answers raw prefixes, 4 bytes under
//     v5 and 4 to 32 under Web Risk, at most [MaxSearchPrefixes] at
//     once, on a lookup's terms: from the cache where fresh, else by the
//     searches in flight above, joined or made, split as a lookup's
//     request is, the replies cached and counted in [Stats], a full hash
//     for a prefix not asked dropped, and the searches' back-off and
//     Config.MaxSearchesPerMinute shared, so that while the back-off
//     lasts no request goes and a [*BackoffError] returns.
//     [PrefixResult].Origin tells which answered. It is the one search
//     that serves others: the v5 mirror's hashes:search goes through it
//     (by [Client.SearchPrefixes], its form for 4-byte prefixes), and
//     so must a Web Risk front, a v4 front (fullHashes:find) and any
//     other that answers searches for a fleet, so that they all share
//     the client's cache, coalescing, bounds and back-off.
//   - [Client.HashLists] asks ListHashLists for every list the server
//     serves, with its metadata ([ListInfo]): at most 100 pages, each
//     reply at most [MaxSearchReply] bytes. It is no update: it neither
//     counts in Stats nor backs off. It returns only lists whose names
//     Config.Lists accepts, each once, so that a mirror that keeps what
//     it returns is not stopped by a list name Google adds; the others
//     are logged. Web Risk has no such method: under WebRisk it is an
//     error.
//
// A Web Risk list's snapshot holds entries of mixed lengths: Width is 0,
// Hashes holds the entries in byte order, concatenated, Lengths the
// length of each, and [ListSnapshot.Entries] walks them. That order is the
// one of Web Risk's checksum, which Checksum is, and of its removal
// indices, so that a front serves a RESET (the 4-byte entries Rice-coded,
// the longer ones raw by length) and a DIFF's indices from one pass over
// it.
//
// # Web Risk
//
// Google's terms keep the Safe Browsing API to non-commercial use; the Web
// Risk API (webrisk.googleapis.com/v1, see
// https://cloud.google.com/web-risk/docs and
// google/cloud/webrisk/v1/webrisk.proto) is the same service for
// commercial users. With Config.API set to [WebRisk] (parsed by
// [ParseAPI] from "webrisk"), the client speaks it: BaseURL defaults to
// [DefaultWebRiskBaseURL], the requests are GET {BaseURL}/v1/... with
// key=, and the messages are read by safebrowse/internal/v4wire. The URLs
// and hashing are v4's, whose heir Web Risk is: the expressions take v4's
// host rule ([safebrowse.HostsV4]), as Web Risk's "URLs and hashing" page
// gives it. The rest is as under v5 (the cache and its bounds, the
// searches in flight, the back-offs, Dir, Frozen, Ready, the masking of
// the key), but for the following.
//
// Lists. A list is named by its threat type: MALWARE, SOCIAL_ENGINEERING,
// UNWANTED_SOFTWARE and SOCIAL_ENGINEERING_EXTENDED_COVERAGE, the last
// of which has more false positives and is left out of
// [DefaultWebRiskLists] unless named. Each due list is fetched with a
// request of its own, GET /v1/threatLists:computeDiff with threatType,
// versionToken (none to fetch it whole), and
// constraints.supportedCompressions=RICE and RAW (decision w6 for the
// size constraints). A RESET replaces the list, a DIFF removes the
// entries at its indices and adds its additions, and the SHA-256 of the
// entries in byte order must be the reply's checksum: a mismatch keeps
// the old list answering, and it is fetched again from an empty token
// when the reply recommended. recommendedNextDiff sets when the list is due next, held
// within 1 second and 24 hours of now, so that a time in the past makes no
// tight loop; without it, 30 minutes, give or take 30 seconds. A list
// holds prefixes of 4 to 32 bytes, none a prefix of another, in a
// [hashlist.PrefixSet]: the 4-byte ones, most of them, in the compact
// index (under 2 bytes a prefix at a million), the longer ones beside.
// It is saved to Dir as {name}.wrlist, where a v5 list is
// {name}.sblist, and the names of the two never meet.
//
// The Local List procedure under Web Risk takes the lists first, since
// they say which prefix of a hash is searched:
//
//  1. The lists: an entry matches a hash only on its whole length. A hash
//     that an entry of a list matches needs the shortest such entry of
//     any list (decision w1); if no hash of the URL does, the URL is
//     safe, with no request.
//  2. The cache, by that entry: an unexpired entry answers, and one that
//     holds one of the URL's full hashes makes it unsafe at once.
//  3. The rest goes to hashes:search: one GET /v1/hashes:search a
//     prefix, the whole entry as hashPrefix, with the threatTypes of the
//     client's lists, which Web Risk requires. On an error, the error is
//     returned, as under v5.
//  4. The reply is cached under the prefix sent (decision w2); a full
//     hash equal to one of the URL's makes the URL unsafe, with each of
//     its threat types that the client asked.
//
// No-Storage under Web Risk searches the 4-byte prefix of every
// expression the cache does not answer, one request each: up to 30 for a
// URL, each billed, which is what Config.MaxSearchesPerMinute is for.
// Config.Lists then names the threat types searched, no list being kept.
// Web Risk has no Global Cache list and Google no Oblivious HTTP gateway
// for it: RealTime mode and Config.OHTTP are errors from New.
//
// Verdicts. Web Risk's MALWARE, SOCIAL_ENGINEERING and UNWANTED_SOFTWARE
// are v5's [Malware], [SocialEngineering] and [UnwantedSoftware];
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, which v5 lacks, is
// [SocialEngineeringExtendedCoverage], whose value lies outside v5's. Each
// API's replies are mapped from their own numbers (Web Risk's 4 is
// extended coverage, v5's 4 [PotentiallyHarmfulApplication]), and a v5
// detail of a number v5 lacks is still ignored. Web Risk's threats carry
// no attributes.
//
// Costs. hashes:search is billed by the call; computeDiff is not (see
// Google's pricing), and Web Risk's quotas count each method apart. So
// [Stats] counts them apart: Updates counts the computeDiff requests (one
// a list due), Searches the hashes:search requests, each billed, and
// SearchesOverBudget the searches that Config.MaxSearchesPerMinute held
// back. A lookup that needs a search past that cap fails with
// [ErrSearchBudget], never "safe". Concurrent lookups of one prefix share
// one search, and the cache answers until the reply's times, so that a
// search is billed once a prefix for as long as its answer holds.
//
// Limits. A hashes:search reply is at most [MaxWebRiskSearchReply] bytes,
// a computeDiff reply at most 64 bytes an entry the list may hold and
// 64 KiB, and never more than [MaxWebRiskListReply], whose doc derives
// them; a list holds at most Config.MaxDatabaseEntries entries (or the
// constraint sent, if less), a reply that would pass it refused before
// its Rice data is decoded.
//
// Decisions, where Web Risk's documentation is silent, as
// github.com/google/webrisk's client does unless said otherwise:
//
//	w1. The entry searched for a hash is the shortest that matches it in
//	    any list: one search of it answers every list, as it asks every
//	    threat type, and a shorter prefix tells the server less.
//	    (google/webrisk searches the entry of the list it meets last.)
//	w2. A search's answer is cached, under the exact prefix sent, until
//	    the earliest of its negativeExpireTime and the expireTime of every
//	    full hash kept, at most [MaxCacheDuration] ahead: one time an
//	    entry, so that an answer never outlives a part of it, at the cost
//	    of a search more when a listed hash expires before the rest. A
//	    reply with either time absent or past answers its lookups and is
//	    not cached. (google/webrisk keeps the two apart.)
//	w3. Of a hashes:search reply, a full hash that does not start with
//	    the prefix sent is dropped, as v5's decision 3 drops one of a
//	    prefix not asked; so is a threat type the client did not ask or
//	    the package does not know. The same full hash given twice is one.
//	w4. The server's recommendedNextDiff is obeyed when it is sooner than
//	    30 minutes too (google/webrisk waits at least its update period),
//	    but never sooner than a second: the server knows when its list
//	    changes.
//	w5. The lists due are fetched one request each, in the order of
//	    Config.Lists. A failure of the network or the server (a 5xx, 408,
//	    429, no reply) stops the round, as google/webrisk's does, and the
//	    updates back off as under v5; a list the server refuses (another
//	    4xx) fails alone, its version dropped, and the others are fetched.
//	w6. constraints.maxDatabaseEntries and maxDiffEntries, which Web Risk
//	    takes only as powers of two from 2^10 to 2^20, or 0, are sent only
//	    when Config.MaxDatabaseEntries is set: as the power of two at or
//	    below it, 2^10 for less, 2^20 for more. The list's bound is then
//	    the smaller of the two; unset, [DefaultMaxDatabaseEntries].
//	w7. Every request asks alt=proto, a system parameter of all Google
//	    APIs, and Accept: application/x-protobuf, as under v5: a list of a
//	    million entries is 1.7 MB in binary, 2.3 MB in JSON, and its
//	    JSON takes as long to read as the rest of the update. A full
//	    update of 1M random 4-byte prefixes and 5,000 of 8 bytes through
//	    the client costs 1.44 to 1.51× v5's full update of 1M prefixes in
//	    binary, 2.7× in JSON, and 5.3× crypto/sha256 over the 4 MB of
//	    prefixes (medians of BenchmarkUpdateWebRisk, which alternates
//	    the three); the list then holds 1.98 bytes a prefix
//	    (TestWebRiskHeap). A reply in JSON (Content-Type
//	    application/json), as Google's servers send it without alt and
//	    google/webrisk reads it, is read too.
//	w8. Config.MaxSearchesPerMinute counts the hashes:search requests of
//	    any 60 seconds exactly, not on average as a token bucket does, and
//	    under v5 too, whose searches count against a quota if not a bill.
//	    A search past it is not sent, counts in neither Searches nor
//	    SearchErrors, and starts no back-off: the server did not fail.
//
// # Decisions where the spec is silent
//
//   - Search errors are returned, not turned into SAFE (Local List step 3).
//   - Searches back off as Chromium's v5 real-time client does
//     (hash_realtime_service.cc and backoff_operator.cc), not by the
//     update rule, whose 15 minutes to 24 hours would stop every lookup
//     that needs the server for far longer than a blip lasts: three
//     consecutive failed searches start a back-off of 5 minutes; the next
//     back-off with no successful search since the last one lasts twice as
//     long, at most 30 minutes, and a success brings it back to 5. When a
//     back-off ends, failures are counted afresh from zero. The waits are
//     not randomised, as in Chromium.
//   - OHTTP key fetches back off by the same rule as searches, with the
//     parameters Chromium's OhttpKeyService gives it: 3 failures, 5
//     minutes, at most 24 hours
//     (https://source.chromium.org/chromium/chromium/src/+/main:components/safe_browsing/core/browser/hashprefix_realtime/ohttp_key_service.cc
//     and, for the rule, utils/backoff_operator.cc). So a key server that
//     stays down sees 3 fetches a back-off, a minute apart (Chromium's
//     kAsyncFetchCheckMinInterval), and then a pause: 5 minutes, 10, 20,
//     and so on up to a day, rather than one fetch a back-off doubling
//     from the third failure. A success brings the next back-off to 5
//     minutes.
//   - A failure caused by the caller's context ending, or by Close, does not
//     count towards the back-off: it says nothing of the server. Nor does
//     a search dropped because every caller waiting on it went away. A
//     search that ran out of its own 30 seconds does count: the server did
//     not answer in time.
//   - Searches are coalesced by prefix, not by request: a call joins each
//     search in flight that asks one of its prefixes, and asks the rest
//     itself, so that no prefix is asked twice at once. A call that
//     joined a search gets that search's failure as its own, but never
//     another caller's cancellation: a search is canceled only once no
//     caller waits on it. The bound counts requests, not prefixes: a
//     search of many prefixes split in several requests takes a slot for
//     each. Before a request goes, once it holds a slot, the back-off is
//     checked again, so that requests waiting for a slot when a back-off
//     begins do not go.
//   - The cache is bounded in bytes as well as in prefixes (see "The
//     cache"), since one prefix may carry as many full hashes as
//     [MaxSearchReply] holds: entries own their storage, sized to what
//     they hold, so that the estimate counts no more than it must and
//     nothing of the reply they came from stays alive.
//   - A corrupt list message, like a checksum mismatch, drops the list's
//     version, so that the next fetch is whole; unlike one, it is a failed
//     request and backs off.
//   - A batch reply is matched to the lists asked for by name, or by
//     position when the message has no name.
//   - One due list is fetched with hashList, two or more with one
//     hashLists:batchGet request.
//   - The API key is masked as "REDACTED" where each error is made, so
//     that no error in a chain shows it, at any Unwrap depth, in %v, %+v
//     or %#v, nor any log line. It is matched raw, query-escaped and
//     path-escaped, each in any ASCII case, since a server may echo it
//     lower-cased (a list name is lower case) or with its escapes in
//     lower-case hex: the URL of a *url.Error is masked in place
//     (errors.As still finds it); any other error from the transport or
//     hashlist that shows the key, or wraps one that does, is replaced by
//     its text masked, wrapping its causes, so that errors.Is still finds
//     them; and text the server echoes (a status message, a list name, a
//     Content-Type) is masked whole, then clipped to 100 bytes, as every
//     quoted input is. A list's description ([ListInfo]) is masked too.
//     The server's bytes (versions, hashes) are opaque, shown only
//     encoded (base64 or hex) and sent back as they came, so they are not
//     masked: a key shows in them only if the server forges it there, and
//     a server that holds the key needs no echo to leak it. Redirects are
//     never followed. Reply bodies are limited to [MaxSearchReply] and
//     [MaxListReply] bytes.
//   - A hashes:search reply costs what it weighs, whatever the server
//     repeats: the same full hash given twice is one, with the details of
//     both; an attribute repeated in a detail is kept once; a detail with
//     the threat type and set of attributes of one before it is dropped.
//     So a full hash gives a URL at most 16 threats (4 types × 4 sets of
//     attributes), and a [Client.LookupAll] of N URLs costs the reply once,
//     at most about 10× [MaxSearchReply] while it is read, plus each URL's
//     own threats.
//   - Every request carries a User-Agent: Config.UserAgent, then
//     "urlspec/" and the module's version from the binary's build info
//     ("devel" when it has none), so that the server can tell this client
//     from others, as Google asks of v5 clients.
//   - Ready returns the first failed update while a list has never
//     loaded, rather than wait for the retry after the back-off: a
//     refused key or no network is a failure to report, not a wait. A
//     failure of a list that has loaded once is no reason not to be
//     ready: the old list answers, and ListStatus.Err reports it.
//   - A list file records when its list is next due, so that a restart does
//     not fetch early; a due time more than a day ahead is ignored.
//   - With Config.OHTTP: Frozen freezes the lists, not the gateway's key,
//     which Update and Run still fetch. Ready and IsReady wait for a key
//     held once, as for lists loaded once: a key dropped later makes
//     searches fail, not the client unready. A key whose refresh fails is
//     kept until the gateway refuses it. The key fetch sends no cookie,
//     as Chromium's omits credentials, but the User-Agent, as every
//     direct request does. A search with no key sends nothing but counts
//     in Searches and SearchErrors, as a search that failed. The inner
//     request is the REST form (hashPrefixes=), the one direct searches
//     use, not Chromium's $req, which Google's page does not show.
//   - OHTTPConfig.Padding sizes the whole encapsulated request, the body
//     the relay sees, not the Binary HTTP inside it: the relay sees
//     exactly 512 bytes, 1, 2, 4 or 8 KiB, whatever the gateway key's KEM
//     adds (55 bytes with X25519, 1,143 with MLKEM768-X25519), so that a
//     change of key changes no size class. The sizes are powers of two,
//     and the smallest hold the common searches: a Local List lookup's
//     one or two prefixes, up to about a dozen, are 512 bytes, and a
//     Real-Time lookup's up to 30 are 1 KiB. On loopback a padded round
//     trip costs 1.01× an unpadded one for 1 prefix and 1.09× for 100,
//     medians of BenchmarkOHTTPPadding; most of the latter is one more
//     write a hop, as the headers and a 4 KiB body overflow net/http's
//     4 KiB write buffer. It is off by default: Chromium is not known to
//     pad, and Google's gateway, which RFC 9292 requires to accept
//     padding, cannot be tried here.
//   - Lists are bounded by what the client asks for: every list fetch
//     sends sizeConstraints.maxDatabaseEntries, Config.MaxDatabaseEntries
//     or [DefaultMaxDatabaseEntries] (2^24 hashes a list), and a reply
//     that would make a list hold more (its additions' count plus the
//     hashes kept, less the removals) is corrupt, refused before a byte
//     of its Rice data is decoded; the old list answers. The list body
//     limit follows from it too: N×(w+6) bytes and 4 KiB for each list of
//     w-byte hashes a request names, at most [MaxListReply], whose doc
//     derives it. A reply whose Content-Length passes its limit is
//     refused before a byte is read. The body limits
//     ([MaxSearchReply], [MaxListReply]) count the bytes read after gzip
//     is inflated, so a gzip bomb costs its inflated body, at most the
//     limit, and is then refused by its count: 16 KiB of gzip that
//     inflates to a list of 2^25 prefixes costs about 35 MiB, not the
//     99 MiB its decoding took.
//   - An update's heap is the reply (read as it comes, so up to twice its
//     size) plus the list's next state, built aside while the old one
//     answers: at 1M prefixes, 1.5× the list's size in memory beyond the
//     reply, with Dir or without, since a list streams to its file through
//     [hashlist.List.WriteTo] instead of being copied twice into a buffer
//     (5.2× before).
//   - Dir holds only regular files for the client: a list file is opened
//     without following a symlink and without blocking on a FIFO, and its
//     size (at most 1 GiB) is checked before it is read; a symlink, FIFO,
//     device or directory in its place is discarded as corrupt, its list
//     fetched whole.
//   - A failed save to Dir (disk full, read-only) is not a failed request:
//     the list serves from memory, the failure shows in the log, in
//     ListStatus.Err and in Update's error, updates do not back off, and
//     the save is tried again at the next Update, due or not.
//   - A minimum_wait_duration is obeyed up to [MaxMinimumWait] (24 hours),
//     as the due time saved in Dir is: no reply stops a list's updates
//     for longer than a day.
//   - List names the server gives ([Client.HashLists]) are read as
//     Config.Lists is: trimmed of "hashLists/" once, then held to the
//     rule of Config.Lists (1 to 64 bytes of a-z, 0-9 and '-', ending in
//     -4b, -8b, -16b or -32b). One that shows the API key is skipped
//     before it is used, compared in any ASCII case as the key is masked:
//     the rule is lower case, so a key with capitals can only show in a
//     name lower-cased, and a name kept would reach file names, log lines
//     and a server's metric labels whole. A name that appears twice
//     ("hashLists/se-4b" beside "se-4b") is one list, kept once.
//   - A version longer than [MaxVersion] (1 KiB) makes a list reply
//     corrupt, so that no version too long for a request URL is stored or
//     sent back; one saved so by an older client is dropped on load, its
//     list fetched whole. A 4xx reply to a list fetch, other than 408 and
//     429 (which refuse the timing, not the request), drops the versions
//     the request sent, so that the next fetch is whole: a version the
//     server refuses, with 400 or 414, does not stop the updates for
//     good.
//
// Four decisions on the wire, where only Google's real server would tell,
// each taken as Chromium takes it:
//
//  1. No request URL is longer than 8 KiB, the limit reported for Google's
//     frontends (Google's own Java API client moves to POST at 2 KiB): a
//     search for more prefixes than fit is split into several requests,
//     each of a few hundred prefixes. One failed request fails the search
//     of Lookup and SearchPrefixes; in LookupAll, it fails the URLs whose
//     prefixes it carried, and the other verdicts stand.
//  2. hashPrefixes are sent in URL-safe base64 with padding, the padding
//     not escaped: Chromium's hash_realtime_service encodes its request
//     with base::Base64UrlEncode and INCLUDE_PADDING.
//  3. A full hash in a hashes:search reply whose 4-byte prefix was not asked
//     is dropped, as Chromium's RemoveUnmatchedFullHashes drops it: it is
//     never cached and never a verdict, the rest of the reply stands, and
//     the search is a success (no back-off).
//  4. List names are accepted with or without the "hashLists/" prefix of
//     the API's resource names (safebrowsing.proto's resource pattern), in
//     Config.Lists and in the messages: "hashLists/se-4b" is se-4b.
//
// Every message is read by one reader (safebrowse/internal/v5wire), whose
// strictness policy is the package's: unknown fields are skipped, a known
// field with the wrong wire type is corrupt, and a Duration too long for a
// time.Duration is capped.
package lookup
