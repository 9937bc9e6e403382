// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package gapi tests the module's servers with Google's generated Go
// clients, google.golang.org/api, unchanged but for their endpoint: the
// fake server safebrowse/sbtest, with its JSON mapping on (WithJSON), in
// process, and the built cmd/sbserver, with -fake, -mirror and
// -client-keys. It is a module of its own, so that the main module's
// go.mod gains nothing from google.golang.org/api; its go.mod replaces
// github.com/urlspec/urlspec with the checkout two directories up. Run it
// from here: go test ./...
//
// The tests check the verdicts of sbtest.TestURLs through each client,
// and that an error reads as it does from Google's servers through
// apierror (github.com/googleapis/gax-go/v2/apierror): its HTTP code, its
// status, and the reason of its google.rpc.ErrorInfo, such as
// API_KEY_INVALID for a wrong key.
//
// Google's Web Risk client, google.golang.org/api/webrisk/v1, is tested
// against sbtest's Web Risk API, and against the built sbserver -api
// webrisk -mirror (with -fake, and in front of an sbtest whose lists
// change): computeDiff's lists are decoded by a
// bit-at-a-time little-endian Rice decoder written in the test from Web
// Risk's compression guide, not by the module's hashlist, and each
// checksum is verified over that decoding.
//
// Google's v4 client, google.golang.org/api/safebrowsing/v4, is tested
// against safebrowse/v4update, the v4 Update API served from a v5
// client's lists, in process, and against the built sbserver's v4 Update
// API under -api safebrowsing and -api webrisk, in front of an sbtest
// whose lists change: its Rice data is decoded by the same decoder,
// decodeRice, written from the v4 reference, and each checksum is
// verified over that decoding.
package gapi
