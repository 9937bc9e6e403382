// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is sbserver's one seam with the parts of package lookup that
// issue 23 changes: every use of them goes through a function here, marked
// TODO(merge), so that switching to the new API touches this file alone.

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// clientConfig completes the lookup.Config that sbserver builds.
//
// TODO(merge): set cfg.Frozen = frozen (today run never starts Run when
// frozen, which freezes the lists too) and cfg.UserAgent = "sbserver".
func clientConfig(cfg lookup.Config, frozen bool) lookup.Config {
	_ = frozen
	return cfg
}

// perURLErrors splits the error of LookupAll over n URLs into one error per
// URL (nil for a URL checked) and whole, an error of the check as a whole
// (not ready, closed), when no URL was checked.
//
// TODO(merge): with lookup.BatchError, this is
//
//	var be *lookup.BatchError
//	if errors.As(err, &be) { return be.Errs, nil }
//	return nil, err
func perURLErrors(err error, n int) (errs []error, whole error) {
	if err == nil {
		return make([]error, n), nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil, err
	}
	errs = make([]error, n)
	for _, e := range j.Unwrap() {
		var ue *lookup.URLError
		if !errors.As(e, &ue) || ue.Index < 0 || ue.Index >= n {
			return nil, e
		}
		errs[ue.Index] = ue.Err
	}
	return errs, nil
}

// badURL reports whether err says the URL itself cannot be checked, as
// opposed to a failure of the check. An error it does not know is a
// failure of the check: the reply is then a 503, the safe side.
//
// TODO(merge): errors.Is(err, lookup.ErrInvalidURL) || errors.Is(err, errNotUTF8).
func badURL(err error) bool {
	for _, e := range []error{
		errNotUTF8,
		safebrowse.ErrEmpty, safebrowse.ErrNoHost, safebrowse.ErrScheme, safebrowse.ErrTooLong,
		safebrowse.ErrInvalidHost, safebrowse.ErrInvalidPort, safebrowse.ErrInvalidURL,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// notReady returns nil once the client is ready, else why not.
//
// TODO(merge): the cause of a failed first fetch, as lookup's Ready gives
// it: a Ready call with an already-cancelled context, or its new
// non-blocking form.
func notReady(c *lookup.Client) error {
	if c.IsReady() {
		return nil
	}
	return lookup.ErrNotReady
}

// listDetail is what ListStatus will tell of a list's last update.
//
// TODO(merge): return l.Updated, l.Err.
func listDetail(l lookup.ListStatus) (updated time.Time, lastErr error) {
	return time.Time{}, nil
}

// statsSnapshot is the client's counters, as lookup.Stats holds them.
type statsSnapshot struct {
	Lookups, Unsafe, Errors uint64
	CacheHits, LocalMisses  uint64
	Searches, SearchErrors  uint64
	Updates, UpdateErrors   uint64
	SearchBackoffUntil      time.Time // zero: not backing off
	UpdateBackoffUntil      time.Time // zero: not backing off
}

// stats counts what sbserver sees of the client until lookup.Stats exists:
// URLs checked, found unsafe, and failed. The other counters stay zero.
//
// TODO(merge): snapshot returns c.Stats() field by field, and the
// update back-off from the lists' Err (a *lookup.BackoffError); the
// counting calls in the handlers (stats.count) go.
type stats struct {
	lookups, unsafe, errors atomic.Uint64
	searchBackoff           atomic.Int64 // Unix nanoseconds, 0: none seen
}

// count records the outcome of one URL's check.
func (s *stats) count(v lookup.Verdict, err error) {
	s.lookups.Add(1)
	if v.Unsafe() {
		s.unsafe.Add(1)
	}
	if err != nil {
		s.errors.Add(1)
		var be *lookup.BackoffError
		if errors.As(err, &be) && be.Method == "hashes:search" {
			s.searchBackoff.Store(be.Until.UnixNano())
		}
	}
}

// snapshot returns the counters now.
func (s *stats) snapshot(c *lookup.Client) statsSnapshot {
	_ = c
	snap := statsSnapshot{Lookups: s.lookups.Load(), Unsafe: s.unsafe.Load(), Errors: s.errors.Load()}
	if ns := s.searchBackoff.Load(); ns != 0 && time.Now().UnixNano() < ns {
		snap.SearchBackoffUntil = time.Unix(0, ns)
	}
	return snap
}
