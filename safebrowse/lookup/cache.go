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
	// CacheSize caps the number of prefixes the cache holds, whatever
	// their bytes; Config.CacheBytes caps their bytes. When either is
	// reached, the expired entries are purged, and if that is not
	// enough, entries chosen arbitrarily are dropped until an eighth of
	// the cap is free: a flood of distinct URLs, or of full hashes, costs
	// at most the caps, and at worst more requests, never a wrong
	// verdict.
	CacheSize = 1 << 16

	// DefaultCacheBytes is the most bytes the cache holds when
	// Config.CacheBytes is 0: 32 MiB, five times what CacheSize prefixes
	// with no full hash take (at most [cacheEntryBytes] each), so that
	// the count is what binds unless the server lists many full hashes
	// for the prefixes asked.
	DefaultCacheBytes = 32 << 20

	// MaxCacheDuration caps the server's cache_duration, as the spec caps
	// its lengthening: no entry lives longer than 24 hours.
	MaxCacheDuration = 24 * time.Hour

	// purgeEvery is how often expired entries are purged, as in Chromium.
	purgeEvery = 30 * time.Minute
)

// The estimate of what an entry costs, in bytes of heap, which
// Config.CacheBytes bounds (TestCacheEntryBytes measures it). A prefix
// costs cacheEntryBytes: its slot in the map and its entry. Each full hash
// costs fullHashBytes, each detail detailBytes and each attribute
// attrBytes, in three arrays an entry owns, each rounded up as the
// allocator rounds it (allocBytes).
const (
	cacheEntryBytes = 96
	fullHashBytes   = 56 // a fullHash: 32 bytes and a slice
	detailBytes     = 32 // a detail: a threat type and a slice
	attrBytes       = 4  // a ThreatAttribute
)

// An entry is what the cache knows about one 4-byte prefix: until when it
// is valid, and the full hashes the server returned for it (none: the
// negative cache). An entry is never changed once made, so a lookup may hold
// it after the lock is released.
type entry struct {
	expires time.Time
	hashes  []fullHash
}

// newEntry returns the entry of hashes until expires, holding them in
// storage of its own: one array of full hashes, one of their details and
// one of their attributes, each of the size it needs, so that what the
// entry costs is what [entry.bytes] says.
func newEntry(expires time.Time, hashes []fullHash) *entry {
	e := &entry{expires: expires}
	if len(hashes) == 0 {
		return e
	}
	nd, na := 0, 0
	for i := range hashes {
		nd += len(hashes[i].details)
		for _, d := range hashes[i].details {
			na += len(d.attrs)
		}
	}
	e.hashes = make([]fullHash, len(hashes))
	details := make([]detail, 0, nd)
	attrs := make([]ThreatAttribute, 0, na)
	for i := range hashes {
		e.hashes[i].hash = hashes[i].hash
		start := len(details)
		for _, d := range hashes[i].details {
			nd := detail{typ: d.typ}
			if len(d.attrs) > 0 {
				a := len(attrs)
				attrs = append(attrs, d.attrs...)
				nd.attrs = attrs[a:len(attrs):len(attrs)]
			}
			details = append(details, nd)
		}
		if len(details) > start {
			e.hashes[i].details = details[start:len(details):len(details)]
		}
	}
	return e
}

// bytes estimates the heap that e and its slot in the cache take.
func (e *entry) bytes() int64 {
	n := int64(cacheEntryBytes)
	if len(e.hashes) == 0 {
		return n
	}
	nd, na := 0, 0
	for i := range e.hashes {
		nd += len(e.hashes[i].details)
		for _, d := range e.hashes[i].details {
			na += len(d.attrs)
		}
	}
	return n + allocBytes(cap(e.hashes)*fullHashBytes) + allocBytes(nd*detailBytes) + allocBytes(na*attrBytes)
}

// allocBytes bounds what an allocation of n bytes takes: Go's allocator
// rounds small sizes up to a size class, at most 16 bytes up to 256 and an
// eighth above, and large ones up to whole 8 KiB pages.
func allocBytes(n int) int64 {
	switch {
	case n == 0:
		return 0
	case n <= 256:
		return int64(n+15) &^ 15
	case n <= 32<<10:
		return int64(n + n/8 + 16)
	}
	return int64(n+8<<10-1) &^ (8<<10 - 1)
}

// cache maps 4-byte prefixes, as big-endian uint32s, to entries.
type cache struct {
	size      int          // CacheSize, or less in tests
	maxBytes  int64        // Config.CacheBytes, or its default
	n         atomic.Int64 // len(m), read without the lock
	mu        sync.Mutex
	m         map[uint32]*entry
	bytes     int64 // the entries' bytes, as entry.bytes estimates them
	nextPurge time.Time
}

func newCache(size int, maxBytes int64) *cache {
	return &cache{size: size, maxBytes: maxBytes, m: make(map[uint32]*entry)}
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
		e := c.getLocked(now, prefixOf(&hashes[i]))
		out[i] = e
		found = found || e != nil
	}
	c.purgeLocked(now, false, 0)
	c.n.Store(int64(len(c.m)))
	c.mu.Unlock()
	return found
}

// get1 returns the unexpired entry of prefix p, or nil, deleting an
// expired one.
func (c *cache) get1(now time.Time, p uint32) *entry {
	if c.n.Load() == 0 {
		return nil
	}
	c.mu.Lock()
	e := c.getLocked(now, p)
	c.n.Store(int64(len(c.m)))
	c.mu.Unlock()
	return e
}

// getLocked returns the unexpired entry of p, or nil, deleting an expired
// one. c.mu must be held.
func (c *cache) getLocked(now time.Time, p uint32) *entry {
	e := c.m[p]
	if e != nil && !now.Before(e.expires) {
		c.deleteLocked(p, e)
		e = nil
	}
	return e
}

// deleteLocked deletes e, the entry of p. c.mu must be held.
func (c *cache) deleteLocked(p uint32, e *entry) {
	delete(c.m, p)
	c.bytes -= e.bytes()
}

// put caches each entry for its prefix. An entry larger than the whole
// budget of bytes is not cached.
func (c *cache) put(now time.Time, entries map[uint32]*entry) {
	c.mu.Lock()
	for p, e := range entries {
		n := e.bytes()
		if n > c.maxBytes {
			continue
		}
		if old := c.m[p]; old != nil {
			c.deleteLocked(p, old)
		}
		if len(c.m) >= c.size || c.bytes+n > c.maxBytes {
			c.purgeLocked(now, true, n)
		}
		c.m[p] = e
		c.bytes += n
	}
	c.n.Store(int64(len(c.m)))
	c.mu.Unlock()
}

// purgeLocked deletes the expired entries, if the last purge was
// purgeEvery ago or full is set. Then, if the cache holds CacheSize
// entries, or has not room for need more bytes, it drops entries until
// an eighth of the cap that binds is free, and need bytes beside.
func (c *cache) purgeLocked(now time.Time, full bool, need int64) {
	if !full && now.Before(c.nextPurge) {
		return
	}
	c.nextPurge = now.Add(purgeEvery)
	for p, e := range c.m {
		if !now.Before(e.expires) {
			c.deleteLocked(p, e)
		}
	}
	count := len(c.m) >= c.size
	bytes := c.bytes+need > c.maxBytes
	if !count && !bytes {
		return
	}
	for p, e := range c.m {
		if (!count || len(c.m) < c.size-c.size/8) && (!bytes || c.bytes+need <= c.maxBytes-c.maxBytes/8) {
			break
		}
		c.deleteLocked(p, e)
	}
}

// len returns the number of entries, expired or not.
func (c *cache) len() int { return int(c.n.Load()) }

// heldBytes returns the bytes the entries take, as entry.bytes estimates them.
func (c *cache) heldBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
