// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !purego

package hashlist

// decodeRun is [decodeRunGo] in assembly: the same steps, the same
// results, with every value in a register.
func decodeRun(out []uint32, data []byte, pos uint, v uint64, k uint) (int, uint, uint64) {
	k &= 31
	return decodeRunAsm(out, data, pos, v, k, runGroup(k))
}

// decodeRunAsm is in rice_amd64.s.
//
//go:noescape
func decodeRunAsm(out []uint32, data []byte, pos uint, v uint64, k, group uint) (n int, end uint, last uint64)
