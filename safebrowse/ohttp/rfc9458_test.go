// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"encoding/hex"
	"errors"
	"slices"
	"testing"
)

// The worked example of RFC 9458 Appendix A,
// https://www.rfc-editor.org/rfc/rfc9458.html#appendix-A, copied byte for
// byte.
var rfc9458 = struct {
	skR, pkR, keyConfig, request, enc, encRequest string
	response, secret, responseNonce, encResponse  string
}{
	skR:           "3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a",
	pkR:           "31e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155",
	keyConfig:     "01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e79815500080001000100010003",
	request:       "00034745540568747470730b6578616d706c652e636f6d012f",
	enc:           "4b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472",
	encRequest:    "010020000100014b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b4726374e469135906992e1268c594d2a10c695d858c40a026e7965e7d86b83dd440b2c0185204b4d63525",
	response:      "0140c8",
	secret:        "62d87a6ba569ee81014c2641f52bea36",
	responseNonce: "c789e7151fcba46158ca84b04464910d",
	encResponse:   "c789e7151fcba46158ca84b04464910d86f9013e404feea014e7be4a441f234f857fbd",
}

func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// rfcGateway returns a gateway holding the example's key, ID 1, accepting
// HKDF-SHA256 with AES-128-GCM (the example's configuration also offers
// ChaCha20-Poly1305, which this package does not implement).
func rfcGateway(tb testing.TB) *Gateway {
	tb.Helper()
	sk, err := hpke.DHKEM(ecdh.X25519()).NewPrivateKey(unhex(tb, rfc9458.skR))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := NewGateway(GatewayKey{KeyID: 1, PrivateKey: sk})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestRFC9458KeyConfig parses the example's key configuration, both bare
// and as an application/ohttp-keys list, and encodes it back.
func TestRFC9458KeyConfig(t *testing.T) {
	raw := unhex(t, rfc9458.keyConfig)
	want := KeyConfig{
		KeyID:     1,
		KEM:       0x0020,
		PublicKey: unhex(t, rfc9458.pkR),
		Symmetric: []SymmetricAlgorithm{{KDF: 1, AEAD: 1}, {KDF: 1, AEAD: 3}},
	}
	c, err := ParseKeyConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !equalConfigs([]KeyConfig{c}, []KeyConfig{want}) {
		t.Errorf("ParseKeyConfig = %+v, want %+v", c, want)
	}
	list := append([]byte{0x00, 0x2d}, raw...)
	for _, in := range [][]byte{raw, list} {
		cs, err := ParseKeyConfigs(in)
		if err != nil || !equalConfigs(cs, []KeyConfig{want}) {
			t.Errorf("ParseKeyConfigs(%x) = %+v, %v; want %+v", in, cs, err, want)
		}
	}
	if got, err := AppendKeyConfig(nil, want); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("AppendKeyConfig = %x, %v; want %x", got, err, raw)
	}
	if got, err := AppendKeyConfigs(nil, []KeyConfig{want}); err != nil || !bytes.Equal(got, list) {
		t.Errorf("AppendKeyConfigs = %x, %v; want %x", got, err, list)
	}
	cl, err := NewClient([]KeyConfig{want})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cl.Suite(), (Suite{KeyID: 1, KEM: 0x20, KDF: 1, AEAD: 1}); got != want {
		t.Errorf("NewClient chose %v, want %v", got, want)
	}
	// The gateway's own configuration is the example's without ChaCha20.
	g := rfcGateway(t)
	want.Symmetric = want.Symmetric[:1]
	if got := g.KeyConfigs(); !equalConfigs(got, []KeyConfig{want}) {
		t.Errorf("KeyConfigs = %+v, want %+v", got, want)
	}
}

// TestRFC9458Gateway checks the gateway side against the example: it opens
// the example's request to the example's Binary HTTP bytes and exports
// the example's secret, and with the example's response nonce it seals
// the example's response to the example's bytes.
func TestRFC9458Gateway(t *testing.T) {
	g := rfcGateway(t)
	req, r, err := g.Open(unhex(t, rfc9458.encRequest))
	if err != nil {
		t.Fatal(err)
	}
	if want := unhex(t, rfc9458.request); !bytes.Equal(req, want) {
		t.Errorf("Open = %x, want %x", req, want)
	}
	if want := unhex(t, rfc9458.secret); !bytes.Equal(r.secret, want) {
		t.Errorf("exported secret = %x, want %x", r.secret, want)
	}
	if got, want := r.Suite(), (Suite{KeyID: 1, KEM: 0x20, KDF: 1, AEAD: 1}); got != want {
		t.Errorf("Suite = %v, want %v", got, want)
	}
	r.rand = bytes.NewReader(unhex(t, rfc9458.responseNonce))
	resp, err := r.Seal(unhex(t, rfc9458.response))
	if err != nil {
		t.Fatal(err)
	}
	if want := unhex(t, rfc9458.encResponse); !bytes.Equal(resp, want) {
		t.Errorf("Seal = %x, want %x", resp, want)
	}
}

// TestRFC9458Client opens the example's encapsulated response with the
// secret that the example's request exports (crypto/hpke cannot be given
// the example's ephemeral key, so the client's own request is checked by
// round trips instead).
func TestRFC9458Client(t *testing.T) {
	g := rfcGateway(t)
	_, r, err := g.Open(unhex(t, rfc9458.encRequest))
	if err != nil {
		t.Fatal(err)
	}
	s := &Sender{suite: r.Suite(), enc: unhex(t, rfc9458.enc), secret: r.secret}
	got, err := s.Open(unhex(t, rfc9458.encResponse))
	if err != nil {
		t.Fatal(err)
	}
	if want := unhex(t, rfc9458.response); !bytes.Equal(got, want) {
		t.Errorf("Open = %x, want %x", got, want)
	}
	// One changed byte anywhere fails.
	enc := unhex(t, rfc9458.encResponse)
	for i := range enc {
		enc[i] ^= 1
		if _, err := s.Open(enc); !errors.Is(err, ErrDecrypt) {
			t.Errorf("Open with byte %d changed: %v, want ErrDecrypt", i, err)
		}
		enc[i] ^= 1
	}
}

func equalConfigs(a, b []KeyConfig) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].KeyID != b[i].KeyID || a[i].KEM != b[i].KEM || !bytes.Equal(a[i].PublicKey, b[i].PublicKey) || !slices.Equal(a[i].Symmetric, b[i].Symmetric) {
			return false
		}
	}
	return true
}
