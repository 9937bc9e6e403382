// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package v5http holds the rules of the Safe Browsing v5 API's HTTP
// binding that both of the module's v5 servers apply, the mirror
// (safebrowse/mirror) and the fake server (safebrowse/sbtest): the query
// parameters of each method, under the lowerCamel names the API documents
// and the snake_case names Google's APIs also accept; the standard system
// parameters of Google's APIs; and the error reply in Google's shape.
// The mirror may not import sbtest, so the rules live here.
//
// Errors carry no package prefix: each server wraps them in its own.
package v5http
