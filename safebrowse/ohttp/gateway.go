// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"crypto/hpke"
	"crypto/rand"
	"encoding/binary"
	"io"
	"slices"
	"strconv"
)

// GatewayKey is one key a [Gateway] decapsulates requests with.
type GatewayKey struct {
	// KeyID is the key's ID in its key configuration and in the header of
	// every request sealed for it. IDs are unique within a Gateway.
	KeyID uint8
	// PrivateKey is the key, from crypto/hpke: for example
	// hpke.DHKEM(ecdh.X25519()).GenerateKey() or
	// hpke.MLKEM768X25519().GenerateKey(). Its KEM is the configuration's.
	PrivateKey hpke.PrivateKey
	// Symmetric lists the KDF and AEAD pairs the key accepts, in order of
	// preference; each must be supported (see [NewClient]). Nil means
	// HKDF-SHA256 with AES-128-GCM.
	Symmetric []SymmetricAlgorithm
}

// Gateway is the gateway's side of Oblivious HTTP (RFC 9458 section 4):
// it holds private keys, opens encapsulated requests and seals the
// responses. It is immutable and safe for concurrent use; to rotate keys,
// make a new Gateway.
type Gateway struct {
	keys    [256]*gatewayKey
	configs []KeyConfig
	rand    io.Reader // the response nonces' source; nil means crypto/rand
}

type gatewayKey struct {
	config KeyConfig
	sk     hpke.PrivateKey
	nenc   int
}

// NewGateway returns a Gateway holding keys. It rejects no keys, a nil
// PrivateKey, a repeated KeyID ([ErrKeyConfig]) and a symmetric pair this
// package does not implement ([ErrUnsupported]).
func NewGateway(keys ...GatewayKey) (*Gateway, error) {
	if len(keys) == 0 {
		return nil, messageError(ErrKeyConfig, "NewGateway", "no keys")
	}
	g := &Gateway{}
	for i, k := range keys {
		field := "GatewayKey[" + strconv.Itoa(i) + "]"
		if k.PrivateKey == nil {
			return nil, messageError(ErrKeyConfig, field+".PrivateKey", "nil")
		}
		if g.keys[k.KeyID] != nil {
			return nil, messageError(ErrKeyConfig, field+".KeyID", "key ID "+strconv.Itoa(int(k.KeyID))+" repeated")
		}
		kem := k.PrivateKey.KEM().ID()
		_, nenc, ok := kemSizes(kem)
		if !ok {
			return nil, messageError(ErrUnsupported, field+".PrivateKey", errUnknownKEM(kem).Error())
		}
		sym := k.Symmetric
		if sym == nil {
			sym = defaultSymmetric
		}
		if len(sym) == 0 {
			return nil, messageError(ErrKeyConfig, field+".Symmetric", "empty")
		}
		for j, a := range sym {
			if !a.supported() {
				return nil, messageError(ErrUnsupported, field+".Symmetric["+strconv.Itoa(j)+"]", "KDF "+string(appendID(nil, a.KDF))+" with AEAD "+string(appendID(nil, a.AEAD))+" is not supported")
			}
		}
		c := KeyConfig{KeyID: k.KeyID, KEM: kem, PublicKey: k.PrivateKey.PublicKey().Bytes(), Symmetric: slices.Clone(sym)}
		if _, err := c.size(); err != nil {
			return nil, err
		}
		g.keys[k.KeyID] = &gatewayKey{config: c, sk: k.PrivateKey, nenc: nenc}
		g.configs = append(g.configs, c)
	}
	return g, nil
}

// KeyConfigs returns the key configurations of the Gateway's keys, in the
// order given to [NewGateway], to publish with [AppendKeyConfigs]. The
// result is a copy.
func (g *Gateway) KeyConfigs() []KeyConfig {
	out := make([]KeyConfig, len(g.configs))
	for i, c := range g.configs {
		c.PublicKey = slices.Clone(c.PublicKey)
		c.Symmetric = slices.Clone(c.Symmetric)
		out[i] = c
	}
	return out
}

// Open decapsulates a request, the body of a message/ohttp-req POST, as
// RFC 9458 section 4.3 says: it reads the header, finds the key by its ID,
// checks that the key offers the header's KEM, KDF and AEAD, and opens the
// rest with HPKE. It returns the Binary HTTP request, to read with
// [ParseRequest], and the Recipient that seals the response.
//
// A request over [MaxMessageSize] is [ErrTooLarge]; one too short for its
// header, encapsulated key and tag is [ErrMalformed]; an unknown key ID or
// a suite the key does not offer is [ErrUnknownKey]; an encapsulated key
// or ciphertext that does not open is [ErrDecrypt].
func (g *Gateway) Open(request []byte) ([]byte, *Recipient, error) {
	if len(request) > MaxMessageSize {
		return nil, nil, messageError(ErrTooLarge, "encapsulated request", strconv.Itoa(len(request))+" bytes, over "+strconv.Itoa(MaxMessageSize))
	}
	if len(request) < headerSize {
		return nil, nil, messageError(ErrMalformed, "encapsulated request", strconv.Itoa(len(request))+" bytes, too short for the header")
	}
	s := Suite{
		KeyID: request[0],
		KEM:   binary.BigEndian.Uint16(request[1:]),
		KDF:   binary.BigEndian.Uint16(request[3:]),
		AEAD:  binary.BigEndian.Uint16(request[5:]),
	}
	k := g.keys[s.KeyID]
	if k == nil {
		return nil, nil, messageError(ErrUnknownKey, "encapsulated request", "no key ID "+strconv.Itoa(int(s.KeyID)))
	}
	if s.KEM != k.config.KEM || !slices.Contains(k.config.Symmetric, SymmetricAlgorithm{KDF: s.KDF, AEAD: s.AEAD}) {
		return nil, nil, messageError(ErrUnknownKey, "encapsulated request", s.String()+" is not offered")
	}
	if len(request) < headerSize+k.nenc+aeadTagSize {
		return nil, nil, messageError(ErrMalformed, "encapsulated request", strconv.Itoa(len(request))+" bytes, too short for the encapsulated key and the tag")
	}
	kdf, aead, err := s.algorithms()
	if err != nil {
		return nil, nil, errUnsupportedSuite(s)
	}
	enc := request[headerSize : headerSize+k.nenc]
	r, err := hpke.NewRecipient(enc, k.sk, kdf, aead, s.info())
	if err != nil {
		return nil, nil, messageError(ErrDecrypt, "encapsulated request", err.Error())
	}
	pt, err := r.Open(nil, request[headerSize+k.nenc:])
	if err != nil {
		return nil, nil, messageError(ErrDecrypt, "encapsulated request", err.Error())
	}
	secret, err := r.Export(responseLabel, responseNonceSize(s.AEAD))
	if err != nil {
		return nil, nil, messageError(ErrDecrypt, "encapsulated request", err.Error())
	}
	return pt, &Recipient{suite: s, enc: slices.Clone(enc), secret: secret, rand: g.rand}, nil
}

// Recipient is the gateway's side of one exchange: it opened a request
// with [Gateway.Open] and seals the response to it. It is safe for
// concurrent use.
type Recipient struct {
	suite  Suite
	enc    []byte
	secret []byte
	rand   io.Reader
}

// Suite returns the suite of the request, whose KeyID names the key it
// was sealed for.
func (r *Recipient) Suite() Suite { return r.suite }

// Seal encapsulates a response, the Binary HTTP message of
// [AppendResponse], as RFC 9458 section 4.4 does: a fresh random response
// nonce of max(Nn, Nk) bytes, then the response sealed with the AEAD key
// and nonce derived from it and the request's exported secret. The result
// is the body of the message/ohttp-res reply. A response whose
// encapsulation would be over [MaxMessageSize] is [ErrTooLarge].
func (r *Recipient) Seal(response []byte) ([]byte, error) {
	nn := responseNonceSize(r.suite.AEAD)
	n := nn + len(response) + aeadTagSize
	if n > MaxMessageSize {
		return nil, messageError(ErrTooLarge, "response", "encapsulation of "+strconv.Itoa(n)+" bytes, over "+strconv.Itoa(MaxMessageSize))
	}
	out := make([]byte, nn, n)
	if r.rand == nil {
		rand.Read(out)
	} else if _, err := io.ReadFull(r.rand, out); err != nil {
		return nil, messageError(ErrMalformed, "response nonce", err.Error())
	}
	aead, nonce, err := responseAEAD(r.suite, r.secret, r.enc, out)
	if err != nil {
		return nil, err
	}
	return aead.Seal(out, nonce, response, nil), nil
}
