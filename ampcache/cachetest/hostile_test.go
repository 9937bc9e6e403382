// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
)

// serve answers one request for host and uri with a cache on an AMP origin.
func serve(t *testing.T, c *Cache, host, uri string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", "https://cdn.ampproject.org/", nil)
	r.Host, r.RequestURI = host, uri
	if u, err := url.ParseRequestURI(uri); err == nil {
		r.URL = u
	}
	w := httptest.NewRecorder()
	c.ServeHTTP(w, r)
	return w
}

func ampOrigin() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html ⚡><body>ok")
	})
}

// TestHostPortInLocation checks that a Host with
// userinfo after its port used to reach the 301's Location.
func TestHostPortInLocation(t *testing.T) {
	c, err := New(ampOrigin())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, host string
		want       int
		location   string
	}{
		// The reproducer: ":1@evil.com" after the host.
		{"userinfo after port", "wrong.cdn.ampproject.org:1@evil.com", http.StatusBadRequest, ""},
		// A path in the Host.
		{"path", "wrong.cdn.ampproject.org/evil.com", http.StatusBadRequest, ""},
		// A port that is not a number.
		{"port", "wrong.cdn.ampproject.org:x", http.StatusBadRequest, ""},
		// A valid port is kept, as a number.
		{"valid port", "wrong.cdn.ampproject.org:0443", http.StatusMovedPermanently, "https://www-example-com.cdn.ampproject.org:443/c/s/www.example.com/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, c, tt.host, "/c/s/www.example.com/")
			if w.Code != tt.want || w.Header().Get("Location") != tt.location {
				t.Errorf("Host %q: %d, Location %q; want %d, %q", tt.host, w.Code, w.Header().Get("Location"), tt.want, tt.location)
			}
			if tt.want == http.StatusBadRequest && !strings.Contains(w.Body.String(), "invalid Host") {
				t.Errorf("Host %q: body %q does not name the error", tt.host, w.Body)
			}
		})
	}
}

// TestErrorPageBounded checks that an error page is at most 4 KiB,
// whatever the Host or the path.
func TestErrorPageBounded(t *testing.T) {
	c, err := New(ampOrigin())
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat(`"<&`, 2000)
	tests := []struct{ name, host, uri string }{
		// A huge Host of characters that HTML escapes.
		{"host", long, "/c/s/www.example.com/"},
		// A huge Host on no cache.
		{"not a cache host", strings.Repeat("a", 60000) + ".example", "/c/s/www.example.com/"},
		// A huge publisher host in the path.
		{"publisher host", "www-example-com.cdn.ampproject.org", "/c/s/" + strings.Repeat("%22", 2000) + "/"},
		// An unknown serving type, with a long path.
		{"serving", "www-example-com.cdn.ampproject.org", "/x/" + strings.Repeat("%3C", 2600)},
		// A path just under the URL bound.
		{"long path", "www-example-com.cdn.ampproject.org", "/c/s/" + strings.Repeat("%3C.", 2000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, c, tt.host, tt.uri)
			if w.Code < 400 || w.Body.Len() > 4096 {
				t.Errorf("status %d, error page of %d bytes; want an error of at most 4096", w.Code, w.Body.Len())
			}
		})
	}
}

// TestFetchErrorKeepsCause checks that the cache's fetch errors keep their
// cause, as url.Error does: errors.Is(err, context.Canceled) holds.
func TestFetchErrorKeepsCause(t *testing.T) {
	stall := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c, err := New(stall, WithTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	r := httptest.NewRequest("GET", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/", nil).WithContext(ctx)
	pub, _ := url.Parse("https://www.example.com/")
	time.AfterFunc(10*time.Millisecond, cancel)
	_, err = c.get(r, pub)
	if !errors.Is(err, ErrOriginFetch) || !errors.Is(err, context.Canceled) {
		t.Errorf("get: %v; want ErrOriginFetch and context.Canceled", err)
	}
	c2, _ := New(stall, WithTimeout(10*time.Millisecond))
	_, err = c2.get(httptest.NewRequest("GET", "/", nil), pub)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 10ms") {
		t.Errorf("get: %v; want context.DeadlineExceeded, and the bound named", err)
	}
	// An error from ampcache is kept as the cause too.
	_, _, err = c.publisherURL("cdn.ampproject.org", "/c/s/xn--99999a.com/")
	if !errors.Is(err, ErrInvalidURL) || !errors.Is(err, ampcache.ErrInvalidURL) {
		t.Errorf("publisherURL: %v; want ErrInvalidURL and ampcache.ErrInvalidURL", err)
	}
}

// TestOptionErrors checks that a configuration error names the option, and
// quotes no made-up input.
func TestOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opt  Option
		want string
	}{
		{"nil registry", WithRegistry(nil), "cachetest: WithRegistry: nil registry"},
		{"negative redirects", WithMaxRedirects(-1), "cachetest: WithMaxRedirects: -1 is negative"},
		{"zero body", WithMaxBodySize(0), "cachetest: WithMaxBodySize: 0 is not positive"},
		{"zero timeout", WithTimeout(0), "cachetest: WithTimeout: 0s is not positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(ampOrigin(), tt.opt)
			if err == nil || err.Error() != tt.want || !errors.Is(err, ErrInvalidOption) {
				t.Errorf("New: %v; want %q wrapping ErrInvalidOption", err, tt.want)
			}
		})
	}
	if _, err := New(nil); err == nil || err.Error() != "cachetest: New: nil origin handler" || !errors.Is(err, ErrInvalidOrigin) {
		t.Errorf("New(nil): %v", err)
	}
}
