// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"slices"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// TestMinimumWait: one minimumWaitDuration a reply, the mirror's rule
// (the time until the next update, plus up to 10%, within a minute and a
// day) for the soonest due of the source's lists that the served lists
// asked are made of; when no list asked is served, the soonest due of
// all; a day for a frozen server.
func TestMinimumWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	now := time.Now()
	h.v4.now = func() time.Time { return now }
	// The source's lists due at different times, as if fetched apart.
	due := map[string]time.Duration{"mw-4b": 10 * time.Minute, "se-4b": 20 * time.Minute, "uws-4b": 30 * time.Minute, "uwsa-4b": 15 * time.Minute, "pha-4b": 40 * time.Minute}
	st := slices.Clone(h.src.Lists())
	for i := range st {
		st[i].Next = now.Add(due[st[i].Name])
	}
	h.v4.status.Store(&statuses{gen: h.src.ListsGeneration(), st: st})
	unserved := v4wire.ThreatListDescriptor{ThreatType: 8, PlatformType: v4wire.Chrome, ThreatEntryType: v4wire.URL}
	tests := []struct {
		name string
		ds   []v4wire.ThreatListDescriptor
		rnd  float64
		want time.Duration
	}{
		// MALWARE's mw-4b, due first.
		{"all", goLists, 0, 10 * time.Minute},
		// With the most jitter: 10% more.
		{"jitter", goLists, 0.9999, 10*time.Minute + 59*time.Second},
		// SOCIAL_ENGINEERING alone: se-4b.
		{"se", goLists[1:2], 0, 20 * time.Minute},
		// UNWANTED_SOFTWARE: the sooner of uws-4b and uwsa-4b.
		{"uws", goLists[2:3], 0, 15 * time.Minute},
		// PHA and SOCIAL_ENGINEERING, a list not served between them.
		{"pha and se", []v4wire.ThreatListDescriptor{goLists[3], unserved, goLists[1]}, 0, 20 * time.Minute},
		// Nothing served asked: the soonest of all.
		{"unserved", []v4wire.ThreatListDescriptor{unserved}, 0, 10 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.v4.rand = func() float64 { return tt.rnd }
			for _, form := range []int{formProto, formJSON} {
				r := h.fetch(t, form, client{}.request(tt.ds, riceOnly))
				if !r.HasMinimumWait || r.MinimumWait != tt.want {
					t.Errorf("%s: minimumWaitDuration %v (present %v), want %v", formNames[form], r.MinimumWait, r.HasMinimumWait, tt.want)
				}
			}
		})
	}
	// Past the due time: a minute at least.
	h.v4.rand = func() float64 { return 0 }
	h.v4.now = func() time.Time { return now.Add(time.Hour) }
	if r := h.fetch(t, formProto, client{}.request(goLists, riceOnly)); r.MinimumWait != MinWait {
		t.Errorf("overdue: %v, want %v", r.MinimumWait, MinWait)
	}
	// Frozen: a day.
	h.serve(t, Config{Frozen: true})
	if r := h.fetch(t, formProto, client{}.request(goLists, riceOnly)); r.MinimumWait != FrozenWait {
		t.Errorf("frozen: %v, want %v", r.MinimumWait, FrozenWait)
	}
}
