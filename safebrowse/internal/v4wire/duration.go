// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"fmt"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// google.protobuf.Duration is the same message in v4 as in v5: v5wire
// reads and writes it, under one policy for both wires.

// readDuration reads f, a singular Duration field, under the policy of
// v5wire.ParseDuration.
func readDuration(f *field, seen *once, name string) (time.Duration, error) {
	b, err := seen.message(f)
	if err != nil {
		return 0, err
	}
	d, err := v5wire.ParseDuration(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

// appendDurationField appends d as field num when has is set or d is not
// zero.
func appendDurationField(b []byte, num protowire.Number, d time.Duration, has bool) []byte {
	if !has && d == 0 {
		return b
	}
	return appendMessage(b, num, func(b []byte) []byte { return v5wire.AppendDuration(b, d) })
}
