// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of the HashList message (safebrowsing.proto, v5).
const (
	fieldName        = 1
	fieldVersion     = 2
	fieldPartial     = 3
	fieldAdd4        = 4
	fieldRemovals    = 5
	fieldMinimumWait = 6
	fieldChecksum    = 7
	fieldMetadata    = 8
	fieldAdd8        = 9
	fieldAdd16       = 10
	fieldAdd32       = 11
)

// addField returns the additions field of a list of width w bytes.
func addField(w int) protowire.Number {
	switch w {
	case 4:
		return fieldAdd4
	case 8:
		return fieldAdd8
	case 16:
		return fieldAdd16
	}
	return fieldAdd32
}

// fieldWidth returns the width of the additions field f.
func fieldWidth(f protowire.Number) int {
	switch f {
	case fieldAdd4:
		return 4
	case fieldAdd8:
		return 8
	case fieldAdd16:
		return 16
	}
	return 32
}

// wireList is a HashList message as read from the wire, its Rice streams
// not yet decoded. Its byte slices alias the message.
type wireList struct {
	name     []byte
	version  []byte
	partial  bool
	addWidth int // the width of the additions field present; 0: none
	add      riceStream
	hasRem   bool
	rem      riceStream
	wait     time.Duration
	checksum []byte // nil: absent (an empty field is absent in proto3)
}

// parseList reads a binary HashList message. Unknown fields are skipped, as
// protobuf requires; a known field with the wrong wire type, an embedded
// message given twice, or two additions fields are corrupt (a server never
// splits a message, and merging them would be guessing). A scalar given
// twice takes the last value, as protobuf does. It returns the reason the
// message is corrupt, or "".
func parseList(b []byte) (wireList, string) {
	var m wireList
	seen := uint32(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return m, "bad field tag"
		}
		b = b[n:]
		want := protowire.BytesType
		switch num {
		case fieldPartial:
			want = protowire.VarintType
		case fieldName, fieldVersion, fieldAdd4, fieldRemovals, fieldMinimumWait,
			fieldChecksum, fieldMetadata, fieldAdd8, fieldAdd16, fieldAdd32:
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return m, fmt.Sprintf("bad value of unknown field %d", num)
			}
			b = b[n:]
			continue
		}
		if typ != want {
			return m, fmt.Sprintf("field %d has wire type %d", num, typ)
		}
		if num == fieldPartial {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return m, "bad partial_update"
			}
			b = b[n:]
			m.partial = v != 0
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return m, fmt.Sprintf("bad length of field %d", num)
		}
		b = b[n:]
		switch num {
		case fieldName:
			m.name = v
		case fieldVersion:
			m.version = v
		case fieldChecksum:
			m.checksum = nil
			if len(v) > 0 {
				m.checksum = v
			}
		case fieldMetadata:
			// Descriptive only: the width comes from the name.
		case fieldMinimumWait, fieldRemovals, fieldAdd4, fieldAdd8, fieldAdd16, fieldAdd32:
			bit := uint32(1) << num
			if num != fieldMinimumWait && num != fieldRemovals {
				bit = 1 // the additions oneof
			}
			if seen&bit != 0 {
				return m, fmt.Sprintf("field %d given twice", num)
			}
			seen |= bit
			var e string
			switch num {
			case fieldMinimumWait:
				m.wait, e = parseDuration(v)
				if e != "" {
					return m, "minimum_wait_duration: " + e
				}
			case fieldRemovals:
				m.hasRem = true
				m.rem, e = parseRice(v, 4)
				if e == "" {
					e = m.rem.check(4)
				}
				if e != "" {
					return m, "compressed_removals: " + e
				}
			default:
				m.addWidth = fieldWidth(num)
				m.add, e = parseRice(v, m.addWidth)
				if e == "" {
					e = m.add.check(m.addWidth)
				}
				if e != "" {
					return m, "additions: " + e
				}
			}
		}
	}
	return m, ""
}

// parseRice reads a RiceDeltaEncoded message for values of width w bytes.
// The 32- and 64-bit forms number their fields first_value,
// rice_parameter, entries_count, encoded_data; the 128-bit form splits the
// first value into first_value_hi (uint64) and first_value_lo (fixed64);
// the 256-bit form into four parts, the first a uint64, the others fixed64,
// most significant first.
func parseRice(b []byte, w int) (riceStream, string) {
	var s riceStream
	parts := max(w/8, 1) // how many fields hold the first value
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return s, "bad field tag"
		}
		b = b[n:]
		f := int(num)
		switch {
		case f == 1 || (f <= parts && f >= 2):
			var v uint64
			if f == 1 {
				if typ != protowire.VarintType {
					return s, fmt.Sprintf("field %d has wire type %d", f, typ)
				}
				v, n = protowire.ConsumeVarint(b)
			} else {
				if typ != protowire.Fixed64Type {
					return s, fmt.Sprintf("field %d has wire type %d", f, typ)
				}
				v, n = protowire.ConsumeFixed64(b)
			}
			if n < 0 {
				return s, fmt.Sprintf("bad value of field %d", f)
			}
			if w == 4 && v > math.MaxUint32 {
				return s, "first_value overflows 32 bits"
			}
			// The parts are most significant first, in the low limbs of
			// the width.
			s.first[4-parts+f-1] = v
		case f == parts+1 || f == parts+2:
			if typ != protowire.VarintType {
				return s, fmt.Sprintf("field %d has wire type %d", f, typ)
			}
			var v uint64
			v, n = protowire.ConsumeVarint(b)
			if n < 0 {
				return s, fmt.Sprintf("bad value of field %d", f)
			}
			// An int32 is sent sign-extended to 64 bits.
			x := int64(v)
			if x != int64(int32(x)) {
				return s, fmt.Sprintf("field %d overflows int32", f)
			}
			if f == parts+1 {
				s.k = x
			} else {
				s.count = x
			}
		case f == parts+3:
			if typ != protowire.BytesType {
				return s, fmt.Sprintf("field %d has wire type %d", f, typ)
			}
			s.data, n = protowire.ConsumeBytes(b)
			if n < 0 {
				return s, "bad length of encoded_data"
			}
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return s, fmt.Sprintf("bad value of unknown field %d", f)
			}
		}
		b = b[n:]
	}
	return s, ""
}

// parseDuration reads a google.protobuf.Duration: seconds (int64) and
// nanos (int32). A negative duration, nanos outside 0–999,999,999, or a
// duration beyond time.Duration's range is corrupt.
func parseDuration(b []byte) (time.Duration, string) {
	var sec, nanos int64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, "bad field tag"
		}
		b = b[n:]
		if (num == 1 || num == 2) && typ == protowire.VarintType {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, "bad varint"
			}
			b = b[n:]
			if num == 1 {
				sec = int64(v)
			} else {
				nanos = int64(int32(v))
			}
			continue
		}
		if num == 1 || num == 2 {
			return 0, fmt.Sprintf("field %d has wire type %d", num, typ)
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, fmt.Sprintf("bad value of unknown field %d", num)
		}
		b = b[n:]
	}
	if sec < 0 || nanos < 0 || nanos >= 1e9 || sec > math.MaxInt64/int64(time.Second)-1 {
		return 0, fmt.Sprintf("%ds %dns out of range", sec, nanos)
	}
	return time.Duration(sec)*time.Second + time.Duration(nanos), ""
}
