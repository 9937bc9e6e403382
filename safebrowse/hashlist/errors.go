// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every error this package returns wraps one of them, for
// use with [errors.Is]. Messages begin with "hashlist: ".
var (
	// ErrChecksum reports that the list after an update does not match the
	// message's sha256_checksum. The client should drop its version and fetch
	// the list whole.
	ErrChecksum = errors.New("hashlist: checksum mismatch")
	// ErrCorrupt reports a malformed HashList message or Rice stream, or a
	// corrupt saved list (UnmarshalBinary).
	ErrCorrupt = errors.New("hashlist: corrupt message")
	// ErrName reports a list name without a "-4b", "-8b", "-16b" or "-32b"
	// suffix, or a message or saved list whose name is another list's.
	ErrName = errors.New("hashlist: invalid list name")
	// ErrMessage reports a [Message] that cannot be encoded: a width or
	// Rice parameter out of range, additions that are not whole hashes, a
	// duplicate addition or removal.
	ErrMessage = errors.New("hashlist: invalid message")
)

// Error is the one error type of the package: a sentinel, the list it
// concerns (quoted, at most 100 bytes), and what was wrong.
type listError struct {
	err    error
	list   string
	detail string
}

// newError returns an error wrapping the sentinel err for the list named
// name, with a detail.
func newError(err error, name, detail string) error {
	if len(name) > 100 {
		name = name[:100]
	}
	return &listError{err: err, list: string([]byte(name)), detail: detail}
}

// Error returns `hashlist: corrupt message for "se-4b": additions: ...`.
func (e *listError) Error() string {
	s := e.err.Error()
	if e.list != "" {
		s += " for " + strconv.Quote(e.list)
	}
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

// Unwrap returns the sentinel.
func (e *listError) Unwrap() error { return e.err }
