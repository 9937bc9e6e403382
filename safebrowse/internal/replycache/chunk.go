// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package replycache

// The chunk sizes a server serves: the powers of two from MinChunk to
// MaxChunk. A client's limit on the entries of an update
// (sizeConstraints.maxUpdateEntries in v5, constraints.maxUpdateEntries
// in v4, constraints.maxDiffEntries in Web Risk) is served as the chunk
// size at or below it, so that a list has at most 12 kinds of update
// from each state (these 11 and no limit) however many limits its
// clients ask. Google's servers do the same: they "only pre-generate a
// finite number of possible update response and database sizes" (v4
// reference, Update Constraints), and Web Risk takes only these powers
// of two.
const (
	MinChunk = 1 << 10
	MaxChunk = 1 << 20
)

// ChunkSize returns the chunk size served for a client's limit max on
// the entries of one update: 0 (no limit) for max 0 or less; else the
// largest power of two at or below both max and [MaxChunk], so that an
// update never holds more than the client asked. A limit below
// [MinChunk] is the caller's to refuse, as v5 does; ChunkSize rounds it
// down to a power of two all the same.
func ChunkSize(max int) int {
	if max <= 0 {
		return 0
	}
	n := MaxChunk
	for n > max {
		n >>= 1
	}
	return n
}
