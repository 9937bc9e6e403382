// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package hashlist

// raceEnabled reports a -race build, whose instrumentation allocates and
// slows what an ordinary build does not: allocation counts and the memory
// bound are not checked.
const raceEnabled = true
