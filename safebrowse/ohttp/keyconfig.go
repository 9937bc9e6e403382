// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"encoding/binary"
	"slices"
	"strconv"
)

// KeyConfig is one key configuration of a gateway (RFC 9458 section 3):
// a key ID, a KEM and its public key, and the symmetric algorithms the
// gateway accepts with that key, in the gateway's order of preference.
type KeyConfig struct {
	KeyID     uint8
	KEM       uint16
	PublicKey []byte
	Symmetric []SymmetricAlgorithm
}

// ParseKeyConfig parses exactly one key configuration, as RFC 9458
// section 3.1 encodes it with no length before it. A KEM that crypto/hpke
// does not implement is [ErrUnsupported]: its public key has no known
// length. The public key is checked for length only; [NewClient] checks
// it with its KEM. The KeyConfig does not retain b.
func ParseKeyConfig(b []byte) (KeyConfig, error) {
	if len(b) > MaxKeyConfigsSize {
		return KeyConfig{}, keyConfigError(ErrTooLarge, b, "key configuration of "+strconv.Itoa(len(b))+" bytes")
	}
	c, n, err := parseKeyConfig(b)
	if err != nil {
		return KeyConfig{}, err
	}
	if n != len(b) {
		return KeyConfig{}, keyConfigError(ErrKeyConfig, b, strconv.Itoa(len(b)-n)+" bytes after the key configuration")
	}
	return c, nil
}

// errUnknownKEM is parseKeyConfig's error for a KEM of unknown Npk.
type errUnknownKEM uint16

func (e errUnknownKEM) Error() string { return "unknown KEM 0x" + strconv.FormatUint(uint64(e), 16) }

// parseKeyConfig parses one key configuration at the start of b and
// returns it and its length. The error for an unknown KEM wraps
// ErrUnsupported.
func parseKeyConfig(b []byte) (KeyConfig, int, error) {
	if len(b) < 3 {
		return KeyConfig{}, 0, keyConfigError(ErrKeyConfig, b, "truncated key configuration")
	}
	c := KeyConfig{KeyID: b[0], KEM: binary.BigEndian.Uint16(b[1:])}
	npk, _, ok := kemSizes(c.KEM)
	if !ok {
		return KeyConfig{}, 0, keyConfigError(ErrUnsupported, b, errUnknownKEM(c.KEM).Error())
	}
	off := 3 + npk
	if len(b) < off+2 {
		return KeyConfig{}, 0, keyConfigError(ErrKeyConfig, b, "truncated public key")
	}
	symLen := int(binary.BigEndian.Uint16(b[off:]))
	off += 2
	if symLen == 0 || symLen%4 != 0 {
		return KeyConfig{}, 0, keyConfigError(ErrKeyConfig, b, "symmetric algorithms length "+strconv.Itoa(symLen)+" is not a positive multiple of 4")
	}
	if len(b) < off+symLen {
		return KeyConfig{}, 0, keyConfigError(ErrKeyConfig, b, "truncated symmetric algorithms")
	}
	c.PublicKey = append([]byte(nil), b[3:3+npk]...)
	c.Symmetric = make([]SymmetricAlgorithm, symLen/4)
	for i := range c.Symmetric {
		p := b[off+4*i:]
		c.Symmetric[i] = SymmetricAlgorithm{KDF: binary.BigEndian.Uint16(p), AEAD: binary.BigEndian.Uint16(p[2:])}
	}
	return c, off + symLen, nil
}

// ParseKeyConfigs parses the key configurations a gateway's key endpoint
// serves. It takes both framings (see the package doc, decision a): the
// application/ohttp-keys list of RFC 9458 section 3.2, each configuration
// after its 2-byte length, and bare configurations back to back. In a
// list, a configuration whose KEM is unknown is skipped, as section 3.2
// asks; in bare configurations it ends the parse, since its length is
// unknown. Configurations whose algorithms are unsupported are returned
// too: [NewClient] chooses among them. The result does not retain b.
func ParseKeyConfigs(b []byte) ([]KeyConfig, error) {
	if len(b) > MaxKeyConfigsSize {
		return nil, keyConfigError(ErrTooLarge, b, "key configurations of "+strconv.Itoa(len(b))+" bytes, over 65536")
	}
	if len(b) == 0 {
		return nil, keyConfigError(ErrKeyConfig, b, "no key configuration")
	}
	list, listErr := parseKeyConfigList(b)
	if listErr == nil && len(list) > 0 {
		return list, nil
	}
	bare, bareErr := parseBareKeyConfigs(b)
	if bareErr == nil {
		return bare, nil
	}
	if listErr == nil {
		// A well-formed list of configurations with unknown KEMs only.
		return nil, keyConfigError(ErrUnsupported, b, "no key configuration with a supported KEM")
	}
	// Report the list's error if b starts as a list does, with a first
	// length that fits.
	if len(b) >= 2 && 2+int(binary.BigEndian.Uint16(b)) <= len(b) {
		return nil, listErr
	}
	return nil, bareErr
}

// parseKeyConfigList parses the application/ohttp-keys form, skipping
// configurations with unknown KEMs.
func parseKeyConfigList(b []byte) ([]KeyConfig, error) {
	var cs []KeyConfig
	off := 0
	for off < len(b) {
		if len(b)-off < 2 {
			return nil, keyConfigError(ErrKeyConfig, b[off:], "truncated length"+at(off))
		}
		n := int(binary.BigEndian.Uint16(b[off:]))
		off += 2
		if len(b)-off < n {
			return nil, keyConfigError(ErrKeyConfig, b[off:], "key configuration of "+strconv.Itoa(n)+" bytes is truncated"+at(off))
		}
		elem := b[off : off+n]
		if len(elem) >= 3 {
			if _, _, known := kemSizes(binary.BigEndian.Uint16(elem[1:])); !known {
				off += n // RFC 9458 section 3.2: skip what is not supported
				continue
			}
		}
		c, m, err := parseKeyConfig(elem)
		if err != nil {
			return nil, err
		}
		if m != n {
			return nil, keyConfigError(ErrKeyConfig, elem, "length "+strconv.Itoa(n)+" does not match the key configuration's "+strconv.Itoa(m)+at(off))
		}
		cs = append(cs, c)
		off += n
	}
	return cs, nil
}

// parseBareKeyConfigs parses key configurations back to back, stopping at
// one with an unknown KEM.
func parseBareKeyConfigs(b []byte) ([]KeyConfig, error) {
	var cs []KeyConfig
	off := 0
	for off < len(b) {
		if len(b)-off >= 3 {
			if _, _, known := kemSizes(binary.BigEndian.Uint16(b[off+1:])); !known && len(cs) > 0 {
				break
			}
		}
		c, n, err := parseKeyConfig(b[off:])
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
		off += n
	}
	return cs, nil
}

// size returns the encoded length of c, or an error if c cannot be
// encoded so that ParseKeyConfig reads it back.
func (c *KeyConfig) size() (int, error) {
	npk, _, ok := kemSizes(c.KEM)
	if !ok {
		return 0, keyConfigError(ErrUnsupported, nil, errUnknownKEM(c.KEM).Error())
	}
	if len(c.PublicKey) != npk {
		return 0, keyConfigError(ErrKeyConfig, c.PublicKey, "public key of "+strconv.Itoa(len(c.PublicKey))+" bytes, want "+strconv.Itoa(npk))
	}
	if len(c.Symmetric) == 0 || len(c.Symmetric) > 0xffff/4 {
		return 0, keyConfigError(ErrKeyConfig, nil, strconv.Itoa(len(c.Symmetric))+" symmetric algorithms, want 1 to 16383")
	}
	return 3 + npk + 2 + 4*len(c.Symmetric), nil
}

// AppendKeyConfig appends one key configuration, as RFC 9458 section 3.1
// encodes it and [ParseKeyConfig] reads it. The KEM must be one
// crypto/hpke implements, the public key its length, and the symmetric
// algorithms 1 to 16383 pairs; their values are not checked.
func AppendKeyConfig(dst []byte, c KeyConfig) ([]byte, error) {
	if _, err := c.size(); err != nil {
		return dst, err
	}
	return appendKeyConfig(dst, &c), nil
}

func appendKeyConfig(dst []byte, c *KeyConfig) []byte {
	dst = append(dst, c.KeyID, byte(c.KEM>>8), byte(c.KEM))
	dst = append(dst, c.PublicKey...)
	dst = binary.BigEndian.AppendUint16(dst, uint16(4*len(c.Symmetric)))
	for _, a := range c.Symmetric {
		dst = binary.BigEndian.AppendUint16(dst, a.KDF)
		dst = binary.BigEndian.AppendUint16(dst, a.AEAD)
	}
	return dst
}

// AppendKeyConfigs appends the application/ohttp-keys list of RFC 9458
// section 3.2, each configuration after its 2-byte length, as a gateway
// serves its keys and [ParseKeyConfigs] reads them. Each configuration is
// checked as by [AppendKeyConfig]; the list may be at most
// [MaxKeyConfigsSize] bytes.
func AppendKeyConfigs(dst []byte, configs []KeyConfig) ([]byte, error) {
	total := 0
	for i := range configs {
		n, err := configs[i].size()
		if err != nil {
			return dst, err
		}
		if n > 0xffff {
			return dst, keyConfigError(ErrKeyConfig, nil, "key configuration of "+strconv.Itoa(n)+" bytes, over 65535")
		}
		total += 2 + n
	}
	if total > MaxKeyConfigsSize {
		return dst, keyConfigError(ErrTooLarge, nil, "key configurations of "+strconv.Itoa(total)+" bytes, over 65536")
	}
	dst = slices.Grow(dst, total)
	for i := range configs {
		n, _ := configs[i].size()
		dst = binary.BigEndian.AppendUint16(dst, uint16(n))
		dst = appendKeyConfig(dst, &configs[i])
	}
	return dst, nil
}
