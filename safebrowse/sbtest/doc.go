// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package sbtest provides a fake Safe Browsing v5 server for tests: a
// server on loopback that speaks the wire format of Google's v5 API
// (https://developers.google.com/safe-browsing/reference), and of the Web
// Risk API beside it (see "Web Risk" below), so that a client such as
// safebrowse/lookup can be tested end to end, with no key and no network. It is to Safe Browsing what [net/http/httptest] is to HTTP, and
// is modelled on [net/http/httptest.Server]: [NewServer], [Server.URL],
// [Server.Client], [Server.Close], and state a test can read.
//
// A test seeds the lists with expressions, as safebrowse yields them, and
// points its client at the server:
//
//	s := sbtest.NewServer()
//	defer s.Close()
//	s.Add("se-4b", "evil.example/")
//	c, err := lookup.New(lookup.Config{BaseURL: s.URL, APIKey: s.APIKey})
//
// # What it serves
//
// The whole v5 API as Google's generated client libraries call it, so that
// a client in any language can be tested against it: the four methods of
// google/security/safebrowsing/v5/safebrowsing.proto and urls:search of
// the API's discovery document. Each reply is binary protobuf
// (Content-Type application/x-protobuf), whether alt is absent or proto,
// and alt=json is a 400 INVALID_ARGUMENT "Unsupported Output Format": that
// is how Google's v5 API answers, although its discovery document offers
// JSON (google-api-go-client #2534). A client tested here in JSON would
// pass, then fail against Google.
//
// [WithJSON] adds Google's JSON mapping, for a test of a client that reads
// JSON, such as Google's generated clients: alt=json, or no alt, is then
// JSON, and alt=proto protobuf. Those clients (Node, Go, Python, Ruby) ask
// only for JSON, so they fail against Google's v5 itself
// (google-api-ruby-client #24695, pluginkollektiv/antivirus #166); they
// work against cmd/sbserver, which serves JSON. Google's Node client,
// @googleapis/safebrowsing, and Go client, google.golang.org/api, are
// tested against the server with WithJSON.
//
// Both encodings are written by the module's one owner of the v5 messages.
// HashList messages come from
// [github.com/urlspec/urlspec/safebrowse/hashlist.Message], the encoder
// beside the decoder that clients use.
//
//   - GET /v5/hashes:search?hashPrefixes=... (SearchHashes): every full
//     hash on a 4-byte threat list (se-4b, mw-4b, uws-4b, uwsa-4b, pha-4b)
//     whose 4-byte prefix was asked, one FullHash per distinct hash with
//     one FullHashDetail per list it is on: the threat type of the list and
//     the attributes given to [Server.Add]. The reply's cache_duration is
//     set by [WithCacheDuration]. gc-32b, the Global Cache of likely safe
//     expressions, is never searched.
//   - GET /v5/hashList/{name}?version=... (GetHashList): one HashList.
//   - GET /v5/hashLists:batchGet?names=...&version=... (BatchGetHashLists):
//     the lists in the order of names.
//   - GET /v5/hashLists (ListHashLists): the name and metadata of each
//     list (threat types, likely safe types, description, hash length),
//     paged by pageSize and pageToken.
//   - GET /v5/urls:search?urls=... (SearchUrls, at most 50 URLs): for each
//     URL asked that an expression of puts on a 4-byte threat list, the URL
//     as sent and the threat types of those lists
//     ({"threats": [{"url", "threatTypes"}], "cacheDuration"}), answered
//     from the seeded lists, with the cache_duration of hashes:search.
//
// A list may be named with or without the "hashLists/" prefix of the
// API's resource names. hashes:search is also taken in the form Chromium
// sends it, "$req=" and a SearchHashesRequest in base64url, with
// "$ct=application/x-protobuf" (at most 16 KiB and 1000 prefixes), and
// answered in binary.
//
// # Oblivious HTTP
//
// The server is also a Safe Browsing Oblivious HTTP gateway, as Google's
// (https://developers.google.com/safe-browsing/ohttp/reference), with
// RFC 9458's encapsulation from package
// [github.com/urlspec/urlspec/safebrowse/ohttp]:
//
//   - GET /v1/ohttp/hpkekeyconfig ([Server.OHTTPKeyURL]) serves its key
//     configuration as application/ohttp-keys: one X25519 key, with
//     HKDF-SHA256 and AES-128-GCM, key ID 1 at first.
//   - POST /v1/ohttp:handleOhttpEncapsulatedRequest
//     ([Server.OHTTPGatewayURL]) takes a message/ohttp-req of at most
//     [ohttp.MaxMessageSize] bytes (415 or 413 otherwise), decapsulates it,
//     answers the Binary HTTP request inside with the v5 API above,
//     whatever its authority, and encapsulates the reply: a 200
//     message/ohttp-res with Cache-Control: no-store, whatever the inner
//     status. A request under a key the gateway does not hold gets a 422
//     with RFC 9458's ohttp-key problem (application/problem+json), as
//     Chromium expects; one that does not decrypt, a 400.
//
// [Server.RotateOHTTPKey] switches to a new key with the next ID and
// forgets the old one. [NewRelay] starts a relay in front of the gateway,
// as a client's tests need one. A [Fault] for "ohttp" or "hpkekeyconfig"
// hits the gateway's replies (the status is a plain error, Garbage a 200
// body that is not an encapsulated response); a fault for hashes:search
// hits the searches inside too, and its reply is encapsulated.
//
// The lists are gc-32b, se-4b, mw-4b, uws-4b, uwsa-4b and pha-4b (see
// [Lists]), all empty at first. Each has a version: one more at each change
// of its hashes, with bytes that name the list, "se-4b:3", so that a
// client may send batchGet's versions in any order. A request without a
// version, or with one this server did not serve (or served more than 32
// versions ago), gets a full update; a request with a version it served
// gets a partial update: the removals as indices into that version's
// sorted hashes, then the additions. A reply that changes the list carries
// the sha256_checksum of the list after it, and every complete reply
// carries the minimum_wait_duration set by [WithMinimumWait].
//
// sizeConstraints.maxUpdateEntries is honoured: when an update holds more
// entries (removals and additions) than it allows, the reply holds the
// removals first, then the smallest additions, up to the limit, with a
// version of its own ("se-4b:7.2") and no minimum_wait_duration, which
// tells the client to fetch again at once for the rest, as the API's
// reference says of an absent minimum wait. sizeConstraints.maxDatabaseEntries is
// checked and otherwise ignored.
//
// # Web Risk
//
// The server also serves the Web Risk API (webrisk.googleapis.com/v1;
// https://cloud.google.com/web-risk/docs/reference/rest and the Update
// API's guides), v5's heir for commercial use, from the same seeded
// lists, with the same key, parameter and fault rules, so that a Web Risk
// client (safebrowse/lookup's, github.com/google/webrisk, Google's
// generated clients) can be tested against it. Its messages are written by
// the module's one owner of Web Risk's wire, safebrowse/internal/v4wire;
// its lists' updates by [github.com/urlspec/urlspec/safebrowse/hashlist.NewDiff].
//
//   - GET /v1/threatLists:computeDiff?threatType=...&versionToken=...
//     (threatLists.computeDiff): the update of one list. An empty
//     versionToken, or one the server did not issue (or issued more than
//     32 versions of the list ago), gets a RESET, its entries as
//     additions; a token it issued gets a DIFF: removals as indices into
//     the client's entries sorted bytewise, then additions. The reply
//     carries a newVersionToken, which changes when the list's entries do,
//     the checksum.sha256 of the client's entries after it (sorted
//     bytewise and concatenated) and a recommendedNextDiff, set by
//     [WithRecommendedNextDiff]. With RICE among
//     constraints.supportedCompressions, the 4-byte additions are
//     riceHashes (Rice-coded as little-endian integers) and the removals
//     riceIndices; entries longer than 4 bytes are rawHashes, one group a
//     length. Without, everything is raw. constraints.maxDiffEntries and
//     constraints.maxDatabaseEntries are honoured (decision i).
//   - GET /v1/hashes:search?hashPrefix=...&threatTypes=...
//     (hashes.search): one prefix of 4 to 32 bytes; every full hash on a
//     list of the threat types asked that starts with it, once, with the
//     threat types of its lists among those asked
//     ({"threats": [{"threatTypes", "hash", "expireTime"}],
//     "negativeExpireTime"}).
//   - GET /v1/uris:search?uri=...&threatTypes=... (uris.search): the
//     threat types asked of the lists that hold an expression of uri
//     ({"threat": {"threatTypes", "expireTime"}}), or {}.
//
// The lists: MALWARE is mw-4b, SOCIAL_ENGINEERING se-4b, and
// UNWANTED_SOFTWARE uws-4b and uwsa-4b together. pha-4b and gc-32b have no
// Web Risk list. SOCIAL_ENGINEERING_EXTENDED_COVERAGE is a list that v5
// does not serve: a test seeds it by its name,
//
//	s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "evil.example/")
//
// and AddHash, Remove and RemoveHash take that name too. Each hash is a
// 4-byte entry of Web Risk's list; a test seeds an entry of n bytes, 4 to
// 32, for an expression with [Server.AddPrefix],
//
//	s.AddPrefix("mw-4b", "evil.example/", 8)
//
// which v5 goes on serving as a 4-byte prefix. No entry of a list is a
// prefix of another: where one would be, the shorter is served.
//
// Replies are JSON, as Web Risk's REST API answers, whatever [WithJSON]
// says, and binary protobuf for alt=proto. Errors are Google's, as v5's
// are, with the ErrorInfo naming the service "webrisk.googleapis.com".
// [Server.Requests] counts Web Risk's methods apart from v5's, as
// "v1/threatLists:computeDiff", "v1/hashes:search" and "v1/uris:search",
// the names a [Fault]'s Endpoint takes for them; BadChecksum alters
// computeDiff's checksum. [Server.SearchedPrefixes] holds the prefixes
// of Web Risk's hashes:search too. The OHTTP gateway serves v5 only, as
// Google runs no Web Risk gateway.
//
// # What it checks
//
// Every request must be a GET with the server's key ([Server.APIKey], set
// by [WithAPIKey]) in the key parameter or the X-Goog-Api-Key header. The
// server answers as Google's APIs do, with a JSON error ({"error":
// {"code", "message", "status"}}) whose message begins "sbtest: " (but
// for alt=json's, which is Google's word for word). Where Google's APIs
// explain an error to a program, its details hold a google.rpc.ErrorInfo
// of the domain "googleapis.com", whose reason a client library reads
// (apierror.APIError.Reason in Go), and whose metadata names the service,
// {"service": "safebrowsing.googleapis.com"}:
//
//   - a missing key is a 403 PERMISSION_DENIED with reason
//     CREDENTIALS_MISSING; a wrong key is a 400 INVALID_ARGUMENT, "API key
//     not valid", as Google's message says, with reason API_KEY_INVALID,
//     and does not echo the key either (a test of a client's masking
//     serves its own echo);
//   - an injected 429 is a 429 RESOURCE_EXHAUSTED with reason
//     RATE_LIMIT_EXCEEDED; no other error carries details;
//   - alt=json is a 400 without [WithJSON], and an alt other than json or
//     proto always; the system parameters of Google's APIs ($.xgafv,
//     prettyPrint, fields, quotaUser, ...) are accepted and ignored (fields
//     does not filter the reply);
//   - a parameter value that is not valid UTF-8, such as a URL of
//     urls:search, is a 400 INVALID_ARGUMENT: a proto3 string must be
//     UTF-8;
//   - urls:search with no URL, more than 50, or one that is not a URL is a
//     400;
//   - a hashPrefixes value that is not 4 bytes, more than 1000 of them, or
//     none is a 400;
//   - names given twice in batchGet, or two versions for one list, is a
//     400; an unknown list is a 404;
//   - maxUpdateEntries other than 0 or at least 1024 is a 400;
//   - a query parameter the endpoint does not take (a misspelling) is a
//     400; parameters are accepted in lowerCamel and snake_case (Web
//     Risk's in its JSON or proto names, constraints.max_diff_entries; one
//     field given under both is a 400);
//   - Web Risk: a threatType or threatTypes that is absent, or not one of
//     the four, is a 400; a hashPrefix not of 4 to 32 bytes is a 400; a
//     uri that is absent or not a URL is a 400;
//   - bytes (hashPrefixes, version) are base64, standard or URL-safe,
//     padded or not, as Google's APIs accept them;
//   - another path is a 404, another method a 405.
//
// # What a test can see and do
//
// [Server.Requests] counts the requests to each endpoint, whatever their
// answer, and [Server.SearchedPrefixes] gives every prefix a client sent to
// hashes:search, directly or through the gateway, so that a test can
// check what a client revealed; Requests("hashes:search") counts the
// direct searches only, and Requests("ohttp") the encapsulated requests.
// [Server.Inject] adds a [Fault]: a status (429, 503, ...), latency that
// honours the request's context, a wrong checksum, a body that is not a
// message; [Server.ClearFaults] ends them. [Server.Add], [Server.AddHash],
// [Server.Remove] and [Server.RemoveHash] change the lists while the
// server runs. Every method is safe for concurrent use.
//
// # Decisions
//
// Where the v5 reference is silent, or Google's servers cannot be watched
// from a test, the server decides as follows.
//
//	a. List names are taken with or without the "hashLists/" prefix
//	   (safebrowsing.proto's resource pattern; the reference's tables use
//	   the bare name), and every reply names a list bare ("se-4b"), as
//	   [Lists] does. A client must take both forms; this server sends one.
//	b. The messages are written by the module's one owner of the v5 wire
//	   format, safebrowse/internal/v5wire, whose package doc holds the
//	   strictness policy that clients read them under, and how they are
//	   written: fields at their zero value left out, repeated enums packed,
//	   fields in number order, bytes in JSON as padded standard base64.
//	   sbtest adds no rule of its own.
//	c. A reply is protobuf whatever alt says, and alt=json a 400, as
//	   Google's v5 answers; [WithJSON] is the exception a test asks for,
//	   under which a reply is JSON when alt is absent, as Google's JSON
//	   APIs default, so that a generated client works unconfigured.
//	d. A parameter an endpoint does not take is a 400 rather than ignored,
//	   so that a client's misspelling fails in its own tests, not in
//	   production; the system parameters of Google's APIs are accepted and
//	   ignored, since the generated clients send them.
//	e. Errors carry a google.rpc.ErrorInfo only where Google documents
//	   the reason (google/api/error_reason.proto): API_KEY_INVALID,
//	   CREDENTIALS_MISSING (a request with no credentials at all) and
//	   RATE_LIMIT_EXCEEDED. No reason is made up for the other errors.
//	f. urls:search answers from the 4-byte threat lists, with the
//	   cache_duration of hashes:search: it is hashes:search done on the
//	   server's side, with no other data.
//
// Decisions g to p are Web Risk's, where its documentation is silent;
// github.com/google/webrisk's client is the reader they are checked
// against.
//
//	g. A Web Risk reply is JSON when alt is absent or json, and binary
//	   protobuf (application/x-protobuf) for alt=proto, as Google's API
//	   front end serves every REST API: Web Risk documents JSON, and
//	   alt=proto is the same message in binary.
//	h. A version token names the entries it stands for: the threat type
//	   and the first 8 bytes of their checksum in hex, "MALWARE:5ef49a…".
//	   Two states with the same entries have the same token, and the
//	   token changes when the entries do, whatever changed them.
//	i. constraints.maxDiffEntries and maxDatabaseEntries must each be 0
//	   or a power of two from 2^10 to 2^20, as webrisk.proto says; any
//	   other value is a 400 INVALID_ARGUMENT, as Google's servers refuse
//	   a field outside its documented range. Web Risk serves a smaller
//	   database to a client that asks for one, and "may reset the client
//	   to a 2048 database" that wants at most 2048 entries in a diff
//	   (update-constraints, "Client state"); so does the server, cutting a
//	   list to its first entries in byte order: a list longer than
//	   maxDatabaseEntries is served as its first maxDatabaseEntries
//	   entries; an update whose entries (removals and additions) pass
//	   maxDiffEntries is replaced by the update to the list cut to
//	   maxDiffEntries entries: a DIFF when that fits, else a RESET. No
//	   reply passes maxDiffEntries, and none leaves the client behind.
//	j. Every computeDiff reply carries checksum.sha256, a DIFF that
//	   changes nothing too; the Rice streams have no padding and a
//	   parameter hashlist chooses. google/webrisk checks a checksum when
//	   there is one.
//	k. Where one hash's entry would be a prefix of another's (an 8-byte
//	   entry under a 4-byte one), the shorter entry is served: it covers
//	   both, since a client that matches it searches it and finds both
//	   full hashes. google/webrisk refuses a list with such a pair.
//	l. hashes:search finds the full hashes that start with the prefix
//	   asked, whatever the length of their entries: a 4-byte search finds
//	   a hash seeded with an 8-byte entry. Its expireTime, and
//	   negativeExpireTime, are the time of the reply plus the duration of
//	   [WithCacheDuration]; zero leaves both out. uris:search's expireTime
//	   is the same.
//	m. uris:search matches the full hashes of the expressions of uri, as
//	   safebrowse yields them, and answers a uri that safebrowse cannot
//	   canonicalise with a 400: it is hashes:search done on the server's
//	   side, as urls:search is for v5.
//	n. The threat types of a search reply are those asked, once each, in
//	   the order of webrisk.proto's enum. COMPRESSION_TYPE_UNSPECIFIED in
//	   supportedCompressions is ignored; another unknown name is a 400.
//	o. Web Risk has no threat attributes: a hash seeded with Canary or
//	   FrameOnly is a threat on Web Risk like any other.
//	p. The OHTTP gateway answers v5 alone: a Web Risk path inside it is a
//	   404, as Google runs no gateway for Web Risk.
//
// # What it does not do
//
// It holds no real data: the lists hold what a test put on them, and a
// test must expect the verdicts it seeded, not Google's. It checks
// no authentication beyond the key, keeps no quota and sends no 429 of its
// own (inject one). It does not send the LocalizedMessage that Google's
// APIs add to an ErrorInfo. It serves no other API version, none of Web
// Risk's other methods (submitUri, projects.submissions), and takes no
// POST but the gateway's.
// It listens on 127.0.0.1 (or ::1) only, and makes no request of its own:
// it never reaches outside loopback.
package sbtest
