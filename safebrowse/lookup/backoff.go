// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"sync"
	"time"
)

// The back-off of the v4 API, still the documented practice for v5: after
// the n-th consecutive failed request, wait
// BackoffBase × 2^(n−1) × (1 + a random number in [0, 1)), at most
// MaxBackoff. A success resets n.
const (
	BackoffBase = 15 * time.Minute
	MaxBackoff  = 24 * time.Hour
)

// backoffDelay returns the wait after the n-th consecutive failure (n ≥ 1),
// r being the random number in [0, 1).
func backoffDelay(n int, r float64) time.Duration {
	if n < 1 {
		return 0
	}
	if n > 8 { // 15 min × 2^7 is over 24 h already
		return MaxBackoff
	}
	d := time.Duration(float64(BackoffBase<<(n-1)) * (1 + r))
	return min(d, MaxBackoff)
}

// A backoff counts the consecutive failures of one kind of request (updates
// or searches) and refuses requests until the wait has passed.
type backoff struct {
	method   string
	mu       sync.Mutex
	failures int
	until    time.Time
	last     error
}

// check returns a *BackoffError if no request may go at now.
func (b *backoff) check(now time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures == 0 || !now.Before(b.until) {
		return nil
	}
	return &BackoffError{Method: b.method, Until: b.until, Failures: b.failures, Err: b.last}
}

// fail records a failed request at now, r being the random number in [0, 1).
func (b *backoff) fail(now time.Time, r float64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	b.until = now.Add(backoffDelay(b.failures, r))
	b.last = err
}

// reset records a successful request.
func (b *backoff) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures, b.until, b.last = 0, time.Time{}, nil
}

// state returns the failures so far and until when the back-off lasts.
func (b *backoff) state() (int, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures, b.until
}
