// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"crypto/sha256"
	"encoding/base32"
)

// fallbackEncoding is RFC 4648 base32 in lowercase, without padding.
var fallbackEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// FallbackLen is the length of every fallback prefix: 256 bits in base32.
const FallbackLen = 52

// FallbackPrefix returns the domain prefix given by the spec's Fallback
// Algorithm alone, on the exact bytes of domain: the SHA-256 of domain,
// encoded in lowercase RFC 4648 base32 without the four '=' padding
// characters. The result is always [FallbackLen] characters and has no '-'.
//
// [DomainPrefix] uses it when the Basic Algorithm cannot give a valid DNS
// label, on the domain with its ASCII letters lowercased and its root dot
// removed (decision e of the package documentation).
func FallbackPrefix(domain string) string {
	var buf [FallbackLen]byte
	// Copy the domain to the stack, so that hashing a string up to 256
	// bytes long does not allocate a []byte for it.
	var in [256]byte
	if len(domain) <= len(in) {
		return string(appendFallback(buf[:0], in[:copy(in[:], domain)]))
	}
	return string(appendFallback(buf[:0], domain))
}

func appendFallback[S ~string | ~[]byte](dst []byte, domain S) []byte {
	sum := sha256.Sum256([]byte(domain))
	return fallbackEncoding.AppendEncode(dst, sum[:])
}
