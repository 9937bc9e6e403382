// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// This file is the searches in flight: every caller that needs the server
// for a prefix (Lookup, LookupAll, SearchPrefixes) joins the search that
// already asks it, if one does, and at most Config.MaxSearchesInFlight
// hashes:search requests are in flight at once. A search runs apart from
// the callers that wait on it: one that goes away leaves only its own wait,
// and the search is dropped once none is left.

// DefaultMaxSearchesInFlight bounds the hashes:search requests in flight
// when Config.MaxSearchesInFlight is 0.
const DefaultMaxSearchesInFlight = 8

// searchTimeout bounds a search from the moment it is made: its wait for a
// slot and its request. It runs apart from its callers, so that none of
// them bounds it.
const searchTimeout = 30 * time.Second

// errAbandoned is the cause of a search dropped because every caller
// waiting on it went away.
var errAbandoned = errors.New("lookup: search dropped: no caller waits on it")

// A flight is one hashes:search request, made or to be made, and the
// callers waiting on it: under v5, of up to a few hundred 4-byte
// prefixes; under Web Risk, of one prefix of 4 to 32 bytes.
type flight struct {
	prefixes []key
	ctx      context.Context
	cancel   context.CancelCauseFunc
	stop     func() // releases ctx's timer and its tie to Close
	done     chan struct{}

	// Set before done is closed.
	entries map[key]*entry // on success, one for each prefix
	err     error

	waiters int // guarded by flights.mu
}

// flights are a Client's searches in flight.
type flights struct {
	sem     chan struct{} // a token for each request in flight
	timeout time.Duration // searchTimeout; less in tests

	mu   sync.Mutex
	m    map[uint32]*flight // the flight asking each 4-byte prefix
	long map[string]*flight // the flight asking each longer prefix
}

func newFlights(max int) flights {
	return flights{sem: make(chan struct{}, max), timeout: searchTimeout,
		m: make(map[uint32]*flight), long: make(map[string]*flight)}
}

// get returns the flight asking k, or nil. fl.mu must be held.
func (fl *flights) get(k key) *flight {
	if k.long == "" {
		return fl.m[k.p]
	}
	return fl.long[k.long]
}

// set makes f the flight asking k. fl.mu must be held.
func (fl *flights) set(k key, f *flight) {
	if k.long == "" {
		fl.m[k.p] = f
	} else {
		fl.long[k.long] = f
	}
}

// unset takes f off the flights asking its prefixes, each that f still
// asks. fl.mu must be held.
func (fl *flights) unset(f *flight) {
	for _, k := range f.prefixes {
		if fl.get(k) != f {
			continue
		}
		if k.long == "" {
			delete(fl.m, k.p)
		} else {
			delete(fl.long, k.long)
		}
	}
}

// Where the answer for a prefix came from, as [PrefixResult].Origin gives
// it.
type Origin int8

const (
	// OriginSearch is a hashes:search request that the call itself made.
	OriginSearch Origin = iota
	// OriginJoined is a search that another call had made and that was in
	// flight: the call waited for its answer rather than ask again
	// (counted in [Stats].Coalesced).
	OriginJoined
	// OriginCache is the client's cache, with no request.
	OriginCache
)

// String returns the Origin's name, such as "OriginJoined".
func (o Origin) String() string {
	switch o {
	case OriginSearch:
		return "OriginSearch"
	case OriginJoined:
		return "OriginJoined"
	case OriginCache:
		return "OriginCache"
	}
	return fmt.Sprintf("Origin(%d)", int(o))
}

// A found is what searchAll found of one prefix: its entry, or the error
// of its search, and where it came from.
type found struct {
	e      *entry
	err    error
	origin Origin
}

// searchAll answers each of prefixes, which must be distinct: from the
// cache where it holds a fresh entry, from the search in flight that asks
// it if there is one, else from searches of its own: under v5, as many as
// keep each request within MaxSearchPrefixes and maxURL (decision 1);
// under Web Risk, one a prefix. While searches back off, it fails every
// prefix at once with a *BackoffError. When ctx ends first, the caller
// leaves the searches it waits on, and each prefix still unanswered gets
// ctx's error; a search is dropped only once every caller waiting on it
// has gone. A caller whose ctx has ended already starts and joins nothing:
// every prefix gets ctx's error, whatever another caller's search might
// have answered.
func (c *Client) searchAll(ctx context.Context, prefixes []key) []found {
	out := make([]found, len(prefixes))
	err := c.searches.check(c.now())
	if err == nil && ctx.Err() != nil {
		err = fmt.Errorf("lookup: %s: %w", methodSearch, ctx.Err())
	}
	if err != nil {
		for i := range out {
			out[i].err = err
		}
		return out
	}
	now := c.now()
	var waits []*flight // the flights waited on, each once
	var index map[*flight]int
	via := make([]int, len(prefixes)) // the index in waits of each prefix's flight; -1: none
	var mine []key
	var mineAt []int
	hits, joined := 0, 0
	fl := &c.flights
	fl.mu.Lock()
	for i, p := range prefixes {
		if f := fl.get(p); f != nil {
			k, ok := index[f]
			if !ok {
				if index == nil {
					index = make(map[*flight]int)
				}
				k = len(waits)
				index[f] = k
				waits = append(waits, f)
				f.waiters++
			}
			via[i], out[i].origin = k, OriginJoined
			joined++
			continue
		}
		// The cache again: a search that ended since the caller read it
		// has left its answer there before it left fl.m.
		if e := c.cache.getKey(now, p); e != nil {
			via[i], out[i] = -1, found{e: e, origin: OriginCache}
			hits++
			continue
		}
		mine, mineAt = append(mine, p), append(mineAt, i)
	}
	var started []*flight
	for len(mine) > 0 {
		n := min(len(mine), MaxSearchPrefixes)
		for _, part := range c.splitSearch(mine[:n]) {
			f := c.newFlight(slices.Clone(part))
			for _, p := range part {
				fl.set(p, f)
				via[mineAt[0]] = len(waits)
				mineAt = mineAt[1:]
			}
			waits = append(waits, f)
			started = append(started, f)
		}
		mine = mine[n:]
	}
	fl.mu.Unlock()
	c.stats.cacheHits.Add(uint64(hits))
	c.stats.coalesced.Add(uint64(joined))
	for _, f := range started {
		go c.fly(f)
	}

	// Wait for each flight, or for ctx to end: then leave those not done.
	left := make([]bool, len(waits))
	gone := false
	for k, f := range waits {
		if !gone {
			select {
			case <-f.done:
				continue
			case <-ctx.Done():
				gone = true
			}
		}
		select {
		case <-f.done:
		default:
			c.leave(f)
			left[k] = true
		}
	}
	var ctxErr error
	if gone {
		ctxErr = fmt.Errorf("lookup: %s: %w", methodSearch, ctx.Err())
	}
	for i, p := range prefixes {
		k := via[i]
		switch {
		case k < 0:
		case left[k]:
			out[i].err = ctxErr
		case waits[k].err != nil:
			out[i].err = waits[k].err
		default:
			out[i].e = waits[k].entries[p]
		}
	}
	return out
}

// newFlight returns a search of prefixes, with one waiter, its caller.
// Its context is its own: bounded by searchTimeout, canceled by Close or
// once no caller waits on it.
func (c *Client) newFlight(prefixes []key) *flight {
	ctx, cancel := context.WithCancelCause(context.Background())
	tctx, stopTimer := context.WithTimeout(ctx, c.flights.timeout)
	stopClose := context.AfterFunc(c.closing, func() { cancel(ErrClosed) })
	return &flight{
		prefixes: prefixes,
		ctx:      tctx,
		cancel:   cancel,
		stop:     func() { stopClose(); stopTimer() },
		done:     make(chan struct{}),
		waiters:  1,
	}
}

// fly runs f: it waits for a slot among MaxSearchesInFlight, sends the
// request unless searches have begun to back off meanwhile or
// Config.MaxSearchesPerMinute have gone in the last minute, and hands the
// answer to every caller waiting: a failure once the client is closed is
// ErrClosed. The answer goes into the cache before f leaves the map of
// flights, so that a caller always finds one or the other.
func (c *Client) fly(f *flight) {
	defer f.stop()
	fl := &c.flights
	err := c.takeSlot(f.ctx)
	if err == nil {
		if err = c.searches.check(c.now()); err == nil {
			if err = c.budget.take(c.now()); err != nil {
				c.stats.searchesOverBudget.Add(1)
			} else if c.api == WebRisk {
				f.entries, err = c.searchWebRisk(f)
			} else {
				f.entries, err = c.search1(f)
			}
		}
		<-fl.sem
	}
	if err != nil && c.closing.Err() != nil {
		err = ErrClosed // whatever Close cut short
	}
	fl.mu.Lock()
	fl.unset(f)
	f.err = err
	close(f.done)
	fl.mu.Unlock()
	f.cancel(nil)
}

// takeSlot waits for one of the MaxSearchesInFlight slots, or for ctx, a
// flight's, to end.
func (c *Client) takeSlot(ctx context.Context) error {
	sem := c.flights.sem
	select {
	case sem <- struct{}{}:
		return nil
	default:
	}
	c.stats.searchWaits.Add(1)
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		if cause := context.Cause(ctx); errors.Is(cause, ErrClosed) {
			return ErrClosed
		}
		return fmt.Errorf("lookup: %s: waiting for one of %d searches in flight: %w", methodSearch, cap(sem), ctx.Err())
	}
}

// leave takes a caller off f's waiters: the last one to go cancels f,
// unless it is done, and takes it out of the map, so that no caller joins
// a search canceled for others.
func (c *Client) leave(f *flight) {
	fl := &c.flights
	fl.mu.Lock()
	defer fl.mu.Unlock()
	f.waiters--
	if f.waiters > 0 {
		return
	}
	select {
	case <-f.done:
		return
	default:
	}
	fl.unset(f)
	f.cancel(errAbandoned)
}

// cancelled reports whether f's failure is no sign of a server in
// trouble: f was dropped by its callers, or the client closed. A search
// that ran out of searchTimeout is one.
func (f *flight) cancelled() bool {
	cause := context.Cause(f.ctx)
	return errors.Is(cause, errAbandoned) || errors.Is(cause, ErrClosed)
}
