// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !purego

package hashlist

// haveSHA reports whether the CPU has the SHA extensions (CPUID leaf 7,
// EBX bit 29) and SSSE3 (leaf 1, ECX bit 9) for PALIGNR, which the
// assembly takes.
var haveSHA = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	_, ebx7, _, _ := cpuid(7, 0)
	return ecx1&(1<<9) != 0 && ebx7&(1<<29) != 0
}()

// fastSHA4 reports whether a sink should use sha4 rather than
// crypto/sha256: where the assembly runs. The tests set it either way.
var fastSHA4 = haveSHA

// shaBlocks runs SHA-256's compression function on h for each block of
// ws, 16 words a block: [shaBlocksGo] with the SHA extensions.
func shaBlocks(h *[8]uint32, ws []uint32) {
	if !haveSHA {
		shaBlocksGo(h, ws)
		return
	}
	if n := len(ws) / 16; n > 0 {
		shaBlocksAsm(h, &ws[0], n)
	}
}

// shaBuild is [shaBuildGo] with the SHA extensions: the same blocks, and
// the stores of ib.addAll made between the rounds, a prefix every four
// rounds. len(vs) is a multiple of 16.
func shaBuild(h *[8]uint32, vs []uint32, ib *indexBuilder, hb []byte) {
	// The assembly stores without bounds checks: no more prefixes than
	// lo8 has room for (which Apply sizes for the whole list), so that
	// every store is in bounds, as addAll's checks make sure: those to
	// ends and hi for any 32-bit prefix, and those to rem, in the sizes
	// newIndexBuilder gives them. It starts a group of rem: no rests open.
	room := len(ib.x.lo8) - 16 - int(ib.n)
	if !haveSHA || len(vs) > room || ib.n != ib.packed {
		shaBuildGo(h, vs, ib, hb)
		return
	}
	if n := len(vs) / 16; n > 0 {
		shaBuildAsm(h, &vs[0], n, ib)
	}
}

// The assembly is in sha4_amd64.s.

func cpuid(leaf, sub uint32) (a, b, c, d uint32)

//go:noescape
func shaBlocksAsm(h *[8]uint32, ws *uint32, blocks int)

//go:noescape
func shaBuildAsm(h *[8]uint32, vs *uint32, blocks int, ib *indexBuilder)
