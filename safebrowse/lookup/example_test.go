// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// ExampleNew makes a client, loads its lists and waits until it is ready.
// Against the real API, leave BaseURL empty and give your key.
func ExampleNew() {
	s := sbtest.NewServer() // a fake v5 server on loopback
	defer s.Close()
	s.Add("se-4b", "evil.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	_, err = c.Lookup(context.Background(), "http://evil.example/")
	fmt.Println(errors.Is(err, lookup.ErrNotReady))

	// A service runs go c.Run(ctx) instead, which keeps the lists fresh.
	if err := c.Update(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Ready(context.Background()))
	for _, l := range c.Lists() {
		fmt.Println(l.Name, l.Entries)
	}
	// Output:
	// true
	// <nil>
	// se-4b 1
	// mw-4b 0
	// uws-4b 0
	// uwsa-4b 0
	// pha-4b 0
}

// ExampleClient_Lookup checks URLs. Threats come in the order of the URL's
// expressions (safebrowse.Expressions): for each host, the path, then its
// prefixes from "/" down.
func ExampleClient_Lookup() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	s.Add("mw-4b", "evil.example/download/", sbtest.Canary)

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Update(ctx); err != nil {
		log.Fatal(err)
	}

	for _, u := range []string{"http://good.example/", "https://www.evil.example/download/x.exe"} {
		v, err := c.Lookup(ctx, u)
		if err != nil {
			fmt.Println(u, err) // the check is incomplete: not "safe"
			continue
		}
		fmt.Println(u, "unsafe:", v.Unsafe())
		for _, t := range v.Threats {
			fmt.Println("  ", t.Type, t.Expression, t.Attributes)
		}
	}

	_, err = c.Lookup(ctx, "mailto:someone@evil.example")
	fmt.Println(err)
	// Output:
	// http://good.example/ unsafe: false
	// https://www.evil.example/download/x.exe unsafe: true
	//    SOCIAL_ENGINEERING evil.example/ []
	//    MALWARE evil.example/download/ [CANARY]
	// lookup: safebrowse: unsupported scheme in "mailto:someone@evil.example": "mailto" is not hierarchical
}

// ExampleClient_LookupAll checks many URLs in few requests; a bad URL gets an
// empty verdict and an error naming its index.
func ExampleClient_LookupAll() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "malware.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	urls := []string{"http://a.example/", "http://malware.example/x", "", "http://b.example/"}
	vs, err := c.LookupAll(context.Background(), urls)
	for i, v := range vs {
		fmt.Println(i, v.Unsafe())
	}
	fmt.Println(err)
	fmt.Println(s.Requests("hashes:search"), "request")
	// Output:
	// 0 false
	// 1 true
	// 2 false
	// 3 false
	// lookup: URL 2: safebrowse: empty URL in ""
	// 1 request
}

// ExampleStatusError shows a failed request's error: the status and the
// server's message, with the API key masked.
func ExampleStatusError() {
	s := sbtest.NewServer(sbtest.WithAPIKey("right-key"))
	defer s.Close()
	c, err := lookup.New(lookup.Config{APIKey: "wrong-key", BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	err = c.Update(context.Background())
	var se *lookup.StatusError
	if errors.As(err, &se) {
		fmt.Println(se.StatusCode)
	}
	fmt.Println(err)
	// Output:
	// 400
	// lookup: hashLists:batchGet: HTTP 400 Bad Request: sbtest: API key not valid. Please pass a valid API key.
}

// ExampleClient_Run keeps the lists fresh in the background, as a service
// does, and waits for them with Ready.
func ExampleClient_Run() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "malware.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Run(ctx) }()
	if err := c.Ready(ctx); err != nil {
		log.Fatal(err)
	}
	v, err := c.Lookup(ctx, "http://malware.example/")
	fmt.Println(v.Unsafe(), err)

	cancel()
	fmt.Println(<-done)
	c.Close()
	_, err = c.Lookup(context.Background(), "http://malware.example/")
	fmt.Println(err)
	// Output:
	// true <nil>
	// context canceled
	// lookup: client closed
}

// ExampleParseMode reads a mode from a flag.
func ExampleParseMode() {
	for _, s := range []string{"LocalList", "real-time", "no_storage", "fast"} {
		m, err := lookup.ParseMode(s)
		fmt.Println(m, err)
	}
	// Output:
	// LocalList <nil>
	// RealTime <nil>
	// NoStorage <nil>
	// LocalList lookup: unknown mode "fast" (want LocalList, RealTime or NoStorage)
}

// ExampleThreatType_String prints the API's names.
func ExampleThreatType_String() {
	fmt.Println(lookup.Malware, lookup.SocialEngineering, lookup.UnwantedSoftware, lookup.PotentiallyHarmfulApplication, lookup.ThreatType(9))
	fmt.Println(lookup.Canary, lookup.FrameOnly)
	// Output:
	// MALWARE SOCIAL_ENGINEERING UNWANTED_SOFTWARE POTENTIALLY_HARMFUL_APPLICATION ThreatType(9)
	// CANARY FRAME_ONLY
}

// ExampleClient_Stats reads the counters an operator graphs.
func ExampleClient_Stats() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Update(ctx); err != nil {
		log.Fatal(err)
	}
	for _, u := range []string{"http://evil.example/", "http://evil.example/", "http://good.example/", ""} {
		c.Lookup(ctx, u)
	}
	st := c.Stats()
	fmt.Println("lookups", st.Lookups, "unsafe", st.Unsafe, "errors", st.Errors)
	fmt.Println("cache hits", st.CacheHits, "local misses", st.LocalMisses)
	fmt.Println("searches", st.Searches, "updates", st.Updates)
	// Output:
	// lookups 4 unsafe 2 errors 1
	// cache hits 1 local misses 1
	// searches 1 updates 1
}

// ExampleBatchError pairs each URL of LookupAll with its error, and tells a
// bad URL, which no retry will check, from a check that failed.
func ExampleBatchError() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "malware.example/")
	s.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 503, Times: 1})

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	urls := []string{"http://malware.example/", "mailto:someone@example.com"}
	_, err = c.LookupAll(context.Background(), urls)
	var be *lookup.BatchError
	if errors.As(err, &be) {
		for i, err := range be.Errs {
			switch {
			case err == nil:
				fmt.Println(urls[i], "checked")
			case errors.Is(err, lookup.ErrInvalidURL):
				fmt.Println(urls[i], "is not a URL to check:", err)
			default:
				fmt.Println(urls[i], "not checked:", err)
			}
		}
	}
	// Output:
	// http://malware.example/ not checked: lookup: hashes:search: HTTP 503 Service Unavailable: sbtest: injected fault: 503 Service Unavailable
	// mailto:someone@example.com is not a URL to check: lookup: safebrowse: unsupported scheme in "mailto:someone@example.com": "mailto" is not hierarchical
}

// ExampleErrInvalidURL tells a URL that cannot be checked from a failed
// check: the error is both ErrInvalidURL and the safebrowse error saying why.
func ExampleErrInvalidURL() {
	c, err := lookup.New(lookup.Config{APIKey: "key", Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	_, err = c.Lookup(context.Background(), "")
	fmt.Println(errors.Is(err, lookup.ErrInvalidURL), errors.Is(err, safebrowse.ErrEmpty))
	fmt.Println(err)
	// Output:
	// true true
	// lookup: safebrowse: empty URL in ""
}

// ExampleClient_Ready fails fast and says why when the lists cannot load:
// here the server refuses every fetch, as it does a key without the API
// enabled.
func ExampleClient_Ready() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Inject(sbtest.Fault{Status: 403})

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go c.Run(ctx)
	err = c.Ready(ctx)
	var se *lookup.StatusError
	fmt.Println(errors.Is(err, lookup.ErrNotReady), errors.As(err, &se) && se.StatusCode == 403)
	fmt.Println(err)
	// Output:
	// true true
	// lookup: lists not loaded yet: hashLists:batchGet: HTTP 403 Forbidden: sbtest: injected fault: 403 Forbidden
}

// ExampleClient_Lists reports each list's state: what a status page shows.
func ExampleClient_Lists() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Lists: []string{"se-4b", "mw-4b"}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		log.Fatal(err)
	}
	for _, l := range c.Lists() {
		fmt.Println(l.Name, l.Entries, string(l.Version), l.Err, time.Since(l.Updated) < time.Minute)
	}
	// Output:
	// se-4b 1 se-4b:1 <nil> true
	// mw-4b 0 mw-4b:0 <nil> true
}

// ExampleConfig_frozen answers from lists saved by an earlier run, for
// reproducible answers: a frozen client fetches no list.
func ExampleConfig_frozen() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	dir, err := os.MkdirTemp("", "lists")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	// A first run fetches the lists and saves them in dir.
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Update(ctx); err != nil {
		log.Fatal(err)
	}
	c.Close()

	f, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir, Frozen: true})
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	fmt.Println(f.Ready(ctx))
	fmt.Println(f.Update(ctx))
	v, err := f.Lookup(ctx, "http://evil.example/")
	fmt.Println(v.Unsafe(), err)

	_, err = lookup.New(lookup.Config{APIKey: s.APIKey, Frozen: true})
	fmt.Println(err)
	// Output:
	// <nil>
	// lookup: lists frozen by Config.Frozen
	// true <nil>
	// lookup: Config.Frozen needs Config.Dir, which the frozen lists load from
}

// ExampleConfig_userAgent names the program in the User-Agent of every
// request, before the library's own "urlspec/<version>".
func ExampleConfig_userAgent() {
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.UserAgent()
		http.Error(w, "down for the example", http.StatusServiceUnavailable)
	}))
	defer srv.Close()

	c, err := lookup.New(lookup.Config{APIKey: "key", BaseURL: srv.URL, UserAgent: "myscanner/1.2"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.Update(context.Background())
	fmt.Println(strings.HasPrefix(ua, "myscanner/1.2 urlspec/"))
	// Output:
	// true
}

// ExampleClient_Backoff reads the back-offs after the server has failed
// three searches in a row: the searches back off, as Chromium's do, and a
// service can answer Retry-After from SearchUntil.
func ExampleClient_Backoff() {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	c, err := lookup.New(lookup.Config{APIKey: "k", BaseURL: down.URL, Mode: lookup.NoStorage})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	for range 4 {
		_, err = c.Lookup(context.Background(), "http://a.example/")
	}
	b := c.Backoff()
	fmt.Println("search failures:", b.SearchFailures)
	fmt.Println("searches back off for", time.Until(b.SearchUntil).Round(time.Minute))
	fmt.Println("updates back off:", !b.UpdateUntil.IsZero())
	fmt.Println(errors.Is(err, lookup.ErrBackoff))
	// Output:
	// search failures: 3
	// searches back off for 5m0s
	// updates back off: false
	// true
}
