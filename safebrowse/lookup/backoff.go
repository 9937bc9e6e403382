// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"sync"
	"time"
)

// The back-off of list updates, that of the v4 API and still the documented
// practice for v5: after the n-th consecutive failed request, wait
// BackoffBase × 2^(n−1) × (1 + a random number in [0, 1)), at most
// MaxBackoff. A success resets n.
const (
	BackoffBase = 15 * time.Minute
	MaxBackoff  = 24 * time.Hour
)

// An operator is the rule of Chromium's BackoffOperator
// (https://source.chromium.org/chromium/chromium/src/+/main:components/safe_browsing/core/browser/utils/backoff_operator.cc):
// failures consecutive failures start a back-off of min; the next
// back-off with no success between the two lasts twice the last, at most
// max. When a back-off ends, the count of failures starts again from
// zero, and a failure while it lasts (of a request sent before it began)
// neither starts nor lengthens one. The waits are not randomised.
type operator struct {
	failures int
	min, max time.Duration
}

// The back-off of hashes:search, that of Chromium's v5 real-time client
// (hash_realtime_service.cc configures its BackoffOperator so).
const (
	searchFailures   = 3
	searchBackoffMin = 5 * time.Minute
	searchBackoffMax = 30 * time.Minute
)

var searchOperator = operator{searchFailures, searchBackoffMin, searchBackoffMax}

// backoffDelay returns the wait of updates after the n-th consecutive
// failure (n ≥ 1), r being the random number in [0, 1).
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

// A backoff counts the consecutive failures of one kind of request
// (updates, searches, OHTTP key fetches) and refuses requests until the
// wait has passed. Updates follow backoffDelay from the first failure;
// the others follow Chromium's rule, op.
type backoff struct {
	method string
	op     operator // zero for updates

	mu       sync.Mutex
	failures int       // consecutive failures
	until    time.Time // no request before this time; zero: none refused
	last     error     // the last failure

	// For Chromium's rule: the wait of the last back-off, and whether a request
	// has failed in every attempt since it began (Chromium's
	// !did_successful_request_since_last_backoff_).
	wait      time.Duration
	noSuccess bool
}

// check returns a *BackoffError if no request may go at now.
func (b *backoff) check(now time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.until.IsZero() || !now.Before(b.until) {
		return nil
	}
	return &BackoffError{Method: b.method, Until: b.until, Failures: b.failures, Err: b.last}
}

// fail records a failed request at now, r being the random number in [0, 1)
// (unused by Chromium's rule, whose waits are not randomised). It reports
// whether the request started a back-off.
func (b *backoff) fail(now time.Time, r float64, err error) bool {
	if isKeyEvent(err) {
		return false // the OHTTP key's failure, not the server's (ohttp.go)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last = err
	if b.op.failures == 0 {
		b.failures++
		b.until = now.Add(backoffDelay(b.failures, r))
		return true
	}
	if !b.until.IsZero() && !now.Before(b.until) {
		// The back-off has ended: the failures are counted afresh.
		b.failures, b.until = 0, time.Time{}
	}
	b.failures++
	if b.failures < b.op.failures || !b.until.IsZero() {
		// Too few failures yet, or a request sent before the back-off
		// began: it neither starts nor lengthens one.
		return false
	}
	if b.noSuccess {
		b.wait = min(2*b.wait, b.op.max)
	} else {
		b.wait = b.op.min
	}
	b.until, b.noSuccess = now.Add(b.wait), true
	return true
}

// reset records a successful request.
func (b *backoff) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures, b.until, b.last, b.noSuccess = 0, time.Time{}, nil, false
}

// state returns the failures so far and until when the back-off lasts
// (zero: no back-off).
func (b *backoff) state() (int, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures, b.until
}

// BackoffStatus is the state of a Client's back-offs, as [Client.Backoff]
// reports it: updates and searches each keep their own. While a method
// backs off, the client sends none of its requests and returns a
// [*BackoffError] in their stead; Run sleeps through an update back-off.
type BackoffStatus struct {
	// UpdateUntil is when the updates' back-off ends: no list fetch is
	// sent before it. Zero when updates are not backing off.
	UpdateUntil time.Time
	// UpdateFailures counts the consecutive failed list fetches; a
	// success resets it.
	UpdateFailures int
	// SearchUntil is when the searches' back-off ends: no hashes:search is
	// sent before it. Zero when searches are not backing off.
	SearchUntil time.Time
	// SearchFailures counts the consecutive failed searches, afresh after
	// each back-off ends, as Chromium counts them.
	SearchFailures int
}

// Backoff reports the client's back-offs now. It does not wait for a
// request in flight.
func (c *Client) Backoff() BackoffStatus {
	now := c.now()
	var s BackoffStatus
	s.UpdateFailures, s.UpdateUntil = c.updates.state()
	s.SearchFailures, s.SearchUntil = c.searches.state()
	if !now.Before(s.UpdateUntil) {
		s.UpdateUntil = time.Time{}
	}
	if !now.Before(s.SearchUntil) {
		s.SearchUntil = time.Time{}
	}
	return s
}
