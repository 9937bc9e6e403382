// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"crypto/sha256"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// goLists are google/safebrowsing's DefaultThreatLists, and PHA.
var goLists = []v4wire.ThreatListDescriptor{
	{ThreatType: v4wire.Malware, PlatformType: v4wire.AnyPlatform, ThreatEntryType: v4wire.URL},
	{ThreatType: v4wire.SocialEngineering, PlatformType: v4wire.AnyPlatform, ThreatEntryType: v4wire.URL},
	{ThreatType: v4wire.UnwantedSoftware, PlatformType: v4wire.AnyPlatform, ThreatEntryType: v4wire.URL},
	{ThreatType: v4wire.PotentiallyHarmfulApplication, PlatformType: v4wire.AnyPlatform, ThreatEntryType: v4wire.URL},
}

var (
	riceOnly = v4wire.Constraints{SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRice}}
	rawOnly  = v4wire.Constraints{SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRaw}}
	// As google/safebrowsing asks: both.
	both = v4wire.Constraints{SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRaw, v4wire.CompressionRice}}
)

// prefix returns the 4-byte prefix of an expression's hash, as a string.
func prefix(expr string) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:4])
}

// TestFetchForms: each form a v4 client sends (Google's generated
// clients' JSON, google/safebrowsing's binary POST with alt=proto,
// Chromium's GET with $req), with RICE and with RAW, gets full updates
// holding the upstream's lists, each checksum verified over an
// independent decoding; then, after an upstream change, partial updates
// that carry the change alone.
func TestFetchForms(t *testing.T) {
	t.Parallel()
	for form := range formNames {
		for i, cons := range []v4wire.Constraints{riceOnly, rawOnly, both} {
			wantRice := slices.Contains(cons.SupportedCompressions, v4wire.CompressionRice)
			t.Run(formNames[form]+"/"+[]string{"RICE", "RAW", "RAW+RICE"}[i], func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, Config{}, sbtest.WithTestURLs())
				for i := range 200 { // a Rice stream of some length
					h.up.Add("uwsa-4b", "many"+strconv.Itoa(i)+".example/")
				}
				h.update(t)
				c := client{}
				r := h.fetch(t, form, c.request(goLists, cons))
				if err := c.apply(goLists, &r); err != nil {
					t.Fatal(err)
				}
				for i, lr := range r.ListUpdateResponses {
					if lr.ResponseType != v4wire.FullUpdate {
						t.Errorf("list %d: %v, want FULL_UPDATE", i, lr.ResponseType)
					}
					checkCompression(t, &lr, wantRice)
				}
				want := map[v4wire.ThreatType][]string{}
				for _, u := range sbtest.TestURLs {
					if tt, ok := map[string]v4wire.ThreatType{"mw-4b": v4wire.Malware, "se-4b": v4wire.SocialEngineering, "uws-4b": v4wire.UnwantedSoftware, "pha-4b": v4wire.PotentiallyHarmfulApplication}[u.List]; ok {
						want[tt] = append(want[tt], prefix(u.Expression))
					}
				}
				for i := range 200 {
					want[v4wire.UnwantedSoftware] = append(want[v4wire.UnwantedSoftware], prefix("many"+strconv.Itoa(i)+".example/"))
				}
				for _, d := range goLists {
					w := want[d.ThreatType]
					slices.Sort(w)
					if got := c[d].entries; !slices.Equal(got, w) {
						t.Errorf("%v: %d entries, want %d", d.ThreatType, len(got), len(w))
					}
				}
				if !r.HasMinimumWait || r.MinimumWait < MinWait {
					t.Errorf("minimumWaitDuration %v (present %v), want at least %v", r.MinimumWait, r.HasMinimumWait, MinWait)
				}

				// An upstream change: the next fetch is partial, and holds
				// the change alone.
				h.up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
				h.up.Add("mw-4b", "new.example/")
				for i := range 50 {
					h.up.Remove("uwsa-4b", "many"+strconv.Itoa(3*i)+".example/")
				}
				h.update(t)
				before := c[goLists[1]].state
				r = h.fetch(t, form, c.request(goLists, cons))
				if err := c.apply(goLists, &r); err != nil {
					t.Fatal(err)
				}
				for i, lr := range r.ListUpdateResponses {
					if lr.ResponseType != v4wire.PartialUpdate {
						t.Errorf("list %d after the change: %v, want PARTIAL_UPDATE", i, lr.ResponseType)
					}
					checkCompression(t, &lr, wantRice)
				}
				mw := r.ListUpdateResponses[0]
				if len(mw.Removals) != 1 || len(mw.Additions) != 1 {
					t.Errorf("MALWARE: %d removal sets and %d addition sets, want 1 and 1", len(mw.Removals), len(mw.Additions))
				}
				if got := c[goLists[0]].entries; !slices.Equal(got, []string{prefix("new.example/")}) {
					t.Errorf("MALWARE after the change: %x", got)
				}
				if got := len(c[goLists[2]].entries); got != 151 {
					t.Errorf("UNWANTED_SOFTWARE after the change: %d entries, want 151", got)
				}
				se := r.ListUpdateResponses[1]
				if len(se.Removals)+len(se.Additions) != 0 || string(se.NewClientState) != string(before) {
					t.Errorf("SOCIAL_ENGINEERING, unchanged: %+v, want an empty partial update to state %q", se, before)
				}
			})
		}
	}
}

// checkCompression checks that every set of lr has its compressionType
// set, to RICE for the 4-byte prefixes and the removals when rice, else
// RAW, and holds the one field that type names.
func checkCompression(t *testing.T, lr *v4wire.ListUpdateResponse, rice bool) {
	t.Helper()
	for _, set := range slices.Concat(lr.Additions, lr.Removals) {
		switch {
		case set.Compression == v4wire.CompressionRice && rice && (set.RiceHashes != nil) != (set.RiceIndices != nil) && set.RawHashes == nil && set.RawIndices == nil:
		case set.Compression == v4wire.CompressionRaw && (!rice || (set.RawHashes != nil && set.RawHashes.PrefixSize > 4)) &&
			(set.RawHashes != nil) != (set.RawIndices != nil) && set.RiceHashes == nil && set.RiceIndices == nil:
		default:
			t.Errorf("%v: a set %+v with rice %v", lr.ThreatType, set, rice)
		}
	}
}

// TestUnserved: lists asked that are not served (another threat type,
// platform or entry type) get an empty full update with the empty list's
// checksum, each in its place in the request's order, echoing its three
// types; so does a threat type whose lists the source does not keep.
func TestUnserved(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{}, sbtest.WithTestURLs())
	ds := []v4wire.ThreatListDescriptor{
		{ThreatType: 8, PlatformType: v4wire.Chrome, ThreatEntryType: v4wire.URL}, // CSD_WHITELIST
		goLists[0],
		{ThreatType: v4wire.Malware, PlatformType: v4wire.Windows, ThreatEntryType: v4wire.Executable},
		{ThreatType: v4wire.Malware, PlatformType: 0, ThreatEntryType: v4wire.URL},
		{ThreatType: v4wire.SocialEngineering, PlatformType: v4wire.Chrome, ThreatEntryType: v4wire.URL},
		{ThreatType: 99, PlatformType: 99, ThreatEntryType: 99},
	}
	c := client{}
	r := h.fetch(t, formProto, c.request(ds, riceOnly))
	if err := c.apply(ds, &r); err != nil {
		t.Fatal(err)
	}
	empty := sha256.Sum256(nil)
	for i, d := range ds {
		lr := &r.ListUpdateResponses[i]
		served := i == 1 || i == 4
		if served != (len(lr.Additions) > 0) || lr.ResponseType != v4wire.FullUpdate || len(lr.NewClientState) == 0 {
			t.Errorf("%v: %+v", d, lr)
		}
		if !served && string(lr.Checksum) != string(empty[:]) {
			t.Errorf("%v: checksum %x, want the empty list's", d, lr.Checksum)
		}
	}
	// Again from its state: still an empty full update.
	r = h.fetch(t, formProto, c.request(ds[:1], riceOnly))
	if lr := r.ListUpdateResponses[0]; lr.ResponseType != v4wire.FullUpdate || string(lr.Checksum) != string(empty[:]) {
		t.Errorf("again: %+v", lr)
	}
	if st := h.v4.Stats(); st.Unserved != 5 || st.FullUpdates != 2 {
		t.Errorf("Stats %+v", st)
	}

	// A source that keeps se-4b alone serves SOCIAL_ENGINEERING alone.
	h2 := &harness{up: h.up}
	src, err := lookupNew(h.up, "se-4b")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	h2.src = src
	h2.update(t)
	h2.serve(t, Config{})
	c = client{}
	r = h2.fetch(t, formJSON, c.request(goLists, rawOnly))
	if err := c.apply(goLists, &r); err != nil {
		t.Fatal(err)
	}
	for i, d := range goLists {
		if got, want := len(c[d].entries), map[bool]int{true: 1, false: 0}[i == 1]; got != want {
			t.Errorf("%v: %d entries, want %d", d.ThreatType, got, want)
		}
	}
}

// TestNotLoaded: a fetch of a served list before the source has loaded
// it is a 503, never an empty 200.
func TestNotLoaded(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithTestURLs())
	t.Cleanup(up.Close)
	h := &harness{up: up, src: newSource(t, up)}
	h.serve(t, Config{})
	for form := range formNames {
		status, _, body := h.fetchRaw(t, form, client{}.request(goLists, riceOnly))
		if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "not loaded yet") {
			t.Errorf("%s: %d %s, want 503", formNames[form], status, body)
		}
	}
	h.update(t)
	if status, _, body := h.fetchRaw(t, formJSON, client{}.request(goLists, riceOnly)); status != http.StatusOK {
		t.Errorf("once loaded: %d %s", status, body)
	}
}

// TestMaxDatabaseEntries: a list over the client's maxDatabaseEntries is
// a 400 that names both sizes.
func TestMaxDatabaseEntries(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for i := range 30 {
		h.up.Add("se-4b", "e"+strconv.Itoa(i)+".example/")
	}
	h.update(t)
	m := client{}.request(goLists[1:2], v4wire.Constraints{MaxDatabaseEntries: 20})
	status, _, body := h.fetchRaw(t, formJSON, m)
	if status != http.StatusBadRequest || !strings.Contains(string(body), "30 entries") || !strings.Contains(string(body), "maxDatabaseEntries=20") {
		t.Errorf("%d %s, want a 400 naming 30 and 20", status, body)
	}
	m.ListUpdateRequests[0].Constraints.MaxDatabaseEntries = 30
	if status, _, body := h.fetchRaw(t, formJSON, m); status != http.StatusOK {
		t.Errorf("at the bound: %d %s", status, body)
	}
}

// TestChunks: maxUpdateEntries cuts a full update, and then a partial
// one, into chunks of the chunk size at or below it, removals first,
// then the smallest additions, each leading to a state the next request
// goes on from; a reply with a chunk that is not the last has no
// minimumWaitDuration. A limit below 1024 is a 400.
func TestChunks(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for i := range 2500 {
		h.up.Add("mw-4b", "e"+strconv.Itoa(i)+".example/")
	}
	h.update(t)
	ds := goLists[:2]
	cons := v4wire.Constraints{MaxUpdateEntries: 1500, SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRice}}
	c := client{}
	var sizes []int
	var types []v4wire.ResponseType
	for range 10 {
		r := h.fetch(t, formProto, c.request(ds, cons))
		before := len(c[ds[0]].entriesOrNil())
		if err := c.apply(ds, &r); err != nil {
			t.Fatal(err)
		}
		lr := r.ListUpdateResponses[0]
		sizes = append(sizes, len(c[ds[0]].entries)-before)
		types = append(types, lr.ResponseType)
		final := len(c[ds[0]].entries) == 2500
		if r.HasMinimumWait != final {
			t.Errorf("chunk %d: minimumWaitDuration present %v, final %v", len(sizes), r.HasMinimumWait, final)
		}
		if final {
			break
		}
	}
	if want := []int{1024, 1024, 452}; !slices.Equal(sizes, want) {
		t.Errorf("chunks of %v entries, want %v", sizes, want)
	}
	if want := []v4wire.ResponseType{v4wire.FullUpdate, v4wire.PartialUpdate, v4wire.PartialUpdate}; !slices.Equal(types, want) {
		t.Errorf("chunks %v, want %v", types, want)
	}
	// The state at the end is the list's, as a whole update names it.
	whole := h.fetch(t, formProto, client{}.request(ds, riceOnly))
	if got, want := string(c[ds[0]].state), string(whole.ListUpdateResponses[0].NewClientState); got != want {
		t.Errorf("state after the chunks %q, want %q", got, want)
	}
	// A partial update of 1200 removals and 300 additions: the removals
	// first.
	for i := range 1200 {
		h.up.Remove("mw-4b", "e"+strconv.Itoa(2*i)+".example/")
	}
	for i := range 300 {
		h.up.Add("mw-4b", "f"+strconv.Itoa(i)+".example/")
	}
	h.update(t)
	cons.MaxUpdateEntries = 1024
	r := h.fetch(t, formJSON, c.request(ds, cons))
	if err := c.apply(ds, &r); err != nil {
		t.Fatal(err)
	}
	if lr := r.ListUpdateResponses[0]; len(lr.Additions) != 0 || len(c[ds[0]].entries) != 2500-1024 || r.HasMinimumWait {
		t.Errorf("first chunk: %d addition sets, %d entries left, wait present %v", len(lr.Additions), len(c[ds[0]].entries), r.HasMinimumWait)
	}
	r = h.fetch(t, formJSON, c.request(ds, cons))
	if err := c.apply(ds, &r); err != nil {
		t.Fatal(err)
	}
	if len(c[ds[0]].entries) != 1600 || !r.HasMinimumWait {
		t.Errorf("second chunk: %d entries, wait present %v", len(c[ds[0]].entries), r.HasMinimumWait)
	}
	cons.MaxUpdateEntries = 1023
	if status, _, body := h.fetchRaw(t, formJSON, c.request(ds, cons)); status != http.StatusBadRequest {
		t.Errorf("maxUpdateEntries 1023: %d %s, want 400", status, body)
	}
}

// entriesOrNil returns l's entries, none for a nil l.
func (l *clientList) entriesOrNil() []string {
	if l == nil {
		return nil
	}
	return l.entries
}
