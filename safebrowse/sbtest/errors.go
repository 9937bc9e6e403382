// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error that [Server.Add], [Server.AddHash],
// [Server.AddPrefix], [Server.Remove] and [Server.RemoveHash] return wraps
// exactly one of them, so callers can test the kind of failure with
// [errors.Is]. The message begins with "sbtest: " and quotes at most the
// first 100 bytes of the input.
var (
	// ErrUnknownList reports a list name that is not one of the lists the
	// server serves (see [Lists]).
	ErrUnknownList = errors.New("sbtest: unknown list")
	// ErrExpression reports an expression that is not in the canonical form
	// that safebrowse yields, such as "evil.example" (no path) or
	// "http://evil.example/" (a URL, not an expression).
	ErrExpression = errors.New("sbtest: invalid expression")
	// ErrNotListed reports a Remove of an expression or hash that is not on
	// the list.
	ErrNotListed = errors.New("sbtest: not on the list")
	// ErrPrefixLength reports a length of a Web Risk entry, given to
	// [Server.AddPrefix], outside 4 to 32 bytes.
	ErrPrefixLength = errors.New("sbtest: invalid prefix length")
)

// newError returns an error wrapping the sentinel err for input, with an
// optional detail. The input is given whole: [inputerr.New] quotes at most
// its first 100 bytes, never part of a UTF-8 sequence, and notes its
// length when it is longer.
func newError(err error, input, detail string) error {
	return inputerr.New(err, input, detail)
}
