// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestURISearch: uris:search answers {} for a clean URI and the threat
// types asked of a listed one, with an expireTime; a 503 for a URI it
// could not check, never {}; a 400 for a bad request.
func TestURISearch(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer()
	defer up.Close()
	seedWR(up)
	up.Add("mw-4b", "ext.example/")
	for _, mode := range []lookup.Mode{lookup.LocalList, lookup.NoStorage} {
		t.Run(mode.String(), func(t *testing.T) {
			src, err := lookup.New(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, API: lookup.WebRisk, Mode: mode,
				Lists: []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			u, err := mirror.NewURISearch(src, mirror.URISearchConfig{CacheDuration: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(u)
			defer srv.Close()
			all := "&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&threatTypes=UNWANTED_SOFTWARE&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
			search := func(uri, query string) (int, string) {
				status, _, body := wrGet(t, srv.URL+"/v1/uris:search?uri="+url.QueryEscape(uri)+query)
				return status, string(body)
			}
			if mode == lookup.LocalList {
				// Not ready: a 503, never {}.
				if status, body := search("http://clean.example/", all); status != 503 || !strings.Contains(body, "UNAVAILABLE") {
					t.Errorf("before the lists: %d %s", status, body)
				}
				if err := src.Update(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for _, tt := range []struct {
				name, uri, query string
				status           int
				want             string
			}{
				// A clean URI: {}.
				{"clean", "http://clean.example/", all, 200, "{}"},
				// A listed one.
				{"malware", "http://" + sbtest.TestURLs[0].Expression, all, 200, `{"threat":{"threatTypes":["MALWARE"],"expireTime":"`},
				// Two lists, extended coverage among them, in the enum's order.
				{"two", "http://ext.example/", all, 200, `"threatTypes":["MALWARE","SOCIAL_ENGINEERING_EXTENDED_COVERAGE"]`},
				// Only the types asked.
				{"asked", "http://ext.example/", "&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE", 200, `"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE"]`},
				// A listed URI on no list asked: {}.
				{"not asked", "http://" + sbtest.TestURLs[0].Expression, "&threatTypes=SOCIAL_ENGINEERING", 200, "{}"},
				// An 8-byte entry.
				{"long", "http://long.example/", "&threat_types=MALWARE", 200, `"threatTypes":["MALWARE"]`},
				// threatTypes is required.
				{"no types", "http://clean.example/", "", 400, "threatTypes is required"},
				// An unknown type.
				{"bad type", "http://clean.example/", "&threatTypes=PHISHING", 400, "threatTypes[0]"},
				// No uri.
				{"no uri", "", all, 400, "uri is required"},
				// A uri that is not UTF-8.
				{"not utf-8", "http://\xff.example/", all, 400, "UTF-8"},
				// A URI that is no URL Web Risk checks.
				{"mailto", "mailto:x@example.com", all, 400, "INVALID_ARGUMENT"},
				// An unknown parameter.
				{"unknown", "http://clean.example/", all + "&url=x", 400, "unknown parameter"},
			} {
				t.Run(tt.name, func(t *testing.T) {
					status, body := search(tt.uri, tt.query)
					if status != tt.status || !strings.Contains(body, tt.want) {
						t.Errorf("%d %s, want %d %s", status, body, tt.status, tt.want)
					}
				})
			}
			// In binary.
			status, ct, body := wrGet(t, srv.URL+"/v1/uris:search?alt=proto&threatTypes=MALWARE&uri="+url.QueryEscape("http://"+sbtest.TestURLs[0].Expression))
			m, err := v4wire.ParseSearchUrisResponse(body)
			if status != 200 || ct != "application/x-protobuf" || err != nil || m.Threat == nil || m.Threat.ExpireTime.Before(time.Now().Add(50*time.Minute)) {
				t.Errorf("alt=proto: %d %s %+v %v", status, ct, m, err)
			}
			// A failed search: a 503, never {}.
			up.Inject(sbtest.Fault{Endpoint: "v1/hashes:search", Status: 500, Times: 1})
			if status, body := search("http://"+sbtest.TestURLs[1].Expression, all); status != 503 || !strings.Contains(body, "UNAVAILABLE") {
				t.Errorf("a failed search: %d %s", status, body)
			}
			if u.Requests() == 0 {
				t.Error("no request counted")
			}
		})
	}
}

// TestWebRiskConfigErrors: NewWebRisk and NewURISearch refuse a source of
// another API and a bad Config, naming what is wrong.
func TestWebRiskConfigErrors(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer()
	defer up.Close()
	v5, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer v5.Close()
	wr, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, API: lookup.WebRisk})
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	for _, tt := range []struct {
		name    string
		new     func() error
		wantErr string
	}{
		// A v5 source is no Web Risk mirror's.
		{"v5 mirror", func() error { _, err := mirror.NewWebRisk(v5, mirror.Config{}); return err }, "no client of Web Risk"},
		// ... nor a uris:search's.
		{"v5 uris", func() error { _, err := mirror.NewURISearch(v5, mirror.URISearchConfig{}); return err }, "no client of Web Risk"},
		// Web Risk has no ListHashLists to serve.
		{"lists", func() error {
			_, err := mirror.NewWebRisk(wr, mirror.Config{Lists: []lookup.ListInfo{{Name: "MALWARE"}}})
			return err
		}, "Config.Lists"},
		// A bound below the least.
		{"versions", func() error { _, err := mirror.NewWebRisk(wr, mirror.Config{Versions: 2}); return err }, "Config.Versions 2"},
		// A negative cache duration.
		{"duration", func() error {
			_, err := mirror.NewURISearch(wr, mirror.URISearchConfig{CacheDuration: -time.Second})
			return err
		}, "CacheDuration -1s"},
		// No source at all.
		{"nil", func() error { _, err := mirror.NewWebRisk(nil, mirror.Config{}); return err }, "nil source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.new(); err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "mirror: ") {
				t.Errorf("err %v, want one with %q", err, tt.wantErr)
			}
		})
	}
}
