// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHandler runs the requests of the package doc's curl session.
func TestHandler(t *testing.T) {
	h, err := newHandler([]string{"https://example.com", "https://www.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	tests := []struct {
		name, method, path string
		header             map[string]string
		want               int
		wantACAO           string
	}{
		// An amp-list fetch from the page on the Google AMP Cache.
		{"allowed", "GET", "/api/items", map[string]string{"Origin": "https://www-example-com.cdn.ampproject.org"}, 200, "https://www-example-com.cdn.ampproject.org"},
		// Another publisher's page on the cache.
		{"refused", "GET", "/api/items", map[string]string{"Origin": "https://evil-com.cdn.ampproject.org"}, 403, ""},
		// An escaped __amp_source_origin that is not the publisher's: refused.
		{"escaped source origin", "GET", "/api/items?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", map[string]string{"Origin": "https://www-example-com.cdn.ampproject.org"}, 403, ""},
		// The preflight of an amp-form POST with a JSON body.
		{"preflight", "OPTIONS", "/api/subscribe", map[string]string{"Origin": "https://www-example-com.cdn.ampproject.org", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}, 204, "https://www-example-com.cdn.ampproject.org"},
		// The page, at its cache URL, through the local AMP Cache.
		{"cache page", "GET", "/c/s/www.example.com/amp.html", map[string]string{"Host": "www-example-com.cdn.ampproject.org"}, 200, ""},
		// The page on another publisher's cache host: redirected to its own.
		{"cache page, wrong prefix", "GET", "/c/s/www.example.com/amp.html", map[string]string{"Host": "evil-com.cdn.ampproject.org"}, 301, ""},
		// The POST itself.
		{"post", "POST", "/api/subscribe", map[string]string{"Origin": "https://www-example-com.cdn.ampproject.org"}, 200, "https://www-example-com.cdn.ampproject.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			req.Host = req.Header.Get("Host")
			client := *srv.Client()
			client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want || resp.Header.Get("Access-Control-Allow-Origin") != tt.wantACAO {
				t.Errorf("status %d, ACAO %q; want %d, %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), tt.want, tt.wantACAO)
			}
		})
	}
}
