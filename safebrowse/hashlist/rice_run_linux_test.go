// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build linux

package hashlist

import (
	"math/rand/v2"
	"syscall"
	"testing"
)

// TestDecodeRunGuardPage runs the kernel on streams that end where a page
// that may not be read begins, so that a read past the data faults: the
// assembly has no bounds checks.
func TestDecodeRunGuardPage(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for size := range 80 {
		data := mem[page-size : page : page]
		for _, k := range []uint{0, 3, 12, 30} {
			for fill := range 3 {
				for i := range data {
					switch fill {
					case 0:
						data[i] = 0xaa // short entries when k is 0
					case 1:
						data[i] = byte(r.Uint32())
					case 2:
						data[i] = 0 // zero deltas, read to the end all the same
					}
				}
				for pos := range uint(16) {
					checkRun(t, 1000, data, pos, 0, k)
				}
			}
		}
	}
}
