// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestWebRiskFaultStorm is lookup's TestWebRiskFaultStorm through the
// server: sbserver -api webrisk, in LocalList with its mirror and in
// NoStorage, keeps its lists fresh while the upstream fails in every way
// on both of Web Risk's methods, and its endpoints are asked about a
// listed URL (a 4-byte entry, an 8-byte one) and a clean one. Whatever
// happens, a 200 never calls a listed URL safe (urls:search,
// threatMatches:find, urls:lookup, uris:search) nor leaves its full hash
// out (the mirror's hashes:search), and never gives the clean one a
// threat: a failure is a 503. Run it under -race.
func TestWebRiskFaultStorm(t *testing.T) {
	t.Parallel()
	const (
		evil  = "http://evil.example/login"
		phish = "http://phish.example/a/b.html"
		good  = "http://good.example/"
	)
	seed := func(s *sbtest.Server) {
		s.Add("mw-4b", "evil.example/login")
		s.AddPrefix("se-4b", "phish.example/a/", 8)
	}
	opts := []sbtest.Option{sbtest.WithCacheDuration(20 * time.Millisecond), sbtest.WithRecommendedNextDiff(time.Millisecond)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type proxy struct {
		up   *sbtest.Server
		base string
	}
	var proxies []proxy
	var running sync.WaitGroup
	for _, mode := range []lookup.Mode{lookup.LocalList, lookup.NoStorage} {
		up, c, p := newWebRiskProxy(t, mode, seed, opts...)
		proxies = append(proxies, proxy{up, p.URL})
		running.Go(func() { c.Run(ctx) })
	}
	defer running.Wait()
	defer cancel()

	// The storm: a random fault, for a request or a few, every 8 ms on
	// average, so that the searches fail often without backing off for
	// good (three failures in a row back off for 5 minutes).
	endpoints := []string{"", "v1/threatLists:computeDiff", "v1/hashes:search"}
	faults := []sbtest.Fault{
		{Status: 503}, {Status: 500}, {Status: 429}, {Status: 400}, {Status: 404}, {Status: 403},
		{Garbage: true}, {BadChecksum: true}, {Latency: 5 * time.Millisecond}, {Latency: 50 * time.Millisecond, Status: 503},
	}
	stormCtx, stopStorm := context.WithTimeout(ctx, time.Second)
	defer stopStorm()
	var storm sync.WaitGroup
	storm.Go(func() {
		r := rand.New(rand.NewPCG(5, 6))
		for stormCtx.Err() == nil {
			for _, p := range proxies {
				if r.IntN(8) != 0 {
					continue
				}
				f := faults[r.IntN(len(faults))]
				f.Endpoint = endpoints[r.IntN(len(endpoints))]
				f.Times = 1 + r.IntN(2)
				p.up.Inject(f)
				if r.IntN(20) == 0 {
					p.up.ClearFaults()
				}
			}
			time.Sleep(time.Millisecond)
		}
	})

	evilHash := sha256.Sum256([]byte("evil.example/login"))
	phishHash := sha256.Sum256([]byte("phish.example/a/"))
	b64 := func(b []byte) string { return url.QueryEscape(base64.StdEncoding.EncodeToString(b)) }
	// A check is one request to one endpoint about one URL: the request,
	// and what a 200 must hold (listed) or lack (clean).
	type check struct {
		name, method, path, body string
		listed                   bool
		mustHave, mustLack       string
	}
	var checks []check
	for _, u := range []string{evil, phish, good} {
		listed := u != good
		typ := "MALWARE"
		if u == phish {
			typ = "SOCIAL_ENGINEERING"
		}
		checks = append(checks,
			check{"urls:search", "GET", "/v5/urls:search?urls=" + url.QueryEscape(u), "", listed, `"threatTypes":["` + typ + `"]`, `"threats"`},
			check{"threatMatches:find", "POST", "/v4/threatMatches:find", findBody(`"MALWARE","SOCIAL_ENGINEERING"`, `"ANY_PLATFORM"`, u), listed, `"threatType":"` + typ + `"`, `"matches"`},
			check{"urls:lookup", "POST", "/v5/urls:lookup", `{"urls":["` + u + `"]}`, listed, `"unsafe":true`, `"unsafe":true`},
			check{"uris:search", "GET", "/v1/uris:search?threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&uri=" + url.QueryEscape(u), "", listed, `"threatTypes":["` + typ + `"]`, `"threat"`},
		)
	}
	mirrorChecks := []check{
		{"hashes:search 4", "GET", "/v1/hashes:search?threatTypes=MALWARE&hashPrefix=" + b64(evilHash[:4]), "", true, base64.StdEncoding.EncodeToString(evilHash[:]), ""},
		{"hashes:search 8", "GET", "/v1/hashes:search?threatTypes=SOCIAL_ENGINEERING&hashPrefix=" + b64(phishHash[:8]), "", true, base64.StdEncoding.EncodeToString(phishHash[:]), ""},
	}

	var ok, listedOK, failed atomic.Int64
	var workers sync.WaitGroup
	for w := range 6 {
		workers.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for stormCtx.Err() == nil {
				pi := r.IntN(len(proxies))
				cs := checks
				if pi == 0 && r.IntN(4) == 0 {
					cs = mirrorChecks
				}
				c := cs[r.IntN(len(cs))]
				status, body := stormRequest(t, c.method, proxies[pi].base+c.path, c.body)
				switch {
				case status == 503:
					failed.Add(1)
				case status != 200:
					t.Errorf("%s %s: %d %.300s, want 200 or 503", c.name, c.path, status, body)
				case c.listed && !strings.Contains(body, c.mustHave):
					t.Errorf("%s %s: 200 %.300s: a listed URL without %s", c.name, c.path, body, c.mustHave)
				case !c.listed && strings.Contains(body, c.mustLack):
					t.Errorf("%s %s: 200 %.300s: a clean URL with a threat", c.name, c.path, body)
				default:
					ok.Add(1)
					if c.listed {
						listedOK.Add(1)
					}
				}
			}
		})
	}
	workers.Wait()
	storm.Wait()
	t.Logf("%d replies of 200 (%d for listed URLs), %d of 503", ok.Load(), listedOK.Load(), failed.Load())
	if listedOK.Load() == 0 || failed.Load() == 0 {
		t.Errorf("the storm tried too little: %d 200s for listed URLs, %d 503s", listedOK.Load(), failed.Load())
	}
}

// stormRequest sends a request as do does, returning a transport error
// as status 0, since a test's goroutine may not call t.Fatal.
func stormRequest(t *testing.T, method, u, body string) (int, string) {
	req, err := newRequest(method, u, body)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	status, b, err := roundTrip(req)
	if err != nil {
		t.Error(err)
	}
	return status, b
}

// newRequest makes a request; a POST is sent as JSON.
func newRequest(method, u, body string) (*http.Request, error) {
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err == nil && method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, err
}

// roundTrip sends req and returns the status and body of its reply.
func roundTrip(req *http.Request) (int, string, error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}
