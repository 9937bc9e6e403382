// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rpcstatus_test

import (
	"fmt"

	"github.com/urlspec/urlspec/internal/rpcstatus"
)

// ExampleAppendJSON writes a wrong key's error as Google's APIs write it,
// with the reason a client library reads.
func ExampleAppendJSON() {
	info := rpcstatus.ErrorInfo{Reason: rpcstatus.ReasonAPIKeyInvalid, Service: rpcstatus.SafeBrowsing}
	fmt.Printf("%s", rpcstatus.AppendJSON(nil, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", info))
	// Output:
	// {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}
}
