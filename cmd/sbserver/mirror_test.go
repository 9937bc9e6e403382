// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// TestMirrorFlags: -mirror's usage errors and its environment variables.
func TestMirrorFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		// A mirror keeps lists: NoStorage keeps none.
		{"nostorage", []string{"-mirror", "-mode", "NoStorage"}, nil, "-mirror and -mode NoStorage"},
		// ... also when -mirror comes from the environment.
		{"env nostorage", []string{"-mode", "NoStorage"}, map[string]string{"SBSERVER_MIRROR": "true"}, "-mirror and -mode NoStorage"},
		// A cache of no prefix.
		{"cache size", []string{"-mirror", "-cache-size", "0"}, nil, "-cache-size 0"},
		// A bad value in the environment names its variable.
		{"env cache size", nil, map[string]string{"SBSERVER_CACHE_SIZE": "big"}, "$SBSERVER_CACHE_SIZE"},
		// RealTime and LocalList are fine.
		{"realtime", []string{"-mirror", "-mode", "RealTime"}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr == "" {
				if err != nil || !c.mirror {
					t.Errorf("err %v, mirror %v", err, c != nil && c.mirror)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestMirror: sbserver -fake -mirror in LocalList mode keeps gc-32b and
// serves the mirror's methods behind the access rules, in Google's error
// shape, with their metrics; a client pointed at it gets the fake's
// verdicts.
func TestMirror(t *testing.T) {
	keys := writeKeys(t, clientKey)
	addr, fake, stop := start(t, "-fake", "-mirror", "-client-keys", keys)
	defer stop()
	base := "http://" + addr
	auth := "X-Goog-Api-Key: " + clientKey
	waitMirror(t, base+"/v5/hashList/gc-32b?key="+clientKey)
	for _, tt := range []struct {
		name, path string
		headers    []string
		status     int
		want       string
	}{
		// No key: 401 in Google's shape.
		{"no key", "/v5/hashList/se-4b", nil, 401, `"status":"UNAUTHENTICATED"`},
		// A wrong key: 403.
		{"wrong key", "/v5/hashLists?key=nope", nil, 403, `"status":"PERMISSION_DENIED"`},
		// Cross-site, even with a key.
		{"cross-site", "/v5/hashes:search?hashPrefixes=AAAAAA==", []string{auth, "Sec-Fetch-Site: cross-site"}, 403, "cross-site"},
		// gc-32b, kept although -mode is LocalList, in JSON by default.
		{"gc-32b", "/v5/hashList/gc-32b", []string{auth}, 200, `"additionsThirtyTwoBytes"`},
		// ListHashLists names the fake's lists.
		{"hashLists", "/v5/hashLists", []string{auth}, 200, `"name":"uwsa-4b"`},
		// An unknown list: 404 in Google's shape.
		{"unknown", "/v5/hashList/xx-4b", []string{auth}, 404, `"status":"NOT_FOUND"`},
		// POST is not a method of the mirror.
		{"method", "/v5/hashLists:batchGet?names=se-4b", []string{auth, "Content-Type: application/json"}, 405, `not allowed`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			method := "GET"
			if tt.name == "method" {
				method = "POST"
			}
			status, body := mirrorDo(t, method, base+tt.path, tt.headers...)
			if status != tt.status || !strings.Contains(body, tt.want) {
				t.Errorf("%d %.300s; want %d, %s", status, body, tt.status, tt.want)
			}
		})
	}
	// A client of the mirror.
	c, err := lookup.New(lookup.Config{APIKey: clientKey, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	const malware = "http://malware.testing.google.test/testing/malware/"
	v, err := c.Lookup(context.Background(), malware)
	if err != nil || !v.Unsafe() || v.Threats[0].Type != lookup.Malware {
		t.Errorf("%s: %+v, %v", malware, v, err)
	}
	if n := fake.Requests("hashList") + fake.Requests("hashLists:batchGet"); n != 1 {
		t.Errorf("%d upstream list requests, want the mirror's 1", n)
	}
	status, body := mirrorDo(t, "GET", base+"/metrics", auth)
	for _, want := range []string{
		`sbserver_mirror_requests_total{method="hashLists:batchGet"} 1`,
		`sbserver_mirror_requests_total{method="hashes:search"} 1`,
		`sbserver_mirror_upstream_searches_total 1`,
		`sbserver_mirror_cache_entries 1`,
		`sbserver_requests_total{code="200",endpoint="hashLists:batchGet"} 1`,
		`sbserver_mirror_upstream_requests_saved_total`,
		`sbserver_mirror_served_bytes_total`,
	} {
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// waitMirror polls a list until the mirror serves it.
func waitMirror(t *testing.T, url string) {
	t.Helper()
	for range 500 {
		resp, err := http.Get(url + "&alt=proto")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			var msg hashlist.Message
			if err := msg.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never served", url)
}

// mirrorDo sends a request with headers ("Name: value") and returns the
// status and body.
func mirrorDo(t *testing.T, method, url string, headers ...string) (int, string) {
	t.Helper()
	status, body, _ := request(t, method, url, "", headers...)
	return status, body
}

// TestMirrorFrozen: -mirror -frozen serves the lists a first run left in
// -dir, gc-32b among them, with a minimumWaitDuration of 24 h, and
// fetches no list.
func TestMirrorFrozen(t *testing.T) {
	dir := t.TempDir()
	addr, _, stop := start(t, "-fake", "-mirror", "-dir", dir)
	waitMirror(t, "http://"+addr+"/v5/hashList/gc-32b?key=x")
	if status := stop(); status != 0 {
		t.Fatalf("first run: exit %d", status)
	}
	addr, fake, stop := start(t, "-fake", "-mirror", "-frozen", "-dir", dir)
	defer stop()
	for _, name := range []string{"gc-32b", "mw-4b"} {
		status, body := mirrorDo(t, "GET", "http://"+addr+"/v5/hashList/"+name)
		if status != 200 || !strings.Contains(body, `"minimumWaitDuration":"86400s"`) {
			t.Errorf("%s: %d %.200s", name, status, body)
		}
	}
	if n := fake.Requests("hashList") + fake.Requests("hashLists:batchGet") + fake.Requests("hashLists"); n != 0 {
		t.Errorf("a frozen mirror made %d list requests", n)
	}
}
