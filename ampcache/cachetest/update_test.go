// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// Keys for the update-cache tests, made once.
var (
	updateKey = sync.OnceValue(func() *rsa.PrivateKey { return genKey(2048) })
	otherKey  = sync.OnceValue(func() *rsa.PrivateKey { return genKey(2048) })
	weakKey   = sync.OnceValue(func() *rsa.PrivateKey { return genKey(1024) })
)

func genKey(bits int) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		panic(err)
	}
	return k
}

// pkix returns k in PEM as openssl rsa -pubout writes it.
func pkix(k any) string {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// keySite is a publisher site whose hosts serve apikey.pub in each of the
// ways the tests need.
func keySite() http.Handler {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	mux := http.NewServeMux()
	serve := func(host, contentType, body string) {
		mux.HandleFunc(host+"/.well-known/amphtml/apikey.pub", func(w http.ResponseWriter, r *http.Request) {
			if r.TLS == nil {
				http.Error(w, "https only", http.StatusForbidden)
				return
			}
			w.Header().Set("Content-Type", contentType)
			io.WriteString(w, body)
		})
	}
	serve("www.example.com", "text/plain; charset=utf-8", pkix(&updateKey().PublicKey))
	serve("pkcs1.example.com", "text/plain", string(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&updateKey().PublicKey)})))
	serve("html.example.com", "text/html", pkix(&updateKey().PublicKey))
	serve("ec.example.com", "text/plain", pkix(&ec.PublicKey))
	serve("weak.example.com", "text/plain", pkix(&weakKey().PublicKey))
	serve("garbage.example.com", "text/plain", "not a key")
	serve("huge.example.com", "text/plain", pkix(&updateKey().PublicKey)+strings.Repeat("\n", cachetest.MaxKeySize))
	mux.HandleFunc("moved.example.com/.well-known/amphtml/apikey.pub", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://www.example.com/.well-known/amphtml/apikey.pub", http.StatusFound)
	})
	mux.HandleFunc("/", http.NotFound)
	return mux
}

func TestUpdateCache(t *testing.T) {
	now := time.Now()
	sign := func(pub string, ts time.Time, k *rsa.PrivateKey) string {
		u, err := ampcache.UpdateCacheURL(ampcache.Caches()[0], pub, ts, k)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	good := sign("https://www.example.com/article?id=7", now, updateKey())
	tests := []struct {
		name       string
		method     string
		url        string
		wantStatus int
		wantErr    error  // in the error page's message
		wantMsg    string // a part of the error page
	}{
		// A valid flush.
		{"valid", "GET", good, 204, nil, ""},
		// On Bing's host too: the host is not signed.
		{"valid on bing", "GET", strings.Replace(good, "cdn.ampproject.org", "www.bing-amp.com", 1), 204, nil, ""},
		// An http document, and a key in PKCS #1 PEM.
		{"http document", "GET", sign("http://pkcs1.example.com/a", now, updateKey()), 204, nil, ""},
		// amp_ts 59 seconds old is in the window.
		{"59s old", "GET", sign("https://www.example.com/a", now.Add(-59*time.Second), updateKey()), 204, nil, ""},
		// A bad signature: another publisher's key.
		{"other key", "GET", sign("https://www.example.com/a", now, otherKey()), 403, ampcache.ErrSignature, "does not verify"},
		// A bad signature: the query changed after signing.
		{"changed query", "GET", strings.Replace(good, "id=7", "id=8", 1), 403, ampcache.ErrSignature, "does not verify"},
		// A stale timestamp.
		{"stale", "GET", sign("https://www.example.com/a", now.Add(-2*time.Minute), updateKey()), 403, ampcache.ErrTimestamp, "more than 60 seconds"},
		// A timestamp from the future.
		{"future", "GET", sign("https://www.example.com/a", now.Add(2*time.Minute), updateKey()), 403, ampcache.ErrTimestamp, "more than 60 seconds"},
		// No signature.
		{"unsigned", "GET", good[:strings.Index(good, "&amp_url_signature=")], 403, ampcache.ErrSignature, ""},
		// A missing key: the publisher serves no apikey.pub.
		{"missing key", "GET", sign("https://nokey.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "404 Not Found"},
		// A key served as HTML.
		{"key not text/plain", "GET", sign("https://html.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "want text/plain"},
		// A key served through a redirect to another host.
		{"key redirected", "GET", sign("https://moved.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "302 Found"},
		// A key that is not PEM.
		{"key garbage", "GET", sign("https://garbage.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "no PEM block"},
		// A key file over MaxKeySize.
		{"key too large", "GET", sign("https://huge.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "over 65536 bytes"},
		// An ECDSA key.
		{"key not RSA", "GET", sign("https://ec.example.com/a", now, updateKey()), 403, cachetest.ErrNoKey, "want an RSA key"},
		// A 1024-bit RSA key.
		{"key too short", "GET", "https://weak-example-com.cdn.ampproject.org/update-cache/c/s/weak.example.com/a?amp_action=flush&amp_ts=1&amp_url_signature=AA", 403, ampcache.ErrInvalidKey, "at least 2048 bits"},
		// A prefix that is not the publisher host's.
		{"wrong prefix", "GET", strings.Replace(good, "www-example-com", "evil-com", 1), 403, ampcache.ErrInvalidURL, "domain prefix"},
		// A path that names no publisher.
		{"no publisher", "GET", "https://a-b.cdn.ampproject.org/update-cache/x?amp_action=flush", 403, cachetest.ErrUpdateRefused, ""},
		// Only GET.
		{"head", "HEAD", good, 405, nil, ""},
		{"post", "POST", good, 405, nil, ""},
		// Not on a cache.
		{"not a cache host", "GET", strings.Replace(good, "cdn.ampproject.org", "example.org", 1), 404, nil, ""},
	}
	c, err := cachetest.New(keySite())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			c.ServeHTTP(w, httptest.NewRequest(tt.method, tt.url, nil))
			body := w.Body.String()
			if w.Code != tt.wantStatus {
				t.Fatalf("%s %s: %d, want %d\n%s", tt.method, tt.url, w.Code, tt.wantStatus, body)
			}
			if tt.wantErr != nil && !strings.Contains(body, tt.wantErr.Error()) {
				t.Errorf("page lacks %q:\n%s", tt.wantErr, body)
			}
			if !strings.Contains(body, tt.wantMsg) {
				t.Errorf("page lacks %q:\n%s", tt.wantMsg, body)
			}
		})
	}
	want := []string{
		"https://www.example.com/article?id=7",
		"https://www.example.com/article?id=7",
		"http://pkcs1.example.com/a",
		"https://www.example.com/a",
	}
	if got := c.Flushed(); !slices.Equal(got, want) {
		t.Errorf("Flushed() = %q, want %q", got, want)
	}
}

// A Server answers update-cache requests over https, for the URLs
// UpdateCacheURLs makes, and a cache without an updateCacheApiDomainSuffix
// takes none.
func TestServerUpdateCache(t *testing.T) {
	caches := ampcache.Caches()
	caches = append(caches, ampcache.Cache{ID: "plain", CacheDomain: "plain.example", UpdateCacheAPIDomainSuffix: ""})
	caches[1].UpdateCacheAPIDomainSuffix = "update.bing.example"
	r, err := ampcache.NewRegistry(caches)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cachetest.NewServer(keySite(), cachetest.WithRegistry(r))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range caches[:2] {
		u, err := ampcache.UpdateCacheURL(c, "https://www.example.com/a", time.Now(), updateKey())
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Client().Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNoContent {
			t.Errorf("GET %s: %s, want 204", u, res.Status)
		}
	}
	_, err = ampcache.UpdateCacheURL(caches[2], "https://www.example.com/a", time.Now(), updateKey())
	if !errors.Is(err, ampcache.ErrNoUpdateCacheAPI) {
		t.Errorf("cache without a suffix: %v", err)
	}
	u := "https://www-example-com.plain.example/update-cache/c/s/www.example.com/a?amp_action=flush"
	res, err := s.Client().Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET %s: %s, want 404", u, res.Status)
	}
	if got := s.Cache.Flushed(); len(got) != 2 {
		t.Errorf("Flushed() = %q, want two flushes", got)
	}
}
