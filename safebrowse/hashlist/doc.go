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
// below fill a silence. It is pure: no network, no goroutines of its own.
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
