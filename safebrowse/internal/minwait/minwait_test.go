// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package minwait

import (
	"testing"
	"time"
)

// Wait: the time until the next update plus up to 10%, within Min and
// Max, in whole seconds.
func TestWait(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   time.Duration // next - now
		rnd  float64
		want time.Duration
	}{
		// Due in 10 minutes, no jitter drawn.
		{"exact", 10 * time.Minute, 0, 10 * time.Minute},
		// The most jitter: 10% more.
		{"jitter", 10 * time.Minute, 0.999999, 10*time.Minute + 59*time.Second},
		// Half the jitter, truncated to whole seconds.
		{"half", 100*time.Second + 500*time.Millisecond, 0.5, 105 * time.Second},
		// Due already: the least wait, never a tight loop.
		{"past", -time.Hour, 0.5, Min},
		// Due sooner than a minute: a minute.
		{"soon", 10 * time.Second, 0.9, Min},
		// Due in two days: a day at most.
		{"far", 48 * time.Hour, 0, Max},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Wait(now, now.Add(tt.in), tt.rnd, Min); got != tt.want {
				t.Errorf("Wait(+%v, %v) = %v, want %v", tt.in, tt.rnd, got, tt.want)
			}
		})
	}
	// A test's own least wait.
	if got := Wait(now, now, 0, time.Second); got != time.Second {
		t.Errorf("Wait with least 1s = %v", got)
	}
}
