// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package replycache holds what a Safe Browsing server builds for its
// clients from one list (encoded replies, the states chunked updates
// lead to, a list re-sorted for another wire) within a budget of bytes,
// and fixes the few chunk sizes such a server serves, so that what a
// client may ask for is bounded by what the server keeps.
//
// A [Cache] evicts the least recently used entries to stay within its
// limit. An entry that is missing is computed once for every caller that
// asks for it meanwhile (a single flight): the first caller computes it
// on its own goroutine, those asking for the same key wait for it, and
// nobody else does. The package starts no goroutine.
package replycache

import (
	"container/list"
	"errors"
	"sync"
)

// Overhead is what a Cache counts for each entry beside the size its
// caller gives: the entry, its list element and its map slot. A caller
// counts what its value holds (a key's strings included).
const Overhead = 256

// ErrPanicked is the error of the callers that waited for a computation
// that panicked. The caller that ran it gets the panic itself.
var ErrPanicked = errors.New("replycache: the computation panicked")

// A Cache holds values of type V by key within a limit of bytes, the
// least recently used evicted first. Its methods are safe for concurrent
// use. Make one with [New].
type Cache[K comparable, V any] struct {
	mu     sync.Mutex
	limit  int64
	bytes  int64
	lru    list.List // of *entry[K, V], the most recently used first
	items  map[K]*list.Element
	flight map[K]*call[V]
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int64 // as counted: the caller's size plus Overhead
}

// A call is one computation in flight; done is closed once val and err
// are set.
type call[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// New returns an empty Cache that holds at most limit bytes.
func New[K comparable, V any](limit int64) *Cache[K, V] {
	return &Cache[K, V]{limit: max(limit, 0), items: make(map[K]*list.Element), flight: make(map[K]*call[V])}
}

// Get returns the value cached for key, and marks it used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*entry[K, V]).val, true
}

// Add caches v under key, counted as size bytes plus [Overhead], in
// place of any value cached for it, and evicts the least recently used
// entries until the cache is within its limit. A value larger than the
// limit is not kept: Add reports whether v was.
func (c *Cache[K, V]) Add(key K, v V, size int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.add(key, v, size)
}

func (c *Cache[K, V]) add(key K, v V, size int64) bool {
	size = max(size, 0) + Overhead
	if e, ok := c.items[key]; ok {
		c.remove(e)
	}
	if size > c.limit {
		return false
	}
	c.items[key] = c.lru.PushFront(&entry[K, V]{key: key, val: v, size: size})
	c.bytes += size
	c.evict()
	return true
}

func (c *Cache[K, V]) remove(e *list.Element) {
	en := c.lru.Remove(e).(*entry[K, V])
	delete(c.items, en.key)
	c.bytes -= en.size
}

// evict removes the least recently used entries until the cache is
// within its limit.
func (c *Cache[K, V]) evict() {
	for c.bytes > c.limit {
		c.remove(c.lru.Back())
	}
}

// Do returns the value cached for key, marking it used; else the value
// compute returns, with its size in bytes, which it caches as [Cache.Add]
// does. Concurrent calls for one key make one computation, on the
// goroutine of the first: the others wait for its value or its error,
// and only they. An error is returned to all, and not cached.
func (c *Cache[K, V]) Do(key K, compute func() (V, int64, error)) (V, error) {
	c.mu.Lock()
	if e, ok := c.items[key]; ok {
		c.lru.MoveToFront(e)
		v := e.Value.(*entry[K, V]).val
		c.mu.Unlock()
		return v, nil
	}
	if cl, ok := c.flight[key]; ok {
		c.mu.Unlock()
		<-cl.done
		return cl.val, cl.err
	}
	cl := &call[V]{done: make(chan struct{})}
	c.flight[key] = cl
	c.mu.Unlock()

	finished := false
	defer func() {
		if !finished { // compute panicked: release the waiters
			cl.err = ErrPanicked
			c.mu.Lock()
			if c.flight[key] == cl {
				delete(c.flight, key)
			}
			c.mu.Unlock()
			close(cl.done)
		}
	}()
	v, size, err := compute()
	finished = true
	cl.val, cl.err = v, err
	c.mu.Lock()
	if c.flight[key] == cl { // not forgotten by DeleteFunc meanwhile
		delete(c.flight, key)
		if err == nil {
			c.add(key, v, size)
		}
	}
	c.mu.Unlock()
	close(cl.done)
	return v, err
}

// DeleteFunc removes the entries whose key del reports true for, and
// forgets the computations in flight for such keys: their callers still
// get their values, which are not cached, and a later call for the key
// computes it anew.
func (c *Cache[K, V]) DeleteFunc(del func(K) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.items {
		if del(k) {
			c.remove(e)
		}
	}
	for k := range c.flight {
		if del(k) {
			delete(c.flight, k)
		}
	}
}

// SetLimit sets the most bytes the cache holds, evicting the least
// recently used entries to fit.
func (c *Cache[K, V]) SetLimit(limit int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = max(limit, 0)
	c.evict()
}

// Bytes returns the bytes the cache holds now, as counted: the sizes
// given and [Overhead] for each entry. It never exceeds the limit.
func (c *Cache[K, V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Len returns the number of entries cached.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
