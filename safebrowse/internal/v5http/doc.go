// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package v5http holds the rules of the Safe Browsing v5 API's HTTP
// binding that both of the module's v5 servers apply, the mirror
// (safebrowse/mirror) and the fake server (safebrowse/sbtest): the query
// parameters of each method, under the lowerCamel names the API documents
// and the snake_case names Google's APIs also accept; the standard system
// parameters of Google's APIs; and the error reply in Google's shape,
// google.rpc.Status in JSON, with a google.rpc.ErrorInfo in its details
// where Google's APIs give one (a wrong or missing key, a used-up quota),
// so that Google's client libraries read its reason. The mirror may not
// import sbtest, so the rules live here. The body itself is written by
// internal/rpcstatus, which cmd/sbserver, outside safebrowse, writes its
// Google-shaped errors with too; a Web Risk front names its own service
// in the ErrorInfo.
//
// Errors carry no package prefix: each server wraps them in its own.
package v5http
