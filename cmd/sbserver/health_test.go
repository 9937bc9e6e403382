// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestUpdateBackoffReported: while updates back off and the lists have
// never loaded, the 503s of the lookup endpoints carry Retry-After,
// /metrics gives the back-off's end, and /status gives it as each list's
// "next" rather than "at once". Run sleeps through the back-off, so no
// *lookup.BackoffError ever reaches the server: it asks lookup.Backoff.
func TestUpdateBackoffReported(t *testing.T) {
	s, c, p := newProxy(t, lookup.LocalList, false)
	s.Inject(sbtest.Fault{Endpoint: "hashLists:batchGet", Status: http.StatusServiceUnavailable, Times: 1})
	if err := c.Update(context.Background()); err == nil {
		t.Fatal("Update: no error")
	}
	until := c.Backoff().UpdateUntil
	if time.Until(until) < time.Minute {
		t.Fatalf("Backoff().UpdateUntil = %v, want a back-off of minutes", until)
	}
	for _, u := range []string{p.URL + "/v5/urls:lookup", searchURL(p.URL, []string{evil}, "")} {
		var status int
		var h http.Header
		if strings.Contains(u, "urls:lookup") {
			status, _, _, h = lookupJSON(t, p, evil)
		} else {
			status, _, h = do(t, "GET", u, "")
		}
		if ra, err := strconv.Atoi(h.Get("Retry-After")); status != 503 || err != nil || ra < 60 {
			t.Errorf("%s: status %d, Retry-After %q; want 503 and the back-off's wait", u, status, h.Get("Retry-After"))
		}
	}
	mfs := scrape(t, p.URL)
	if got, _ := value(mfs["sbserver_backoff_until_timestamp_seconds"], "method=update"); int64(got) != until.Unix() {
		t.Errorf("sbserver_backoff_until_timestamp_seconds{method=update} = %v, want %v", got, until.Unix())
	}
	_, body, _ := do(t, "GET", p.URL+"/status", "")
	var st statusReply
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	for _, l := range st.Lists {
		if !l.Next.Equal(until) {
			t.Errorf("/status list %s next %v, want the back-off's end %v", l.Name, l.Next, until)
		}
	}
}
