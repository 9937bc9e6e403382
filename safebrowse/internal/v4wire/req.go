// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"encoding/base64"
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// Chromium's GET form of a v4 request: the binary request, base64url
// with padding, in the $req query parameter, with
// $ct=application/x-protobuf and X-HTTP-Method-Override: POST
// (v4_protocol_manager_util.cc, ComposeUrl and UpdateHeaders). The reply
// is binary.
const (
	ReqParam       = "$req"                   // the request
	CTParam        = "$ct"                    // its content type
	ReqContentType = "application/x-protobuf" // the value of $ct
)

// ParseReq returns the binary request that the one $req parameter of q
// holds, decoded from standard or URL-safe base64, padded or not; it
// allocates at most 3/4 of the parameter's length. The caller reads it
// with [ParseFetchThreatListUpdatesRequest] or
// [ParseFindFullHashesRequest], and checks the other parameters.
func ParseReq(q map[string][]string) ([]byte, error) {
	vs := q[ReqParam]
	switch {
	case len(vs) == 0:
		return nil, errors.New("no $req parameter")
	case len(vs) > 1:
		return nil, errors.New("$req given more than once")
	}
	b, err := v5wire.DecodeBytes(vs[0])
	if err != nil {
		return nil, errors.New("$req " + inputerr.Quote(vs[0]) + " is not base64")
	}
	return b, nil
}

// EncodeReq returns the $req value of the binary request msg, as Chromium
// writes it: base64url with padding. A query built with url.Values
// escapes its "=".
func EncodeReq(msg []byte) string { return base64.URLEncoding.EncodeToString(msg) }
