// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrNotReady is returned by a lookup in LocalList or RealTime mode
	// before every list has been loaded once, from Dir or from the server.
	// Wait with [Client.Ready].
	ErrNotReady = errors.New("lookup: lists not loaded yet")

	// ErrClosed is returned by every call after [Client.Close].
	ErrClosed = errors.New("lookup: client closed")

	// ErrFrozen is returned by [Client.Update] and [Client.Run] of a client
	// whose Config.Frozen is set, with no request made.
	ErrFrozen = errors.New("lookup: lists frozen by Config.Frozen")

	// ErrBackoff is returned, with no request made, while the client is
	// backing off after failed requests: updates and searches each keep
	// their own back-off. [BackoffError] tells until when.
	ErrBackoff = errors.New("lookup: backing off after failed requests")

	// ErrInvalidURL is wrapped by every error for a URL that cannot be
	// canonicalised, beside the safebrowse error that says why, such as
	// [safebrowse.ErrEmpty]: errors.Is holds for both. It tells a bad URL,
	// which no retry will check, from a check that failed.
	ErrInvalidURL = errors.New("lookup: invalid URL")

	// ErrSearchBudget is returned, with no request made, by a lookup or
	// search that needs a hashes:search request while
	// Config.MaxSearchesPerMinute requests have gone in the last minute:
	// the URL is not checked, never "safe". [Stats].SearchesOverBudget
	// counts the requests so refused.
	ErrSearchBudget = errors.New("lookup: over Config.MaxSearchesPerMinute")

	// ErrCorruptReply is a reply body that is not the message it should be:
	// a malformed protobuf, a full hash whose prefix was not asked for, a
	// list that is not the one asked for, or a body over the size limit.
	ErrCorruptReply = errors.New("lookup: corrupt reply")
)

// A StatusError is a reply whose HTTP status is not 200. It holds the
// server's message, with the API key masked.
type StatusError struct {
	Method     string // "hashes:search", "hashList", "hashLists:batchGet" or "threatLists:computeDiff"
	StatusCode int    // e.g. 429, 503
	Message    string // the server's message (google.rpc.Status), key masked, at most 100 bytes
}

func (e *StatusError) Error() string {
	s := "lookup: " + e.Method + ": HTTP " + strconv.Itoa(e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// A BackoffError is an [ErrBackoff]: the client makes no request of the
// method before Until.
type BackoffError struct {
	Method   string    // "hashes:search" or "update"
	Until    time.Time // when the next request may go
	Failures int       // consecutive failures so far
	Err      error     // the last failure
}

func (e *BackoffError) Error() string {
	s := "lookup: " + e.Method + ": backing off until " + e.Until.UTC().Format(time.RFC3339) +
		" after " + strconv.Itoa(e.Failures) + " failed requests"
	if e.Err != nil {
		s += " (last: " + e.Err.Error() + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrBackoff) true.
func (e *BackoffError) Is(target error) bool { return target == ErrBackoff }

// Unwrap returns the last failure.
func (e *BackoffError) Unwrap() error { return e.Err }

// notReadyError is an [ErrNotReady] that wraps the failure of the last
// update attempt.
type notReadyError struct{ err error }

func (e *notReadyError) Error() string {
	return ErrNotReady.Error() + ": " + strings.TrimPrefix(e.err.Error(), "lookup: ")
}

// Is makes errors.Is(err, ErrNotReady) true.
func (e *notReadyError) Is(target error) bool { return target == ErrNotReady }

// Unwrap returns the update's failure.
func (e *notReadyError) Unwrap() error { return e.err }

// invalidURLError is the error of a URL that cannot be canonicalised: it
// wraps the safebrowse error and is an [ErrInvalidURL].
type invalidURLError struct{ err error }

func (e *invalidURLError) Error() string { return "lookup: " + e.err.Error() }

// Is makes errors.Is(err, ErrInvalidURL) true.
func (e *invalidURLError) Is(target error) bool { return target == ErrInvalidURL }

// Unwrap returns the safebrowse error.
func (e *invalidURLError) Unwrap() error { return e.err }
