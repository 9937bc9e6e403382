// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"syscall"
	"time"
	"unsafe"
)

// prefixThreadCPU returns the CPU time of the calling thread
// (CLOCK_THREAD_CPUTIME_ID), which other processes on a shared machine do
// not inflate, for BenchmarkIDNPrefixRatio.
func prefixThreadCPU() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
