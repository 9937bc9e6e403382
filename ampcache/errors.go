// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error returned by this package wraps one of them
// (a cache URL with a bad serving type wraps both ErrInvalidURL and
// ErrInvalidServing), so callers can test the kind of failure with
// [errors.Is]. The
// returned error's message begins with "ampcache: " and quotes at most the
// first 100 bytes of the input, then its length; it is at most 512 bytes.
var (
	// ErrEmpty reports an empty input.
	ErrEmpty = errors.New("ampcache: empty input")
	// ErrEmptyLabel reports a domain with an empty label: "a..b", ".a", "...".
	ErrEmptyLabel = errors.New("ampcache: empty label")
	// ErrInvalidHost reports a host that is not a valid domain name, such as
	// one holding a forbidden host code point.
	ErrInvalidHost = errors.New("ampcache: invalid host")
	// ErrInvalidPunycode reports an "xn--" label that is not valid Punycode.
	ErrInvalidPunycode = errors.New("ampcache: invalid punycode")
	// ErrTooLong reports an input over its documented length bound.
	ErrTooLong = errors.New("ampcache: input too long")
	// ErrInvalidURL reports a malformed publisher or cache URL.
	ErrInvalidURL = errors.New("ampcache: invalid URL")
	// ErrInvalidServing reports a malformed [Serving] path prefix.
	ErrInvalidServing = errors.New("ampcache: invalid serving type")
	// ErrInvalidOrigin reports a malformed cache Origin.
	ErrInvalidOrigin = errors.New("ampcache: invalid origin")
	// ErrUnknownCache reports a host that is not on a registered cache.
	ErrUnknownCache = errors.New("ampcache: unknown cache")
	// ErrNotCacheURL reports a URL that is not on a registered cache.
	ErrNotCacheURL = errors.New("ampcache: not an AMP cache URL")
	// ErrNotReversible reports a hashed domain prefix, which cannot be
	// reversed: compare the Origin with [Cache.Origin] of the domains you know.
	ErrNotReversible = errors.New("ampcache: hashed domain prefix cannot be reversed")
	// ErrInvalidCaches reports a caches.json that fails validation.
	ErrInvalidCaches = errors.New("ampcache: invalid caches.json")
	// ErrSignature reports an update-cache request whose amp_url_signature
	// is missing, malformed or does not verify, or a key that failed to
	// sign one.
	ErrSignature = errors.New("ampcache: invalid update-cache signature")
	// ErrTimestamp reports an update-cache request whose amp_ts is
	// missing, malformed or more than 60 seconds from the cache's clock.
	ErrTimestamp = errors.New("ampcache: invalid update-cache timestamp")
	// ErrInvalidKey reports an update-cache key that is not an RSA key of
	// at least 2048 bits.
	ErrInvalidKey = errors.New("ampcache: invalid update-cache key")
	// ErrNoUpdateCacheAPI reports a cache without an
	// updateCacheApiDomainSuffix, which takes no update-cache requests.
	ErrNoUpdateCacheAPI = errors.New("ampcache: cache has no update-cache API")
)

// newError returns an error wrapping the sentinel err for input, with an
// optional detail; its message quotes the input (internal/inputerr).
func newError(err error, input, detail string) error {
	return inputerr.New(err, input, detail)
}

// wrapError is newError with a cause, which errors.Is finds too.
func wrapError(err error, input string, cause error) error {
	return inputerr.Wrap(err, input, cause)
}
