// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestNewMirrorSource: a mirror's client keeps gc-32b in every mode that
// keeps lists, and looks up by its own Mode.
func TestNewMirrorSource(t *testing.T) {
	s := sbtest.NewServer()
	t.Cleanup(s.Close)
	s.Add("se-4b", "evil.example/")
	s.Add("gc-32b", "www.google.com/")
	tests := []struct {
		mode    lookup.Mode
		lists   []string
		want    []string
		wantErr bool
	}{
		// LocalList keeps the default lists and gc-32b.
		{lookup.LocalList, nil, append(slices.Clone(lookup.DefaultLists), "gc-32b"), false},
		// Lists named, gc-32b among them, in LocalList mode.
		{lookup.LocalList, []string{"gc-32b", "se-4b"}, []string{"gc-32b", "se-4b"}, false},
		// RealTime, as New.
		{lookup.RealTime, []string{"se-4b"}, []string{"se-4b", "gc-32b"}, false},
		// NoStorage keeps nothing to mirror.
		{lookup.NoStorage, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			c, err := lookup.NewMirrorSource(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: tt.mode, Lists: tt.lists})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			defer c.Close()
			var got []string
			for _, l := range c.Lists() {
				got = append(got, l.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("lists %v, want %v", got, tt.want)
			}
			if err := c.Update(context.Background()); err != nil {
				t.Fatal(err)
			}
			// Lookups work in the client's own Mode.
			v, err := c.Lookup(context.Background(), "http://evil.example/")
			if err != nil || !v.Unsafe() {
				t.Errorf("%v: unsafe %v, err %v; want unsafe", tt.mode, v.Unsafe(), err)
			}
			// LocalList sends no search for a URL its threat lists rule
			// out, gc-32b or not; RealTime does.
			before := c.Stats().Searches
			if _, err := c.Lookup(context.Background(), "http://good.example/"); err != nil {
				t.Fatal(err)
			}
			if sent, want := c.Stats().Searches-before, map[lookup.Mode]uint64{lookup.LocalList: 0, lookup.RealTime: 1}[tt.mode]; sent != want {
				t.Errorf("%v: %d searches for a clean URL, want %d", tt.mode, sent, want)
			}
		})
	}
}

// TestListSnapshot: a snapshot holds the list's hashes sorted, its
// checksum and its status.
func TestListSnapshot(t *testing.T) {
	s := sbtest.NewServer()
	t.Cleanup(s.Close)
	for _, e := range []string{"b.example/", "a.example/", "c.example/"} {
		s.Add("se-4b", e)
	}
	c := newClient(t, s, lookup.Config{})
	if _, ok := c.ListSnapshot("nope-4b"); ok {
		t.Error("a snapshot of a list the client does not keep")
	}
	snap, ok := c.ListSnapshot("se-4b")
	if !ok || snap.Loaded || len(snap.Hashes) != 0 || snap.Checksum != sha256.Sum256(nil) {
		t.Errorf("before the update: %+v, %v", snap, ok)
	}
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap, _ = c.ListSnapshot("hashLists/se-4b")
	var want []byte
	var ps [][]byte
	for _, e := range []string{"a.example/", "b.example/", "c.example/"} {
		h := sha256.Sum256([]byte(e))
		ps = append(ps, h[:4])
	}
	slices.SortFunc(ps, bytes.Compare)
	want = bytes.Join(ps, nil)
	if !bytes.Equal(snap.Hashes, want) || snap.Width != 4 || snap.Name != "se-4b" {
		t.Errorf("hashes %x width %d name %q, want %x 4 se-4b", snap.Hashes, snap.Width, snap.Name, want)
	}
	if snap.Checksum != hashlist.Checksum(want, 4) || !snap.Loaded || snap.Updated.IsZero() || snap.Next.IsZero() {
		t.Errorf("snapshot %+v", snap)
	}
	if st := c.Lists()[0]; !bytes.Equal(st.Version, snap.Version) {
		t.Errorf("version %q, Lists says %q", snap.Version, st.Version)
	}
}

// TestSearchPrefixes: results in the order asked, the expiry from
// cache_duration, stray hashes dropped, the cache read, and the back-off
// shared with lookups.
func TestSearchPrefixes(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithCacheDuration(10 * time.Minute))
	t.Cleanup(s.Close)
	s.Add("mw-4b", "evil.example/", sbtest.Canary)
	c := newClient(t, s, lookup.Config{Mode: lookup.NoStorage})
	h := sha256.Sum256([]byte("evil.example/"))
	evil, other := [4]byte(h[:4]), [4]byte{1, 2, 3, 4}
	start := time.Now()
	got, err := c.SearchPrefixes(context.Background(), [][4]byte{other, evil})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Prefix != other || len(got[0].FullHashes) != 0 || got[1].Prefix != evil {
		t.Fatalf("got %+v", got)
	}
	fh := got[1].FullHashes
	if len(fh) != 1 || fh[0].Hash != h || len(fh[0].Details) != 1 || fh[0].Details[0].Type != lookup.Malware ||
		!slices.Equal(fh[0].Details[0].Attributes, []lookup.ThreatAttribute{lookup.Canary}) {
		t.Errorf("full hashes %+v", fh)
	}
	if d := got[0].Expires.Sub(start); d < 10*time.Minute || d > 11*time.Minute {
		t.Errorf("expires in %v, want 10m", d)
	}
	if n := c.Stats().Searches; n != 1 {
		t.Errorf("%d searches counted, want 1", n)
	}
	if got[0].Origin != lookup.OriginSearch || got[1].Origin != lookup.OriginSearch {
		t.Errorf("origins %v, %v; want OriginSearch", got[0].Origin, got[1].Origin)
	}
	// Asked again, the cache answers, with no request.
	again, err := c.SearchPrefixes(context.Background(), [][4]byte{evil})
	if err != nil || len(again) != 1 || again[0].Origin != lookup.OriginCache || !again[0].Expires.Equal(got[1].Expires) ||
		len(again[0].FullHashes) != 1 || again[0].FullHashes[0].Hash != h {
		t.Errorf("cached: %+v, %v", again, err)
	}
	if st := c.Stats(); st.Searches != 1 || st.CacheHits != 1 {
		t.Errorf("stats %+v, want 1 search and 1 cache hit", st)
	}
	// Three failures start the back-off that lookups share.
	s.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 503})
	for i := range 3 {
		if _, err := c.SearchPrefixes(context.Background(), [][4]byte{{9, 9, 9, byte(i)}}); err == nil {
			t.Fatal("no error from a 503")
		}
	}
	_, err = c.SearchPrefixes(context.Background(), [][4]byte{{9, 9, 9, 9}})
	var be *lookup.BackoffError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a BackoffError", err)
	}
	if _, err := c.Lookup(context.Background(), "http://new.example/"); !errors.Is(err, lookup.ErrBackoff) {
		t.Errorf("lookup err = %v, want ErrBackoff", err)
	}
	if _, err := c.SearchPrefixes(context.Background(), make([][4]byte, lookup.MaxSearchPrefixes+1)); err == nil {
		t.Error("no error for too many prefixes")
	}
}

// TestHashLists: every page of ListHashLists, with the metadata.
func TestHashLists(t *testing.T) {
	s := sbtest.NewServer()
	t.Cleanup(s.Close)
	c := newClient(t, s, lookup.Config{Mode: lookup.NoStorage})
	got, err := c.HashLists(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, sbtest.Lists()) {
		t.Errorf("names %v, want %v", names, sbtest.Lists())
	}
	if gc := got[0]; gc.HashLength != 32 || !slices.Equal(gc.LikelySafeTypes, []lookup.LikelySafeType{lookup.GeneralBrowsing}) {
		t.Errorf("gc-32b: %+v", gc)
	}
	if se := got[1]; se.HashLength != 4 || !slices.Equal(se.ThreatTypes, []lookup.ThreatType{lookup.SocialEngineering}) || se.Description == "" {
		t.Errorf("se-4b: %+v", se)
	}
	s.Inject(sbtest.Fault{Endpoint: "hashLists", Status: 500, Times: 1})
	if _, err := c.HashLists(context.Background()); err == nil {
		t.Error("no error from a 500")
	}
}

// ExampleNewMirrorSource makes the client a mirror serves from: it keeps
// every list, gc-32b included, whatever its Mode.
func ExampleNewMirrorSource() {
	s := sbtest.NewServer()
	defer s.Close()
	c, err := lookup.NewMirrorSource(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	for _, l := range c.Lists() {
		fmt.Print(l.Name, " ")
	}
	fmt.Println()
	// Output: se-4b mw-4b uws-4b uwsa-4b pha-4b gc-32b
}

// ExampleClient_ListSnapshot copies a list as the client holds it.
func ExampleClient_ListSnapshot() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		log.Fatal(err)
	}
	snap, _ := c.ListSnapshot("se-4b")
	fmt.Printf("%s: %d bytes, %x\n", snap.Name, len(snap.Hashes), snap.Hashes)
	// Output: se-4b: 4 bytes, f001957c
}

// ExampleClient_SearchPrefixes asks the server about raw prefixes, as a
// mirror does for its own clients.
func ExampleClient_SearchPrefixes() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "evil.example/")
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	h := sha256.Sum256([]byte("evil.example/"))
	res, err := c.SearchPrefixes(context.Background(), [][4]byte{[4]byte(h[:4])})
	if err != nil {
		log.Fatal(err)
	}
	for _, fh := range res[0].FullHashes {
		fmt.Println(fh.Hash == h, fh.Details[0].Type, res[0].Origin)
	}
	// Asked again, the client's cache answers.
	res, err = c.SearchPrefixes(context.Background(), [][4]byte{[4]byte(h[:4])})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res[0].FullHashes), res[0].Origin)
	// Output:
	// true MALWARE OriginSearch
	// 1 OriginCache
}

// ExampleClient_HashLists lists the lists the server serves.
func ExampleClient_HashLists() {
	s := sbtest.NewServer()
	defer s.Close()
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	lists, err := c.HashLists(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range lists {
		fmt.Println(l.Name, l.HashLength)
	}
	// Output:
	// gc-32b 32
	// se-4b 4
	// mw-4b 4
	// uws-4b 4
	// uwsa-4b 4
	// pha-4b 4
}

// TestListsGeneration: the generation moves after every update that
// changes what Lists reports (a new version, a failure, a recovery), so
// that a copy of Lists kept by generation, read before it, is never
// stale once an update has returned, even while updates run meanwhile.
func TestListsGeneration(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithMinimumWait(time.Nanosecond)) // due again at once
	t.Cleanup(s.Close)
	var c *lookup.Client
	var mu sync.Mutex
	var gen uint64
	var kept []lookup.ListStatus
	cached := func() []lookup.ListStatus {
		mu.Lock()
		defer mu.Unlock()
		if g := c.ListsGeneration(); kept == nil || g != gen {
			gen, kept = g, c.Lists()
		}
		return kept
	}
	// The copy is also taken while each fetch is in flight, the update
	// begun and its reply not yet applied: it must not outlive the update.
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		cached()
		return http.DefaultTransport.RoundTrip(r)
	})}
	c = newClient(t, s, lookup.Config{Lists: []string{"se-4b"}, HTTPClient: hc})
	same := func(step string) {
		t.Helper()
		got, want := cached()[0], c.Lists()[0]
		if !bytes.Equal(got.Version, want.Version) || got.Loaded != want.Loaded || got.Entries != want.Entries ||
			!got.Next.Equal(want.Next) || (got.Err == nil) != (want.Err == nil) {
			t.Errorf("%s: kept %+v, Lists says %+v", step, got, want)
		}
	}
	same("before any update")
	// Someone reading all along, so that the race detector sees the
	// generation and the lists read against the updates.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				c.ListsGeneration()
				c.Lists()
			}
		}
	}()
	for i := range 5 {
		s.Add("se-4b", fmt.Sprintf("site%d.example/", i))
		before := c.ListsGeneration()
		if err := c.Update(context.Background()); err != nil {
			t.Fatal(err)
		}
		if c.ListsGeneration() == before {
			t.Errorf("update %d: the generation did not move", i)
		}
		same(fmt.Sprintf("after update %d", i))
	}
	s.Inject(sbtest.Fault{Endpoint: "hashList", Status: 503, Times: 1})
	c.Update(context.Background())
	same("after a failed update")
	if cached()[0].Err == nil {
		t.Error("the failure is not in what was kept")
	}
	close(stop)
	<-done
	// No update, no move.
	if g := c.ListsGeneration(); g != c.ListsGeneration() || g != gen {
		t.Errorf("the generation moved with no update: %d, then %d", gen, g)
	}
}

// roundTripFunc is an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// ExampleClient_ListsGeneration keeps a copy of Lists until an update
// changes it, as a mirror does per request.
func ExampleClient_ListsGeneration() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Lists: []string{"se-4b"}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	gen, lists := c.ListsGeneration(), c.Lists()
	fmt.Println(lists[0].Name, lists[0].Loaded)
	if err := c.Update(context.Background()); err != nil {
		log.Fatal(err)
	}
	if g := c.ListsGeneration(); g != gen {
		gen, lists = g, c.Lists() // read the generation first
	}
	fmt.Println(lists[0].Name, lists[0].Loaded, lists[0].Entries)
	// Output:
	// se-4b false
	// se-4b true 1
}
