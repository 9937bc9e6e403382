// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"crypto/hpke"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestKEMSizes checks the table of Npk and Nenc against crypto/hpke for
// every KEM it implements.
func TestKEMSizes(t *testing.T) {
	for _, id := range []uint16{0x0010, 0x0011, 0x0012, 0x0020, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a} {
		kem, err := hpke.NewKEM(id)
		if err != nil {
			t.Fatal(err)
		}
		sk, err := kem.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		enc, _, err := hpke.NewSender(sk.PublicKey(), hpke.HKDFSHA256(), hpke.AES128GCM(), nil)
		if err != nil {
			t.Fatal(err)
		}
		npk, nenc, ok := kemSizes(id)
		if !ok || npk != len(sk.PublicKey().Bytes()) || nenc != len(enc) {
			t.Errorf("kemSizes(%#04x) = %d, %d, %v; crypto/hpke has %d, %d", id, npk, nenc, ok, len(sk.PublicKey().Bytes()), len(enc))
		}
	}
}

// x25519Config returns a key configuration in hex: key ID 1, X25519, the
// RFC 9458 public key, and the given symmetric algorithms (hex pairs).
func x25519Config(id, sym string) string {
	return id + "0020" + "31e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155" + sym
}

func TestParseKeyConfigs(t *testing.T) {
	rfc := rfc9458.keyConfig
	p256 := "020010" + strings.Repeat("04", 65) + "000400010002" // a P-256 key (not a valid point)
	tests := []struct {
		name    string
		in      string  // hex
		want    []uint8 // the key IDs parsed
		wantErr error
	}{
		// Bare: RFC 9458 Appendix A.
		{name: "bare", in: rfc, want: []uint8{1}},
		// application/ohttp-keys: RFC 9458 section 3.2.
		{name: "list", in: "002d" + rfc, want: []uint8{1}},
		// Two bare configurations back to back.
		{name: "bare2", in: rfc + p256, want: []uint8{1, 2}},
		// Two in a list.
		{name: "list2", in: "002d" + rfc + "004a" + p256, want: []uint8{1, 2}},
		// A list skips a KEM it does not know.
		{name: "list-unknown", in: "0009" + "03abcd" + "0000" + "00040001" + "002d" + rfc, want: []uint8{1}},
		// Bare configurations stop at a KEM of unknown length.
		{name: "bare-unknown", in: rfc + "03abcd00", want: []uint8{1}},

		// Nothing.
		{name: "empty", in: "", wantErr: ErrKeyConfig},
		// A single bare configuration with an unknown KEM.
		{name: "unknown", in: "03abcd0000", wantErr: ErrUnsupported},
		// A list of unknown KEMs only.
		{name: "list-unknownonly", in: "0005" + "03abcd0000", wantErr: ErrUnsupported},
		// Truncated public key.
		{name: "truncated", in: rfc[:40], wantErr: ErrKeyConfig},
		// A list whose length runs past the end is not a list; read as a
		// bare configuration, its KEM, 0x2e01, is unknown.
		{name: "listlong", in: "002e" + rfc, wantErr: ErrUnsupported},
		// A list whose only configuration is truncated.
		{name: "listshort", in: "002c" + rfc[:len(rfc)-2], wantErr: ErrKeyConfig},
		// A stray byte after a list.
		{name: "liststray", in: "002d" + rfc + "00", wantErr: ErrKeyConfig},
		// Symmetric algorithms length not a multiple of 4.
		{name: "symlen", in: x25519Config("01", "0006000100010001"), wantErr: ErrKeyConfig},
		// No symmetric algorithms.
		{name: "nosym", in: x25519Config("01", "0000"), wantErr: ErrKeyConfig},
		// Over MaxKeyConfigsSize.
		{name: "large", in: strings.Repeat("00", MaxKeyConfigsSize+1), wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKeyConfigs(unhex(t, tt.in))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ParseKeyConfigs = %+v, %v; want %v", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []uint8
			for _, c := range got {
				ids = append(ids, c.KeyID)
			}
			if !bytes.Equal(ids, tt.want) {
				t.Errorf("ParseKeyConfigs gave key IDs %v, want %v", ids, tt.want)
			}
		})
	}
}

// TestParseKeyConfig checks that exactly one configuration is taken.
func TestParseKeyConfig(t *testing.T) {
	for _, in := range []string{
		rfc9458.keyConfig + "00",   // a stray byte
		"002d" + rfc9458.keyConfig, // a list
		rfc9458.keyConfig[:len(rfc9458.keyConfig)-2],
	} {
		if c, err := ParseKeyConfig(unhex(t, in)); err == nil {
			t.Errorf("ParseKeyConfig(%s) = %+v, want an error", in, c)
		}
	}
	// The error quotes the public configuration.
	_, err := ParseKeyConfig(unhex(t, rfc9458.keyConfig+"00"))
	if !errors.Is(err, ErrKeyConfig) || !strings.Contains(err.Error(), `"\x01\x00 1`) {
		t.Errorf("ParseKeyConfig error %q", err)
	}
	// A long configuration is quoted in part, with its length, as
	// inputerr quotes every input.
	long := unhex(t, rfc9458.keyConfig+strings.Repeat("00", 200))
	if _, err := ParseKeyConfig(long); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("... (%d bytes)", len(long))) {
		t.Errorf("ParseKeyConfig(%d bytes) error %q, want its length", len(long), err)
	}
}

func TestAppendKeyConfigErrors(t *testing.T) {
	pk := unhex(t, rfc9458.pkR)
	sym := []SymmetricAlgorithm{{1, 1}}
	tests := []struct {
		name    string
		in      KeyConfig
		wantErr error
	}{
		// A KEM of unknown Npk cannot be read back.
		{name: "kem", in: KeyConfig{KEM: 0xabcd, PublicKey: pk, Symmetric: sym}, wantErr: ErrUnsupported},
		// A public key of the wrong length.
		{name: "pk", in: KeyConfig{KEM: 0x20, PublicKey: pk[1:], Symmetric: sym}, wantErr: ErrKeyConfig},
		// No symmetric algorithms.
		{name: "nosym", in: KeyConfig{KEM: 0x20, PublicKey: pk}, wantErr: ErrKeyConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := AppendKeyConfig(nil, tt.in); !errors.Is(err, tt.wantErr) {
				t.Errorf("AppendKeyConfig = %x, %v; want %v", got, err, tt.wantErr)
			}
			if got, err := AppendKeyConfigs(nil, []KeyConfig{tt.in}); !errors.Is(err, tt.wantErr) {
				t.Errorf("AppendKeyConfigs = %x, %v; want %v", got, err, tt.wantErr)
			}
		})
	}
	// 16383 pairs fit the length field but not the list's 2-byte length.
	big := KeyConfig{KEM: 0x20, PublicKey: pk, Symmetric: make([]SymmetricAlgorithm, 16383)}
	if _, err := AppendKeyConfig(nil, big); err != nil {
		t.Errorf("AppendKeyConfig of 16383 pairs: %v", err)
	}
	if _, err := AppendKeyConfigs(nil, []KeyConfig{big}); !errors.Is(err, ErrKeyConfig) {
		t.Errorf("AppendKeyConfigs of 16383 pairs: %v, want ErrKeyConfig", err)
	}
}

func TestNewClient(t *testing.T) {
	pk := unhex(t, rfc9458.pkR)
	p256, err := hpke.DHKEM(ecdhP256()).GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	p256pk := p256.PublicKey().Bytes()
	tests := []struct {
		name    string
		in      []KeyConfig
		want    Suite
		wantErr error
	}{
		// The first supported pair of the first configuration.
		{name: "first", in: []KeyConfig{{KeyID: 1, KEM: 0x20, PublicKey: pk, Symmetric: []SymmetricAlgorithm{{1, 3}, {3, 2}, {1, 1}}}}, want: Suite{1, 0x20, 3, 2}},
		// A configuration with no supported pair is skipped.
		{name: "skip", in: []KeyConfig{
			{KeyID: 1, KEM: 0x20, PublicKey: pk, Symmetric: []SymmetricAlgorithm{{1, 3}, {0x10, 1}, {1, 0xffff}}},
			{KeyID: 2, KEM: 0x10, PublicKey: p256pk, Symmetric: []SymmetricAlgorithm{{2, 1}}},
		}, want: Suite{2, 0x10, 2, 1}},
		// A KEM crypto/hpke does not implement is skipped.
		{name: "kem", in: []KeyConfig{
			{KeyID: 1, KEM: 0x21, PublicKey: make([]byte, 56), Symmetric: []SymmetricAlgorithm{{1, 1}}},
			{KeyID: 2, KEM: 0x20, PublicKey: pk, Symmetric: []SymmetricAlgorithm{{1, 1}}},
		}, want: Suite{2, 0x20, 1, 1}},

		// None.
		{name: "none", in: nil, wantErr: ErrUnsupported},
		// ChaCha20-Poly1305 only.
		{name: "chacha", in: []KeyConfig{{KeyID: 1, KEM: 0x20, PublicKey: pk, Symmetric: []SymmetricAlgorithm{{1, 3}}}}, wantErr: ErrUnsupported},
		// A public key its KEM rejects is an error, not skipped.
		{name: "badkey", in: []KeyConfig{
			{KeyID: 1, KEM: 0x10, PublicKey: make([]byte, 65), Symmetric: []SymmetricAlgorithm{{1, 1}}},
			{KeyID: 2, KEM: 0x20, PublicKey: pk, Symmetric: []SymmetricAlgorithm{{1, 1}}},
		}, wantErr: ErrKeyConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("NewClient = %v; want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Suite() != tt.want {
				t.Errorf("NewClient chose %v, want %v", c.Suite(), tt.want)
			}
		})
	}
}
