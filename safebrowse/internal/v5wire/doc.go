// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package v5wire is the one owner of the messages of the Safe Browsing v5
// API, in both directions and in both of Google's encodings: binary
// protobuf (alt=proto), by the field numbers of
// google/security/safebrowsing/v5/safebrowsing.proto
// (https://github.com/googleapis/googleapis), read and written with
// protowire alone; and Google's JSON mapping of the same messages
// (alt=json, the default of Google's servers and of the client libraries
// generated from the API's discovery document). hashlist, lookup and
// sbtest use it, and no other non-test file of the module imports
// protowire.
//
// It knows the shape of the messages, not their meaning: a HashList's Rice
// streams are handed over undecoded (hashlist decodes them), and a
// FullHashDetail with a threat type the package does not know is kept, for
// the client to drop.
//
// # Strictness
//
// One policy holds for every message read:
//
//   - An unknown field is skipped, as protobuf requires, whatever its wire
//     type, so that a server may add fields.
//   - A known field with the wrong wire type, a truncated tag, varint or
//     length, or a field number of 0 is corrupt.
//   - A scalar field given twice takes the last value, as protobuf does.
//   - A singular message field (a Duration, a Rice stream, the metadata)
//     given twice is corrupt, and so are two fields of the additions oneof:
//     protobuf would merge them, but no server splits a message, and
//     merging Rice streams would be guessing.
//   - A repeated scalar field (enums) is read packed or not, as protobuf
//     requires.
//   - An int32 must be an int32 sign-extended to 64 bits, a uint32 must fit
//     32 bits; a full hash must be 32 bytes.
//   - A Duration must not be negative and its nanos must lie in
//     0–999,999,999; one longer than a [time.Duration] holds is read as
//     [MaxDuration] (a long wait is no reason to refuse a list).
//
// Readers return errors that state the reason, with no package prefix:
// the caller wraps them in its own sentinel (hashlist.ErrCorrupt,
// lookup.ErrCorruptReply). Writers leave out fields at their zero value,
// as proto3 does, pack repeated enums, and write fields in field-number
// order.
//
// JSON follows the proto3 JSON mapping, as Google's servers send it:
// lowerCamelCase names, bytes as standard base64 with padding, 64-bit
// integers as decimal strings, a Duration as seconds with an "s" suffix
// ("300s", "1.500s"), enums by name, default values left out. The JSON
// readers take what the mapping allows besides: bytes
// in URL-safe base64 or unpadded, 64-bit integers as numbers, enums by
// number.
package v5wire
