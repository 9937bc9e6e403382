// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || purego

package hashlist

// decodeRun is [decodeRunGo].
func decodeRun(out []uint32, data []byte, pos uint, v uint64, k uint) (int, uint, uint64) {
	return decodeRunGo(out, data, pos, v, k)
}
