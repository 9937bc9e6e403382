// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
)

// The cache of hashes:search replies ("The cache" in the v5 reference).
const (
	// CacheSize is the most prefixes the cache holds. When it is full, the
	// expired entries are purged, and if that is not enough, an eighth of
	// the entries, chosen arbitrarily, are dropped: a flood of distinct URLs
	// costs at most about CacheSize × 100 bytes, plus the full hashes the
	// server returned, and makes at worst more requests, never a wrong
	// verdict.
	CacheSize = 1 << 16

	// MaxCacheDuration caps the server's cache_duration, as the spec caps
	// its lengthening: no entry lives longer than 24 hours.
	MaxCacheDuration = 24 * time.Hour

	// purgeEvery is how often expired entries are purged, as in Chromium.
	purgeEvery = 30 * time.Minute
)

// An entry is what the cache knows about one 4-byte prefix: until when it
// is valid, and the full hashes the server returned for it (none: the
// negative cache). An entry is never changed once made, so a lookup may hold
// it after the lock is released.
type entry struct {
	expires time.Time
	hashes  []fullHash
}

// cache maps 4-byte prefixes, as big-endian uint32s, to entries.
type cache struct {
	size      int          // CacheSize, or less in tests
	n         atomic.Int64 // len(m), read without the lock
	mu        sync.Mutex
	m         map[uint32]*entry
	nextPurge time.Time
}

func newCache(size int) *cache {
	return &cache{size: size, m: make(map[uint32]*entry)}
}

func prefixOf(h *safebrowse.Hash) uint32 { return binary.BigEndian.Uint32(h[:4]) }

// get sets out[i] to the unexpired entry for the prefix of hashes[i], or nil,
// deleting the expired entries it meets (step 1 of each procedure), and
// reports whether it found any.
func (c *cache) get(now time.Time, hashes []safebrowse.Hash, out []*entry) bool {
	if c.n.Load() == 0 {
		clear(out)
		return false
	}
	found := false
	c.mu.Lock()
	for i := range hashes {
		p := prefixOf(&hashes[i])
		e := c.m[p]
		if e != nil && !now.Before(e.expires) {
			delete(c.m, p)
			e = nil
		}
		out[i] = e
		found = found || e != nil
	}
	c.purgeLocked(now, false)
	c.n.Store(int64(len(c.m)))
	c.mu.Unlock()
	return found
}

// put caches e for every prefix in prefixes.
func (c *cache) put(now time.Time, entries map[uint32]*entry) {
	c.mu.Lock()
	for p, e := range entries {
		if len(c.m) >= c.size {
			c.purgeLocked(now, true)
		}
		c.m[p] = e
	}
	c.n.Store(int64(len(c.m)))
	c.mu.Unlock()
}

// purgeLocked deletes the expired entries, if the last purge was
// purgeEvery ago or full is set; if the cache is still full, it drops an
// eighth of it.
func (c *cache) purgeLocked(now time.Time, full bool) {
	if !full && now.Before(c.nextPurge) {
		return
	}
	c.nextPurge = now.Add(purgeEvery)
	for p, e := range c.m {
		if !now.Before(e.expires) {
			delete(c.m, p)
		}
	}
	if len(c.m) < c.size {
		return
	}
	drop := max(c.size/8, 1)
	for p := range c.m {
		if drop == 0 {
			break
		}
		delete(c.m, p)
		drop--
	}
}

// len returns the number of entries, expired or not.
func (c *cache) len() int { return int(c.n.Load()) }
