// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// This file is the tests' end-to-end harness: an upstream (sbtest), a
// source client fed by it, a Server on the source, mounted in an
// httptest server, and the three ways a v4 client asks.

// A harness is an upstream, a source and a Server on it, on loopback.
type harness struct {
	up  *sbtest.Server
	src *lookup.Client
	v4  *Server
	url string
}

// newHarness starts an upstream with opts (lists due again at once
// unless opts say otherwise), a source that has fetched its lists once,
// and a Server on it with cfg.
func newHarness(t testing.TB, cfg Config, opts ...sbtest.Option) *harness {
	t.Helper()
	h := &harness{up: sbtest.NewServer(append([]sbtest.Option{sbtest.WithMinimumWait(0)}, opts...)...)}
	t.Cleanup(h.up.Close)
	h.src = newSource(t, h.up)
	h.update(t)
	h.serve(t, cfg)
	return h
}

// newSource returns a LocalList client of up, as sbserver keeps one,
// that has fetched nothing yet.
func newSource(t testing.TB, up *sbtest.Server) *lookup.Client {
	t.Helper()
	src, err := lookup.New(lookup.Config{BaseURL: up.URL, APIKey: up.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// serve mounts a Server on h.src with cfg.
func (h *harness) serve(t testing.TB, cfg Config) {
	t.Helper()
	v4, err := New(h.src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v4)
	t.Cleanup(srv.Close)
	h.v4, h.url = v4, srv.URL
}

// update has the source fetch the lists that are due.
func (h *harness) update(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.src.Update(ctx); err != nil {
		t.Fatal(err)
	}
}

// do sends a request and returns its status, its Content-Type and its
// body.
func do(t testing.TB, req *http.Request) (int, string, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// The forms a request takes, as each client sends it.
const (
	formJSON     = iota // Google's generated clients: a JSON POST, a JSON reply
	formProto           // google/safebrowsing: a binary POST with key and alt=proto
	formChromium        // Chromium: GET with $req, $ct and X-HTTP-Method-Override
)

var formNames = []string{"json", "proto", "chromium"}

// request returns the request of method (its path) with the body msg, in
// the binary form bin or JSON js, as form sends it.
func (h *harness) request(t testing.TB, path string, form int, bin, js []byte) *http.Request {
	t.Helper()
	var req *http.Request
	var err error
	switch form {
	case formJSON:
		req, err = http.NewRequest(http.MethodPost, h.url+path+"?key=K", bytes.NewReader(js))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
	case formProto:
		// As api.go builds it: key and alt in the query, the body in
		// binary with its Content-Type.
		q := url.Values{"key": {"K"}, "alt": {"proto"}}
		req, err = http.NewRequest(http.MethodPost, h.url+path+"?"+q.Encode(), bytes.NewReader(bin))
		if err == nil {
			req.Header.Add("Content-Type", "application/x-protobuf")
		}
	case formChromium:
		// As v4_protocol_manager_util.cc's ComposeUrl and UpdateHeaders
		// build it.
		q := "$req=" + v4wire.EncodeReq(bin) + "&$ct=application/x-protobuf&key=K"
		req, err = http.NewRequest(http.MethodGet, h.url+path+"?"+q, nil)
		if err == nil {
			req.Header.Set("X-HTTP-Method-Override", "POST")
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// fetch sends m in form and returns the reply, read in the encoding the
// form gets back; a status other than 200 fails the test.
func (h *harness) fetch(t testing.TB, form int, m *v4wire.FetchThreatListUpdatesRequest) v4wire.FetchThreatListUpdatesResponse {
	t.Helper()
	status, ct, body := h.fetchRaw(t, form, m)
	if status != http.StatusOK {
		t.Fatalf("fetch (%s): %d %s", formNames[form], status, body)
	}
	r, err := readFetch(form, ct, body)
	if err != nil {
		t.Fatalf("fetch (%s): %v", formNames[form], err)
	}
	return r
}

// fetchRaw sends m in form and returns the status, Content-Type and body.
func (h *harness) fetchRaw(t testing.TB, form int, m *v4wire.FetchThreatListUpdatesRequest) (int, string, []byte) {
	t.Helper()
	bin := v4wire.AppendFetchThreatListUpdatesRequest(nil, m)
	js := v4wire.AppendFetchThreatListUpdatesRequestJSON(nil, m)
	return do(t, h.request(t, "/v4/threatListUpdates:fetch", form, bin, js))
}

// readFetch reads a fetch reply in the encoding form gets back.
func readFetch(form int, ct string, body []byte) (v4wire.FetchThreatListUpdatesResponse, error) {
	if form == formJSON {
		if ct != "application/json; charset=UTF-8" {
			return v4wire.FetchThreatListUpdatesResponse{}, errorf("Content-Type %q for JSON", ct)
		}
		return v4wire.ParseFetchThreatListUpdatesResponseJSON(body)
	}
	if ct != "application/x-protobuf" {
		return v4wire.FetchThreatListUpdatesResponse{}, errorf("Content-Type %q for protobuf", ct)
	}
	return v4wire.ParseFetchThreatListUpdatesResponse(body)
}

// find sends m in form and returns the status and the reply.
func (h *harness) find(t testing.TB, form int, m *v4wire.FindFullHashesRequest) (int, v4wire.FindFullHashesResponse, []byte) {
	t.Helper()
	bin := v4wire.AppendFindFullHashesRequest(nil, m)
	js := v4wire.AppendFindFullHashesRequestJSON(nil, m)
	status, ct, body := do(t, h.request(t, "/v4/fullHashes:find", form, bin, js))
	if status != http.StatusOK {
		return status, v4wire.FindFullHashesResponse{}, body
	}
	var r v4wire.FindFullHashesResponse
	var err error
	if form == formJSON {
		r, err = v4wire.ParseFindFullHashesResponseJSON(body)
	} else {
		if ct != "application/x-protobuf" {
			t.Fatalf("find (%s): Content-Type %q", formNames[form], ct)
		}
		r, err = v4wire.ParseFindFullHashesResponse(body)
	}
	if err != nil {
		t.Fatalf("find (%s): %v", formNames[form], err)
	}
	return status, r, body
}

// newWebRiskHarness is newHarness with a Web Risk source, whose upstream
// seed fills before the source's first fetch.
func newWebRiskHarness(t testing.TB, cfg Config, seed func(*sbtest.Server), opts ...sbtest.Option) *harness {
	t.Helper()
	h := &harness{up: sbtest.NewServer(append([]sbtest.Option{sbtest.WithRecommendedNextDiff(time.Millisecond)}, opts...)...)}
	t.Cleanup(h.up.Close)
	seed(h.up)
	src, err := lookup.New(lookup.Config{API: lookup.WebRisk, BaseURL: h.up.URL, APIKey: h.up.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	h.src = src
	h.update(t)
	h.serve(t, cfg)
	return h
}

// updateChanged has the source fetch its due lists until the list name
// has a new version: a Web Risk source waits at least a second between
// fetches of a list, whatever recommendedNextDiff says.
func (h *harness) updateChanged(t testing.TB, name string) {
	t.Helper()
	version := func() string {
		for _, st := range h.src.Lists() {
			if st.Name == name {
				return string(st.Version)
			}
		}
		t.Fatalf("the source keeps no list %s", name)
		return ""
	}
	was := version()
	deadline := time.Now().Add(20 * time.Second)
	for version() == was {
		if time.Now().After(deadline) {
			t.Fatalf("the source fetched no new version of %s in 20 s", name)
		}
		time.Sleep(20 * time.Millisecond) // polling for the list to be due
		h.update(t)
	}
}

// lookupNew returns a LocalList client of up that keeps lists alone.
func lookupNew(up *sbtest.Server, lists ...string) (*lookup.Client, error) {
	return lookup.New(lookup.Config{BaseURL: up.URL, APIKey: up.APIKey, Lists: lists})
}
