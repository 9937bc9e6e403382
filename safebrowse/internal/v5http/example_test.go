// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http_test

import (
	"fmt"

	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
)

// ExampleAppendError shows a wrong key answered as Google's APIs answer
// it, with the reason a client library reads.
func ExampleAppendError() {
	info := v5http.ErrorInfo{Reason: v5http.ReasonAPIKeyInvalid, Service: v5http.SafeBrowsing}
	fmt.Printf("%s", v5http.AppendError(nil, 400, v5http.StatusName(400), "API key not valid. Please pass a valid API key.", info))
	// Output:
	// {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}
}
