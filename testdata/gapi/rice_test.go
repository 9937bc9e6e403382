// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"encoding/base64"
	"errors"
	"fmt"
)

// decodeRice decodes a RiceDeltaEncoding as the v4 reference's
// "Compressed data" page (developers.google.com/safe-browsing/v4/
// compressed-data) and Web Risk's compression guide
// (cloud.google.com/web-risk/docs/compression) describe it, one bit at a
// time, written from those texts, not from the module's hashlist: first
// (firstValue), then count (numEntries in v4, entryCount in Web Risk)
// deltas, each q<<k + r, with the quotient q in unary (q one bits, then
// a zero bit) and the remainder r in k bits, least significant bit
// first; the bits are taken from each byte of data (encodedData, in
// base64) least significant first. Each value is the one before it plus
// its delta, within 32 bits.
func decodeRice(first, k, count int64, data string) ([]uint32, error) {
	if first < 0 || first > 1<<32-1 {
		return nil, fmt.Errorf("firstValue %d outside 32 bits", first)
	}
	values := []uint32{uint32(first)}
	if count == 0 {
		return values, nil
	}
	if k < 2 || k > 28 {
		return nil, fmt.Errorf("riceParameter %d outside 2 to 28", k)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, err
	}
	pos := 0 // the next bit
	bit := func() (uint64, error) {
		if pos >= 8*len(b) {
			return 0, errors.New("encodedData ends early")
		}
		v := uint64(b[pos/8]>>(pos%8)) & 1
		pos++
		return v, nil
	}
	v := uint64(first)
	for range count {
		var q uint64
		for {
			x, err := bit()
			if err != nil {
				return nil, err
			}
			if x == 0 {
				break
			}
			q++
		}
		var rem uint64
		for i := range k {
			x, err := bit()
			if err != nil {
				return nil, err
			}
			rem |= x << i
		}
		v += q<<k | rem
		if v > 1<<32-1 {
			return nil, errors.New("a value past 32 bits")
		}
		values = append(values, uint32(v))
	}
	return values, nil
}
