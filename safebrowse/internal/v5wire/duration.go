// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// MaxDuration is the longest Duration read: a longer one is read as this.
const MaxDuration = time.Duration(math.MaxInt64)

// maxSeconds is the most whole seconds a time.Duration holds with room for
// nanos.
const maxSeconds = int64(MaxDuration/time.Second) - 1

// ParseDuration reads a google.protobuf.Duration
// { 1 seconds: int64; 2 nanos: int32 }, under the package's policy: a
// negative duration, or nanos outside 0–999,999,999, is corrupt; one
// longer than a time.Duration holds is read as [MaxDuration].
func ParseDuration(b []byte) (time.Duration, error) {
	var sec, nanos int64
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case durationSeconds:
			if err := f.want(protowire.VarintType); err != nil {
				return 0, err
			}
			sec = int64(f.v)
		case durationNanos:
			n, err := f.int32()
			if err != nil {
				return 0, err
			}
			nanos = int64(n)
		}
	}
	if r.err != nil {
		return 0, r.err
	}
	return durationOf(sec, nanos)
}

// durationOf returns sec seconds and nanos nanoseconds, under the policy
// of [ParseDuration].
func durationOf(sec, nanos int64) (time.Duration, error) {
	if sec < 0 || nanos < 0 || nanos >= 1e9 {
		return 0, fmt.Errorf("duration %ds %dns out of range", sec, nanos)
	}
	if sec > maxSeconds {
		return MaxDuration, nil
	}
	return time.Duration(sec)*time.Second + time.Duration(nanos), nil
}

// AppendDuration appends d as a google.protobuf.Duration message (its
// fields only, untagged). A negative d has both parts negative, as the
// Duration type requires.
func AppendDuration(b []byte, d time.Duration) []byte {
	if sec := int64(d / time.Second); sec != 0 {
		b = protowire.AppendTag(b, durationSeconds, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(sec))
	}
	if nanos := int64(d % time.Second); nanos != 0 {
		b = protowire.AppendTag(b, durationNanos, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(nanos))
	}
	return b
}

// appendDurationField appends d as field num, unless d is zero.
func appendDurationField(b []byte, num protowire.Number, d time.Duration) []byte {
	if d == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, AppendDuration(nil, d))
}
