// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"errors"
	"fmt"
	"testing"
)

func ecdhP256() ecdh.Curve { return ecdh.P256() }

// TestRoundTrip sends a request from a Client through a Gateway and its
// response back, with Binary HTTP both ways, for every KEM, KDF and AEAD
// the package supports.
func TestRoundTrip(t *testing.T) {
	kems := []uint16{0x0010, 0x0011, 0x0012, 0x0020, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a}
	syms := []SymmetricAlgorithm{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}}
	req := &Request{Method: "GET", Scheme: "https", Authority: "safebrowsing.googleapis.com",
		Path: "/v5/hashes:search?hashPrefixes=AAAAAA&key=secret", Header: []Field{{"user-agent", "urlspec"}}}
	resp := &Response{Status: 200, Header: []Field{{"content-type", "application/x-protobuf"}}, Content: bytes.Repeat([]byte{7}, 1024)}
	for _, id := range kems {
		kem, _ := hpke.NewKEM(id)
		sk, err := kem.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGateway(GatewayKey{KeyID: 9, PrivateKey: sk, Symmetric: syms})
		if err != nil {
			t.Fatal(err)
		}
		keys, err := AppendKeyConfigs(nil, g.KeyConfigs())
		if err != nil {
			t.Fatal(err)
		}
		configs, err := ParseKeyConfigs(keys)
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range syms {
			t.Run(fmt.Sprintf("%04x-%04x-%04x", id, sym.KDF, sym.AEAD), func(t *testing.T) {
				configs[0].Symmetric = []SymmetricAlgorithm{sym}
				c, err := NewClient(configs)
				if err != nil {
					t.Fatal(err)
				}
				if want := (Suite{9, id, sym.KDF, sym.AEAD}); c.Suite() != want {
					t.Fatalf("Suite = %v, want %v", c.Suite(), want)
				}
				breq, err := AppendRequest(nil, req)
				if err != nil {
					t.Fatal(err)
				}
				encReq, s, err := c.Seal(breq)
				if err != nil {
					t.Fatal(err)
				}
				if len(encReq) != len(breq)+c.Overhead() {
					t.Errorf("encapsulated request of %d bytes, want %d + Overhead %d", len(encReq), len(breq), c.Overhead())
				}
				gotReq, r, err := g.Open(encReq)
				if err != nil {
					t.Fatal(err)
				}
				if r.Suite() != c.Suite() {
					t.Errorf("gateway Suite = %v, want %v", r.Suite(), c.Suite())
				}
				pr, err := ParseRequest(gotReq)
				if err != nil || !equalRequest(pr, req) {
					t.Fatalf("gateway read %+v, %v", pr, err)
				}
				bresp, err := AppendResponse(nil, resp)
				if err != nil {
					t.Fatal(err)
				}
				encResp, err := r.Seal(bresp)
				if err != nil {
					t.Fatal(err)
				}
				gotResp, err := s.Open(encResp)
				if err != nil {
					t.Fatal(err)
				}
				if pr, err := ParseResponse(gotResp); err != nil || !equalResponse(pr, resp) {
					t.Fatalf("client read %+v, %v", pr, err)
				}
				// The request's bytes do not hold the API key in clear.
				if bytes.Contains(encReq, []byte("secret")) {
					t.Error("the encapsulated request holds the API key")
				}
				// Padded with zero bytes to a chosen length, it reads the same.
				const size = 4096
				padded := append(bytes.Clone(breq), make([]byte, size-c.Overhead()-len(breq))...)
				encPadded, _, err := c.Seal(padded)
				if err != nil || len(encPadded) != size {
					t.Fatalf("padded: %d bytes, %v; want %d", len(encPadded), err, size)
				}
				gotPadded, _, err := g.Open(encPadded)
				if err != nil {
					t.Fatal(err)
				}
				if pr, err := ParseRequest(gotPadded); err != nil || !equalRequest(pr, req) {
					t.Fatalf("gateway read the padded request as %+v, %v", pr, err)
				}
			})
		}
	}
}

// TestExchangesAreSeparate checks that a response opens only with the
// Sender of its own request.
func TestExchangesAreSeparate(t *testing.T) {
	g := rfcGateway(t)
	c, err := NewClient(g.KeyConfigs())
	if err != nil {
		t.Fatal(err)
	}
	enc1, s1, _ := c.Seal([]byte("one"))
	enc2, s2, _ := c.Seal([]byte("one"))
	if bytes.Equal(enc1, enc2) {
		t.Fatal("two encapsulations of one request are equal")
	}
	_, r1, err := g.Open(enc1)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := r1.Seal([]byte("reply"))
	if _, err := s2.Open(resp); !errors.Is(err, ErrDecrypt) {
		t.Errorf("another exchange's Sender opened the response: %v", err)
	}
	if got, err := s1.Open(resp); err != nil || string(got) != "reply" {
		t.Errorf("Open = %q, %v", got, err)
	}
}

func TestGatewayOpenErrors(t *testing.T) {
	g := rfcGateway(t)
	good := unhex(t, rfc9458.encRequest)
	mut := func(i int, b byte) []byte {
		c := bytes.Clone(good)
		c[i] = b
		return c
	}
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		// Nothing.
		{name: "empty", in: nil, wantErr: ErrMalformed},
		// The header alone.
		{name: "header", in: good[:7], wantErr: ErrMalformed},
		// No room for the tag.
		{name: "notag", in: good[:7+32+15], wantErr: ErrMalformed},
		// A key ID the gateway does not hold: the client's key is stale.
		{name: "keyid", in: mut(0, 2), wantErr: ErrUnknownKey},
		// Another KEM for the key.
		{name: "kem", in: mut(2, 0x10), wantErr: ErrUnknownKey},
		// A KDF the key does not offer.
		{name: "kdf", in: mut(4, 2), wantErr: ErrUnknownKey},
		// ChaCha20-Poly1305, which the example offers but the gateway not.
		{name: "aead", in: mut(6, 3), wantErr: ErrUnknownKey},
		// A changed encapsulated key.
		{name: "enc", in: mut(7, good[7]^1), wantErr: ErrDecrypt},
		// A changed ciphertext.
		{name: "ct", in: mut(len(good)-1, good[len(good)-1]^1), wantErr: ErrDecrypt},
		// Over MaxMessageSize.
		{name: "large", in: make([]byte, MaxMessageSize+1), wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _, err := g.Open(tt.in); !errors.Is(err, tt.wantErr) {
				t.Errorf("Open = %x, %v; want %v", got, err, tt.wantErr)
			}
		})
	}
}

func TestSenderOpenErrors(t *testing.T) {
	s := &Sender{suite: Suite{1, 0x20, 1, 1}, enc: unhex(t, rfc9458.enc), secret: unhex(t, rfc9458.secret)}
	good := unhex(t, rfc9458.encResponse)
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		// Nothing.
		{name: "empty", in: nil, wantErr: ErrMalformed},
		// The nonce alone.
		{name: "nonce", in: good[:16], wantErr: ErrMalformed},
		// One byte short of a tag.
		{name: "short", in: good[:16+15], wantErr: ErrMalformed},
		// An empty plaintext's length, but not its tag.
		{name: "tag", in: good[:16+16], wantErr: ErrDecrypt},
		// Over MaxMessageSize.
		{name: "large", in: make([]byte, MaxMessageSize+1), wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := s.Open(tt.in); !errors.Is(err, tt.wantErr) {
				t.Errorf("Open = %x, %v; want %v", got, err, tt.wantErr)
			}
		})
	}
}

// TestSealLimits checks that neither side makes what the other refuses.
func TestSealLimits(t *testing.T) {
	g := rfcGateway(t)
	c, err := NewClient(g.KeyConfigs())
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Overhead(); n != 7+32+16 {
		t.Errorf("Overhead = %d, want 55: header, X25519 key, tag", n)
	}
	max := MaxMessageSize - 7 - 32 - 16
	if _, _, err := c.Seal(make([]byte, max+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Seal of %d bytes: %v, want ErrTooLarge", max+1, err)
	}
	enc, _, err := c.Seal(make([]byte, max))
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := g.Open(enc)
	if err != nil {
		t.Fatalf("Open of the largest request: %v", err)
	}
	if _, err := r.Seal(make([]byte, MaxMessageSize-16-16+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Seal of too long a response: %v, want ErrTooLarge", err)
	}
}

func TestNewGatewayErrors(t *testing.T) {
	sk, err := hpke.DHKEM(ecdh.X25519()).GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      []GatewayKey
		wantErr error
	}{
		// No keys.
		{name: "none", in: nil, wantErr: ErrKeyConfig},
		// No private key.
		{name: "nil", in: []GatewayKey{{KeyID: 1}}, wantErr: ErrKeyConfig},
		// A key ID twice.
		{name: "repeated", in: []GatewayKey{{KeyID: 1, PrivateKey: sk}, {KeyID: 1, PrivateKey: sk}}, wantErr: ErrKeyConfig},
		// ChaCha20-Poly1305.
		{name: "chacha", in: []GatewayKey{{KeyID: 1, PrivateKey: sk, Symmetric: []SymmetricAlgorithm{{1, 3}}}}, wantErr: ErrUnsupported},
		// SHAKE128, a one-stage KDF.
		{name: "shake", in: []GatewayKey{{KeyID: 1, PrivateKey: sk, Symmetric: []SymmetricAlgorithm{{0x10, 1}}}}, wantErr: ErrUnsupported},
		// An empty, non-nil list of pairs.
		{name: "empty", in: []GatewayKey{{KeyID: 1, PrivateKey: sk, Symmetric: []SymmetricAlgorithm{}}}, wantErr: ErrKeyConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewGateway(tt.in...); !errors.Is(err, tt.wantErr) {
				t.Errorf("NewGateway = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
