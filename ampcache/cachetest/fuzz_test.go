// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"

	"github.com/urlspec/urlspec/internal/wpt"
)

// fuzzOrigin is an origin that records the request URIs it sees and answers
// by path: AMP, not AMP, redirects, errors, and an endless body.
type fuzzOrigin struct {
	mu   sync.Mutex
	uris []string
}

func (o *fuzzOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.uris = append(o.uris, r.RequestURI)
	o.mu.Unlock()
	switch {
	case strings.HasPrefix(r.URL.Path, "/redirect"):
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	case strings.HasPrefix(r.URL.Path, "/loop"):
		http.Redirect(w, r, r.URL.Path, http.StatusMovedPermanently)
	case strings.HasPrefix(r.URL.Path, "/error"):
		http.Error(w, "boom", http.StatusBadGateway)
	case strings.HasPrefix(r.URL.Path, "/endless"):
		for {
			if _, err := w.Write(make([]byte, 4096)); err != nil {
				return
			}
		}
	case strings.HasPrefix(r.URL.Path, "/plain"):
		io.WriteString(w, "<html><link rel=canonical href="+r.URL.RawQuery+">")
	default:
		io.WriteString(w, "<html ⚡><body>"+r.URL.Path)
	}
}

// cacheStatuses are the only statuses the cache answers with.
var cacheStatuses = map[int]bool{200: true, 204: true, 400: true, 301: true, 302: true, 403: true, 404: true, 405: true, 414: true}

// checkServe serves one request and checks the cache's invariants.
func checkServe(t *testing.T, c *Cache, o *fuzzOrigin, method, host, uri string) int {
	t.Helper()
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return 0 // net/http would not deliver it
	}
	r := &http.Request{Method: method, Host: host, RequestURI: uri, URL: u, Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Body: http.NoBody}
	r = r.WithContext(t.Context())
	o.mu.Lock()
	o.uris = o.uris[:0]
	o.mu.Unlock()
	w := httptest.NewRecorder()
	c.ServeHTTP(w, r)
	if !cacheStatuses[w.Code] {
		t.Fatalf("%s %s%s: status %d", method, host, uri, w.Code)
	}
	if w.Code >= 400 && w.Body.Len() > 4096 {
		t.Errorf("%s %.100s%.100s: error page of %d bytes", method, host, uri, w.Body.Len())
	}
	if w.Header().Get("Content-Type") == "" {
		t.Errorf("%s %s%s: no Content-Type", method, host, uri)
	}
	if w.Code == 301 {
		loc, err := url.Parse(w.Header().Get("Location"))
		if err != nil {
			t.Fatalf("%s%s: bad Location %q", host, uri, w.Header().Get("Location"))
		}
		if p, _, ok := c.registry.SplitCacheHost(loc.Hostname()); p == "" || !ok || loc.User != nil {
			t.Errorf("%s%s: 301 to %q, which has no prefix on a cache", host, uri, loc)
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.uris) > c.maxRedirects+1 {
		t.Errorf("%s%s: %d fetches for one request", host, uri, len(o.uris))
	}
	for _, got := range o.uris {
		_, q, _ := strings.Cut(got, "?")
		for p := range strings.SplitSeq(q, "&") {
			name, _, _ := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil && isCacheOnlySlow(n) && got == o.uris[0] {
				t.Errorf("%s%s: origin saw cache-only %q in %q", host, uri, n, got)
			}
		}
	}
	return w.Code
}

func newFuzzCache(tb testing.TB) (*Cache, *fuzzOrigin) {
	o := &fuzzOrigin{}
	c, err := New(o, WithMaxBodySize(64<<10), WithTimeout(5*time.Second), WithMaxRedirects(3))
	if err != nil {
		tb.Fatal(err)
	}
	return c, o
}

// The browsers' URL suite, as publisher URLs behind the cache: no panic,
// only the cache's statuses, bounded fetches.
func TestWPTInputs(t *testing.T) {
	c, o := newFuzzCache(t)
	inputs := wpt.Inputs(t)
	codes := map[int]int{}
	for _, in := range inputs {
		if cu, err := ampcache.CacheURL("cdn.ampproject.org", in, ampcache.Content); err == nil {
			if u, err := url.Parse(cu); err == nil {
				codes[checkServe(t, c, o, "GET", u.Host, u.RequestURI())]++
			}
		}
		codes[checkServe(t, c, o, "GET", "www-example-com.cdn.ampproject.org", "/c/s/www.example.com/"+in)]++
		codes[checkServe(t, c, o, "GET", "www-example-com.cdn.ampproject.org", "/r/"+in)]++
	}
	t.Logf("statuses (0: not a request target): %v", codes)
	if codes[200] == 0 || codes[404] == 0 {
		t.Errorf("the suite served no page or refused none: %v", codes)
	}
}

func FuzzCache(f *testing.F) {
	seeds := []struct{ host, uri string }{
		// spec "Domain Name Prefix" example.
		{"example-com.cdn.ampproject.org", "/c/s/example.com/"},
		// spec "Domain Name Prefix": the en-us example.
		{"0-en--us-example-com-0.cdn.ampproject.org", "/v/s/en-us.example.com/a?b=c"},
		// Wrong prefix.
		{"evil-com.cdn.ampproject.org", "/c/s/example.com/"},
		// A redirect to a cache-only parameter, and a redirect loop.
		{"example-com.www.bing-amp.com", "/c/example.com/redirect?to=/x%3Famp_r%3D1&amp_js_v=1"},
		{"example-com.cdn.ampproject.org", "/c/s/example.com/loop"},
		// Errors, endless bodies, non-AMP with a hostile canonical.
		{"example-com.cdn.ampproject.org", "/i/s/example.com/error"},
		{"example-com.cdn.ampproject.org", "/ii/w10/s/example.com/endless"},
		{"example-com.cdn.ampproject.org", "/c/s/example.com/plain?javascript:x"},
		// Hostile hosts and paths.
		{"xn--99999a.cdn.ampproject.org", "/c/s/xn--99999a/"},
		{"cdn.ampproject.org:99999", "/c/s/[::1]:80/"},
		{"", "/c/s/%00/"},
		// Update-cache requests: unsigned, and naming no publisher.
		{"example-com.cdn.ampproject.org", "/update-cache/c/s/example.com/?amp_action=flush&amp_ts=1&amp_url_signature=AA"},
		{"a-b.www.bing-amp.com", "/update-cache/x"},
	}
	for _, s := range seeds {
		f.Add(s.host, s.uri)
	}
	c, o := newFuzzCache(f)
	f.Fuzz(func(t *testing.T, host, uri string) {
		checkServe(t, c, o, "GET", host, uri)
	})
}

// FuzzParseServing checks the serving types the cache reads, with
// ampcache, against the oracle.
func FuzzParseServing(f *testing.F) {
	for _, s := range []string{"/c/s/example.com/", "/ii/w800/x", "/ii/w0/x", "/wp/s/a/", "/i", "//c/", "/ii/w99999/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		checkServingOracle(t, path)
	})
}

func FuzzReadAMP(f *testing.F) {
	for _, s := range []string{
		`<!doctype html><html ⚡><head><link rel=canonical href=/c></head></html>`,
		`<html amp>`, `<HTML AMP=1>`, `<head></head><html amp>`, `<html><html amp>`,
		`<base href=//x/><link rel="a canonical" href=../y>`, `<script><html amp></script>`,
		`<!-- <html amp> --><html>`, "<html\x00amp>", `<html ⚡4email>`, `<link rel=canonical href="http://[::1">`,
	} {
		f.Add(s)
	}
	base, _ := url.Parse("https://www.example.com/a/b?c")
	f.Fuzz(func(t *testing.T, doc string) {
		info := readAMP([]byte(doc), base)
		if info.canonical != "" {
			u, err := url.Parse(info.canonical)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
				t.Errorf("readAMP(%q) canonical %q is not an absolute http(s) URL", doc, info.canonical)
			}
		}
		checkAMPOracle(t, doc)
	})
}

// FuzzParseAPIKey checks that a publisher's apikey.pub, which the cache
// reads from the network, never panics the parser, and that what it
// accepts is an RSA key.
func FuzzParseAPIKey(f *testing.F) {
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		f.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&k.PublicKey)}))
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----\n"))
	f.Add([]byte("not a key"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pub, err := parseAPIKey(b)
		if (err == nil) != (pub != nil && pub.N != nil) {
			t.Fatalf("parseAPIKey(%q) = %v, %v", b, pub, err)
		}
	})
}
