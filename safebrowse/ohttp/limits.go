// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

// Size limits. Each is checked before any work is done on the input (or,
// when encoding, before anything is appended), and an input or output
// over it is [ErrTooLarge].
const (
	// MaxKeyConfigsSize bounds a list of key configurations, as a key
	// endpoint serves it: 64 KiB, room for dozens of post-quantum keys
	// (an MLKEM1024-P384 configuration is under 1.7 KiB).
	MaxKeyConfigsSize = 64 << 10

	// MaxMessageSize bounds an encapsulated request or response, and a
	// Binary HTTP message: 1 MiB. A Safe Browsing hashes:search request
	// and its reply are a few KiB. Sealing a message whose encapsulation
	// would be longer fails, so nothing this package makes is refused by
	// its other side.
	MaxMessageSize = 1 << 20

	// MaxFields bounds the field lines of one Binary HTTP message, its
	// header and trailer sections and informational responses together
	// (each informational response counts as one more), so that the
	// memory a message costs stays within a small multiple of its length.
	MaxFields = 1024
)
