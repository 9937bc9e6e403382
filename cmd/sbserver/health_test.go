// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestProbes: /healthz serves while the process does; /readyz waits for
// the lists and turns 503 as soon as shutdown begins.
func TestProbes(t *testing.T) {
	s, c, _ := newProxy(t, lookup.LocalList, false)
	srv := newServer(c, options{UpstreamKey: s.APIKey})
	p := httptest.NewServer(srv)
	defer p.Close()
	check := func(path string, wantStatus int, want string) {
		t.Helper()
		status, body, _ := do(t, "GET", p.URL+path, "")
		if status != wantStatus || !strings.Contains(body, want) {
			t.Errorf("%s: status %d, %s; want %d, %s", path, status, body, wantStatus, want)
		}
	}
	check("/healthz", 200, `{"status":"ok"}`)
	check("/readyz", 503, `"error":"lookup: lists not loaded yet"`)
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("/readyz", 200, `{"status":"ok"}`)
	srv.closing.Store(true)
	check("/readyz", 503, `"error":"sbserver: shutting down"`)
	check("/healthz", 200, `{"status":"ok"}`)
}

// TestStatusErrors: /status shows each list's last failure, and when it
// was last fetched, which a failure leaves as it was; /readyz gives the
// cause at once.
func TestStatusErrors(t *testing.T) {
	s, c, p := newProxy(t, lookup.LocalList, false)
	s.Inject(sbtest.Fault{Endpoint: "hashLists:batchGet", Status: http.StatusForbidden, Times: 1})
	if err := c.Update(context.Background()); err == nil {
		t.Fatal("Update: no error")
	}
	status, body, _ := do(t, "GET", p.URL+"/status", "")
	var st statusReply
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	if status != 503 || len(st.Lists) != 5 || !strings.Contains(st.Error, "HTTP 403") {
		t.Fatalf("status: %d %s; want 503, 5 lists and the 403", status, body)
	}
	for _, l := range st.Lists {
		if !strings.Contains(l.Error, "HTTP 403") || !l.Updated.IsZero() || l.Loaded {
			t.Errorf("list %+v: want a 403 error, never updated", l)
		}
	}
	if status, body, _ := do(t, "GET", p.URL+"/readyz", ""); status != 503 || !strings.Contains(body, "HTTP 403") {
		t.Errorf("/readyz: %d %s; want 503 with the 403", status, body)
	}
}
