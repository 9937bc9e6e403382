// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error this package returns wraps one of them, for
// use with [errors.Is]. Messages begin with "hashlist: ".
var (
	// ErrChecksum reports that the list after an update does not match the
	// message's sha256_checksum. The client should drop its version and fetch
	// the list whole.
	ErrChecksum = errors.New("hashlist: checksum mismatch")
	// ErrCorrupt reports a malformed HashList message, [Diff] or Rice
	// stream, or a corrupt saved list or set (UnmarshalBinary).
	ErrCorrupt = errors.New("hashlist: corrupt message")
	// ErrName reports a list name without a "-4b", "-8b", "-16b" or "-32b"
	// suffix or outside a-z, 0-9 and '-' (see [New]), a set name outside
	// the rule of [NewPrefixSet], or a message or saved list or set whose
	// name is another's.
	ErrName = errors.New("hashlist: invalid list name")
	// ErrMessage reports a [Message], [Rice] or [Diff] that cannot be
	// encoded: a width or Rice parameter out of range, additions that are
	// not whole hashes, a duplicate addition or removal.
	ErrMessage = errors.New("hashlist: invalid message")
)

// listError is the one error type of the package: a sentinel, the list it
// concerns (quoted by [inputerr.Quote]), and what was wrong.
type listError struct {
	err    error
	list   string // quoted; "" when the error concerns no list
	detail string
}

// newError returns an error wrapping the sentinel err for the list named
// name, with a detail.
func newError(err error, name, detail string) error {
	q := ""
	if name != "" {
		q = inputerr.Quote(name)
	}
	return &listError{err: err, list: q, detail: detail}
}

// wrapError is [newError] with the reason of a v5wire or Rice error as the
// detail.
func wrapError(err error, name string, reason error) error {
	return newError(err, name, reason.Error())
}

// quote quotes an input inside a detail, as [inputerr.Quote] does.
func quote(s string) string { return inputerr.Quote(s) }

// quoteHex quotes bytes from a message in hex, within the rule of
// [inputerr.Quote]: at most [inputerr.MaxQuoted] hex digits (the first
// half as many bytes), then, when b is longer, its length.
func quoteHex(b []byte) string {
	const n = inputerr.MaxQuoted / 2
	if len(b) <= n {
		return hex.EncodeToString(b)
	}
	return hex.EncodeToString(b[:n]) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}

// Error returns `hashlist: corrupt message for "se-4b": additions: ...`.
func (e *listError) Error() string {
	s := e.err.Error()
	if e.list != "" {
		s += " for " + e.list
	}
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

// Unwrap returns the sentinel.
func (e *listError) Unwrap() error { return e.err }
