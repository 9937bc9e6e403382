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
// webrisk.googleapis.com unless BaseURL says otherwise, and a listed
// entry, of 4 to 32 bytes, is searched whole.
func ExampleConfig_webRisk() {
	s := sbtest.NewServer() // serves Web Risk beside v5
	defer s.Close()
	s.Add("mw-4b", "evil.example/")           // MALWARE, a 4-byte entry
	s.AddPrefix("se-4b", "phish.example/", 8) // SOCIAL_ENGINEERING, 8 bytes
	s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "maybe.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, API: lookup.WebRisk})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	// A service runs go c.Run(ctx), then c.Ready(ctx), as under v5.
	if err := c.Update(ctx); err != nil {
		log.Fatal(err)
	}
	for _, l := range c.Lists() {
		fmt.Println(l.Name, l.Entries)
	}
	// The extended coverage list, which has more false positives, is
	// kept only when named: by default its URL is not looked up.
	for _, u := range []string{"http://evil.example/", "http://phish.example/", "http://maybe.example/"} {
		v, err := c.Lookup(ctx, u)
		fmt.Println(u, v.Threats, err)
	}
	fmt.Println("computeDiff", s.Requests("v1/threatLists:computeDiff"), "hashes:search", s.Requests("v1/hashes:search"))

	_, err = lookup.New(lookup.Config{APIKey: s.APIKey, API: lookup.WebRisk, Mode: lookup.RealTime})
	fmt.Println(err)
	// Output:
	// MALWARE 1
	// SOCIAL_ENGINEERING 1
	// UNWANTED_SOFTWARE 0
	// http://evil.example/ [{MALWARE [] evil.example/}] <nil>
	// http://phish.example/ [{SOCIAL_ENGINEERING [] phish.example/}] <nil>
	// http://maybe.example/ [] <nil>
	// computeDiff 3 hashes:search 2
	// lookup: Config.Mode: Web Risk has no Global Cache list, so no RealTime mode: use LocalList or NoStorage
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
// (a whole entry of a list); under v5, of 4. Identical prefixes are asked
// once, and the cache answers them next.
func ExampleClient_SearchHashPrefixes() {
	s := sbtest.NewServer()
	defer s.Close()
	s.AddPrefix("se-4b", "phish.example/", 8)
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, API: lookup.WebRisk, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	h := sha256.Sum256([]byte("phish.example/"))
	for range 2 {
		res, err := c.SearchHashPrefixes(ctx, [][]byte{h[:8], h[:8]})
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range res {
			fmt.Printf("%x %d %v %v\n", r.HashPrefix, len(r.FullHashes), r.FullHashes[0].Details[0].Type, r.Origin)
		}
	}
	_, err = c.SearchHashPrefixes(ctx, [][]byte{h[:3]})
	fmt.Println(err)
	// Output:
	// 153406ebe6db6394 1 SOCIAL_ENGINEERING OriginSearch
	// 153406ebe6db6394 1 SOCIAL_ENGINEERING OriginSearch
	// 153406ebe6db6394 1 SOCIAL_ENGINEERING OriginCache
	// 153406ebe6db6394 1 SOCIAL_ENGINEERING OriginCache
	// lookup: SearchHashPrefixes: prefix 0 is 3 bytes, want 4 to 32
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
