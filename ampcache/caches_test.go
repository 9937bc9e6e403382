// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestBuiltinCaches checks the generated table against the record of
// caches.json, and against data/caches.json through ParseCaches.
func TestBuiltinCaches(t *testing.T) {
	want := []Cache{
		{ID: "google", Name: "Google AMP Cache", Docs: "https://developers.google.com/amp/cache/", CacheDomain: "cdn.ampproject.org", UpdateCacheAPIDomainSuffix: "cdn.ampproject.org", ThirdPartyFrameDomainSuffix: "ampproject.net"},
		{ID: "bing", Name: "Bing AMP Cache", Docs: "https://www.bing.com/webmaster/help/bing-amp-cache-bc1c884c", CacheDomain: "www.bing-amp.com", UpdateCacheAPIDomainSuffix: "www.bing-amp.com", ThirdPartyFrameDomainSuffix: "www.bing-amp.net"},
	}
	if got := Caches(); !reflect.DeepEqual(got, want) {
		t.Errorf("Caches() = %+v; want %+v", got, want)
	}
	data, err := os.ReadFile("data/caches.json")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseCaches(data)
	if err != nil || !reflect.DeepEqual(parsed, want) {
		t.Errorf("ParseCaches(data/caches.json) = %+v, %v; want %+v (run go generate?)", parsed, err, want)
	}
	if err := checkCaches(builtinCaches); err != nil {
		t.Errorf("the built-in caches fail validation: %v", err)
	}
}

// TestCachesCopy checks that Caches and Registry.Caches hand out copies.
func TestCachesCopy(t *testing.T) {
	c := Caches()
	c[0].CacheDomain = "evil.example"
	if Caches()[0].CacheDomain != "cdn.ampproject.org" {
		t.Error("Caches() shares its backing array")
	}
	in := Caches()
	r, err := NewRegistry(in)
	if err != nil {
		t.Fatal(err)
	}
	in[0].CacheDomain = "evil.example"
	rc := r.Caches()
	rc[1].CacheDomain = "evil.example"
	if got := r.Caches(); got[0].CacheDomain != "cdn.ampproject.org" || got[1].CacheDomain != "www.bing-amp.com" {
		t.Errorf("Registry shares memory with its callers: %+v", got)
	}
}

func TestParseCaches(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Cache
		wantErr error
	}{
		// The spec's example cache record, in a caches.json list.
		{
			name: "spec example",
			in:   `{"caches":[{"id":"google","name":"Google AMP Cache","docs":"https://developers.google.com/amp/cache/","cacheDomain":"cdn.ampproject.org","updateCacheApiDomainSuffix":"cdn.ampproject.org","thirdPartyFrameDomainSuffix":"ampproject.net"}]}`,
			want: []Cache{{ID: "google", Name: "Google AMP Cache", Docs: "https://developers.google.com/amp/cache/", CacheDomain: "cdn.ampproject.org", UpdateCacheAPIDomainSuffix: "cdn.ampproject.org", ThirdPartyFrameDomainSuffix: "ampproject.net"}},
		},
		// Fields this package does not know are ignored, for newer files.
		{
			name: "unknown fields",
			in:   `{"caches":[{"id":"x","cacheDomain":"x.example","future":1}],"version":2}`,
			want: []Cache{{ID: "x", CacheDomain: "x.example"}},
		},
		// Not JSON.
		{name: "not JSON", in: `caches`, wantErr: ErrInvalidCaches},
		// A bare list is not the caches.json format.
		{name: "bare list", in: `[{"id":"x","cacheDomain":"x.example"}]`, wantErr: ErrInvalidCaches},
		// No caches key.
		{name: "no caches", in: `{}`, wantErr: ErrInvalidCaches},
		// An empty list.
		{name: "empty list", in: `{"caches":[]}`, wantErr: ErrInvalidCaches},
		// An empty id.
		{name: "empty id", in: `{"caches":[{"id":"","cacheDomain":"x.example"}]}`, wantErr: ErrInvalidCaches},
		// A duplicate id.
		{name: "duplicate id", in: `{"caches":[{"id":"x","cacheDomain":"x.example"},{"id":"x","cacheDomain":"y.example"}]}`, wantErr: ErrInvalidCaches},
		// A duplicate cacheDomain.
		{name: "duplicate cacheDomain", in: `{"caches":[{"id":"x","cacheDomain":"x.example"},{"id":"y","cacheDomain":"x.example"}]}`, wantErr: ErrInvalidCaches},
		// An empty cacheDomain.
		{name: "empty cacheDomain", in: `{"caches":[{"id":"x"}]}`, wantErr: ErrInvalidCaches},
		// An uppercase cacheDomain: caches.json holds lowercase hosts.
		{name: "uppercase cacheDomain", in: `{"caches":[{"id":"x","cacheDomain":"CDN.example"}]}`, wantErr: ErrInvalidCaches},
		// A cacheDomain with a scheme.
		{name: "cacheDomain URL", in: `{"caches":[{"id":"x","cacheDomain":"https://cdn.example"}]}`, wantErr: ErrInvalidCaches},
		// A cacheDomain with a trailing dot.
		{name: "cacheDomain root dot", in: `{"caches":[{"id":"x","cacheDomain":"cdn.example."}]}`, wantErr: ErrInvalidCaches},
		// A cacheDomain that a URL parser reads as an IPv4 address.
		{name: "cacheDomain IPv4", in: `{"caches":[{"id":"x","cacheDomain":"192.0.2.1"}]}`, wantErr: ErrInvalidCaches},
		// A cacheDomain label that ends with a hyphen.
		{name: "cacheDomain hyphen", in: `{"caches":[{"id":"x","cacheDomain":"cdn-.example"}]}`, wantErr: ErrInvalidCaches},
		// A cacheDomain label longer than 63 bytes.
		{name: "cacheDomain long label", in: `{"caches":[{"id":"x","cacheDomain":"` + strings.Repeat("a", 64) + `.example"}]}`, wantErr: ErrInvalidCaches},
		// A non-ASCII cacheDomain: caches.json would hold its A-label.
		{name: "cacheDomain Unicode", in: `{"caches":[{"id":"x","cacheDomain":"點看.example"}]}`, wantErr: ErrInvalidCaches},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCaches([]byte(tt.in))
			if !reflect.DeepEqual(got, tt.want) || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("ParseCaches(%s) = %+v, %v; want %+v, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "ampcache: invalid caches.json in ") {
				t.Errorf("error %q", err)
			}
		})
	}
}

func TestNewRegistry(t *testing.T) {
	// A registry validates as ParseCaches does.
	if _, err := NewRegistry(nil); !errors.Is(err, ErrInvalidCaches) {
		t.Errorf("NewRegistry(nil) = %v; want ErrInvalidCaches", err)
	}
	if _, err := NewRegistry([]Cache{{ID: "x", CacheDomain: "Cdn.Example"}}); !errors.Is(err, ErrInvalidCaches) {
		t.Errorf("NewRegistry(uppercase) = %v; want ErrInvalidCaches", err)
	}
	// A registry of its own caches answers for them and for no others.
	r, err := NewRegistry([]Cache{{ID: "mine", CacheDomain: "amp.example.net"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.PublisherDomain("https://www-example-com.amp.example.net"); got != "www.example.com" || err != nil {
		t.Errorf("PublisherDomain on own cache = %q, %v", got, err)
	}
	if _, err := r.PublisherDomain("https://www-example-com.cdn.ampproject.org"); !errors.Is(err, ErrUnknownCache) {
		t.Errorf("PublisherDomain on Google's cache = %v; want ErrUnknownCache", err)
	}
	// One cache domain ending another: each origin finds its own cache.
	nested, err := NewRegistry([]Cache{{ID: "outer", CacheDomain: "example.net"}, {ID: "inner", CacheDomain: "amp.example.net"}})
	if err != nil {
		t.Fatal(err)
	}
	for origin, want := range map[string]string{
		"https://a-com.amp.example.net": "a.com",
		"https://a-com.example.net":     "a.com",
	} {
		if got, err := nested.PublisherDomain(origin); got != want || err != nil {
			t.Errorf("nested PublisherDomain(%q) = %q, %v; want %q", origin, got, err, want)
		}
	}
	if _, err := nested.PublisherDomain("https://b.a-com.amp.example.net"); !errors.Is(err, ErrInvalidOrigin) {
		t.Errorf("nested PublisherDomain(two labels) = %v; want ErrInvalidOrigin", err)
	}
	if got, err := nested.SourceURL("https://amp.example.net/c/s/a.com/"); got != "https://a.com/" || err != nil {
		t.Errorf("nested SourceURL = %q, %v", got, err)
	}
	// The zero and nil Registry have no caches, and do not panic.
	for _, r := range []*Registry{nil, {}} {
		if got := r.Caches(); len(got) != 0 {
			t.Errorf("%v.Caches() = %v", r, got)
		}
		if got, err := r.Origins("example.com"); len(got) != 0 || err != nil {
			t.Errorf("%v.Origins() = %v, %v", r, got, err)
		}
		if _, err := r.PublisherDomain("https://www-example-com.cdn.ampproject.org"); !errors.Is(err, ErrUnknownCache) {
			t.Errorf("%v.PublisherDomain() = %v; want ErrUnknownCache", r, err)
		}
		if _, err := r.SourceURL("https://www-example-com.cdn.ampproject.org/c/s/www.example.com/"); !errors.Is(err, ErrNotCacheURL) {
			t.Errorf("%v.SourceURL() = %v; want ErrNotCacheURL", r, err)
		}
	}
}

func TestCacheOrigin(t *testing.T) {
	google, bing := builtinCaches[0], builtinCaches[1]
	tests := []struct {
		c       Cache
		in      string
		want    string
		wantErr error
	}{
		// spec: "Combined Algorithm" step 1 example.
		{c: google, in: "example.com", want: "https://example-com.cdn.ampproject.org"},
		// spec: "URL Format": pub.com maps to pub-com.cdn.ampproject.org.
		{c: google, in: "pub.com", want: "https://pub-com.cdn.ampproject.org"},
		// spec: the Basic Algorithm's Unicode example.
		{c: google, in: "xn--57hw060o.com", want: "https://xn---com-p33b41770a.cdn.ampproject.org"},
		// The same domain on Bing.
		{c: bing, in: "example.com", want: "https://example-com.www.bing-amp.com"},
		// A domain whose prefix is a hash: the Origin to compare with.
		{c: google, in: strings.Repeat("a", 60) + ".com", want: "https://" + FallbackPrefix(strings.Repeat("a", 60)+".com") + ".cdn.ampproject.org"},
		// A domain with no domain prefix.
		{c: google, in: "", wantErr: ErrEmpty},
		// The zero Cache has no cache domain.
		{c: Cache{}, in: "example.com", wantErr: ErrInvalidHost},
		// A cache domain that is not a lowercase host name.
		{c: Cache{CacheDomain: "CDN.example"}, in: "example.com", wantErr: ErrInvalidHost},
	}
	for _, tt := range tests {
		t.Run(tt.c.ID+"/"+tt.in, func(t *testing.T) {
			got, err := tt.c.Origin(tt.in)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("%+v.Origin(%q) = %q, %v; want %q, %v", tt.c, tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestRegistryOrigins(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr error
	}{
		// One origin per built-in cache, in caches.json order.
		{in: "www.example.com", want: []string{"https://www-example-com.cdn.ampproject.org", "https://www-example-com.www.bing-amp.com"}},
		// An invalid domain.
		{in: "a..b", wantErr: ErrEmptyLabel},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := defaultRegistry.Origins(tt.in)
			if !reflect.DeepEqual(got, tt.want) || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Origins(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func BenchmarkCacheOrigin(b *testing.B) {
	b.ReportAllocs()
	c := builtinCaches[0]
	for b.Loop() {
		c.Origin("www.example.com")
	}
}

// FuzzParseCaches checks that ParseCaches never panics, and that a list it
// accepts makes a Registry whose caches give origins.
func FuzzParseCaches(f *testing.F) {
	data, err := os.ReadFile("data/caches.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"caches":[{"id":"x","cacheDomain":"x.example"},{"id":"y","cacheDomain":"Y.example"}]}`))
	f.Add([]byte(`{"caches":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		caches, err := ParseCaches(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ampcache: invalid caches.json in ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		r, err := NewRegistry(caches)
		if err != nil {
			t.Fatalf("NewRegistry(ParseCaches(%q)) = %v", data, err)
		}
		origins, err := r.Origins("www.example.com")
		if err != nil || len(origins) != len(caches) {
			t.Fatalf("Origins = %q, %v", origins, err)
		}
		for i, o := range origins {
			if got, err := r.PublisherDomain(o); got != "www.example.com" || err != nil {
				t.Fatalf("PublisherDomain(%q) on cache %q = %q, %v", o, caches[i].CacheDomain, got, err)
			}
		}
	})
}
