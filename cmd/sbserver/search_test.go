// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// searchURL is the proxy's urls:search URL for urls, with extra query
// parameters.
func searchURL(base string, urls []string, extra string) string {
	q := url.Values{"urls": urls}
	u := base + "/v5/urls:search?" + q.Encode()
	if extra != "" {
		u += "&" + extra
	}
	return u
}

func TestSearch(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	for _, tt := range []struct {
		name       string
		urls       []string
		extra      string
		wantStatus int
		want       string // the whole body, or for errors a part of it
	}{
		// Only the unsafe URL is listed; cacheDuration covers all.
		{"unsafe and safe", []string{safe, evil}, "", 200,
			`{"threats":[{"url":"` + evil + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}` + "\n"},
		// Nothing unsafe: cacheDuration alone.
		{"safe", []string{safe}, "", 200, `{"cacheDuration":"300s"}` + "\n"},
		// A threat whose every detail is CANARY is not reported.
		{"canary", []string{canary}, "", 200, `{"cacheDuration":"300s"}` + "\n"},
		// The system parameters of Google's clients are accepted.
		{"system parameters", []string{evil}, "alt=json&%24.xgafv=2&prettyPrint=false&fields=threats&quotaUser=u&key=anything", 200,
			`{"threats":[{"url":"` + evil + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}` + "\n"},
		// A misspelt parameter is not ignored.
		{"unknown parameter", []string{evil}, "url=x", 400, `"status":"INVALID_ARGUMENT"`},
		// Only JSON is served.
		{"alt=proto", []string{evil}, "alt=proto", 400, `only alt=json`},
		// urls is required.
		{"no urls", nil, "", 400, `urls is required`},
		// 51 URLs is over Google's limit.
		{"too many", make([]string, 51), "", 400, `51 urls in one request, at most 50`},
		// A URL that cannot be parsed names its index.
		{"bad URL", []string{safe, ""}, "", 400, `"message":"sbserver: urls[1]: lookup: safebrowse: empty URL`},
		// A URL that is not UTF-8 is not checked as another string.
		{"not UTF-8", []string{safe, "http://a.example/\xff"}, "", 400, `"sbserver: urls[1]: URL is not valid UTF-8"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, h := do(t, "GET", searchURL(p.URL, tt.urls, tt.extra), "")
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d: %s", status, tt.wantStatus, body)
			}
			if h.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q", h.Get("Content-Type"))
			}
			if status == 200 && body != tt.want || status != 200 && !strings.Contains(body, tt.want) {
				t.Errorf("body %s\nwant %s", body, tt.want)
			}
			if status != 200 {
				var e googleError
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != status || e.Error.Status == "" {
					t.Errorf("not Google's error shape: %s", body)
				}
			}
		})
	}
}

// TestSearchMaxURLs: 50 URLs are answered.
func TestSearchMaxURLs(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	urls := make([]string, maxSearchURLs)
	for i := range urls {
		urls[i] = "http://host" + strconv.Itoa(i) + ".example/"
	}
	urls[49] = evil
	status, body, _ := do(t, "GET", searchURL(p.URL, urls, ""), "")
	if want := `{"threats":[{"url":"` + evil + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}` + "\n"; status != 200 || body != want {
		t.Errorf("status %d, body %s; want %s", status, body, want)
	}
}

// TestSearchUnavailable: no URL is ever answered safe unchecked. Before the
// lists load, after a failed search and while backing off, the reply is a
// 503 UNAVAILABLE, with Retry-After while backing off.
func TestSearchUnavailable(t *testing.T) {
	s, c, p := newProxy(t, lookup.LocalList, false)
	status, body, _ := do(t, "GET", searchURL(p.URL, []string{safe}, ""), "")
	if status != 503 || !strings.Contains(body, `"status":"UNAVAILABLE"`) || !strings.Contains(body, "not loaded") {
		t.Errorf("not ready: status %d, %s", status, body)
	}
	if err := c.Update(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Three failed searches, each a 503; the third starts the back-off.
	s.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: http.StatusInternalServerError, Times: 3})
	for range 3 {
		status, body, _ = do(t, "GET", searchURL(p.URL, []string{safe, evil}, ""), "")
		if status != 503 || !strings.Contains(body, `"status":"UNAVAILABLE"`) || strings.Contains(body, "threats") {
			t.Errorf("failed search: status %d, %s", status, body)
		}
	}
	status, body, h := do(t, "GET", searchURL(p.URL, []string{evil}, ""), "")
	if status != 503 || h.Get("Retry-After") == "" || !strings.Contains(body, "backing off") {
		t.Errorf("backing off: status %d, Retry-After %q, %s", status, h.Get("Retry-After"), body)
	}
}

func TestDurationJSON(t *testing.T) {
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{
		// Whole seconds, as Google sends.
		{300 * time.Second, "300s"},
		// Milliseconds take 3 digits.
		{1500 * time.Millisecond, "1.500s"},
		// Microseconds take 6.
		{time.Second + time.Microsecond, "1.000001s"},
		// Nanoseconds take 9.
		{time.Nanosecond, "0.000000001s"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := durationJSON(tt.in); got != tt.want {
				t.Errorf("durationJSON(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestFakeProtoOnly: the fake that -fake starts answers v5 as Google does,
// alt=json being a 400 "Unsupported Output Format", while sbserver in
// front of it answers urls.search in JSON, as Google's generated clients
// ask.
func TestFakeProtoOnly(t *testing.T) {
	addr, fake, stop := start(t, "-fake")
	defer stop()
	waitReady(t, addr)
	const malware = "http://malware.testing.google.test/testing/malware/"
	q := "?alt=json&urls=" + url.QueryEscape(malware)
	status, body, _ := do(t, "GET", fake.URL+"/v5/urls:search"+q+"&key="+fake.APIKey, "")
	if want := `{"error":{"code":400,"message":"Unsupported Output Format","status":"INVALID_ARGUMENT"}}` + "\n"; status != 400 || body != want {
		t.Errorf("fake: %d %s\nwant 400 %s", status, body, want)
	}
	status, body, _ = do(t, "GET", "http://"+addr+"/v5/urls:search"+q, "")
	if want := `{"threats":[{"url":"` + malware + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}` + "\n"; status != 200 || body != want {
		t.Errorf("sbserver: %d %s\nwant 200 %s", status, body, want)
	}
}

// searchReply is SearchUrlsResponse in Google's JSON mapping: what
// appendSearchReply must write, as encoding/json writes it.
type searchReply struct {
	Threats       []threatURL `json:"threats,omitempty"`
	CacheDuration string      `json:"cacheDuration"`
}

// threatURL is ThreatUrl: a URL asked and the threat types it is on.
type threatURL struct {
	URL         string   `json:"url"`
	ThreatTypes []string `json:"threatTypes"`
}

// TestAppendSearchReply: the reply is what encoding/json writes of
// searchReply, threats in order, canaries and unknown types left out.
func TestAppendSearchReply(t *testing.T) {
	malware := lookup.Threat{Type: lookup.Malware, Expression: "a.example/"}
	social := lookup.Threat{Type: lookup.SocialEngineering, Expression: "a.example/"}
	canaryMalware := lookup.Threat{Type: lookup.Malware, Attributes: []lookup.ThreatAttribute{lookup.Canary}}
	frameOnly := lookup.Threat{Type: lookup.UnwantedSoftware, Attributes: []lookup.ThreatAttribute{lookup.FrameOnly}}
	unknown := lookup.Threat{Type: maxThreatType}
	for _, tt := range []struct {
		name string
		urls []string
		vs   []lookup.Verdict
	}{
		// Nothing unsafe.
		{"safe", []string{"a", "b"}, []lookup.Verdict{{}, {}}},
		// None asked.
		{"empty", nil, nil},
		// The unsafe URLs only, in order; each type once, in the order of
		// the threats.
		{"unsafe", []string{"u1", "s", "u2"}, []lookup.Verdict{
			{Threats: []lookup.Threat{social, malware, social}}, {}, {Threats: []lookup.Threat{frameOnly}}}},
		// A type all of whose threats are canaries is left out, and so is a
		// URL with no other.
		{"canary", []string{"c", "m"}, []lookup.Verdict{
			{Threats: []lookup.Threat{canaryMalware}}, {Threats: []lookup.Threat{canaryMalware, malware}}}},
		// A type sbserver does not know is left out.
		{"unknown type", []string{"x"}, []lookup.Verdict{{Threats: []lookup.Threat{unknown}}}},
		// URLs are escaped as encoding/json escapes them.
		{"escaped", []string{"http://a.example/?q=<script>&x=\"\u2028"}, []lookup.Verdict{{Threats: []lookup.Threat{malware}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reply := searchReply{CacheDuration: "1.500s"}
			for i, v := range tt.vs {
				if types := threatTypes(v); len(types) > 0 {
					reply.Threats = append(reply.Threats, threatURL{URL: tt.urls[i], ThreatTypes: types})
				}
			}
			var want strings.Builder
			if err := json.NewEncoder(&want).Encode(reply); err != nil {
				t.Fatal(err)
			}
			if got := appendSearchReply(nil, tt.urls, tt.vs, "1.500s"); string(got) != want.String() {
				t.Errorf("got  %s\nwant %s", got, want.String())
			}
		})
	}
}
