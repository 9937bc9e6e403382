// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"sync"
	"time"
)

// MaxSearchesPerMinute is the largest Config.MaxSearchesPerMinute: 1,000
// times Web Risk's default quota of 6,000 hashes:search a minute a
// project. The budget keeps the time of each search of the last minute,
// 8 bytes each, so it holds at most 48 MB.
const MaxSearchesPerMinute = 6_000_000

// budgetWindow is the window Config.MaxSearchesPerMinute counts in.
const budgetWindow = time.Minute

// A budget caps the hashes:search requests sent in any window of
// budgetWindow at max: it keeps the send time of each request of the last
// window, oldest first, and refuses a request while max of them are less
// than a window old. So it is exact, not a token bucket's average: no 60
// seconds ever see more than max requests, and it holds at most max times,
// fewer when fewer are sent.
type budget struct {
	max int

	mu    sync.Mutex
	base  time.Time       // the times are offsets from the first request's
	times []time.Duration // a queue: times[head:] are the window's, oldest first
	head  int
}

// newBudget returns the budget of max requests a minute, or nil for no
// cap (max 0).
func newBudget(max int) *budget {
	if max <= 0 {
		return nil
	}
	return &budget{max: max}
}

// take counts a request sent at now and returns nil, or, when max
// requests went less than a window before now, counts nothing and
// returns an error wrapping ErrSearchBudget that says when the next may
// go. A nil budget takes every request.
func (b *budget) take(now time.Time) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.base.IsZero() {
		b.base = now
	}
	t := now.Sub(b.base)
	for b.head < len(b.times) && t-b.times[b.head] >= budgetWindow {
		b.head++
	}
	if n := len(b.times) - b.head; n >= b.max {
		next := b.base.Add(b.times[b.head] + budgetWindow)
		return fmt.Errorf("lookup: %s: %w: %d sent in the last minute; the next may go at %s",
			methodSearch, ErrSearchBudget, n, next.UTC().Format(time.RFC3339))
	}
	// Reuse the room of the requests gone, once they are half the queue.
	if b.head > 0 && b.head >= len(b.times)/2 {
		b.times = b.times[:copy(b.times, b.times[b.head:])]
		b.head = 0
	}
	b.times = append(b.times, t)
	return nil
}
