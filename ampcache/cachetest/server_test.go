// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

func get(t *testing.T, c *http.Client, rawURL, host string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// The server's client follows the cache's redirects to the publisher's
// own site, which the server answers with the origin.
func TestServerClientFollows(t *testing.T) {
	s := newServer(t)
	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") && !strings.HasPrefix(s.URL, "https://[::1]:") {
		t.Errorf("URL = %q, want https on loopback", s.URL)
	}
	tests := []struct {
		name, in, wantURL, wantBody string
	}{
		// spec "Invalid AMP": the client lands on the canonical page, on the publisher's site.
		{name: "invalid AMP to canonical", in: cdn + "/c/s/www.example.com/invalid-amp", wantURL: "https://www.example.com/canonical.html", wantBody: "canonical page"},
		// A wrong prefix: the client lands on the right cache host.
		{name: "prefix redirect", in: "https://cdn.ampproject.org/c/s/www.example.com/index.amp.html", wantURL: cdn + "/c/s/www.example.com/index.amp.html", wantBody: "index"},
		// The publisher's own site is there too.
		{name: "publisher site", in: "https://www.example.com/index.amp.html", wantURL: "https://www.example.com/index.amp.html", wantBody: "index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, s.Client(), tt.in, "")
			if res.StatusCode != 200 || res.Request.URL.String() != tt.wantURL || !strings.Contains(body, tt.wantBody) {
				t.Errorf("GET %s: %d at %s, want 200 at %s; body:\n%s", tt.in, res.StatusCode, res.Request.URL, tt.wantURL, body)
			}
		})
	}
}

// Certificate lets another client trust the server; a client that does not
// trust it cannot connect.
func TestServerCertificate(t *testing.T) {
	s := newServer(t)
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	// Dial the listener by its address: the certificate also names 127.0.0.1.
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer trusting.CloseIdleConnections()
	res, body := get(t, trusting, s.URL+"/c/s/www.example.com/index.amp.html", "www-example-com.cdn.ampproject.org")
	if res.StatusCode != 200 || !strings.Contains(body, "index") {
		t.Errorf("trusting client: %d\n%s", res.StatusCode, body)
	}
	plain := &http.Client{Transport: &http.Transport{}}
	defer plain.CloseIdleConnections()
	if _, err := plain.Get(s.URL + "/"); err == nil {
		t.Errorf("a client without the certificate connected")
	}
}

// A Cache mounted on a plain http server: the tests set Host.
func TestMounted(t *testing.T) {
	reg, err := ampcache.NewRegistry([]ampcache.Cache{{ID: "test", CacheDomain: "cache.test"}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cachetest.New(publisher(), cachetest.WithRegistry(reg), cachetest.WithMaxRedirects(1))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	defer srv.Close()
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	tests := []struct {
		name, host, path string
		want             int
		location, body   string
	}{
		// A cache of the given registry is served.
		{name: "own registry", host: "www-example-com.cache.test", path: "/c/s/www.example.com/index.amp.html", want: 200, body: "index"},
		// A cache not in the registry is not.
		{name: "built-in cache not in registry", host: "www-example-com.cdn.ampproject.org", path: "/c/s/www.example.com/index.amp.html", want: 404, body: "not an AMP Cache host"},
		// A host that is no cache gets 404 when mounted.
		{name: "publisher host", host: "www.example.com", path: "/index.amp.html", want: 404, body: "not an AMP Cache host"},
		// The prefix redirect keeps the request's scheme (http here) and port.
		{name: "prefix redirect keeps scheme and port", host: "wrong.cache.test:8080", path: "/c/s/www.example.com/", want: 301, location: "http://www-example-com.cache.test:8080/c/s/www.example.com/"},
		// WithMaxRedirects(1): one redirect is followed.
		{name: "one redirect", host: "www-example-com.cache.test", path: "/c/s/www.example.com/chain/1", want: 200, body: "end of chain"},
		// WithMaxRedirects(1): two are too many.
		{name: "two redirects", host: "www-example-com.cache.test", path: "/c/s/www.example.com/chain/2", want: 404, body: "too many redirects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, client, srv.URL+tt.path, tt.host)
			if res.StatusCode != tt.want || res.Header.Get("Location") != tt.location || !strings.Contains(body, tt.body) {
				t.Errorf("GET %s%s: %d, Location %q; want %d, %q, body with %q:\n%s", tt.host, tt.path, res.StatusCode, res.Header.Get("Location"), tt.want, tt.location, tt.body, body)
			}
		})
	}
}

// An origin handler that misbehaves after its head is a failed fetch.
func TestOriginMisbehaves(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/panic-mid-body", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html amp>")
		w.(http.Flusher).Flush()
		panic("mid-body")
	})
	mux.HandleFunc("/abort", func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })
	mux.HandleFunc("/bad-status", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(42) })
	mux.HandleFunc("/early-hints", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusEarlyHints)
		io.WriteString(w, "<html amp>after hints")
	})
	s, err := cachetest.NewServer(mux)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		path string
		want int
	}{
		// A panic after the head ends the body in an error.
		{path: "/panic-mid-body", want: 404},
		// http.ErrAbortHandler before the head.
		{path: "/abort", want: 404},
		// A status net/http would refuse.
		{path: "/bad-status", want: 404},
		// A 1xx response is not the response.
		{path: "/early-hints", want: 200},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, body := get(t, s.Client(), cdn+"/c/s/www.example.com"+tt.path, "")
			if res.StatusCode != tt.want {
				t.Errorf("%s: %d, want %d\n%s", tt.path, res.StatusCode, tt.want, body)
			}
		})
	}
}

func TestIsCacheHost(t *testing.T) {
	c, err := cachetest.New(http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want bool
	}{
		// spec "Domain Name Prefix": a prefix on the Google AMP Cache.
		{in: "www-example-com.cdn.ampproject.org", want: true},
		// A prefix on the Bing AMP Cache.
		{in: "www-example-com.www.bing-amp.com", want: true},
		// The cache domain itself, which the cache redirects to a prefix.
		{in: "cdn.ampproject.org", want: true},
		// Case and port do not matter.
		{in: "A.CDN.AMPPROJECT.ORG:443", want: true},
		// The publisher's own host.
		{in: "www.example.com"},
		// A look-alike.
		{in: "cdn.ampproject.org.evil.com"},
		// Empty.
		{in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := c.IsCacheHost(tt.in); got != tt.want {
				t.Errorf("IsCacheHost(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// The cache stores nothing: a change at the origin shows at once.
func TestNoStorage(t *testing.T) {
	var version atomic.Int32
	s, err := cachetest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		fmt.Fprintf(w, "<html amp>version %d", version.Load())
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for v := range int32(3) {
		version.Store(v)
		_, body := get(t, s.Client(), cdn+"/c/s/www.example.com/", "")
		if want := fmt.Sprintf("version %d", v); !strings.Contains(body, want) {
			t.Errorf("got %q, want %q", body, want)
		}
	}
}
