// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build linux

package hashlist

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, the garbage
// collector's workers included. Benchmarks report it beside the wall time,
// which other work on a busy machine inflates.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
