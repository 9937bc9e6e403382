// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error returned by this package wraps exactly one of
// them, so callers can test the kind of failure with [errors.Is]; an error
// with a cause, such as a fetch cut short by context.Canceled, wraps the
// cause too. The message begins with "cachetest: " and quotes at most the
// first 100 bytes of the input, or names the option at fault, and is at
// most 512 bytes long. The cache also
// writes these messages into its error pages, so a test can tell why a
// request got a 404.
var (
	// ErrInvalidOption reports an option out of range, such as a negative
	// redirect bound.
	ErrInvalidOption = errors.New("cachetest: invalid option")
	// ErrInvalidOrigin reports an origin that cannot be served: a nil
	// handler, or a base URL that is not an http or https URL on loopback.
	ErrInvalidOrigin = errors.New("cachetest: invalid origin")
	// ErrInvalidHost reports a request whose Host is not a host name with
	// an optional port, such as one with userinfo; the cache answers 400.
	ErrInvalidHost = errors.New("cachetest: invalid Host")
	// ErrNotCacheHost reports a request whose host is not on a cache of
	// the registry.
	ErrNotCacheHost = errors.New("cachetest: not an AMP Cache host")
	// ErrUnknownServing reports a cache path whose serving type this cache
	// does not serve.
	ErrUnknownServing = errors.New("cachetest: unknown serving type")
	// ErrInvalidURL reports a cache URL that names no publisher URL.
	ErrInvalidURL = errors.New("cachetest: invalid cache URL")
	// ErrURLTooLong reports a request URL over [MaxURLLength] bytes.
	ErrURLTooLong = errors.New("cachetest: URL too long")
	// ErrMethod reports a request method other than GET or HEAD.
	ErrMethod = errors.New("cachetest: method not allowed")
	// ErrOriginStatus reports an origin response that is not 200 OK, such
	// as a 404 or a 5xx.
	ErrOriginStatus = errors.New("cachetest: origin status")
	// ErrOriginFetch reports an origin that could not be fetched: a
	// transport error, a timeout, or a handler that panicked.
	ErrOriginFetch = errors.New("cachetest: origin fetch failed")
	// ErrTooManyRedirects reports an origin that redirects more often than
	// the bound set by [WithMaxRedirects], such as a redirect loop.
	ErrTooManyRedirects = errors.New("cachetest: too many redirects")
	// ErrInvalidRedirect reports an origin redirect without a usable
	// Location: missing, malformed, or not http or https.
	ErrInvalidRedirect = errors.New("cachetest: invalid redirect")
	// ErrBodyTooLarge reports an origin body over the bound set by
	// [WithMaxBodySize].
	ErrBodyTooLarge = errors.New("cachetest: origin body too large")
	// ErrNoKey reports an update-cache request whose publisher serves no
	// usable key at /.well-known/amphtml/apikey.pub: the fetch failed or
	// was not 200, or the body is not text/plain, is over [MaxKeySize]
	// bytes, or is not an RSA public key in PEM. The cache answers 403.
	ErrNoKey = errors.New("cachetest: no update-cache key")
	// ErrUpdateRefused reports an update-cache request that
	// [ampcache.VerifyUpdateCache] refuses; the error wraps its error too
	// (ampcache.ErrSignature, ampcache.ErrTimestamp, ...). The cache
	// answers 403.
	ErrUpdateRefused = errors.New("cachetest: update-cache request refused")
)

// newError returns an error wrapping the sentinel err for input, with an
// optional detail; its message quotes the input (internal/inputerr).
func newError(err error, input, detail string) error {
	return inputerr.New(err, input, detail)
}

// optionError returns an error wrapping ErrInvalidOption that names the
// option: "cachetest: WithRegistry: nil registry".
func optionError(option, reason string) error {
	return inputerr.Field(ErrInvalidOption, "cachetest", option, reason)
}
