// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"crypto/hpke"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"strconv"
)

// Suite is the set of algorithms an exchange uses, and the 7-byte header
// of its encapsulated request (RFC 9458 section 4.3): the key ID and KEM of
// a key configuration, and one of its symmetric algorithm pairs. IDs are
// those of the HPKE registries (RFC 9180 section 7), as crypto/hpke's
// NewKEM, NewKDF and NewAEAD take them.
type Suite struct {
	KeyID uint8
	KEM   uint16
	KDF   uint16
	AEAD  uint16
}

// SymmetricAlgorithm is one KDF and AEAD pair a key configuration offers
// with its key (RFC 9458 section 3).
type SymmetricAlgorithm struct {
	KDF  uint16
	AEAD uint16
}

// defaultSymmetric is the pair a GatewayKey offers when it names none:
// HKDF-SHA256 with AES-128-GCM, the suite of RFC 9458 Appendix A.
var defaultSymmetric = []SymmetricAlgorithm{{KDF: 0x0001, AEAD: 0x0001}}

// kemSizes gives, for each KEM crypto/hpke implements, the lengths of its
// serialised public key (Npk) and encapsulated key (Nenc): RFC 9180
// section 7.1 for the DHKEMs, draft-ietf-hpke-pq for ML-KEM and the
// hybrids. A key configuration cannot be parsed without Npk, since the
// public key carries no length of its own.
func kemSizes(id uint16) (npk, nenc int, ok bool) {
	switch id {
	case 0x0010: // DHKEM(P-256, HKDF-SHA256)
		return 65, 65, true
	case 0x0011: // DHKEM(P-384, HKDF-SHA384)
		return 97, 97, true
	case 0x0012: // DHKEM(P-521, HKDF-SHA512)
		return 133, 133, true
	case 0x0020: // DHKEM(X25519, HKDF-SHA256)
		return 32, 32, true
	case 0x0041: // ML-KEM-768
		return 1184, 1088, true
	case 0x0042: // ML-KEM-1024
		return 1568, 1568, true
	case 0x0050: // MLKEM768-P256
		return 1184 + 65, 1088 + 65, true
	case 0x0051: // MLKEM1024-P384
		return 1568 + 97, 1568 + 97, true
	case 0x647a: // MLKEM768-X25519 (X-Wing)
		return 1216, 1120, true
	}
	return 0, 0, false
}

// kdfHash returns the hash of an HKDF KDF, which RFC 9458 section 4.4's
// Extract and Expand use for the response. The SHAKE KDFs are one-stage
// (no Extract), so that derivation does not apply to them.
func kdfHash(id uint16) (func() hash.Hash, bool) {
	switch id {
	case 0x0001:
		return sha256.New, true
	case 0x0002:
		return sha512.New384, true
	case 0x0003:
		return sha512.New, true
	}
	return nil, false
}

// aeadKeySize returns the key length Nk of a supported AEAD; the nonce
// length Nn is 12 and the tag 16 for both. ChaCha20-Poly1305 would need
// golang.org/x/crypto for the response, and is not supported.
func aeadKeySize(id uint16) (int, bool) {
	switch id {
	case 0x0001: // AES-128-GCM
		return 16, true
	case 0x0002: // AES-256-GCM
		return 32, true
	}
	return 0, false
}

const (
	aeadNonceSize = 12 // Nn of AES-GCM
	aeadTagSize   = 16 // Nt of AES-GCM
	headerSize    = 7  // key_id, kem_id, kdf_id, aead_id
)

// supported reports whether this package implements the symmetric pair.
func (a SymmetricAlgorithm) supported() bool {
	_, okH := kdfHash(a.KDF)
	_, okA := aeadKeySize(a.AEAD)
	return okH && okA
}

// responseNonceSize is max(Nn, Nk) for the AEAD: the length of the
// exported secret and of the response nonce (RFC 9458 section 4.4).
func responseNonceSize(aead uint16) int {
	nk, _ := aeadKeySize(aead)
	return max(nk, aeadNonceSize)
}

// algorithms returns crypto/hpke's KDF and AEAD for a supported suite.
func (s Suite) algorithms() (hpke.KDF, hpke.AEAD, error) {
	kdf, err := hpke.NewKDF(s.KDF)
	if err != nil {
		return nil, nil, err
	}
	aead, err := hpke.NewAEAD(s.AEAD)
	if err != nil {
		return nil, nil, err
	}
	return kdf, aead, nil
}

// appendHeader appends the suite's 7-byte header.
func (s Suite) appendHeader(dst []byte) []byte {
	return append(dst, s.KeyID,
		byte(s.KEM>>8), byte(s.KEM),
		byte(s.KDF>>8), byte(s.KDF),
		byte(s.AEAD>>8), byte(s.AEAD))
}

// requestLabel starts the HPKE info of a request (RFC 9458 section 4.3):
// the label, a zero byte, then the header.
const requestLabel = "message/bhttp request\x00"

// responseLabel is the exporter context of the response secret (RFC 9458
// section 4.4).
const responseLabel = "message/bhttp response"

// info returns the HPKE info of a request under the suite.
func (s Suite) info() []byte {
	b := make([]byte, 0, len(requestLabel)+headerSize)
	b = append(b, requestLabel...)
	return s.appendHeader(b)
}

// String returns the suite's IDs in hex: "key 1, KEM 0x0020, KDF 0x0001,
// AEAD 0x0001".
func (s Suite) String() string {
	b := make([]byte, 0, 48)
	b = append(b, "key "...)
	b = strconv.AppendUint(b, uint64(s.KeyID), 10)
	b = appendID(append(b, ", KEM "...), s.KEM)
	b = appendID(append(b, ", KDF "...), s.KDF)
	b = appendID(append(b, ", AEAD "...), s.AEAD)
	return string(b)
}

// appendID appends a 16-bit algorithm ID as 0x and four hex digits.
func appendID(b []byte, id uint16) []byte {
	const hex = "0123456789abcdef"
	return append(b, '0', 'x', hex[id>>12], hex[id>>8&15], hex[id>>4&15], hex[id&15])
}
