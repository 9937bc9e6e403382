// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import "google.golang.org/protobuf/encoding/protowire"

// searchHashPrefixes is SearchHashesRequest.hash_prefixes.
const searchHashPrefixes protowire.Number = 1

// ParseSearchHashesRequest reads a binary SearchHashesRequest
// { 1 hash_prefixes: repeated bytes; 2 filter }, as Chromium sends it in
// the $req= parameter of hashes:search, and returns the prefixes, which
// alias b. The filter and unknown fields are skipped.
func ParseSearchHashesRequest(b []byte) ([][]byte, error) {
	var prefixes [][]byte
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num != searchHashPrefixes {
			continue
		}
		if err := f.want(protowire.BytesType); err != nil {
			return nil, err
		}
		prefixes = append(prefixes, f.b)
	}
	return prefixes, r.err
}

// AppendSearchHashesRequest appends a binary SearchHashesRequest holding
// prefixes.
func AppendSearchHashesRequest(b []byte, prefixes [][]byte) []byte {
	for _, p := range prefixes {
		b = protowire.AppendTag(b, searchHashPrefixes, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	return b
}
