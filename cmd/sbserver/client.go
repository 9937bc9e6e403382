// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is sbserver's seam with package lookup's operator API: the
// client's configuration, its per-URL errors, its readiness and its
// counters.

import (
	"context"
	"errors"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// userAgent is the product token sbserver puts before lookup's own.
const userAgent = "sbserver"

// clientConfig completes the lookup.Config that sbserver builds: a frozen
// server freezes its client, and every request names sbserver.
func clientConfig(cfg lookup.Config, frozen bool) lookup.Config {
	cfg.Frozen = frozen
	cfg.UserAgent = userAgent
	return cfg
}

// perURLErrors splits the error of LookupAll over n URLs into one error per
// URL (nil for a URL checked) and whole, an error of the check as a whole:
// not ready or closed, when no URL was checked, or an error that is not a
// *lookup.BatchError of n URLs.
func perURLErrors(err error, n int) (errs []error, whole error) {
	if err == nil {
		return make([]error, n), nil
	}
	var be *lookup.BatchError
	if !errors.As(err, &be) || len(be.Errs) != n {
		return nil, err
	}
	if errors.Is(err, lookup.ErrNotReady) || errors.Is(err, lookup.ErrClosed) {
		// No URL was checked: one error for all, that of the first URL.
		for _, e := range be.Errs {
			if e != nil {
				return nil, e
			}
		}
	}
	return be.Errs, nil
}

// badURL reports whether err says the URL itself cannot be checked, as
// opposed to a failure of the check. An error it does not know is a
// failure of the check: the reply is then a 503, the safe side.
func badURL(err error) bool {
	return errors.Is(err, lookup.ErrInvalidURL) || errors.Is(err, errNotUTF8)
}

// notReady returns nil once the client is ready, else why not: the cause
// of a failed first fetch when there was one, as lookup's Ready gives it,
// without waiting.
func notReady(c *lookup.Client) error {
	if c.IsReady() {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.Ready(ctx)
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return lookup.ErrNotReady
	}
	return err
}

// listDetail is what ListStatus tells of a list's last update.
func listDetail(l lookup.ListStatus) (updated time.Time, lastErr error) {
	return l.Updated, l.Err
}

// statsSnapshot is the client's counters, as lookup.Stats holds them, and
// its back-off state.
type statsSnapshot struct {
	lookup.Stats
	OHTTP              bool      // searches go through an OHTTP relay
	SearchBackoffUntil time.Time // zero: not backing off
	UpdateBackoffUntil time.Time // zero: not backing off
}

// snapshot returns the client's counters and back-offs now.
func (s *server) snapshot() statsSnapshot {
	b := s.c.Backoff()
	return statsSnapshot{Stats: s.c.Stats(), OHTTP: s.o.OHTTP,
		SearchBackoffUntil: b.SearchUntil, UpdateBackoffUntil: b.UpdateUntil}
}
