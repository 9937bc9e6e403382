// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
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
