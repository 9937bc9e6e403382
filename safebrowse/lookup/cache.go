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

// An entry is what the cache knows about one prefix (4 bytes, or under
// Web Risk up to 32): until when it is valid, and the full hashes the
// server returned for it (none: the negative cache). An entry is never
// changed once made, so a lookup may hold it after the lock is released.
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

// A key names a hash prefix in the cache and among the searches in
// flight: a 4-byte prefix (every v5 prefix, and most of Web Risk's) by its
// value as a big-endian uint32, a longer one (Web Risk's entries of 5 to
// 32 bytes) by its bytes, whole. The cache keeps the two kinds in two
// maps, so that a 4-byte prefix costs a lookup what it cost before Web
// Risk's longer ones.
type key struct {
	p    uint32 // a 4-byte prefix; 0 when long is set
	long string // a longer prefix, whole; "" for a 4-byte one
}

// keyOf returns the key of the prefix b, of 4 to 32 bytes.
func keyOf(b []byte) key {
	if len(b) == 4 {
		return key{p: binary.BigEndian.Uint32(b)}
	}
	return key{long: string(b)}
}

// appendTo appends the prefix k names to dst.
func (k key) appendTo(dst []byte) []byte {
	if k.long != "" {
		return append(dst, k.long...)
	}
	return binary.BigEndian.AppendUint32(dst, k.p)
}

// bytes estimates what a longer key adds to the cost of its entry: its
// slot in the map of longer keys, 16 bytes more than one of a uint32's,
// and the string's bytes, as the allocator rounds them. A 4-byte key
// adds nothing to cacheEntryBytes.
func (k key) bytes() int64 {
	if k.long == "" {
		return 0
	}
	return 16 + allocBytes(len(k.long))
}

// cache maps prefixes to entries: 4-byte prefixes, as big-endian uint32s,
// in m, and longer ones, by their bytes, in long.
type cache struct {
	size      int          // CacheSize, or less in tests
	maxBytes  int64        // Config.CacheBytes, or its default
	n         atomic.Int64 // len(m)+len(long), read without the lock
	mu        sync.Mutex
	m         map[uint32]*entry
	long      map[string]*entry
	bytes     int64 // the entries' bytes, as entry.bytes and key.bytes estimate them
	nextPurge time.Time
}

func newCache(size int, maxBytes int64) *cache {
	return &cache{size: size, maxBytes: maxBytes, m: make(map[uint32]*entry), long: make(map[string]*entry)}
}

func prefixOf(h *safebrowse.Hash) uint32 { return binary.BigEndian.Uint32(h[:4]) }

// count returns the entries, of both maps. c.mu must be held.
func (c *cache) count() int { return len(c.m) + len(c.long) }

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
	c.n.Store(int64(c.count()))
	c.mu.Unlock()
	return found
}

// getKey returns the unexpired entry of k, or nil, deleting an expired
// one.
func (c *cache) getKey(now time.Time, k key) *entry {
	if c.n.Load() == 0 {
		return nil
	}
	c.mu.Lock()
	var e *entry
	if k.long == "" {
		e = c.getLocked(now, k.p)
	} else {
		e = c.getLongLocked(now, k.long)
	}
	c.n.Store(int64(c.count()))
	c.mu.Unlock()
	return e
}

// getPrefix returns the unexpired entry of the prefix b, of 4 to 32
// bytes, or nil, deleting an expired one. It does not allocate.
func (c *cache) getPrefix(now time.Time, b []byte) *entry {
	if c.n.Load() == 0 {
		return nil
	}
	c.mu.Lock()
	var e *entry
	if len(b) == 4 {
		e = c.getLocked(now, binary.BigEndian.Uint32(b))
	} else if e = c.long[string(b)]; e != nil && !now.Before(e.expires) {
		c.deleteLocked(key{long: string(b)}, e)
		e = nil
	}
	c.n.Store(int64(c.count()))
	c.mu.Unlock()
	return e
}

// getLocked returns the unexpired entry of the 4-byte prefix p, or nil,
// deleting an expired one. c.mu must be held.
func (c *cache) getLocked(now time.Time, p uint32) *entry {
	e := c.m[p]
	if e != nil && !now.Before(e.expires) {
		c.deleteLocked(key{p: p}, e)
		e = nil
	}
	return e
}

// getLongLocked is getLocked for a longer prefix. c.mu must be held.
func (c *cache) getLongLocked(now time.Time, p string) *entry {
	e := c.long[p]
	if e != nil && !now.Before(e.expires) {
		c.deleteLocked(key{long: p}, e)
		e = nil
	}
	return e
}

// deleteLocked deletes e, the entry of k. c.mu must be held.
func (c *cache) deleteLocked(k key, e *entry) {
	if k.long == "" {
		delete(c.m, k.p)
	} else {
		delete(c.long, k.long)
	}
	c.bytes -= e.bytes() + k.bytes()
}

// put caches each entry for its prefix. An entry larger than the whole
// budget of bytes is not cached.
func (c *cache) put(now time.Time, entries map[key]*entry) {
	c.mu.Lock()
	for k, e := range entries {
		n := e.bytes() + k.bytes()
		if n > c.maxBytes {
			continue
		}
		var old *entry
		if k.long == "" {
			old = c.m[k.p]
		} else {
			old = c.long[k.long]
		}
		if old != nil {
			c.deleteLocked(k, old)
		}
		if c.count() >= c.size || c.bytes+n > c.maxBytes {
			c.purgeLocked(now, true, n)
		}
		if k.long == "" {
			c.m[k.p] = e
		} else {
			c.long[k.long] = e
		}
		c.bytes += n
	}
	c.n.Store(int64(c.count()))
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
			c.deleteLocked(key{p: p}, e)
		}
	}
	for p, e := range c.long {
		if !now.Before(e.expires) {
			c.deleteLocked(key{long: p}, e)
		}
	}
	count := c.count() >= c.size
	bytes := c.bytes+need > c.maxBytes
	if !count && !bytes {
		return
	}
	enough := func() bool {
		return (!count || c.count() < c.size-c.size/8) && (!bytes || c.bytes+need <= c.maxBytes-c.maxBytes/8)
	}
	for p, e := range c.long {
		if enough() {
			return
		}
		c.deleteLocked(key{long: p}, e)
	}
	for p, e := range c.m {
		if enough() {
			return
		}
		c.deleteLocked(key{p: p}, e)
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
