// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

const clientKey = "client-key-1"

// newGuarded is a proxy that needs client keys.
func newGuarded(t *testing.T) *httptest.Server {
	t.Helper()
	s, c, _ := newProxy(t, lookup.LocalList, true)
	p := httptest.NewServer(newServer(c, options{UpstreamKey: s.APIKey, ClientKeys: []string{clientKey, "client-key-2"}}))
	t.Cleanup(p.Close)
	return p
}

// send sends a request with headers ("Name: value") and returns the
// status and body.
func send(t *testing.T, method, url, body string, headers ...string) (int, string) {
	t.Helper()
	status, b, h := request(t, method, url, body, headers...)
	// JSON (with Google's charset=UTF-8 on the v4 Update API), or the
	// metrics' text.
	if ct := h.Get("Content-Type"); ct != "application/json" && ct != "application/json; charset=UTF-8" && !strings.HasPrefix(ct, "text/plain; version=") {
		t.Errorf("%s %s: Content-Type %q, want JSON", method, url, ct)
	}
	return status, b
}

func TestAuth(t *testing.T) {
	p := newGuarded(t)
	const lookupBody = `{"urls": ["` + evil + `"]}`
	search := "/v5/urls:search?urls=" + evil
	for _, tt := range []struct {
		name       string
		method     string
		path       string
		headers    []string
		wantStatus int
		want       string
	}{
		// No key: 401, in Google's shape on the drop-in endpoints.
		{"search no key", "GET", search, nil, 401, `"status":"UNAUTHENTICATED"`},
		// A wrong key: 403.
		{"search wrong key", "GET", search + "&key=nope", nil, 403, `"status":"PERMISSION_DENIED"`},
		// The key parameter.
		{"search key=", "GET", search + "&key=" + clientKey, nil, 200, `"MALWARE"`},
		// The X-Goog-Api-Key header.
		{"search header", "GET", search, []string{"X-Goog-Api-Key: client-key-2"}, 200, `"MALWARE"`},
		// A bearer token.
		{"search bearer", "GET", search, []string{"Authorization: Bearer " + clientKey}, 200, `"MALWARE"`},
		// The scheme is case-insensitive (RFC 9110 section 11.1), and
		// spaces may follow it.
		{"search bearer lowercase", "GET", search, []string{"Authorization: bearer " + clientKey}, 200, `"MALWARE"`},
		{"search BEARER spaces", "GET", search, []string{"Authorization: BEARER   " + clientKey}, 200, `"MALWARE"`},
		// Another scheme is no key.
		{"search basic", "GET", search, []string{"Authorization: Basic " + clientKey}, 401, `UNAUTHENTICATED`},
		// The upstream key is not a client key.
		{"upstream key", "GET", search + "&key=sbtest-key", nil, 403, `PERMISSION_DENIED`},
		// v4: no key.
		{"find no key", "POST", "/v4/threatMatches:find", []string{"Content-Type: application/json"}, 401, `"code":401`},
		// The lookup endpoint keeps its own shape.
		{"lookup no key", "POST", "/v5/urls:lookup", []string{"Content-Type: application/json"}, 401, `{"error":"sbserver: a client key is required`},
		// ... for a wrong key too.
		{"lookup wrong key", "POST", "/v5/urls:lookup?key=x", []string{"Content-Type: application/json"}, 403, `{"error":"sbserver: client key not accepted"}`},
		// ... and answers with one.
		{"lookup key", "POST", "/v5/urls:lookup", []string{"Content-Type: application/json", "X-Goog-Api-Key: " + clientKey}, 200, `"unsafe":true`},
		// /status needs a key.
		{"status", "GET", "/status", nil, 401, `client key is required`},
		// /metrics needs a key.
		{"metrics", "GET", "/metrics", nil, 401, `client key is required`},
		// /metrics with one.
		{"metrics key", "GET", "/metrics?key=" + clientKey, nil, 200, `sbserver_requests_total`},
		// An unknown path needs one too: nothing is said without a key.
		{"other", "GET", "/nope", nil, 401, `client key is required`},
		// The probes need none.
		{"healthz", "GET", "/healthz", nil, 200, `"ok"`},
		// The probes need none.
		{"readyz", "GET", "/readyz", nil, 200, `"ok"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == "POST" {
				body = lookupBody
			}
			status, got := send(t, tt.method, p.URL+tt.path, body, tt.headers...)
			if status != tt.wantStatus || !strings.Contains(got, tt.want) {
				t.Errorf("status %d, body %.300s; want %d, %s", status, got, tt.wantStatus, tt.want)
			}
			if strings.Contains(got, clientKey) || strings.Contains(got, "sbtest-key") {
				t.Errorf("reply shows a key: %s", got)
			}
		})
	}
}

// TestKeyErrorInfo: on the endpoints in Google's shape, a refused client
// key carries the google.rpc.ErrorInfo Google's APIs give, whose reason
// Google's clients read: API_KEY_INVALID for a wrong key, CREDENTIALS_MISSING
// for none; the statuses stay sbserver's, 403 and 401. sbserver's own
// endpoints keep their {"error": "..."}, and no other refusal has details.
func TestKeyErrorInfo(t *testing.T) {
	p := newGuarded(t)
	search := "/v5/urls:search?urls=" + evil
	ct := "Content-Type: application/json"
	tests := []struct {
		name       string
		method     string
		path       string
		headers    []string
		wantStatus int
		wantReason string // "" for no details; "plain" for sbserver's own shape
	}{
		// A wrong key as key=.
		{"search wrong key", "GET", search + "&key=nope", nil, 403, "API_KEY_INVALID"},
		// A wrong key as X-Goog-Api-Key.
		{"search wrong header", "GET", search, []string{"X-Goog-Api-Key: nope"}, 403, "API_KEY_INVALID"},
		// A wrong bearer token.
		{"search wrong bearer", "GET", search, []string{"Authorization: Bearer nope"}, 403, "API_KEY_INVALID"},
		// The upstream key is no client key.
		{"search upstream key", "GET", search + "&key=sbtest-key", nil, 403, "API_KEY_INVALID"},
		// No key at all.
		{"search no key", "GET", search, nil, 401, "CREDENTIALS_MISSING"},
		// v4's threatMatches:find, a wrong key.
		{"find wrong key", "POST", "/v4/threatMatches:find?key=nope", []string{ct}, 403, "API_KEY_INVALID"},
		// v4's threatMatches:find, no key.
		{"find no key", "POST", "/v4/threatMatches:find", []string{ct}, 401, "CREDENTIALS_MISSING"},
		// A cross-site request is refused with no reason Google documents.
		{"cross-site", "GET", search + "&key=" + clientKey, []string{"Sec-Fetch-Site: cross-site"}, 403, ""},
		// urls:lookup keeps sbserver's own shape.
		{"lookup wrong key", "POST", "/v5/urls:lookup?key=nope", []string{ct}, 403, "plain"},
		// So does /status.
		{"status no key", "GET", "/status", nil, 401, "plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == "POST" {
				body = `{}`
			}
			status, got := send(t, tt.method, p.URL+tt.path, body, tt.headers...)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", status, tt.wantStatus, got)
			}
			if tt.wantReason == "plain" {
				var e plainError
				if err := json.Unmarshal([]byte(got), &e); err != nil || e.Error == "" || strings.Contains(got, "details") {
					t.Errorf("not sbserver's shape: %s", got)
				}
				return
			}
			var e googleError
			if err := json.Unmarshal([]byte(got), &e); err != nil || e.Error.Code != status {
				t.Fatalf("not Google's shape: %s", got)
			}
			reason := ""
			if d := e.Error.Details; len(d) == 1 && d[0].Type == "type.googleapis.com/google.rpc.ErrorInfo" &&
				d[0].Domain == "googleapis.com" && d[0].Metadata["service"] == "safebrowsing.googleapis.com" {
				reason = d[0].Reason
			} else if len(d) != 0 {
				t.Fatalf("unexpected details: %s", got)
			}
			if reason != tt.wantReason {
				t.Errorf("reason %q, want %q: %s", reason, tt.wantReason, got)
			}
		})
	}
}

// TestBrowsers: no web page can use the server through the user's
// browser, on any endpoint.
func TestBrowsers(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	host := strings.TrimPrefix(p.URL, "http://")
	lookupBody := `{"urls": ["` + evil + `"]}`
	for _, path := range []string{"/v5/urls:lookup", "/v5/urls:search?urls=" + evil, "/v4/threatMatches:find", "/status", "/healthz", "/readyz", "/metrics", "/nope",
		"/v4/threatListUpdates:fetch", "/v4/fullHashes:find", "/v4/threatLists"} {
		method, body, ct := "GET", "", ""
		if strings.HasPrefix(path, "/v5/urls:lookup") || strings.HasPrefix(path, "/v4/") && path != "/v4/threatLists" {
			method, body, ct = "POST", lookupBody, "Content-Type: application/json"
		}
		for _, tt := range []struct {
			name       string
			headers    []string
			wantStatus int
		}{
			// A cross-site fetch, as the browser marks it.
			{"cross-site", []string{"Sec-Fetch-Site: cross-site"}, 403},
			// Another site of the same registrable domain.
			{"same-site", []string{"Sec-Fetch-Site: same-site"}, 403},
			// Another origin.
			{"origin", []string{"Origin: http://attacker.example"}, 403},
			// An opaque origin.
			{"null origin", []string{"Origin: null"}, 403},
			// DNS rebinding: the attacker's name, resolved to loopback.
			{"rebinding", []string{"Host: attacker.example:80", "Origin: http://attacker.example:80"}, 403},
			// A text/plain POST needs no preflight: refused.
			{"text/plain", []string{"Content-Type: text/plain"}, 415},
			// The server's own origin is fine.
			{"same origin", []string{"Origin: " + p.URL, "Sec-Fetch-Site: same-origin"}, 0},
			// localhost names the server.
			{"localhost", []string{"Host: localhost:1234"}, 0},
		} {
			if tt.name == "text/plain" && method != "POST" {
				continue
			}
			t.Run(path+" "+tt.name, func(t *testing.T) {
				headers := tt.headers
				if ct != "" && tt.name != "text/plain" {
					headers = append([]string{ct}, headers...)
				}
				status, got := send(t, method, "http://"+host+path, body, headers...)
				if tt.wantStatus != 0 && status != tt.wantStatus || tt.wantStatus == 0 && (status == 403 || status == 415) {
					t.Errorf("status %d, want %d: %.200s", status, tt.wantStatus, got)
				}
			})
		}
	}
}

// TestCheckBodyType: a POST body must be of a type no web page can send
// cross-origin without a preflight: JSON, or binary protobuf where the
// route takes it (the v4 Update API's).
func TestCheckBodyType(t *testing.T) {
	for _, tt := range []struct {
		in        string
		protoBody bool
		wantErr   bool
	}{
		// JSON, everywhere.
		{"application/json", false, false},
		{"application/json; charset=utf-8", true, false},
		// Protobuf where the route takes it...
		{"application/x-protobuf", true, false},
		{"Application/X-Protobuf", true, false},
		// ... and nowhere else.
		{"application/x-protobuf", false, true},
		// What a page sends without a preflight.
		{"text/plain", true, true},
		{"application/x-www-form-urlencoded", true, true},
		{"multipart/form-data; boundary=x", true, true},
		// None, or malformed.
		{"", true, true},
		{"application/json;;", false, true},
	} {
		t.Run(tt.in, func(t *testing.T) {
			err := checkBodyType(tt.in, tt.protoBody)
			if (err != nil) != tt.wantErr {
				t.Errorf("checkBodyType(%q, %v) = %v, want error %v", tt.in, tt.protoBody, err, tt.wantErr)
			}
		})
	}
}

func TestLoopbackHost(t *testing.T) {
	for _, tt := range []struct {
		host, addr string
		want       bool
	}{
		// The listen address.
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		// Another loopback address.
		{"127.0.0.2:1", "127.0.0.1:8080", true},
		// IPv6 loopback.
		{"[::1]:8080", "127.0.0.1:8080", true},
		// localhost, and names under it, resolve to loopback in browsers.
		{"localhost:8080", "", true},
		// A name under localhost.
		{"a.localhost", "", true},
		// A rebound name.
		{"attacker.example:8080", "127.0.0.1:8080", false},
		// A public address.
		{"192.0.2.1:8080", "127.0.0.1:8080", false},
		// No Host at all.
		{"", "127.0.0.1:8080", false},
	} {
		t.Run(tt.host, func(t *testing.T) {
			if got := loopbackHost(tt.host, tt.addr); got != tt.want {
				t.Errorf("loopbackHost(%q, %q) = %v, want %v", tt.host, tt.addr, got, tt.want)
			}
		})
	}
}

// TestPathCleaning: a path that names an endpoint once cleaned gets a JSON
// redirect, not net/http's HTML.
func TestPathCleaning(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/v5/../status", "/status/", "/./v5/urls:search?urls=x"} {
		t.Run(path, func(t *testing.T) {
			req, err := http.NewRequest("GET", p.URL+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = path // sent as is
			req.URL.RawQuery = ""
			if i := strings.IndexByte(path, '?'); i >= 0 {
				req.URL.Opaque, req.URL.RawQuery = path[:i], path[i+1:]
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			// A redirect is no failure: no google.rpc.Code fits it.
			if strings.Contains(string(body), "FAILED_PRECONDITION") {
				t.Errorf("a 307 says FAILED_PRECONDITION: %s", body)
			}
			if resp.StatusCode != 307 || resp.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(resp.Header.Get("Location"), "/") {
				t.Errorf("status %d, Content-Type %q, Location %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Location"))
			}
		})
	}
}

// TestKeySet: keys compare whole.
func TestKeySet(t *testing.T) {
	ks := newKeySet([]string{"abc", "def"})
	for in, want := range map[string]bool{"abc": true, "def": true, "ab": false, "abcd": false, "": false} {
		if ks.has(in) != want {
			t.Errorf("has(%q) = %v, want %v", in, !want, want)
		}
	}
}
