// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"crypto/hpke"
	"strconv"
)

// Client encapsulates requests for a gateway, under the key and suite
// that [NewClient] chose from the gateway's key configurations. It holds
// only public data, is immutable, and is safe for concurrent use.
type Client struct {
	suite Suite
	pk    hpke.PublicKey
	kdf   hpke.KDF
	aead  hpke.AEAD
	info  []byte
	nenc  int
}

// NewClient returns a Client for the first key configuration, in order,
// that offers a supported suite, and within it the first supported
// symmetric algorithm pair (see the package doc, decision b): any KEM of
// crypto/hpke, HKDF-SHA256, -SHA384 or -SHA512, and AES-128-GCM or
// AES-256-GCM. Configurations that offer none are skipped;
// [ErrUnsupported] means none was left. The chosen public key is checked
// with its KEM: a key it rejects is [ErrKeyConfig], not skipped.
func NewClient(configs []KeyConfig) (*Client, error) {
	for i := range configs {
		kc := &configs[i]
		_, nenc, ok := kemSizes(kc.KEM)
		if !ok {
			continue
		}
		for _, a := range kc.Symmetric {
			if !a.supported() {
				continue
			}
			s := Suite{KeyID: kc.KeyID, KEM: kc.KEM, KDF: a.KDF, AEAD: a.AEAD}
			kem, err := hpke.NewKEM(kc.KEM)
			if err != nil {
				return nil, keyConfigError(ErrUnsupported, kc.PublicKey, err.Error())
			}
			pk, err := kem.NewPublicKey(kc.PublicKey)
			if err != nil {
				return nil, keyConfigError(ErrKeyConfig, kc.PublicKey, "public key of key ID "+strconv.Itoa(int(kc.KeyID))+": "+err.Error())
			}
			kdf, aead, err := s.algorithms()
			if err != nil {
				return nil, errUnsupportedSuite(s)
			}
			return &Client{suite: s, pk: pk, kdf: kdf, aead: aead, info: s.info(), nenc: nenc}, nil
		}
	}
	return nil, messageError(ErrUnsupported, "key configurations", strconv.Itoa(len(configs))+" key configurations, none with a supported suite")
}

// Suite returns the suite the Client encapsulates under; its KeyID names
// the gateway key in use.
func (c *Client) Suite() Suite { return c.suite }

// Overhead returns how many bytes [Client.Seal] adds to a request: the
// 7-byte header, the KEM's encapsulated key (32 bytes for X25519, 1120
// for MLKEM768-X25519) and the 16-byte AEAD tag. An encapsulated request
// is always its Binary HTTP request's length plus Overhead, so a caller
// that pads the request with zero bytes (RFC 9292 section 3.8) chooses
// the length the relay sees.
func (c *Client) Overhead() int { return headerSize + c.nenc + aeadTagSize }

// Seal encapsulates a request, the Binary HTTP message of [AppendRequest],
// as RFC 9458 section 4.3 does: it sets up a new HPKE context with the
// gateway's public key and the info "message/bhttp request", a zero byte
// and the header, and returns the header, the encapsulated key and the
// sealed request, the body of a message/ohttp-req POST. The Sender opens
// the response to that request and no other. A request whose
// encapsulation would be over [MaxMessageSize] is [ErrTooLarge].
func (c *Client) Seal(request []byte) ([]byte, *Sender, error) {
	n := c.Overhead() + len(request)
	if n > MaxMessageSize {
		return nil, nil, messageError(ErrTooLarge, "request", "encapsulation of "+strconv.Itoa(n)+" bytes, over "+strconv.Itoa(MaxMessageSize))
	}
	enc, hs, err := hpke.NewSender(c.pk, c.kdf, c.aead, c.info)
	if err != nil {
		return nil, nil, messageError(ErrKeyConfig, "request", err.Error())
	}
	ct, err := hs.Seal(nil, request)
	if err != nil {
		return nil, nil, messageError(ErrKeyConfig, "request", err.Error())
	}
	secret, err := hs.Export(responseLabel, responseNonceSize(c.suite.AEAD))
	if err != nil {
		return nil, nil, messageError(ErrKeyConfig, "request", err.Error())
	}
	out := make([]byte, 0, headerSize+len(enc)+len(ct))
	out = c.suite.appendHeader(out)
	out = append(out, enc...)
	out = append(out, ct...)
	return out, &Sender{suite: c.suite, enc: enc, secret: secret}, nil
}

// Sender is the client's side of one exchange: it sealed a request with
// [Client.Seal] and opens the gateway's response to it. It is safe for
// concurrent use.
type Sender struct {
	suite  Suite
	enc    []byte
	secret []byte
}

// Open opens an encapsulated response, the body of a message/ohttp-res
// reply, as RFC 9458 section 4.4 does: it reads the response nonce, derives
// the AEAD key and nonce from the secret the request's HPKE context
// exported, and decrypts the rest. It returns the Binary HTTP response, to
// read with [ParseResponse]. A response over [MaxMessageSize] is
// [ErrTooLarge], one too short for its nonce and tag [ErrMalformed], one
// that does not decrypt [ErrDecrypt].
func (s *Sender) Open(response []byte) ([]byte, error) {
	if len(response) > MaxMessageSize {
		return nil, messageError(ErrTooLarge, "encapsulated response", strconv.Itoa(len(response))+" bytes, over "+strconv.Itoa(MaxMessageSize))
	}
	nn := responseNonceSize(s.suite.AEAD)
	if len(response) < nn+aeadTagSize {
		return nil, messageError(ErrMalformed, "encapsulated response", strconv.Itoa(len(response))+" bytes, too short for the "+strconv.Itoa(nn)+"-byte nonce and the tag")
	}
	aead, nonce, err := responseAEAD(s.suite, s.secret, s.enc, response[:nn])
	if err != nil {
		return nil, err
	}
	pt, err := aead.Open(nil, nonce, response[nn:], nil)
	if err != nil {
		return nil, messageError(ErrDecrypt, "encapsulated response", err.Error())
	}
	return pt, nil
}
