// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestReplicas: two servers, each on a source of its own that fetched
// the same upstream, give the same states and the same bytes, so that a
// client that moves from one to the other gets a partial update, and a
// server restarted (a new Server on the same lists) keeps its states.
func TestReplicas(t *testing.T) {
	t.Parallel()
	a := newHarness(t, Config{}, sbtest.WithTestURLs())
	for i := range 100 {
		a.up.Add("uws-4b", "u"+strconv.Itoa(i)+".example/")
	}
	a.update(t)
	b := &harness{up: a.up, src: newSource(t, a.up)}
	b.update(t)
	b.serve(t, Config{})
	m := client{}.request(goLists, both)
	_, _, fromA := a.fetchRaw(t, formProto, m)
	_, _, fromB := b.fetchRaw(t, formProto, m)
	if !bytes.Equal(fromA, fromB) {
		t.Errorf("the replicas' full updates differ:\n%x\n%x", fromA, fromB)
	}

	// A client of a moves to b after an upstream change.
	c := client{}
	r := a.fetch(t, formProto, c.request(goLists, both))
	if err := c.apply(goLists, &r); err != nil {
		t.Fatal(err)
	}
	a.up.Add("uwsa-4b", "more.example/")
	b.update(t)
	r = b.fetch(t, formProto, c.request(goLists, both))
	if err := c.apply(goLists, &r); err != nil {
		t.Fatal(err)
	}
	for _, lr := range r.ListUpdateResponses {
		if lr.ResponseType != v4wire.PartialUpdate {
			t.Errorf("%v from the other replica: %v, want PARTIAL_UPDATE", lr.ThreatType, lr.ResponseType)
		}
	}
	// A restart: a new Server on b's source knows b's states.
	b.serve(t, Config{})
	r = b.fetch(t, formChromium, c.request(goLists, both))
	for _, lr := range r.ListUpdateResponses {
		if lr.ResponseType != v4wire.PartialUpdate || len(lr.Additions)+len(lr.Removals) != 0 {
			t.Errorf("%v after a restart: %+v, want an empty PARTIAL_UPDATE", lr.ThreatType, lr)
		}
	}
}

// TestVersions: a client at one of the last Config.Versions versions
// gets a partial update, one at an older version the whole list.
func TestVersions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ds := goLists[:1]
	var states [][]byte
	for i := range 6 {
		h.up.Add("mw-4b", "v"+strconv.Itoa(i)+".example/")
		h.update(t)
		r := h.fetch(t, formProto, client{}.request(ds, riceOnly))
		states = append(states, r.ListUpdateResponses[0].NewClientState)
	}
	for i, st := range states {
		c := client{ds[0]: {state: st}}
		r := h.fetch(t, formProto, c.request(ds, riceOnly))
		want := v4wire.PartialUpdate
		if i < len(states)-DefaultVersions {
			want = v4wire.FullUpdate
		}
		if got := r.ListUpdateResponses[0].ResponseType; got != want {
			t.Errorf("from version %d of %d: %v, want %v", i+1, len(states), got, want)
		}
	}
}
