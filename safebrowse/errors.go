// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error returned by this package wraps one of them,
// for use with [errors.Is]. Messages begin with "safebrowse: " and quote the
// input.
var (
	// ErrEmpty reports an empty URL (after trimming).
	ErrEmpty = errors.New("safebrowse: empty URL")
	// ErrNoHost reports a URL without a host: "http:///path", "/path", "?q".
	ErrNoHost = errors.New("safebrowse: URL has no host")
	// ErrScheme reports a non-hierarchical scheme: "mailto:", "javascript:", "data:".
	ErrScheme = errors.New("safebrowse: unsupported scheme")
	// ErrTooLong reports a URL longer than 2 MiB, the bound Chromium sets.
	ErrTooLong = errors.New("safebrowse: URL too long")
	// ErrInvalidHost reports a host in brackets that is not an IPv6 address.
	ErrInvalidHost = errors.New("safebrowse: invalid host")
	// ErrInvalidPort reports a port that is neither empty nor one or more
	// ASCII digits of value at most 65535, which a browser rejects:
	// "http://example.org:99999/", "http://example.org:8x/".
	ErrInvalidPort = errors.New("safebrowse: invalid port")
	// ErrInvalidURL reports any other malformed URL.
	ErrInvalidURL = errors.New("safebrowse: invalid URL")
	// ErrListName reports a hash list name without a "-4b", "-8b", "-16b"
	// or "-32b" suffix.
	ErrListName = errors.New("safebrowse: invalid hash list name")
)

// newError returns an error wrapping the sentinel err for input, with an
// optional detail. The input is given whole: [inputerr.New] quotes at most
// its first 100 bytes, never part of a UTF-8 sequence, notes its length
// when it is longer, and keeps no more of it than it quotes.
func newError(err error, input, detail string) error {
	return inputerr.New(err, input, detail)
}
