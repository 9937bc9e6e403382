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

	"github.com/urlspec/urlspec/safebrowse/ohttp"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestOHTTPKeySchedule: Run's key loop on a fake clock. A key is fetched
// again when it is a day old; failed fetches are retried after a minute,
// and back off as Chromium's OhttpKeyService does: three failures start
// 5 minutes, then each three more (counted afresh when a back-off ends)
// twice the last, up to a day; a success ends the back-off and brings
// the next back to 5 minutes.
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
	before := s.Requests("hpkekeyconfig")
	// Chromium's OhttpKeyService: three failures a minute apart start a
	// back-off; when it ends, failures are counted afresh, and the next
	// three start one twice as long, 5 minutes doubling up to a day.
	var want []time.Duration
	for _, b := range []time.Duration{5, 10, 20, 40, 80, 160, 320, 640, 1280, 1440, 1440} {
		want = append(want, time.Minute, time.Minute, b*time.Minute)
	}
	if got := run(len(want)); !reflect.DeepEqual(got, want) {
		t.Errorf("waits %v,\nwant %v", got, want)
	}
	if n := s.Requests("hpkekeyconfig") - before; n != len(want) {
		t.Errorf("%d fetches while failing, want %d: three a back-off", n, len(want))
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
	// A success brings the next back-off back to 5 minutes.
	s.Inject(sbtest.Fault{Endpoint: "hpkekeyconfig", Status: 503})
	if got, want := run(3), []time.Duration{time.Minute, time.Minute, 5 * time.Minute}; !reflect.DeepEqual(got, want) {
		t.Errorf("failing again after a success: waits %v, want %v", got, want)
	}
}

// TestPaddedSize: OHTTPConfig.Padding's lengths, 512 B to 8 KiB and then
// multiples of 8 KiB, never over ohttp.MaxMessageSize.
func TestPaddedSize(t *testing.T) {
	tests := []struct{ in, want int }{
		// Nothing: the smallest.
		{0, 512},
		// One prefix, unpadded.
		{215, 512},
		// Exactly the first size.
		{512, 512},
		// One byte over it.
		{513, 1024},
		// Exactly the second.
		{1024, 1024},
		// Over it.
		{1025, 2048},
		// A hundred prefixes, unpadded.
		{2393, 4096},
		// Over 4 KiB.
		{4097, 8192},
		// Exactly the last.
		{8192, 8192},
		// Past it: the next multiple of 8 KiB.
		{8193, 16 << 10},
		// And the next.
		{16<<10 + 1, 24 << 10},
		// The most Seal takes, a multiple of 8 KiB.
		{ohttp.MaxMessageSize, ohttp.MaxMessageSize},
		// Just under it: padded to it.
		{ohttp.MaxMessageSize - 1, ohttp.MaxMessageSize},
		// Over it: not padded, for Seal to refuse.
		{ohttp.MaxMessageSize + 1, ohttp.MaxMessageSize + 1},
	}
	for _, tt := range tests {
		if got := paddedSize(tt.in); got != tt.want {
			t.Errorf("paddedSize(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
