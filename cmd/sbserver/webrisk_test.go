// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// webRiskLists are all four of Web Risk's lists.
var webRiskLists = []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}

// TestWebRiskFlags: -api and $SBSERVER_API, and the combinations Web
// Risk refuses.
func TestWebRiskFlags(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		args    []string
		env     map[string]string
		want    lookup.API
		wantErr string
	}{
		// Safe Browsing by default.
		{"default", nil, nil, lookup.SafeBrowsing, ""},
		// Web Risk by the flag, in any case.
		{"flag", []string{"-api", "webrisk"}, nil, lookup.WebRisk, ""},
		{"flag camel", []string{"-api", "WebRisk"}, nil, lookup.WebRisk, ""},
		// ... or by the variable.
		{"env", nil, map[string]string{"SBSERVER_API": "webrisk"}, lookup.WebRisk, ""},
		// The flag over the variable.
		{"flag over env", []string{"-api", "safebrowsing"}, map[string]string{"SBSERVER_API": "webrisk"}, lookup.SafeBrowsing, ""},
		// A mirror of Web Risk.
		{"mirror", []string{"-api", "webrisk", "-mirror"}, nil, lookup.WebRisk, ""},
		// NoStorage under Web Risk.
		{"nostorage", []string{"-api", "webrisk", "-mode", "NoStorage"}, nil, lookup.WebRisk, ""},
		// An API that is neither.
		{"unknown", []string{"-api", "v4"}, nil, 0, "-api"},
		// Web Risk has no Global Cache.
		{"realtime", []string{"-api", "webrisk", "-mode", "RealTime"}, nil, 0, "-mode RealTime"},
		// ... and Google no Web Risk gateway.
		{"ohttp", []string{"-api", "webrisk", "-ohttp-relay", "https://relay.example/"}, nil, 0, "-ohttp-relay"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "SAFE_BROWSING_API_KEY" {
					return "k"
				}
				return tt.env[k]
			}
			c, err := parseFlags(tt.args, getenv, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("parseFlags = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.lookupAPI != tt.want || c.upstream != "" {
				t.Errorf("API %v, upstream %q; want %v and lookup's default", c.lookupAPI, c.upstream, tt.want)
			}
		})
	}
}

// waitReadyBinary waits until the built binary at base answers /readyz
// with a 200.
func waitReadyBinary(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, _, _ := request(t, "GET", base+"/readyz", "")
		if status == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d after 20 s", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBinaryWebRisk: the built binary with -fake -api webrisk -mirror
// answers the test URLs from Web Risk's lists on urls:search,
// threatMatches:find, urls:lookup and /v1/uris:search; serves Web Risk's
// computeDiff and hashes:search; answers 404 on v5's mirror endpoints;
// shows its API in /status; counts its upstream requests by method; and
// refuses keys and browsers as on the other endpoints, with ErrorInfo
// naming Web Risk.
func TestBinaryWebRisk(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "-fake", "-api", "webrisk", "-mirror", "-addr", "127.0.0.1:0", "-client-keys", writeKeys(t, clientKey))
	base := "http://" + p.addr
	waitReadyBinary(t, base)
	const malware = "http://malware.testing.google.test/testing/malware/"
	const phishing = "http://testsafebrowsing.appspot.com/s/phishing.html"
	auth := "X-Goog-Api-Key: " + clientKey
	jsonCT := "Content-Type: application/json"
	h := sha256.Sum256([]byte("malware.testing.google.test/testing/malware/"))
	prefix := url.QueryEscape(base64.StdEncoding.EncodeToString(h[:4]))
	for _, tt := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		want                     string
	}{
		// v5 urls.search, from Web Risk's lists.
		{"urls:search", "GET", "/v5/urls:search?urls=" + malware + "&urls=http://example.com/", "", []string{auth}, 200,
			`{"threats":[{"url":"` + malware + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}`},
		// v4 threatMatches.find.
		{"threatMatches:find", "POST", "/v4/threatMatches:find", findBody(`"SOCIAL_ENGINEERING"`, `"ANY_PLATFORM"`, phishing), []string{auth, jsonCT}, 200,
			`"threatType":"SOCIAL_ENGINEERING","platformType":"ANY_PLATFORM"`},
		// sbserver's own lookup.
		{"urls:lookup", "POST", "/v5/urls:lookup", `{"urls":["` + malware + `","http://example.com/"]}`, []string{auth, jsonCT}, 200,
			`"unsafe":true,"threats":[{"threatType":"MALWARE"`},
		// Web Risk's uris.search: listed.
		{"uris:search", "GET", "/v1/uris:search?threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&uri=" + url.QueryEscape(malware), "", []string{auth}, 200,
			`{"threat":{"threatTypes":["MALWARE"],"expireTime":"`},
		// ... clean: {}.
		{"uris:search clean", "GET", "/v1/uris:search?threatTypes=MALWARE&uri=http://example.com/", "", []string{auth}, 200, `{}`},
		// ... threatTypes required, as Google requires it.
		{"uris:search no types", "GET", "/v1/uris:search?uri=http://example.com/", "", []string{auth}, 400, `"status":"INVALID_ARGUMENT"`},
		// The mirror's computeDiff, extended coverage kept.
		{"computeDiff", "GET", "/v1/threatLists:computeDiff?threatType=SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "", []string{auth}, 200, `"responseType":"RESET"`},
		// The mirror's hashes:search.
		{"hashes:search", "GET", "/v1/hashes:search?threatTypes=MALWARE&hashPrefix=" + prefix, "", []string{auth}, 200, base64.StdEncoding.EncodeToString(h[:])},
		// v5's mirror endpoints are not served under Web Risk.
		{"v5 hashList", "GET", "/v5/hashList/se-4b", "", []string{auth}, 404, "not found"},
		{"v5 batchGet", "GET", "/v5/hashLists:batchGet?names=se-4b", "", []string{auth}, 404, "not found"},
		{"v5 hashLists", "GET", "/v5/hashLists", "", []string{auth}, 404, "not found"},
		{"v5 hashes:search", "GET", "/v5/hashes:search?hashPrefixes=" + prefix, "", []string{auth}, 404, "not found"},
		// The status names the API.
		{"status", "GET", "/status", "", []string{auth}, 200, `"api":"WebRisk"`},
		// No key: 401, with Web Risk's ErrorInfo.
		{"no key", "GET", "/v1/uris:search?threatTypes=MALWARE&uri=" + url.QueryEscape(malware), "", nil, 401,
			`"reason":"CREDENTIALS_MISSING","domain":"googleapis.com","metadata":{"service":"webrisk.googleapis.com"}`},
		// A wrong key: 403.
		{"wrong key", "GET", "/v1/hashes:search?key=nope&threatTypes=MALWARE&hashPrefix=" + prefix, "", nil, 403,
			`"reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"webrisk.googleapis.com"}`},
		// The fake's key is no client key.
		{"upstream key", "GET", "/v1/threatLists:computeDiff?key=sbtest-key&threatType=MALWARE", "", nil, 403, `"status":"PERMISSION_DENIED"`},
		// A cross-site request, even with a key.
		{"cross-site", "GET", "/v1/uris:search?threatTypes=MALWARE&uri=" + url.QueryEscape(malware), "", []string{auth, "Sec-Fetch-Site: cross-site"}, 403, "cross-site"},
		// A POST to a GET method.
		{"method", "POST", "/v1/threatLists:computeDiff?threatType=MALWARE", "{}", []string{auth, jsonCT}, 405, "not allowed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, _ := request(t, tt.method, base+tt.path, tt.body, tt.headers...)
			if status != tt.status || !strings.Contains(body, tt.want) {
				t.Errorf("%d %.400s\nwant %d, %s", status, body, tt.status, tt.want)
			}
		})
	}
	// The upstream requests, by method: the mirror's four lists, and the
	// one search of the malware URL's prefix, answered from the cache
	// since.
	status, body, _ := request(t, "GET", base+"/metrics", "", auth)
	for _, want := range []string{
		`sbserver_upstream_requests_total{method="threatLists:computeDiff"} 4`,
		`sbserver_upstream_requests_total{method="hashes:search"} `,
		`sbserver_mirror_requests_total{method="threatLists:computeDiff"} 1`,
		`sbserver_requests_total{code="200",endpoint="uris:search"} 2`,
	} {
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, `method="hashLists:batchGet"`) {
		t.Error("/metrics shows v5's methods under Web Risk")
	}
}

// newWebRiskProxy starts a Web Risk sbtest server seeded by seed, a
// client of it keeping all four lists in mode, and sbserver in front of
// the client with Web Risk's uris:search, and with its mirror when the
// mode keeps lists.
func newWebRiskProxy(t testing.TB, mode lookup.Mode, seed func(*sbtest.Server), opts ...sbtest.Option) (*sbtest.Server, *lookup.Client, *httptest.Server) {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	seed(s)
	cfg := lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, API: lookup.WebRisk, Mode: mode, Lists: webRiskLists}
	var c *lookup.Client
	var err error
	if mode == lookup.NoStorage {
		c, err = lookup.New(cfg)
	} else {
		c, err = lookup.NewMirrorSource(cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	o := options{API: lookup.WebRisk, Mode: mode, UpstreamKey: s.APIKey}
	if o.URIs, err = mirror.NewURISearch(c, mirror.URISearchConfig{}); err != nil {
		t.Fatal(err)
	}
	if mode != lookup.NoStorage {
		if o.WebRisk, err = mirror.NewWebRisk(c, mirror.Config{}); err != nil {
			t.Fatal(err)
		}
		if err := c.Update(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	p := httptest.NewServer(newServer(c, o))
	t.Cleanup(p.Close)
	return s, c, p
}

// TestWebRiskExtendedCoverage: SOCIAL_ENGINEERING_EXTENDED_COVERAGE shows
// on the endpoints whose enum has it, urls:lookup and uris:search, and is
// dropped from urls:search and threatMatches:find, whose v5 and v4 enums
// lack it; a URL on another list too keeps that list's threat there.
func TestWebRiskExtendedCoverage(t *testing.T) {
	t.Parallel()
	_, _, p := newWebRiskProxy(t, lookup.LocalList, func(s *sbtest.Server) {
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "lure.example/")
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "both.example/")
		s.Add("se-4b", "both.example/")
	})
	const lure, both = "http://lure.example/", "http://both.example/"
	for _, tt := range []struct {
		name, method, path, body, want string
	}{
		// sbserver's own lookup names every threat type.
		{"urls:lookup", "POST", "/v5/urls:lookup", `{"urls":["` + lure + `"]}`, `"unsafe":true,"threats":[{"threatType":"SOCIAL_ENGINEERING_EXTENDED_COVERAGE"`},
		// Web Risk's uris:search does too.
		{"uris:search", "GET", "/v1/uris:search?threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&uri=" + lure, "",
			`{"threat":{"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE"]`},
		// v5's urls:search has no such type: dropped.
		{"urls:search", "GET", "/v5/urls:search?urls=" + lure, "", `{"cacheDuration":"300s"}`},
		// ... but the other list's threat of a URL on both stays.
		{"urls:search both", "GET", "/v5/urls:search?urls=" + both, "", `"threatTypes":["SOCIAL_ENGINEERING"]}`},
		// v4's threatMatches:find neither.
		{"threatMatches:find", "POST", "/v4/threatMatches:find", findBody(`"SOCIAL_ENGINEERING","MALWARE"`, `"ANY_PLATFORM"`, lure), "{}"},
		{"threatMatches:find both", "POST", "/v4/threatMatches:find", findBody(`"SOCIAL_ENGINEERING"`, `"ANY_PLATFORM"`, both), `"threatType":"SOCIAL_ENGINEERING"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, _ := do(t, tt.method, p.URL+tt.path, tt.body)
			if status != 200 || !strings.Contains(body, tt.want) || (tt.name == "urls:search" && strings.Contains(body, "threats")) {
				t.Errorf("%d %s, want %s", status, body, tt.want)
			}
		})
	}
}

// startInProcess runs sbserver in this process with args on a free
// loopback port, with no environment (so that tests may run in
// parallel), and returns its base URL and a function that stops it.
func startInProcess(t *testing.T, args ...string) (base string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	var stderr strings.Builder
	var mu sync.Mutex
	done := make(chan int, 1)
	h := &hooks{listening: func(a string) { addrc <- a }, getenv: func(string) string { return "" }}
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), lockedWriter{&mu, &stderr}, h)
	}()
	select {
	case a := <-addrc:
		base = "http://" + a
	case status := <-done:
		cancel()
		t.Fatalf("sbserver exited with %d: %s", status, stderr.String())
	}
	var once sync.Once
	status := 0
	stop = func() int {
		once.Do(func() {
			cancel()
			status = <-done
			if status != 0 {
				mu.Lock()
				t.Logf("stderr:\n%s", stderr.String())
				mu.Unlock()
			}
		})
		return status
	}
	t.Cleanup(func() { stop() })
	return base, stop
}

// TestWebRiskFleet: lookup clients of Web Risk, with their BaseURL at
// sbserver -api webrisk -mirror, get their lists and verdicts from it;
// 20 such clients cost the upstream the mirror's own list requests and
// one search a listed prefix, where 20 clients sent directly cost 20
// times each; and sbserver_upstream_requests_total counts what the
// upstream received.
func TestWebRiskFleet(t *testing.T) {
	t.Parallel()
	const clients = 20
	// The test URLs on Web Risk's lists (pha-4b and gc-32b have none),
	// and an 8-byte entry.
	var listed []string
	for _, u := range sbtest.TestURLs {
		switch u.List {
		case "mw-4b", "se-4b", "uws-4b", "uwsa-4b":
			listed = append(listed, u.List, u.Expression)
		}
	}
	seed := func(s *sbtest.Server) {
		for i := 0; i < len(listed); i += 2 {
			s.Add(listed[i], listed[i+1])
		}
		s.AddPrefix("mw-4b", "long.example/", 8)
	}
	urls := []string{"http://long.example/", "http://clean.example/", "http://another.example/a/b"}
	for i := 1; i < len(listed); i += 2 {
		urls = append(urls, "http://"+listed[i])
	}
	searches := len(listed)/2 + 1 // one a listed URL
	// fleet runs clients against base, each fetching its lists and
	// checking urls; a listed URL must be unsafe.
	fleet := func(base string) {
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				c, err := lookup.New(lookup.Config{APIKey: clientKey, BaseURL: base, API: lookup.WebRisk})
				if err != nil {
					t.Error(err)
					return
				}
				defer c.Close()
				if err := c.Update(context.Background()); err != nil {
					t.Error(err)
					return
				}
				for _, u := range urls {
					v, err := c.Lookup(context.Background(), u)
					listed := !strings.Contains(u, "clean") && !strings.Contains(u, "another")
					if err != nil || v.Unsafe() != listed {
						t.Errorf("%s: %+v %v, want unsafe %v", u, v.Threats, err, listed)
					}
				}
			})
		}
		wg.Wait()
	}

	up := sbtest.NewServer()
	defer up.Close()
	seed(up)
	base, _ := startInProcess(t, "-api", "webrisk", "-mirror", "-upstream", up.URL, "-key", up.APIKey)
	waitReadyz(t, base)
	fleet(base)
	viaDiffs, viaSearches := up.Requests("v1/threatLists:computeDiff"), up.Requests("v1/hashes:search")

	direct := sbtest.NewServer()
	defer direct.Close()
	seed(direct)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			c, err := lookup.New(lookup.Config{APIKey: direct.APIKey, BaseURL: direct.URL, API: lookup.WebRisk})
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			if err := c.Update(context.Background()); err != nil {
				t.Error(err)
				return
			}
			for _, u := range urls {
				c.Lookup(context.Background(), u)
			}
		})
	}
	wg.Wait()
	directDiffs, directSearches := direct.Requests("v1/threatLists:computeDiff"), direct.Requests("v1/hashes:search")
	t.Logf("%d Web Risk clients: through the mirror, %d computeDiff and %d hashes:search upstream; directly, %d and %d",
		clients, viaDiffs, viaSearches, directDiffs, directSearches)
	// The mirror's four lists, once; one search for each listed URL's
	// entry.
	if viaDiffs != 4 || viaSearches != searches {
		t.Errorf("through the mirror: %d computeDiff, %d hashes:search; want 4 and %d", viaDiffs, viaSearches, searches)
	}
	if directDiffs != 3*clients || directSearches != searches*clients {
		t.Errorf("directly: %d computeDiff, %d hashes:search; want %d and %d", directDiffs, directSearches, 3*clients, searches*clients)
	}
	for method, want := range map[string]int{"threatLists:computeDiff": viaDiffs, "hashes:search": viaSearches} {
		if got := metric(t, base, "sbserver_upstream_requests_total", "method="+method); got != float64(want) {
			t.Errorf("sbserver_upstream_requests_total{method=%q} %v, want %d, what the upstream received", method, got, want)
		}
	}
}

// TestUpstreamRequestsV5: under v5, sbserver_upstream_requests_total
// counts hashLists:batchGet and hashes:search as the upstream received
// them, and shows Web Risk's methods not at all.
func TestUpstreamRequestsV5(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer()
	defer up.Close()
	up.Add("mw-4b", "evil.example/")
	base, _ := startInProcess(t, "-upstream", up.URL, "-key", up.APIKey)
	waitReadyz(t, base)
	if status, body, err := get(context.Background(), base+"/v5/urls:search?urls=http://evil.example/"); err != nil || status != 200 {
		t.Fatalf("%d %s %v", status, body, err)
	}
	mf := scrape(t, base)["sbserver_upstream_requests_total"]
	for _, method := range []string{"hashList", "hashLists:batchGet", "hashes:search"} {
		got, ok := value(mf, "method="+method)
		if want := up.Requests(method); !ok || got != float64(want) {
			t.Errorf("sbserver_upstream_requests_total{method=%q} %v (%v), want %d", method, got, ok, want)
		}
	}
	if _, ok := value(mf, "method=threatLists:computeDiff"); ok {
		t.Error("Web Risk's computeDiff shown under v5")
	}
}

// TestUpstreamMethod: the method of each upstream request's path.
func TestUpstreamMethod(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		method, url, contentType, want string
	}{
		// v5's methods.
		{"GET", "https://safebrowsing.googleapis.com/v5/hashList/se-4b?key=k", "", "hashList"},
		{"GET", "https://safebrowsing.googleapis.com/v5/hashLists:batchGet?names=se-4b", "", "hashLists:batchGet"},
		{"GET", "https://safebrowsing.googleapis.com/v5/hashLists", "", "hashLists"},
		{"GET", "http://127.0.0.1:8080/v5/hashes:search?hashPrefixes=AAAA", "", "hashes:search"},
		// Web Risk's.
		{"GET", "https://webrisk.googleapis.com/v1/threatLists:computeDiff?threatType=MALWARE", "", "threatLists:computeDiff"},
		{"GET", "https://webrisk.googleapis.com/v1/hashes:search?hashPrefix=AAAA", "", "hashes:search"},
		// A search through an Oblivious HTTP relay.
		{"POST", "https://relay.example/anything", "message/ohttp-req", "hashes:search"},
		// Its key.
		{"GET", "https://safebrowsing.googleapis.com/v5/ohttp/hpkekeyconfig", "", "other"},
		// No method at all.
		{"GET", "https://example.com/", "", "other"},
	} {
		t.Run(tt.want+" "+tt.url, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.url, nil)
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			if got := upstreamMethod(r); got != tt.want {
				t.Errorf("upstreamMethod = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWebRiskStatus: /status shows the API, in both.
func TestWebRiskStatus(t *testing.T) {
	t.Parallel()
	_, _, p := newWebRiskProxy(t, lookup.LocalList, func(*sbtest.Server) {})
	status, body, _ := do(t, "GET", p.URL+"/status", "")
	var st statusReply
	if err := json.Unmarshal([]byte(body), &st); err != nil || status != 200 || st.API != "WebRisk" || len(st.Lists) != 4 {
		t.Errorf("%d %s", status, body)
	}
	_, _, v5 := newProxy(t, lookup.LocalList, true)
	status, body, _ = do(t, "GET", v5.URL+"/status", "")
	if status != 200 || !strings.Contains(body, `"api":"SafeBrowsing"`) {
		t.Errorf("v5: %d %s", status, body)
	}
}
