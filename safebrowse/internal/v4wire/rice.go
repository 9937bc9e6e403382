// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file holds the messages that carry a list's entries, alike in both
// APIs: RiceDeltaEncoding, RawHashes and RawIndices.

// Rice is a RiceDeltaEncoding message, its data not decoded (hashlist
// decodes it). Its third field is num_entries in v4 and entry_count in Web
// Risk, under one number.
type Rice struct {
	// First is first_value: the first value, or the only one when Count
	// is 0. The 4-byte prefixes it codes are little-endian uint32s.
	First int64
	// K is rice_parameter; Count is the number of encoded deltas, the
	// values less one.
	K, Count int32
	// Data is encoded_data; read, it aliases the message.
	Data []byte
}

// ParseRice reads a binary RiceDeltaEncoding
// { 1 first_value: int64; 2 rice_parameter: int32; 3 num_entries: int32;
// 4 encoded_data: bytes }. It checks the encoding only: the caller checks
// the values against the data.
func ParseRice(b []byte) (Rice, error) {
	var s Rice
	r := reader{b: b}
	var f field
	var err error
	for r.next(&f) {
		switch f.num {
		case riceFirstValue:
			s.First, err = f.int64()
		case riceParameter:
			s.K, err = f.int32()
		case riceCount:
			s.Count, err = f.int32()
		case riceEncodedData:
			s.Data, err = f.bytes()
			s.Data = nonEmpty(s.Data)
		}
		if err != nil {
			return s, err
		}
	}
	return s, r.err
}

// AppendRice appends s as a binary RiceDeltaEncoding (its fields only,
// untagged).
func AppendRice(b []byte, s *Rice) []byte {
	b = appendInt64(b, riceFirstValue, s.First)
	b = appendInt32(b, riceParameter, s.K)
	b = appendInt32(b, riceCount, s.Count)
	return appendBytes(b, riceEncodedData, s.Data)
}

// readRice reads f, a singular RiceDeltaEncoding field.
func readRice(f *field, seen *once, d *budget, name string) (*Rice, error) {
	b, err := d.message(f, seen)
	if err != nil {
		return nil, err
	}
	s, err := ParseRice(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

func appendRiceField(b []byte, num protowire.Number, s *Rice) []byte {
	if s == nil {
		return b
	}
	return appendMessage(b, num, func(b []byte) []byte { return AppendRice(b, s) })
}

// RawHashes is a RawHashes message: prefixes of one size, concatenated in
// bytewise order. The package does not check PrefixSize against Hashes:
// the caller does (4 to 32, and a multiple of it).
type RawHashes struct {
	PrefixSize int32  // prefix_size
	Hashes     []byte // raw_hashes; read, it aliases the message
}

// parseRawHashes reads RawHashes { 1 prefix_size; 2 raw_hashes }.
func parseRawHashes(b []byte) (RawHashes, error) {
	var m RawHashes
	r := reader{b: b}
	var f field
	var err error
	for r.next(&f) {
		switch f.num {
		case rawPrefixSize:
			m.PrefixSize, err = f.int32()
		case rawHashes:
			m.Hashes, err = f.bytes()
			m.Hashes = nonEmpty(m.Hashes)
		}
		if err != nil {
			return m, err
		}
	}
	return m, r.err
}

func appendRawHashes(b []byte, m *RawHashes) []byte {
	b = appendInt32(b, rawPrefixSize, m.PrefixSize)
	return appendBytes(b, rawHashes, m.Hashes)
}

// RawIndices is a RawIndices message: indices into the client's list in
// bytewise order, to remove.
type RawIndices struct {
	Indices []int32
}

// parseRawIndices reads RawIndices { 1 repeated int32 indices }, packed or
// not.
func parseRawIndices(b []byte) (RawIndices, error) {
	var m RawIndices
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num == rawIndices {
			var err error
			if m.Indices, err = int32s(m.Indices, &f); err != nil {
				return m, err
			}
		}
	}
	return m, r.err
}

// readChecksum reads f, a singular Checksum { 1 sha256 } field, and
// returns its sha256, nil when empty.
func readChecksum(f *field, seen *once) ([]byte, error) {
	b, err := seen.message(f)
	if err != nil {
		return nil, err
	}
	var sum []byte
	r := reader{b: b}
	var cf field
	for r.next(&cf) {
		if cf.num == checksumSHA256 {
			if sum, err = cf.bytes(); err != nil {
				return nil, err
			}
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("checksum: %w", r.err)
	}
	return nonEmpty(sum), nil
}

// appendChecksum appends field num holding a Checksum of sum, nothing when
// sum is empty.
func appendChecksum(b []byte, num protowire.Number, sum []byte) []byte {
	if len(sum) == 0 {
		return b
	}
	return appendMessage(b, num, func(b []byte) []byte { return appendBytes(b, checksumSHA256, sum) })
}

// JSON forms of the same messages. The Rice message's count is numEntries
// in v4 and entryCount in Web Risk: each API writes its own name and reads
// only it.

type jsonRice struct {
	FirstValue    jint64 `json:"firstValue,omitempty"`
	RiceParameter jint32 `json:"riceParameter,omitempty"`
	NumEntries    jint32 `json:"numEntries,omitempty"`
	EntryCount    jint32 `json:"entryCount,omitempty"`
	EncodedData   jbytes `json:"encodedData,omitempty"`
}

func riceToJSON(s *Rice, webRisk bool) *jsonRice {
	if s == nil {
		return nil
	}
	j := &jsonRice{FirstValue: jint64(s.First), RiceParameter: jint32(s.K), EncodedData: s.Data}
	if webRisk {
		j.EntryCount = jint32(s.Count)
	} else {
		j.NumEntries = jint32(s.Count)
	}
	return j
}

func riceFromJSON(j *jsonRice, webRisk bool) *Rice {
	if j == nil {
		return nil
	}
	s := &Rice{First: int64(j.FirstValue), K: int32(j.RiceParameter), Count: int32(j.NumEntries), Data: nonEmpty(j.EncodedData)}
	if webRisk {
		s.Count = int32(j.EntryCount)
	}
	return s
}

type jsonRawHashes struct {
	PrefixSize jint32 `json:"prefixSize,omitempty"`
	RawHashes  jbytes `json:"rawHashes,omitempty"`
}

func rawHashesToJSON(m *RawHashes) *jsonRawHashes {
	if m == nil {
		return nil
	}
	return &jsonRawHashes{PrefixSize: jint32(m.PrefixSize), RawHashes: m.Hashes}
}

func rawHashesFromJSON(j *jsonRawHashes) *RawHashes {
	if j == nil {
		return nil
	}
	return &RawHashes{PrefixSize: int32(j.PrefixSize), Hashes: nonEmpty(j.RawHashes)}
}

type jsonRawIndices struct {
	Indices []jint32 `json:"indices,omitempty"`
}

func rawIndicesToJSON(m *RawIndices) *jsonRawIndices {
	if m == nil {
		return nil
	}
	j := &jsonRawIndices{}
	if len(m.Indices) > 0 {
		j.Indices = make([]jint32, len(m.Indices))
		for i, v := range m.Indices {
			j.Indices[i] = jint32(v)
		}
	}
	return j
}

func rawIndicesFromJSON(j *jsonRawIndices) *RawIndices {
	if j == nil {
		return nil
	}
	m := &RawIndices{}
	if len(j.Indices) > 0 {
		m.Indices = make([]int32, len(j.Indices))
		for i, v := range j.Indices {
			m.Indices[i] = int32(v)
		}
	}
	return m
}

type jsonChecksum struct {
	SHA256 jbytes `json:"sha256,omitempty"`
}

func checksumToJSON(sum []byte) *jsonChecksum {
	if len(sum) == 0 {
		return nil
	}
	return &jsonChecksum{SHA256: sum}
}

func checksumFromJSON(j *jsonChecksum) []byte {
	if j == nil {
		return nil
	}
	return nonEmpty(j.SHA256)
}
