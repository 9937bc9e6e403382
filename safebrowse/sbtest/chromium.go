// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// maxReq bounds the $req parameter: 1000 prefixes of 4 bytes take 6000
// bytes, 8000 in base64.
const maxReq = 16 << 10

// chromiumForm rewrites a hashes:search sent as Chromium sends it,
// "$req=<SearchHashesRequest in base64url>&$ct=application/x-protobuf"
// (hash_realtime_service.cc, GetResourceUrl), into the REST form: one
// hashPrefixes parameter per prefix, and alt=proto, since the reply is a
// binary protobuf too. Any other query is returned as it is. $req needs
// $ct=application/x-protobuf, may not come with hashPrefixes, and is
// served for hashes:search only; it is at most maxReq bytes long and
// holds at most maxPrefixes prefixes, checked before it is decoded.
func chromiumForm(ep string, q url.Values, qerr error) (url.Values, error) {
	if qerr != nil || (q["$req"] == nil && q["$ct"] == nil) {
		return q, qerr
	}
	req, ct := q["$req"], q["$ct"]
	switch {
	case ep != epSearch:
		return q, errors.New("$req and $ct are served for hashes:search only")
	case len(req) != 1 || len(ct) != 1:
		return q, errors.New("want one $req and one $ct")
	case ct[0] != "application/x-protobuf":
		return q, fmt.Errorf("$ct=%s is not served; use application/x-protobuf", inputerr.Quote(ct[0]))
	case len(req[0]) > maxReq:
		return q, fmt.Errorf("$req over %d bytes", maxReq)
	case q["hashPrefixes"] != nil || q["hash_prefixes"] != nil:
		return q, errors.New("$req and hashPrefixes both given")
	}
	b, err := v5wire.DecodeBytes(req[0])
	if err != nil {
		return q, errors.New("$req is not base64")
	}
	m, err := v5wire.ParseSearchHashesRequest(b, maxPrefixes)
	if err != nil {
		return q, fmt.Errorf("$req is not a SearchHashesRequest: %v", err)
	}
	out := make(url.Values, len(q))
	for k, v := range q {
		if k != "$req" && k != "$ct" {
			out[k] = v
		}
	}
	for _, p := range m.HashPrefixes {
		out.Add("hashPrefixes", base64.StdEncoding.EncodeToString(p))
	}
	if out["alt"] == nil {
		out.Set("alt", "proto")
	}
	return out, nil
}
