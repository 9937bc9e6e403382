// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// oddKey is the upstream's API key: lower-cased, it is a list name.
const oddKey = "OddKey-Zq9-4b"

// oddUpstream is an sbtest server whose ListHashLists names, beside se-4b,
// mw-4b and gc-32b, lists that no client keeps: upper case, '_', 65
// bytes, the resource prefix twice, se-4b again in the resource form, and
// the key lower-cased; descriptions show the key, and se-4b's metadata
// claims 32-byte hashes.
func oddUpstream(t testing.TB) (*sbtest.Server, string) {
	t.Helper()
	up := sbtest.NewServer(sbtest.WithAPIKey(oddKey))
	t.Cleanup(up.Close)
	target, err := url.Parse(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	md := func(desc string, w int) *v5wire.Metadata {
		return &v5wire.Metadata{Description: desc, HashLength: v5wire.HashLengthOf(w), ThreatTypes: []v5wire.ThreatType{v5wire.SocialEngineering}}
	}
	lists := v5wire.ListHashListsResponse{HashLists: []v5wire.HashList{
		{Name: "se-4b", Metadata: md("social engineering; key "+oddKey, 32)},
		{Name: "hashLists/se-4b", Metadata: md("se-4b again", 4)},
		{Name: "Se-4b", Metadata: md("upper case", 4)},
		{Name: "se_new-4b", Metadata: md("underscore", 4)},
		{Name: strings.Repeat("n", 62) + "-4b", Metadata: md("65 bytes", 4)},
		{Name: "hashLists/hashLists/mw-4b", Metadata: md("prefix twice", 4)},
		{Name: strings.ToLower(oddKey), Metadata: md("the key", 4)},
		{Name: "mw-4b", Metadata: md("malware, "+strings.ToLower(oddKey), 4)},
		{Name: "hashLists/gc-32b", Metadata: md("global cache", 32)},
	}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v5/hashLists" {
			proxy.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(v5wire.AppendListHashListsResponse(nil, &lists))
	}))
	t.Cleanup(srv.Close)
	return up, srv.URL
}

// TestOddListNames: a mirror whose source keeps what HashLists returns of
// an upstream naming odd lists serves the lists lookup keeps, once each,
// with the hash length of each list's own name, and shows the key in no
// reply and no log line, in any case.
func TestOddListNames(t *testing.T) {
	up, base := oddUpstream(t)
	up.Add("se-4b", "evil.example/")
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	probe, err := lookup.New(lookup.Config{APIKey: oddKey, BaseURL: base, Mode: lookup.NoStorage, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	infos, err := probe.HashLists(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range infos {
		names = append(names, l.Name)
	}
	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: oddKey, BaseURL: base, Lists: names, Logger: log})
	if err != nil {
		t.Fatalf("NewMirrorSource(%q): %v", names, err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	m, err := mirror.New(src, mirror.Config{Lists: infos, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()

	var reply v5wire.ListHashListsResponse
	status, body := getBody(t, srv.URL+"/v5/hashLists")
	if status != 200 {
		t.Fatalf("hashLists: %d %s", status, body)
	}
	if err := reply.UnmarshalJSON(body); err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, l := range reply.HashLists {
		served = append(served, l.Name)
	}
	if want := []string{"se-4b", "mw-4b", "gc-32b"}; !slices.Equal(served, want) {
		t.Errorf("hashLists serves %q, want %q", served, want)
	}
	if se := reply.HashLists[0].Metadata; se == nil || se.HashLength != v5wire.HashLengthOf(4) || se.Description != "social engineering; key REDACTED" {
		t.Errorf("se-4b: %+v; want 4-byte hashes, the first description, masked", se)
	}
	if status, body := getBody(t, srv.URL+"/v5/hashList/se-4b"); status != 200 {
		t.Errorf("hashList/se-4b: %d %s", status, body)
	}
	if status, _ := getBody(t, srv.URL+"/v5/hashList/Se-4b"); status != 404 {
		t.Errorf("hashList/Se-4b: %d, want 404", status)
	}
	lower := strings.ToLower(oddKey)
	if strings.Contains(strings.ToLower(string(body)), lower) {
		t.Errorf("hashLists shows the key: %s", body)
	}
	if strings.Contains(strings.ToLower(logs.String()), lower) {
		t.Errorf("the log shows the key:\n%s", logs.String())
	}
	for _, skipped := range []string{"Se-4b", "se_new-4b", "hashLists/hashLists/mw-4b", "list=REDACTED"} {
		if !strings.Contains(logs.String(), skipped) {
			t.Errorf("no log line for %s:\n%s", skipped, logs.String())
		}
	}
}

// getBody sends GET url and returns the status and the body.
func getBody(t testing.TB, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b.Bytes()
}
