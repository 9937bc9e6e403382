// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !linux

package ohttp

import "time"

// threadCPU is not available here: benchmarks use the wall time.
func threadCPU() (time.Duration, bool) { return 0, false }
