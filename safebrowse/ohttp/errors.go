// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"errors"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Sentinel errors. Every error returned by this package wraps one of them,
// for use with [errors.Is]. Messages begin with "ohttp: ". A key
// configuration is public and its error quotes it (at most 100 bytes); an
// error about a Binary HTTP message or an encapsulated one quotes none of
// its bytes, since a request carries the caller's API key.
var (
	// ErrKeyConfig reports a malformed key configuration or list of them,
	// or a public key that its KEM rejects.
	ErrKeyConfig = errors.New("ohttp: malformed key configuration")
	// ErrUnsupported reports key configurations of which none offers a
	// supported suite, or a suite a gateway key is asked to offer that
	// this package does not implement.
	ErrUnsupported = errors.New("ohttp: unsupported suite")
	// ErrUnknownKey reports, on the gateway, an encapsulated request whose
	// key ID the gateway does not hold, or whose KEM, KDF or AEAD its key
	// does not offer: the client must fetch the gateway's keys again. RFC
	// 9458 section 5.3 answers it with the "ohttp-key" problem type;
	// Chromium expects status 422.
	ErrUnknownKey = errors.New("ohttp: unknown key")
	// ErrMalformed reports an encapsulated request or response too short to
	// hold its header, encapsulated key, nonce or AEAD tag.
	ErrMalformed = errors.New("ohttp: malformed encapsulated message")
	// ErrDecrypt reports an encapsulated request or response that does not
	// decrypt: it was sealed for another key or exchange, or altered.
	ErrDecrypt = errors.New("ohttp: decryption failed")
	// ErrTooLarge reports an input or output over its size limit:
	// [MaxKeyConfigsSize], [MaxMessageSize] or [MaxFields].
	ErrTooLarge = errors.New("ohttp: too large")
	// ErrBinaryHTTP reports a Binary HTTP message that is invalid, to
	// decode or to encode.
	ErrBinaryHTTP = errors.New("ohttp: invalid Binary HTTP message")
)

// keyConfigError returns an error wrapping ErrKeyConfig (or another
// sentinel) that quotes the key configuration bytes b as [inputerr.New]
// does: at most their first 100 bytes, and their length.
func keyConfigError(sentinel error, b []byte, detail string) error {
	return inputerr.NewBytes(sentinel, b, detail)
}

// messageError returns an error wrapping sentinel that names what was
// wrong and quotes none of the message: "ohttp: Binary HTTP request:
// uppercase byte in field name at byte 12".
func messageError(sentinel error, what, reason string) error {
	return inputerr.Field(sentinel, "ohttp", what, reason)
}

// at formats the offset of a problem in a message: " at byte 12".
func at(off int) string {
	return " at byte " + strconv.Itoa(off)
}
