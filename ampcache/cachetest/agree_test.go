// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// TestEntryPointsAgree runs every entry point of ampcache and cachetest on
// the same hosts, on every built-in cache, and checks that they agree:
// DomainPrefix, Cache.Origin, PublisherDomain, CacheURL, SourceURL,
// Registry.ParseCacheURL, Registry.SplitCacheHost, and the cache's
// IsCacheHost and ServeHTTP (which serves a cache URL on its prefix, and
// redirects another prefix to it).
func TestEntryPointsAgree(t *testing.T) {
	tests := []struct {
		host    string // as in a publisher URL
		ascii   string // as a URL parser serialises it; "" if CacheURL refuses it
		hashed  bool   // the prefix is the fallback
		noRead  bool   // PublisherDomain refuses the origin for another reason
		prefErr bool   // DomainPrefix refuses the host
	}{
		// spec "Basic Algorithm" examples.
		{host: "example.com", ascii: "example.com"},
		{host: "foo-example.com", ascii: "foo-example.com"},
		{host: "en-us.example.com", ascii: "en-us.example.com"},
		{host: "xn--57hw060o.com", ascii: "xn--57hw060o.com"},
		// The same host as Unicode and in upper case.
		{host: "⚡😊.com", ascii: "xn--57hw060o.com"},
		{host: "WWW.Example.COM", ascii: "www.example.com"},
		// A U-label and its A-label.
		{host: "bücher.de", ascii: "xn--bcher-kva.de"},
		{host: "xn--bcher-kva.de", ascii: "xn--bcher-kva.de"},
		// Too long for a readable prefix: the fallback.
		{host: strings.Repeat("a", 60) + ".com", ascii: strings.Repeat("a", 60) + ".com", hashed: true},
		// A browser accepts "_", the STD3 rules do not: the fallback.
		{host: "_dmarc.example.com", ascii: "_dmarc.example.com", hashed: true},
		// An IPv4 address: a prefix, but no cache URL, and no publisher domain.
		{host: "1.2.3.4", noRead: true},
		// No dot: a hashed prefix, and no cache URL.
		{host: "localhost", hashed: true},
		// A browser rejects the joiner: a hashed prefix, no cache URL.
		{host: "xn--ab-m1t.com", hashed: true},
		// Invalid Punycode: refused by all.
		{host: "xn--99999a.com", prefErr: true},
	}
	registry, err := ampcache.NewRegistry(ampcache.Caches())
	if err != nil {
		t.Fatal(err)
	}
	origin := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html ⚡><body>"+r.Host)
	})
	cache, err := cachetest.New(origin)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for _, c := range ampcache.Caches() {
			t.Run(tt.host+"/"+c.ID, func(t *testing.T) {
				prefix, err := ampcache.DomainPrefix(tt.host)
				if (err != nil) != tt.prefErr {
					t.Fatalf("DomainPrefix(%q): %v", tt.host, err)
				}
				o, oerr := c.Origin(tt.host)
				if err != nil {
					if oerr == nil {
						t.Errorf("Origin(%q) = %q, though DomainPrefix refuses it", tt.host, o)
					}
					return
				}
				if want := "https://" + prefix + "." + c.CacheDomain; o != want || oerr != nil {
					t.Errorf("Origin(%q) = %q, %v; want %q", tt.host, o, oerr, want)
				}
				if p, k, ok := registry.SplitCacheHost(prefix + "." + c.CacheDomain); !ok || p != prefix || k.ID != c.ID {
					t.Errorf("SplitCacheHost(%q) = %q, %q, %v", prefix+"."+c.CacheDomain, p, k.ID, ok)
				}
				d, derr := ampcache.PublisherDomain(o)
				switch {
				case tt.hashed:
					if !errors.Is(derr, ampcache.ErrNotReversible) {
						t.Errorf("PublisherDomain(%q) = %q, %v; want ErrNotReversible", o, d, derr)
					}
				case tt.noRead:
					if derr == nil {
						t.Errorf("PublisherDomain(%q) = %q; want an error", o, d)
					}
				case d != tt.ascii || derr != nil:
					t.Errorf("PublisherDomain(%q) = %q, %v; want %q", o, d, derr, tt.ascii)
				}
				pub := "https://" + tt.host + "/a?b=1"
				cu, cerr := ampcache.CacheURL(c.CacheDomain, pub, ampcache.Content)
				if tt.ascii == "" {
					if cerr == nil {
						t.Errorf("CacheURL(%q) = %q; want an error", pub, cu)
					}
					return
				}
				wantCU := "https://" + ampcache.FallbackPrefix(tt.ascii) + "." + c.CacheDomain + "/c/s/" + tt.ascii + "/a?b=1"
				if !tt.hashed || tt.host == tt.ascii {
					// A Unicode host hashes its Unicode spelling in
					// DomainPrefix, its ASCII one in CacheURL (decision e).
					wantCU = "https://" + prefix + "." + c.CacheDomain + "/c/s/" + tt.ascii + "/a?b=1"
				}
				if cu != wantCU || cerr != nil {
					t.Fatalf("CacheURL(%q) = %q, %v; want %q", pub, cu, cerr, wantCU)
				}
				back, s, err := registry.ParseCacheURL(cu)
				if src, err2 := ampcache.SourceURL(cu); back != "https://"+tt.ascii+"/a?b=1" || s != ampcache.Content || err != nil || src != back || err2 != nil {
					t.Errorf("ParseCacheURL(%q) = %q, %q, %v; SourceURL %q, %v", cu, back, s, err, src, err2)
				}
				u, _ := url.Parse(cu)
				if !cache.IsCacheHost(u.Host) {
					t.Errorf("IsCacheHost(%q) = false", u.Host)
				}
				r := httptest.NewRequest("GET", cu, nil)
				w := httptest.NewRecorder()
				cache.ServeHTTP(w, r)
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), tt.ascii) {
					t.Errorf("GET %s: %d %q", cu, w.Code, w.Body)
				}
				wrong := strings.Replace(cu, u.Hostname(), "wrong."+c.CacheDomain, 1)
				w = httptest.NewRecorder()
				cache.ServeHTTP(w, httptest.NewRequest("GET", wrong, nil))
				if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != cu {
					t.Errorf("GET %s: %d, Location %q; want 301 to %q", wrong, w.Code, w.Header().Get("Location"), cu)
				}
			})
		}
	}
}
