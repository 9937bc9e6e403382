// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !linux

package ampcache

import "time"

// prefixThreadCPU reports false: the benchmark falls back to wall time.
func prefixThreadCPU() (time.Duration, bool) { return 0, false }
