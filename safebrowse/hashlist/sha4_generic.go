// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || purego

package hashlist

// fastSHA4 reports whether a sink should use sha4 rather than
// crypto/sha256: not without the assembly, though the tests set it to run
// sha4's Go code.
var fastSHA4 = false

// shaBlocks is [shaBlocksGo].
func shaBlocks(h *[8]uint32, ws []uint32) { shaBlocksGo(h, ws) }

// shaBuild is [shaBuildGo].
func shaBuild(h *[8]uint32, vs []uint32, ib *indexBuilder, hb []byte) {
	shaBuildGo(h, vs, ib, hb)
}
