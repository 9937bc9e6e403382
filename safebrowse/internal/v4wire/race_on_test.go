// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package v4wire

// raceEnabled reports a -race build, whose instrumentation allocates
// where an ordinary build does not, so allocations are not measured.
const raceEnabled = true
