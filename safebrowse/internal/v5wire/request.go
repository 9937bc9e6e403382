// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// searchHashPrefixes is SearchHashesRequest.hash_prefixes.
const searchHashPrefixes protowire.Number = 1

// SearchHashesRequest is the request of hashes:search, as Chromium sends
// it in binary form: base64url in the $req query parameter, with
// $ct=application/x-protobuf (hash_realtime_service.cc, GetResourceUrl).
// The REST form sends the same prefixes as hashPrefixes parameters.
type SearchHashesRequest struct {
	HashPrefixes [][]byte
}

// ParseSearchHashesRequest reads a binary SearchHashesRequest
// { 1 repeated bytes hash_prefixes }. A prefix is kept whatever its
// length, for the server to judge; at most max prefixes are read, and one
// more is an error, so that the work is bounded by the caller's limit and
// not by the input. The prefixes alias b.
func ParseSearchHashesRequest(b []byte, max int) (SearchHashesRequest, error) {
	var m SearchHashesRequest
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num != searchHashPrefixes {
			continue
		}
		if err := f.want(protowire.BytesType); err != nil {
			return m, err
		}
		if len(m.HashPrefixes) == max {
			return m, fmt.Errorf("more than %d hash_prefixes", max)
		}
		m.HashPrefixes = append(m.HashPrefixes, f.b)
	}
	return m, r.err
}

// AppendSearchHashesRequest appends m as a binary SearchHashesRequest.
func AppendSearchHashesRequest(b []byte, m *SearchHashesRequest) []byte {
	for _, p := range m.HashPrefixes {
		b = protowire.AppendTag(b, searchHashPrefixes, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	return b
}
