// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package v4wire is the one owner of the messages of the Web Risk API
// (webrisk.googleapis.com/v1) and of the Safe Browsing v4 Update API, in
// each direction and each form that a client or server of the module
// uses. It is to these two what v5wire is to v5, and holds v5wire's
// policy.
//
// Web Risk's messages are numbered by google/cloud/webrisk/v1/webrisk.proto
// (https://github.com/googleapis/googleapis): the computeDiff, hashes:search
// and uris:search replies in binary (alt=proto) and in JSON, and their
// requests in the query of a GET. v4's are numbered by safebrowsing.proto,
// which Chromium (components/safe_browsing/core/browser/db) and
// github.com/google/safebrowsing publish alike: threatListUpdates:fetch and
// fullHashes:find, requests and replies, in binary, in JSON and in
// Chromium's GET form ($req), and the reply of GET /v4/threatLists. The
// binary form is read and written with protowire alone; no other non-test
// package of the module but v5wire imports it.
//
// It knows the shape of the messages, not their meaning: Rice streams are
// handed over undecoded (hashlist decodes them), RawHashes are not checked
// against their prefix size, and an enum value the package does not know
// is kept, for the caller to judge with Valid.
//
// # Strictness
//
// One policy holds for every binary message read, as in v5wire:
//
//   - An unknown field is skipped, as protobuf requires, whatever its wire
//     type, so that a server may add fields.
//   - A known field with the wrong wire type, a truncated tag, varint or
//     length, or a field number of 0 is corrupt.
//   - A scalar field given twice takes the last value, as protobuf does.
//   - A singular message field (a Checksum, a Duration, a Timestamp, a
//     Rice stream, the ClientInfo) given twice is corrupt: protobuf would
//     merge them, but no server splits a message.
//   - A repeated scalar field (enums, indices) is read packed or not, as
//     protobuf requires.
//   - An int32 or enum must be an int32 sign-extended to 64 bits; a
//     Web Risk ThreatHash's hash must be 32 bytes.
//   - A Duration is read as v5wire reads it: never negative, its nanos in
//     0–999,999,999, capped at v5wire.MaxDuration. A Timestamp must lie
//     within its range, years 1 to 9999, with nanos in 0–999,999,999.
//
// Every reader takes its input whole, bounded by the caller, and its
// memory is a small multiple of it: protowire checks each length against
// the bytes left before a value is taken, each repeated field is counted
// before it is allocated, byte slices alias the input, and a message may
// hold at most one sub-message (an element of a repeated message field,
// or a message held by a pointer) per 8 bytes of input, plus 32. Empty
// sub-messages are 2 bytes of input and up to 120 bytes once read; real
// ones are far longer (a 4-byte prefix to search takes 8 bytes, a list's
// descriptor 8, an update more): a message denser than that is refused,
// and a reader allocates at most 16 bytes a byte of input.
//
// Readers return errors that state the reason, with no package prefix: the
// caller wraps them in its own sentinel. Writers leave out fields
// at their zero value, as proto3 does, pack repeated scalars, and write
// fields in field-number order; a sub-message held by a pointer is written
// when set, even empty, since a client may test its presence.
//
// # JSON
//
// JSON follows the proto3 JSON mapping as Google's servers write it:
// lowerCamelCase names, bytes in standard base64 with padding, 64-bit
// integers (a Rice stream's firstValue) as decimal strings, which Google's
// generated Go clients read with ",string", 32-bit integers as numbers,
// enums by name, a Duration as seconds with an "s" suffix ("300s",
// "1.500s"), a Timestamp in RFC 3339 in UTC with a "Z" and 0, 3, 6 or 9
// digits of fraction, default values left out. Web Risk's replies hold
// webrisk.proto's fields and no others, since github.com/google/webrisk
// fails a whole update on a field it does not know.
//
// The JSON readers take what the mapping allows besides: a field by its
// proto name (max_diff_entries) as well as by its JSON name; bytes in
// URL-safe base64, unpadded; integers as strings or numbers (decimal, no
// exponent); enums by number; a Timestamp with an offset. They keep the
// binary policy: an unknown key is skipped; a key given twice in one
// object, by either of its names (compared without regard to case, as
// encoding/json matches them), is an error, as in protobuf's parsers; a
// name of an enum the package does not know is read as -1; null is the
// field's default. The input must be one JSON object in UTF-8, with
// nothing after it, nested at most 64 deep, with at most 64 keys an
// object, and at most one object or string in an array per 16 bytes, plus
// 32: a JSON reader allocates at most 40 bytes a byte of input,
// encoding/json's copies included.
//
// # Decisions
//
// Where the sources are silent, the package decides as follows.
//
//   - v4's ThreatType is numbered by the order of the v4 discovery
//     document's enum (THREAT_TYPE_UNSPECIFIED 0 to ACCURACY_TIPS 17),
//     which agrees with every number Chromium's proto gives.
//   - Four fields of v4's discovery document have no published field
//     number: Constraints.language and deviceLocation,
//     FindFullHashesRequest.apiClient and ThreatEntry.digest. They are read
//     and written in JSON, and left out of the binary form.
//   - Web Risk's and v4's RiceDeltaEncoding are one type: its third field
//     is entryCount in Web Risk's JSON and numEntries in v4's; each API
//     reads and writes its own name.
//   - A query parameter's bytes are written in URL-safe base64 with
//     padding, as webrisk.proto asks of a bytes field in a URI; Google's
//     documentation and github.com/google/webrisk send standard base64,
//     which the parsers read too.
//   - A Web Risk request field given by both its names in a query, or a
//     singular one given twice, is an error, as a JSON key given twice is.
//   - Chromium's $req is decoded from any of the four base64 forms;
//     EncodeReq writes base64url with padding, as Chromium does.
package v4wire
