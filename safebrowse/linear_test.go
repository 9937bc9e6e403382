// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"testing"
	"time"
)

// checkLinear checks that measure, the time of a run on an input of size
// n, grows linearly: 10x the input may cost 10x the time; the bound, 40x
// plus slack, allows noise, not n². It warms up on size 1000 first, and,
// since the machine may be busy, retries a measure up to five times.
func checkLinear(t *testing.T, n int, slack time.Duration, measure func(n int) time.Duration) {
	t.Helper()
	measure(1000) // warm up
	var small, large time.Duration
	for range 5 {
		if small, large = measure(n), measure(10*n); large <= 40*small+slack {
			return
		}
	}
	t.Errorf("10x input took %v vs %v: not linear", large, small)
}
