// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
)

// responseAEAD returns the AEAD and nonce that protect a response, as RFC
// 9458 section 4.4 derives them from the secret exported from the
// request's HPKE context, the request's encapsulated key enc and the
// response nonce:
//
//	salt = concat(enc, response_nonce)
//	prk = Extract(salt, secret)
//	aead_key = Expand(prk, "key", Nk)
//	aead_nonce = Expand(prk, "nonce", Nn)
//
// Extract and Expand are the plain HKDF functions of the suite's KDF, not
// HPKE's labelled ones.
func responseAEAD(s Suite, secret, enc, responseNonce []byte) (cipher.AEAD, []byte, error) {
	h, ok := kdfHash(s.KDF)
	nk, okA := aeadKeySize(s.AEAD)
	if !ok || !okA {
		return nil, nil, errUnsupportedSuite(s)
	}
	salt := make([]byte, 0, len(enc)+len(responseNonce))
	salt = append(append(salt, enc...), responseNonce...)
	prk, err := hkdf.Extract(h, secret, salt)
	if err != nil {
		return nil, nil, err
	}
	key, err := hkdf.Expand(h, prk, "key", nk)
	if err != nil {
		return nil, nil, err
	}
	nonce, err := hkdf.Expand(h, prk, "nonce", aeadNonceSize)
	if err != nil {
		return nil, nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, nil, err
	}
	return aead, nonce, nil
}

// errUnsupportedSuite reports a suite this package does not implement.
func errUnsupportedSuite(s Suite) error {
	return messageError(ErrUnsupported, "suite", s.String()+" is not supported")
}
