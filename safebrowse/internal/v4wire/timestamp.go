// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"fmt"
	"strings"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"google.golang.org/protobuf/encoding/protowire"
)

// The range of a google.protobuf.Timestamp: 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z, in seconds since the Unix epoch.
const (
	minTimestamp = -62135596800
	maxTimestamp = 253402300799
)

// ParseTimestamp reads a google.protobuf.Timestamp
// { 1 seconds: int64; 2 nanos: int32 } as a time in UTC. A time outside
// the Timestamp's range (years 1 to 9999), or nanos outside
// 0–999,999,999, is corrupt.
func ParseTimestamp(b []byte) (time.Time, error) {
	var sec, nanos int64
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case timestampSeconds:
			v, err := f.int64()
			if err != nil {
				return time.Time{}, err
			}
			sec = v
		case timestampNanos:
			v, err := f.int32()
			if err != nil {
				return time.Time{}, err
			}
			nanos = int64(v)
		}
	}
	if r.err != nil {
		return time.Time{}, r.err
	}
	if sec < minTimestamp || sec > maxTimestamp || nanos < 0 || nanos >= 1e9 {
		return time.Time{}, fmt.Errorf("timestamp %ds %dns out of range", sec, nanos)
	}
	return time.Unix(sec, nanos).UTC(), nil
}

// AppendTimestamp appends t as a google.protobuf.Timestamp message (its
// fields only, untagged). The caller keeps t within the Timestamp's range.
func AppendTimestamp(b []byte, t time.Time) []byte {
	b = appendInt64(b, timestampSeconds, t.Unix())
	return appendInt32(b, timestampNanos, int32(t.Nanosecond()))
}

// appendTimestampField appends t as field num, unless t is the zero time.
func appendTimestampField(b []byte, num protowire.Number, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return appendMessage(b, num, func(b []byte) []byte { return AppendTimestamp(b, t) })
}

// readTimestamp reads f, a singular Timestamp field.
func readTimestamp(f *field, seen *once, name string) (time.Time, error) {
	b, err := seen.message(f)
	if err != nil {
		return time.Time{}, err
	}
	t, err := ParseTimestamp(b)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// FormatTimestamp returns t as the JSON mapping writes a Timestamp: RFC
// 3339 in UTC with a "Z", and 0, 3, 6 or 9 digits of fraction:
// "2019-07-17T15:01:23.045123456Z", "2020-01-01T00:00:00Z".
func FormatTimestamp(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	if ns := t.Nanosecond(); ns != 0 {
		f := fmt.Sprintf("%09d", ns)
		switch {
		case ns%1e6 == 0:
			f = f[:3]
		case ns%1e3 == 0:
			f = f[:6]
		}
		s += "." + f
	}
	return s + "Z"
}

// ParseJSONTimestamp reads a Timestamp as the JSON mapping writes one: RFC
// 3339, with "Z" or an offset, and up to 9 digits of fraction. The time is
// returned in UTC, and must lie within the Timestamp's range.
func ParseJSONTimestamp(s string) (time.Time, error) {
	bad := func() (time.Time, error) {
		return time.Time{}, fmt.Errorf("timestamp %s is not RFC 3339", inputerr.Quote(s))
	}
	if len(s) < len("2006-01-02T15:04:05Z") || len(s) > 64 {
		return bad()
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		n := 0
		for n < len(s)-i-1 && s[i+1+n] >= '0' && s[i+1+n] <= '9' {
			n++
		}
		if n == 0 || n > 9 {
			return bad()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return bad()
	}
	t = t.UTC()
	if sec := t.Unix(); sec < minTimestamp || sec > maxTimestamp {
		return time.Time{}, fmt.Errorf("timestamp %s out of range", inputerr.Quote(s))
	}
	return t, nil
}
