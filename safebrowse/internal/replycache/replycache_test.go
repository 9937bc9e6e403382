// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package replycache

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// keys returns the cache's keys, the most recently used first.
func keys[K comparable, V any](c *Cache[K, V]) []K {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []K
	for e := c.lru.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(*entry[K, V]).key)
	}
	return out
}

// TestLRU: entries are counted with their overhead, the least recently
// used go first, and the cache never holds more than its limit.
func TestLRU(t *testing.T) {
	const size = 100
	per := int64(size + Overhead)
	tests := []struct {
		name  string
		limit int64
		ops   func(c *Cache[string, int])
		want  []string
	}{
		// Within the limit: all kept, the newest first.
		{"within", 3 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Add("c", 3, size)
		}, []string{"c", "b", "a"}},
		// One over: the oldest goes.
		{"over", 2 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Add("c", 3, size)
		}, []string{"c", "b"}},
		// A Get makes an entry the newest, so the other goes.
		{"get", 2 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Get("a")
			c.Add("c", 3, size)
		}, []string{"c", "a"}},
		// Adding a key again replaces it, counted once.
		{"replace", 2 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Add("a", 3, size)
		}, []string{"a", "b"}},
		// A value larger than the limit is not kept, and evicts nothing.
		{"too large", 2 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("big", 2, 2*per)
		}, []string{"a"}},
		// A lower limit evicts down to it.
		{"set limit", 3 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Add("c", 3, size)
			c.SetLimit(per)
		}, []string{"c"}},
		// DeleteFunc removes by key.
		{"delete", 3 * per, func(c *Cache[string, int]) {
			c.Add("a", 1, size)
			c.Add("b", 2, size)
			c.Add("c", 3, size)
			c.DeleteFunc(func(k string) bool { return k != "b" })
		}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New[string, int](tt.limit)
			tt.ops(c)
			if got := keys(c); !slices.Equal(got, tt.want) {
				t.Errorf("keys %v, want %v", got, tt.want)
			}
			if got, want := c.Bytes(), int64(len(tt.want))*per; got != want || got > c.limit {
				t.Errorf("Bytes %d, want %d (limit %d)", got, want, c.limit)
			}
			if c.Len() != len(tt.want) {
				t.Errorf("Len %d, want %d", c.Len(), len(tt.want))
			}
		})
	}
}

// TestSingleFlight: concurrent calls for one key compute it once and all
// get its value, while a call for another key neither waits for it nor
// is waited for.
func TestSingleFlight(t *testing.T) {
	c := New[string, int](1 << 20)
	var computed atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{})
	slow := func() (int, int64, error) {
		computed.Add(1)
		close(started)
		<-release
		return 42, 8, nil
	}
	const callers = 20
	var wg sync.WaitGroup
	got := make([]int, callers)
	wg.Go(func() { got[0], _ = c.Do("slow", slow) })
	<-started
	for i := 1; i < callers; i++ {
		wg.Go(func() {
			got[i], _ = c.Do("slow", func() (int, int64, error) { computed.Add(1); return -1, 8, nil })
		})
	}
	// Another key, while "slow" is in flight: computed at once.
	if v, err := c.Do("other", func() (int, int64, error) { return 7, 8, nil }); v != 7 || err != nil {
		t.Errorf("other key: %d %v", v, err)
	}
	close(release)
	wg.Wait()
	if n := computed.Load(); n != 1 {
		t.Errorf("computed %d times, want 1", n)
	}
	for i, v := range got {
		if v != 42 {
			t.Errorf("caller %d got %d", i, v)
		}
	}
	if v, ok := c.Get("slow"); !ok || v != 42 {
		t.Errorf("not cached: %d %v", v, ok)
	}
}

// TestDoErrors: an error goes to every caller and is not cached; a
// panic reaches its own caller, and the waiters get ErrPanicked.
func TestDoErrors(t *testing.T) {
	c := New[string, int](1 << 20)
	boom := errors.New("boom")
	if _, err := c.Do("k", func() (int, int64, error) { return 0, 0, boom }); err != boom {
		t.Errorf("err %v", err)
	}
	if c.Len() != 0 {
		t.Error("an error was cached")
	}
	if v, err := c.Do("k", func() (int, int64, error) { return 1, 0, nil }); v != 1 || err != nil {
		t.Errorf("after an error: %d %v", v, err)
	}

	started, release := make(chan struct{}), make(chan struct{})
	waited := make(chan error)
	go func() {
		defer func() { recover() }()
		c.Do("p", func() (int, int64, error) {
			close(started)
			<-release
			panic("compute")
		})
	}()
	<-started
	go func() {
		_, err := c.Do("p", func() (int, int64, error) { return 0, 0, nil })
		waited <- err
	}()
	// The waiter must have joined the flight before the panic: wait
	// until it is blocked, i.e. the flight is still there and we yield.
	for range 100 {
		runtime.Gosched()
	}
	close(release)
	if err := <-waited; err != nil && err != ErrPanicked {
		t.Errorf("waiter: %v", err)
	}
	if v, err := c.Do("p", func() (int, int64, error) { return 3, 0, nil }); v != 3 || err != nil {
		t.Errorf("after a panic: %d %v", v, err)
	}
}

// TestDeleteFuncInFlight: a computation in flight for a deleted key is
// not cached, and a later call computes anew.
func TestDeleteFuncInFlight(t *testing.T) {
	c := New[string, int](1 << 20)
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan int)
	go func() {
		v, _ := c.Do("k", func() (int, int64, error) { close(started); <-release; return 1, 0, nil })
		done <- v
	}()
	<-started
	c.DeleteFunc(func(string) bool { return true })
	if v, _ := c.Do("k", func() (int, int64, error) { return 2, 0, nil }); v != 2 {
		t.Errorf("after DeleteFunc, a call joined the old flight: %d", v)
	}
	close(release)
	if v := <-done; v != 1 {
		t.Errorf("the old flight's caller got %d", v)
	}
	if v, _ := c.Get("k"); v != 2 {
		t.Errorf("cached %d, want the new value 2", v)
	}
}

// TestOverhead: an entry costs the cache at most Overhead bytes besides
// its value, with a key of the size the mirror uses.
func TestOverhead(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the heap")
	}
	type key struct {
		kind     uint8
		to, from string
		max      int
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const n = 20_000
	to := "se-4b:0123456789abcdef0123456789abcdef"
	v := new(int)
	// Sizes just under and just over a growth of the map, and between.
	for _, n := range []int{n, 1 << 14, 1<<14 + 1<<11, 1<<15 - 1} {
		before := heap()
		c := New[key, *int](1 << 40)
		for i := range n {
			c.Add(key{kind: 1, to: to, from: to, max: i}, v, 0)
		}
		per := float64(heap()-before) / float64(n)
		runtime.KeepAlive(c)
		t.Logf("%d entries: %.1f bytes each", n, per)
		if per > Overhead {
			t.Errorf("%d entries: %.1f bytes each, more than Overhead (%d)", n, per, Overhead)
		}
	}
}
