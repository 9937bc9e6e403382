// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// ExampleParseAPI reads the API from a flag.
func ExampleParseAPI() {
	for _, s := range []string{"webrisk", "SafeBrowsing", "web-risk", "v4"} {
		a, err := lookup.ParseAPI(s)
		fmt.Println(a, err)
	}
	// Output:
	// WebRisk <nil>
	// SafeBrowsing <nil>
	// WebRisk <nil>
	// SafeBrowsing lookup: unknown API "v4" (want SafeBrowsing or WebRisk)
}

// ExampleConfig_webRisk makes a client of the Web Risk API, for
// commercial use: its lists are its threat types, fetched from
// webrisk.googleapis.com unless BaseURL says otherwise. Web Risk has no
// RealTime mode.
func ExampleConfig_webRisk() {
	c, err := lookup.New(lookup.Config{APIKey: "your-key", API: lookup.WebRisk})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	for _, l := range c.Lists() {
		fmt.Println(l.Name, l.Loaded)
	}
	// A service runs go c.Run(ctx), then c.Ready(ctx), as under v5.

	_, err = lookup.New(lookup.Config{APIKey: "your-key", API: lookup.WebRisk, Mode: lookup.RealTime})
	fmt.Println(err)

	// The extended coverage list, which has more false positives, is
	// kept only when named; its threats are of a type v5 lacks.
	c2, err := lookup.New(lookup.Config{APIKey: "your-key", API: lookup.WebRisk,
		Lists: []string{"SOCIAL_ENGINEERING", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
	if err != nil {
		log.Fatal(err)
	}
	defer c2.Close()
	fmt.Println(len(c2.Lists()), lookup.SocialEngineeringExtendedCoverage)
	// Output:
	// MALWARE false
	// SOCIAL_ENGINEERING false
	// UNWANTED_SOFTWARE false
	// lookup: Config.Mode: Web Risk has no Global Cache list, so no RealTime mode: use LocalList or NoStorage
	// 2 SOCIAL_ENGINEERING_EXTENDED_COVERAGE
}

// ExampleConfig_maxSearchesPerMinute caps the searches a client sends:
// past the cap, a lookup that needs one fails with ErrSearchBudget, never
// "safe". Under Web Risk each search is billed, and a NoStorage lookup
// may send 30.
func ExampleConfig_maxSearchesPerMinute() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "evil.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage, MaxSearchesPerMinute: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for _, u := range []string{"http://evil.example/", "http://other.example/", "http://evil.example/"} {
		v, err := c.Lookup(ctx, u)
		switch {
		case errors.Is(err, lookup.ErrSearchBudget):
			fmt.Println(u, "not checked: over budget")
		case err != nil:
			fmt.Println(u, err)
		default:
			fmt.Println(u, "unsafe:", v.Unsafe())
		}
	}
	fmt.Println("searches", c.Stats().Searches, "over budget", c.Stats().SearchesOverBudget)
	// Output:
	// http://evil.example/ unsafe: true
	// http://other.example/ not checked: over budget
	// http://evil.example/ unsafe: true
	// searches 1 over budget 1
}

// ExampleClient_SearchHashPrefixes asks the server about raw prefixes, as
// a front that serves a fleet does: under Web Risk, each of 4 to 32 bytes
// (a whole entry of a list); under v5, of 4.
func ExampleClient_SearchHashPrefixes() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	h := sha256.Sum256([]byte("evil.example/"))
	res, err := c.SearchHashPrefixes(context.Background(), [][]byte{h[:4], h[:4]})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res {
		fmt.Printf("%x %d %v\n", r.HashPrefix, len(r.FullHashes), r.Origin)
	}
	_, err = c.SearchHashPrefixes(context.Background(), [][]byte{h[:8]})
	fmt.Println(err)
	// Output:
	// f001957c 1 OriginSearch
	// f001957c 1 OriginSearch
	// lookup: SearchHashPrefixes: prefix 0 is 8 bytes, want 4
}

// ExampleListSnapshot_Entries walks a list's hashes: under v5 each Width
// bytes, under Web Risk each of its own length (Lengths).
func ExampleListSnapshot_Entries() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	s.Add("se-4b", "phish.example/")
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Lists: []string{"se-4b"}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		log.Fatal(err)
	}
	snap, _ := c.ListSnapshot("se-4b")
	fmt.Println(snap.Len(), snap.Width, snap.Lengths == nil)
	for e := range snap.Entries() {
		fmt.Printf("%x\n", e)
	}
	// Output:
	// 2 4 true
	// 153406eb
	// f001957c
}
