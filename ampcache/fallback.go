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
// [DomainPrefix] calls it on the normalised domain when the Basic Algorithm
// cannot give a valid DNS label.
func FallbackPrefix(domain string) string {
	var buf [FallbackLen]byte
	return string(appendFallback(buf[:0], domain))
}

func appendFallback[S ~string | ~[]byte](dst []byte, domain S) []byte {
	sum := sha256.Sum256([]byte(domain))
	return fallbackEncoding.AppendEncode(dst, sum[:])
}
