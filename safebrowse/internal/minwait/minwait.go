// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package minwait is the rule by which the module's list servers (the v5
// mirror, safebrowse/mirror, and the v4 Update API front,
// safebrowse/v4update) tell their clients when to come back: the
// minimumWaitDuration of a list reply. It is pure: no clock, no
// randomness of its own; the caller passes both.
package minwait

import "time"

// Bounds of a minimum wait: never less than Min, so that a fleet never
// polls in a tight loop, and never more than Max, so that no reply stops
// a client's updates for longer than a day. Frozen is the wait of a
// server whose lists never change.
const (
	Min    = 60 * time.Second
	Max    = 24 * time.Hour
	Frozen = 24 * time.Hour
)

// Wait returns the minimum wait, at now, of a list whose source is next
// due at next: the time until then plus up to 10% more (rnd, in [0, 1),
// times a tenth of it), so that a fleet that fetched together does not
// come back together, held within least and [Max], in whole seconds.
// least is [Min] but in tests.
func Wait(now, next time.Time, rnd float64, least time.Duration) time.Duration {
	d := next.Sub(now)
	if d > 0 {
		d += time.Duration(rnd * 0.1 * float64(d))
	}
	return min(max(d, least), Max).Truncate(time.Second)
}
