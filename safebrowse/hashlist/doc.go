// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package hashlist holds the hash lists of the Google Safe Browsing v5 API
// locally and keeps them up to date: it decodes HashList messages (binary
// protobuf, as the server sends them with alt=proto), applies full and
// partial updates with their Rice-delta coded additions and removals,
// verifies their SHA-256 checksums, and answers whether a list holds a
// hash. See https://developers.google.com/safe-browsing/reference/Local.Database
// and the v5 reference, https://developers.google.com/safe-browsing/reference
// (the HashList and RiceDeltaEncoded messages), except where the decisions
// below fill a silence. It holds the threat lists of the Web Risk API, and
// codes those of the Safe Browsing v4 Update API, too: see "Web Risk"
// below. It is pure: no network, no goroutines of its own.
//
// A [List] is made by [New], updated by [List.Apply], read by
// [List.Contains] and [List.All], and saved and loaded with
// [List.MarshalBinary] and [List.UnmarshalBinary]. [Message] builds and
// reads HashList messages, for fake servers, mirrors and tests, with the
// Rice encoder beside the decoder; [Checksum] gives a list's
// sha256_checksum.
//
// # The rules
//
//   - Full and partial updates. partial_update=false replaces the whole
//     list. partial_update=true first removes the hashes at the indices of
//     compressed_removals, Rice-delta coded 32-bit indices into the old
//     sorted list, then adds the additions.
//   - The additions must be in the field of the list's width:
//     additions_four_bytes, _eight_bytes, _sixteen_bytes or
//     _thirty_two_bytes. Any other is [ErrCorrupt].
//   - A name that is present and differs from [List.Name] is [ErrName].
//   - When sha256_checksum is present, it must be the SHA-256 of the list
//     after the update, its hashes sorted and concatenated (SHA-256 of ""
//     for an empty list); a mismatch is [ErrChecksum].
//   - A Rice stream holds entries_count+1 values: the first value, then
//     each previous value plus (q << k) + r, read least significant bit
//     first, q in unary and r in k bits. Values are big-endian hashes.
//     When entries_count > 0, k lies in its width's range: 3–30 for 32-bit
//     values, 35–62 for 64-bit, 99–126 for 128-bit, 227–254 for 256-bit.
//   - [ErrCorrupt]: k out of range, a value past the width, a zero delta (a
//     repeated value), a stream that ends early, a negative count, a
//     removal index out of range or repeated, a message that changes the
//     list but carries no checksum, and any malformed protobuf.
//   - On any error the list is unchanged.
//
// # Decisions, where the spec is silent
//
//	a. Padding bits after the last entry are ignored, as Chromium ignores
//	   them; so are whole bytes of padding.
//	b. With entries_count 0, k and encoded_data are ignored: the stream is
//	   its first value alone (k may be 0).
//	c. A huge entries_count fails before anything is decoded or allocated:
//	   each entry needs at least k+1 bits, so a count that the data cannot
//	   hold is corrupt at once.
//	d. "An absent checksum means nothing changed" is read literally: a
//	   message without one is accepted when the hashes after it are the
//	   hashes before it (a version-only message; a full update that sends
//	   the same list), and is [ErrCorrupt] otherwise. An empty
//	   sha256_checksum field is absent (proto3); one that is not 32 bytes
//	   is a mismatch.
//	e. A version-only message (partial, no additions, no removals) changes
//	   only the version, and shares the old hashes: it costs nothing.
//	f. An addition equal to a hash already held is kept once, and left to
//	   the checksum to judge: a server that counted it twice gets
//	   [ErrChecksum]. Additions are distinct among themselves (a zero
//	   delta is corrupt).
//	g. The version becomes the message's version; an absent version is
//	   the empty version (proto3 bytes have no presence).
//	h. compressed_removals in a full update is [ErrCorrupt]: there is no
//	   old list to index. A present but empty RiceDeltaEncoded message is
//	   one value, 0, as protobuf defaults say.
//	i. Protobuf is read under the module's one strictness policy, which
//	   lookup and sbtest share and which is written, with its reasons, in
//	   the doc of safebrowse/internal/v5wire, the one reader and writer of
//	   the v5 messages. In short: unknown fields are skipped, a scalar
//	   given twice takes the last value; an embedded message given twice,
//	   two additions fields, a known field with the wrong wire type, a
//	   first_value past 32 bits in a 32-bit stream, an int32 field past
//	   int32, and a negative minimum_wait_duration or one with nanos out of
//	   range are [ErrCorrupt]; a minimum_wait_duration longer than a
//	   time.Duration holds is read as the longest one (a long wait is no
//	   reason to refuse a list). Metadata is not read: the width comes from
//	   the name.
//	j. The zero List has no name: it holds nothing, Apply fails with
//	   [ErrName], and UnmarshalBinary gives it the saved list's name.
//	k. [Checksum] hashes duplicates as given, and returns the zero array
//	   for a bad width, rather than panic.
//	l. A list name is taken with or without the "hashLists/" prefix, in
//	   [New] and in a message's name: safebrowsing.proto gives the list
//	   resources the pattern "hashLists/{hash_list}", while the reference's
//	   tables and Chromium use the bare name, and a server that sent the
//	   other form must not fail every update. The prefix is dropped once:
//	   [List.Name], and the name a saved list holds, are bare ("se-4b").
//	m. A sha256_checksum in an error is quoted in hex within the 100-byte
//	   rule of every quoted input: at most 100 hex digits, then its length,
//	   so that a 32 MiB checksum does not make a 64 MiB message.
//
// # Web Risk
//
// A Web Risk threat list (webrisk.googleapis.com/v1, threatLists.computeDiff)
// holds hash prefixes of 4 to 32 bytes, most of 4, none a prefix of
// another: a [PrefixSet]. [PrefixSet.Apply] applies a [Diff], which the
// caller fills from the ComputeThreatListDiffResponse its wire package
// decoded, so that hashlist knows no wire; [PrefixSet.Match] finds the
// entry a full hash starts with, which the caller searches whole with
// hashes:search; [PrefixSet.All] and [PrefixSet.Checksum] give a
// mirror its entries and checksum; MarshalBinary and UnmarshalBinary save
// and load one. The v4 Update API (threatListUpdates.fetch) codes its lists
// the same way, so [RiceHashes], [RiceIndices] and [NewDiff] build the
// updates of a v4 front, a fake server or a mirror, and [Rice.Hashes] and
// [Rice.Indices] read them. The rules, from cloud.google.com/web-risk/docs
// (Update API, compression), webrisk.proto and v4's safebrowsing.proto:
//
//   - RESET replaces the list with the additions; DIFF first removes the
//     entries at the removal indices, then adds the additions.
//   - The checksum is the SHA-256 of every entry, of every length, sorted
//     in byte order and concatenated; the removal indices point into that
//     same order.
//   - Only 4-byte prefixes are Rice-coded (riceHashes), "re-interpreted
//     as little-endian uint32s, sorted in ascending order": the opposite
//     of v5, whose values are big-endian. So the decoder's values are
//     byte-reversed and sorted again into byte order, and the encoder's the
//     other way (see below). Longer prefixes, and 4-byte ones too, may come
//     raw (rawHashes), each group of one prefixSize. Removal indices come
//     raw (rawIndices) or Rice-coded (riceIndices), ascending.
//   - A Rice stream is v5's bit stream, read by v5's decoder: the first
//     value, then entryCount differences of (q << k) + r, q in unary and r
//     in k bits, least significant bit first. riceParameter (k) is "a
//     number between 2 and 28" when there are differences; firstValue
//     lies in 0 to 2^32-1. Decisions a, b and c apply as to v5's streams,
//     and a zero difference and a value past 32 bits are [ErrCorrupt], as
//     Chromium's v4 decoder finds them.
//   - On any error the set is unchanged, and the error wraps
//     [ErrCorrupt] or [ErrChecksum].
//
// Decisions, where the documentation is silent, as google/webrisk's client
// (database.go, hash.go) reads the lists unless said otherwise:
//
//	w1. Whole bytes of padding after a Rice stream's last entry are
//	    ignored (decision a): google/webrisk refuses 8 unread bits or
//	    more, Chromium's v4 decoder ignores them, and the checksum judges
//	    the list. The encoders write none, so that google/webrisk and
//	    google/safebrowsing take what they write.
//	w2. After an update no entry may equal, or be a prefix of, another
//	    (google/webrisk's Validate, "non-unique hash prefix"): such a
//	    diff is [ErrCorrupt], whatever its checksum says, and is checked
//	    first. A diff that removes a 4-byte entry and adds a longer one
//	    that starts with it is valid.
//	w3. An addition equal to an entry kept, or given twice in one diff
//	    (raw and Rice-coded, say), is [ErrCorrupt], as it fails
//	    google/webrisk's Validate. (v5's decision f keeps such an addition
//	    once: Web Risk's client refuses it.)
//	w4. Raw removal indices may come in any order. An index given twice,
//	    or both raw and Rice-coded, removes one entry, as google/webrisk
//	    blanks the entry at each index it is given; the checksum judges
//	    the result. An index below 0 or past the old list is
//	    [ErrCorrupt].
//	w5. Removals in a RESET are [ErrCorrupt] (google/webrisk: "indices to
//	    be removed included in a full update"); riceIndices present with
//	    entryCount 0 is one index, its firstValue.
//	w6. An absent checksum means nothing changed, as decision d reads it
//	    and as google/webrisk, which then compares the list with the
//	    checksum it held, does; a checksum that is not 32 bytes is a
//	    mismatch.
//	w7. A bound: [PrefixSet.Apply]'s maxLen, as lookup's
//	    Config.MaxDatabaseEntries. A diff whose counts (the old entries and
//	    the additions, less the removal indices given) pass it is refused
//	    before anything is decoded; one whose result does, after.
//	    [ErrCorrupt] either way.
//	w8. A DIFF to a set that has had no update applies to the empty set:
//	    its removals are out of range. (google/webrisk refuses a DIFF for a
//	    list it has never held; a client asks with no version token, and
//	    gets a RESET.)
//	w9. An entry matches a hash only on its whole length: an 8-byte entry
//	    does not match a hash that shares only its first 4 bytes. Since no
//	    entry is a prefix of another, at most one entry matches a hash.
//	w10. A set's name is 1 to 64 bytes of A-Z, a-z, 0-9, '_' and '-' (the
//	    threat types, such as MALWARE, and v4's list names): safe in a file
//	    name, a log field and a metric label. A saved set loads only into a
//	    set of its name, or into the zero PrefixSet. Its saved form starts
//	    "prefixset", where a List's starts "hashlist", so that neither
//	    loads as the other.
//
// The 4-byte entries of a set are held as a 4-byte [List]'s, in the index
// from 65,536 of them up (1.96 bytes a prefix at a million random ones,
// TestPrefixSetMemoryPerPrefix), the longer ones concatenated in byte
// order with a uint32 offset each. Match probes the index, then binary
// searches the longer entries for the last one not past the hash, the
// only one that can be its prefix; it does not allocate.
//
// Byte order and little-endian order are one byte reversal apart: the
// values of one order, byte-reversed, are the values of the other, which
// one radix sort puts in order. Its input being sorted, it needs three
// passes, not four: one that stores each reversed value in its bucket by
// its top 9 bits (of 512), keeping the buckets in input order, so that
// each is sorted by the value's low byte, then its second and third; and
// within each bucket, in the first level cache, one pass by the second
// byte and one by the third's low 7 bits. A RESET's decoder stores each
// value in its bucket as it decodes it, where the stores cost little
// beside the decoder's chain of dependent operations, into buckets with
// room for the mean count plus 8 standard deviations (random prefixes
// never fill one; a list that does is sorted by a count first), 4.6 MB at
// a million, handed from one update to the next through a sync.Pool.
// Each bucket, once sorted, goes to the index and crypto/sha256 while in
// cache, as v5's chunks do, the longer entries where they fall among
// them. A full update of 1,000,000 prefixes, 0.5% of them 8 bytes long
// (decode, reverse, sort, build, verify), takes 1.51× the time of v5's
// full update of 1,000,000 4-byte prefixes (1.48 to 1.55×, medians of
// the pairs' ratios in 10 runs of BenchmarkApplyWebRisk, which alternates
// the two), on the shared machine below under a load of 4; 1.42× in
// thread CPU time, the best of 9 runs of each. Building a full v4
// update from a List of 1,000,000 prefixes (reading them out with
// AppendHashes, then reversing, sorting and coding them, and their
// SHA-256) takes 4.1× (4.05 to 4.20×) the time of SHA-256 over the 4 MB
// list (BenchmarkEncodeV4Full, alternated likewise); the encoder codes
// three entries at a step, with no branch on the bits it holds. A
// partial update merges the old entries, the removals and the additions
// in one pass.
//
// # Memory and speed
//
// The 4-byte lists are the large ones (hundreds of thousands to millions of
// prefixes). From 65,536 prefixes up, a list holds them in an Elias–Fano
// index cut into buckets. A list of n prefixes splits each into its low l
// bits, l = log2(2^32/n) rounded down and kept within 8–14 (12 at a
// million), and its high bits. The lows are stored as they are, the low
// byte of each in one array and its other l-8 bits packed in another; the
// highs are Elias–Fano's upper bits, a bitmap in which the i-th prefix
// sets bit i + high, 2 to 3 bits a prefix however they spread (up to 5
// below 2^18 prefixes, where l stops at 14). The first bits of the high
// choose a bucket of about 8 prefixes, found through a uint8 offset per
// bucket and a uint32 every 16 buckets; the rest choose a sub-bucket,
// coded in the bucket's run of the bitmap. At 1,000,000 random
// prefixes a list holds 1.96 bytes a prefix (8 + 4 + 2.05 + 1.31 bits;
// a []uint32 holds 4, and their entropy is 1.69), which TestMemoryPerPrefix
// holds to 2.0. Contains reads the low bytes of the bucket's first 16
// prefixes in two words and compares them with the one sought eight at a
// time, gathers the matches with one multiply, and returns false when
// none matches, as for most probes; otherwise it checks the one that
// matches against the rest of its low and, with a count of the bucket's
// 1 bits before it, its sub-bucket, with no branch unless the bucket
// holds more than 16 prefixes (one in 250 at a million) or two share the
// low byte sought (one in 30). On a million varied probes it takes 0.36×
// to 0.48× the time of a binary search over a []uint32 of the same values
// (BenchmarkContains, same run; medians of 10 runs in two sessions), with
// no allocation. A list in which a bucket would hold more than 255
// prefixes, which random hashes never do, is held flat, and a list that a
// partial update shrinks is held as a list of its new size would be.
// Smaller 4-byte lists, and the 8-, 16- and 32-byte lists (gc-32b has
// thousands of entries), are a flat sorted array.
//
// The Rice decoder keeps the stream's next bits in a 64-bit buffer,
// inverted, so that a quotient is one trailing-zeros count and an entry
// one shift, and refills it without a branch after a fixed number of
// entries, from an address known a refill ahead; it checks for a zero
// delta and an overflow once a run, and hands the run with a defect, the
// stream's last bytes and long quotients to a careful entry-by-entry
// loop, so that the error reported is the first defect. It decodes an
// entry in 1.9 ns of CPU time (BenchmarkDecode). A full update is
// decoded in sorted order, 512 prefixes at a time; each chunk, while it
// is in cache, is added to the index and written out big-endian for
// crypto/sha256, which hashes it. A partial update merges the old list,
// the removals and the additions in one pass into the same chunks. A
// full update of 1,000,000 prefixes (decode, build, verify) takes 3.2×
// the time of SHA-256 over the 4 MB list in the same run
// (BenchmarkApplyFull), which every correct client computes anyway. The
// figures are medians of 10 runs on a shared 2-core AMD EPYC (Zen 4)
// virtual machine, loaded by other work. Apply builds the next state
// aside and publishes it with one atomic store, so readers never wait
// and never see half a list.
//
// The package has no assembly and no cryptography of its own: the
// decoder and the index are Go, and every checksum is crypto/sha256's,
// which uses the CPU's SHA instructions where it has them and honours
// GODEBUG.
package hashlist
