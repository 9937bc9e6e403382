// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// ExampleNewWebRisk serves Web Risk's lists and searches to a fleet: a
// Web Risk client with its BaseURL at the mirror gets the lists and the
// verdicts, and the upstream sees only the mirror.
func ExampleNewWebRisk() {
	up := sbtest.NewServer() // Web Risk's API, faked
	defer up.Close()
	up.Add("mw-4b", "evil.example/")
	up.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "lure.example/")

	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, API: lookup.WebRisk})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil { // or go src.Run(ctx)
		panic(err)
	}
	w, err := mirror.NewWebRisk(src, mirror.Config{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(w) // behind the server's access rules
	defer srv.Close()

	c, err := lookup.New(lookup.Config{APIKey: "fleet-key", BaseURL: srv.URL, API: lookup.WebRisk,
		Lists: []string{"MALWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		panic(err)
	}
	for _, u := range []string{"http://evil.example/", "http://lure.example/", "http://fine.example/"} {
		v, err := c.Lookup(context.Background(), u)
		fmt.Println(u, v.Unsafe(), v.Threats, err)
	}
	fmt.Println("upstream:", up.Requests("v1/threatLists:computeDiff"), "computeDiff,", up.Requests("v1/hashes:search"), "hashes:search")
	// Output:
	// http://evil.example/ true [{MALWARE [] evil.example/}] <nil>
	// http://lure.example/ true [{SOCIAL_ENGINEERING_EXTENDED_COVERAGE [] lure.example/}] <nil>
	// http://fine.example/ false [] <nil>
	// upstream: 4 computeDiff, 2 hashes:search
}

// ExampleNewURISearch answers Web Risk's uris:search from a client's
// lists: a URI they rule out costs no billed call, and a listed one is
// confirmed by one hashes:search.
func ExampleNewURISearch() {
	up := sbtest.NewServer()
	defer up.Close()
	up.Add("se-4b", "phish.example/")

	src, err := lookup.New(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, API: lookup.WebRisk})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil {
		panic(err)
	}
	u, err := mirror.NewURISearch(src, mirror.URISearchConfig{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(u)
	defer srv.Close()
	for _, uri := range []string{"http://fine.example/", "http://phish.example/"} {
		resp, err := http.Get(srv.URL + "/v1/uris:search?threatTypes=SOCIAL_ENGINEERING&threatTypes=MALWARE&uri=" + url.QueryEscape(uri))
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(body)[:min(len(body), 52)])
	}
	fmt.Println("upstream hashes:search:", up.Requests("v1/hashes:search"), "uris:search:", up.Requests("v1/uris:search"))
	// Output:
	// 200 {}
	// 200 {"threat":{"threatTypes":["SOCIAL_ENGINEERING"],"exp
	// upstream hashes:search: 1 uris:search: 0
}
