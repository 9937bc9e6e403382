// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestOHTTPKeySchedule: Run's key loop on a fake clock. A key is fetched
// again when it is a day old; failed fetches are retried after a minute,
// then back off after three failures, 5 minutes doubling up to a day; a
// success ends the back-off.
func TestOHTTPKeySchedule(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	c, err := New(Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: NoStorage,
		OHTTP: &OHTTPConfig{RelayURL: s.URL + "/relay", KeyURL: s.OHTTPKeyURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }

	// run runs the key loop for n sleeps, and returns their waits.
	run := func(n int) []time.Duration {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var waits []time.Duration
		c.ohttp.sleep = func(ctx context.Context, d time.Duration) error {
			waits = append(waits, d)
			mu.Lock()
			clock = clock.Add(d)
			mu.Unlock()
			if len(waits) == n {
				cancel()
				return ctx.Err()
			}
			return nil
		}
		c.runOHTTPKey(ctx)
		return waits
	}

	const day = 24 * time.Hour
	if got, want := run(3), []time.Duration{day, day, day}; !reflect.DeepEqual(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
	if n := s.Requests("hpkekeyconfig"); n != 3 {
		t.Errorf("%d fetches, want 3", n)
	}

	s.Inject(sbtest.Fault{Endpoint: "hpkekeyconfig", Status: 503})
	got := run(13)
	want := []time.Duration{
		// The key is a day old by now: the fetch fails, twice retried after
		// a minute.
		time.Minute, time.Minute,
		// The third failure starts the back-off.
		5 * time.Minute, 10 * time.Minute, 20 * time.Minute, 40 * time.Minute, 80 * time.Minute,
		160 * time.Minute, 320 * time.Minute, 640 * time.Minute, 1280 * time.Minute,
		day, day, // 2560 minutes and more, capped
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("waits %v,\nwant %v", got, want)
	}
	// A failure does not drop the key the client holds: the gateway did
	// not refuse it.
	if st := c.OHTTPStatus(); st.Err == nil || st.KeyID != 1 {
		t.Errorf("OHTTPStatus %+v", st)
	}

	s.ClearFaults()
	if got := run(2); !reflect.DeepEqual(got, []time.Duration{day, day}) {
		t.Errorf("after recovery: waits %v", got)
	}
	if st := c.OHTTPStatus(); st.Err != nil {
		t.Errorf("after recovery: %+v", st)
	}
}
