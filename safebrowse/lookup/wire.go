// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse"
)

// This file reads the messages of the v5 API's proto file
// (google/security/safebrowsing/v5/safebrowsing.proto) with protowire, field
// by field: no generated code and no reflection. Unknown fields are skipped,
// as protobuf asks; a known field with the wrong wire type, a truncated field
// or a value out of range makes the message corrupt.

// A fullHash is one FullHash of a SearchHashesResponse, holding only the
// details this package understands.
type fullHash struct {
	hash    safebrowse.Hash
	details []detail
}

// A detail is one FullHashDetail whose threat type and attributes are all
// known.
type detail struct {
	typ   ThreatType
	attrs []ThreatAttribute
}

// A searchReply is a SearchHashesResponse.
type searchReply struct {
	hashes      []fullHash
	duration    time.Duration // cache_duration
	hasDuration bool          // whether cache_duration was present
}

func corrupt(msg string, args ...any) error {
	return fmt.Errorf("%w: "+msg, append([]any{ErrCorruptReply}, args...)...)
}

// next reads the tag of the next field of b and returns the field's number,
// its wire type and the length of the tag.
func next(b []byte) (protowire.Number, protowire.Type, int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, 0, corrupt("%v", protowire.ParseError(n))
	}
	return num, typ, n, nil
}

// field reads the field at the start of b: its number, its wire type, its
// value when it is a varint or length-delimited, and the bytes after it.
type field struct {
	num protowire.Number
	typ protowire.Type
	v   uint64 // varint value
	b   []byte // bytes value
}

func readField(b []byte) (field, []byte, error) {
	num, typ, n, err := next(b)
	if err != nil {
		return field{}, nil, err
	}
	b = b[n:]
	f := field{num: num, typ: typ}
	switch typ {
	case protowire.VarintType:
		f.v, n = protowire.ConsumeVarint(b)
	case protowire.BytesType:
		f.b, n = protowire.ConsumeBytes(b)
	default:
		n = protowire.ConsumeFieldValue(num, typ, b)
	}
	if n < 0 {
		return field{}, nil, corrupt("field %d: %v", num, protowire.ParseError(n))
	}
	return f, b[n:], nil
}

func (f field) want(typ protowire.Type) error {
	if f.typ != typ {
		return corrupt("field %d has wire type %d, want %d", f.num, f.typ, typ)
	}
	return nil
}

// parseSearchReply reads a SearchHashesResponse:
//
//	SearchHashesResponse { 1 full_hashes: repeated FullHash; 2 cache_duration: Duration }
//
// A FullHashDetail with an unknown or unspecified threat type or attribute is
// dropped whole; a full hash that is not 32 bytes makes the reply corrupt.
func parseSearchReply(b []byte) (searchReply, error) {
	var r searchReply
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return searchReply{}, err
		}
		b = rest
		switch f.num {
		case 1:
			if err := f.want(protowire.BytesType); err != nil {
				return searchReply{}, err
			}
			h, err := parseFullHash(f.b)
			if err != nil {
				return searchReply{}, err
			}
			r.hashes = append(r.hashes, h)
		case 2:
			if err := f.want(protowire.BytesType); err != nil {
				return searchReply{}, err
			}
			d, err := parseDuration(f.b)
			if err != nil {
				return searchReply{}, err
			}
			r.duration, r.hasDuration = d, true
		}
	}
	return r, nil
}

// parseFullHash reads FullHash { 1 full_hash: bytes; 2 full_hash_details: repeated FullHashDetail }.
func parseFullHash(b []byte) (fullHash, error) {
	var h fullHash
	seen := false
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return fullHash{}, err
		}
		b = rest
		switch f.num {
		case 1:
			if err := f.want(protowire.BytesType); err != nil {
				return fullHash{}, err
			}
			if len(f.b) != len(h.hash) {
				return fullHash{}, corrupt("full hash of %d bytes, want 32", len(f.b))
			}
			copy(h.hash[:], f.b)
			seen = true
		case 2:
			if err := f.want(protowire.BytesType); err != nil {
				return fullHash{}, err
			}
			d, ok, err := parseDetail(f.b)
			if err != nil {
				return fullHash{}, err
			}
			if ok {
				h.details = append(h.details, d)
			}
		}
	}
	if !seen {
		return fullHash{}, corrupt("FullHash without full_hash")
	}
	return h, nil
}

// parseDetail reads FullHashDetail { 1 threat_type: enum; 2 attributes: repeated enum },
// the attributes packed or not. It reports ok = false for a detail that must
// be ignored: an unknown or unspecified threat type or attribute.
func parseDetail(b []byte) (d detail, ok bool, err error) {
	ok = true
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return detail{}, false, err
		}
		b = rest
		switch f.num {
		case 1:
			if err := f.want(protowire.VarintType); err != nil {
				return detail{}, false, err
			}
			d.typ = ThreatType(int32(f.v))
		case 2:
			switch f.typ {
			case protowire.VarintType:
				a := ThreatAttribute(int32(f.v))
				ok = ok && a.valid()
				d.attrs = append(d.attrs, a)
			case protowire.BytesType: // packed
				for p := f.b; len(p) > 0; {
					v, n := protowire.ConsumeVarint(p)
					if n < 0 {
						return detail{}, false, corrupt("attributes: %v", protowire.ParseError(n))
					}
					p = p[n:]
					a := ThreatAttribute(int32(v))
					ok = ok && a.valid()
					d.attrs = append(d.attrs, a)
				}
			default:
				return detail{}, false, f.want(protowire.VarintType)
			}
		}
	}
	if !ok || !d.typ.valid() {
		return detail{}, false, nil
	}
	return d, true, nil
}

// maxDuration is the longest Duration read: longer ones are taken as this.
const maxDuration = time.Duration(math.MaxInt64)

// parseDuration reads google.protobuf.Duration { 1 seconds: int64; 2 nanos: int32 }.
// A negative duration, or nanos outside [0, 1e9), is corrupt; a duration too
// long for a time.Duration is capped.
func parseDuration(b []byte) (time.Duration, error) {
	var secs, nanos int64
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return 0, err
		}
		b = rest
		switch f.num {
		case 1:
			if err := f.want(protowire.VarintType); err != nil {
				return 0, err
			}
			secs = int64(f.v)
		case 2:
			if err := f.want(protowire.VarintType); err != nil {
				return 0, err
			}
			nanos = int64(int32(f.v))
		}
	}
	if secs < 0 || nanos < 0 || nanos >= 1e9 {
		return 0, corrupt("duration %ds %dns", secs, nanos)
	}
	if secs > int64(maxDuration/time.Second)-1 {
		return maxDuration, nil
	}
	return time.Duration(secs)*time.Second + time.Duration(nanos), nil
}

// A listHeader is what the client reads itself of a HashList: the rest is
// the hashlist package's to read.
type listHeader struct {
	name        string
	minWait     time.Duration // minimum_wait_duration; 0 when absent
	hasChecksum bool
	partial     bool
}

// parseListHeader reads fields 1 (name), 3 (partial_update), 6
// (minimum_wait_duration) and 7 (sha256_checksum) of a HashList, checking
// that the message is well formed.
func parseListHeader(b []byte) (listHeader, error) {
	var h listHeader
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return listHeader{}, err
		}
		b = rest
		switch f.num {
		case 1:
			if err := f.want(protowire.BytesType); err != nil {
				return listHeader{}, err
			}
			h.name = string(f.b)
		case 3:
			if err := f.want(protowire.VarintType); err != nil {
				return listHeader{}, err
			}
			h.partial = f.v != 0
		case 6:
			if err := f.want(protowire.BytesType); err != nil {
				return listHeader{}, err
			}
			if h.minWait, err = parseDuration(f.b); err != nil {
				return listHeader{}, err
			}
		case 7:
			h.hasChecksum = true
		}
	}
	return h, nil
}

// parseBatch reads BatchGetHashListsResponse { 1 hash_lists: repeated HashList }
// and returns each HashList's bytes, which share b.
func parseBatch(b []byte) ([][]byte, error) {
	var lists [][]byte
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return nil, err
		}
		b = rest
		if f.num == 1 {
			if err := f.want(protowire.BytesType); err != nil {
				return nil, err
			}
			lists = append(lists, f.b)
		}
	}
	return lists, nil
}

// parseStatus returns the message of a google.rpc.Status
// { 1 code: int32; 2 message: string; 3 details }, the body of an error reply
// with alt=proto, or "" when b is not one.
func parseStatus(b []byte) string {
	msg := ""
	for len(b) > 0 {
		f, rest, err := readField(b)
		if err != nil {
			return ""
		}
		b = rest
		if f.num == 2 && f.typ == protowire.BytesType {
			msg = string(f.b)
		}
	}
	return msg
}
