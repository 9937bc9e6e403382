// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
)

// slowServing is the oracle for the serving types this cache serves: those
// of the spec's "URL Path", as one regular expression on a cache path.
var slowServing = regexp.MustCompile(`(?s)^/(c|v|i|r|ii/w[1-9][0-9]*)/(s/)?[^/]+`)

func TestServed(t *testing.T) {
	tests := []struct {
		in       string
		want     string // serving type, "" for not served
		document bool
	}{
		// spec "URL Path": /c, Content, an AMP document.
		{in: "/c/s/example.com/", want: "c", document: true},
		// spec "URL Path": /v, Viewer, an AMP document.
		{in: "/v/s/example.com/", want: "v", document: true},
		// spec "URL Path": /i, Image.
		{in: "/i/s/example.com/a.png", want: "i"},
		// spec "URL Path": /ii/w800, Image with a maximum width.
		{in: "/ii/w800/s/example.com/a.png", want: "ii/w800"},
		// r, Resource, for fonts and other subresources.
		{in: "/r/s/example.com/f.woff2", want: "r"},
		// An http publisher URL has no /s.
		{in: "/c/example.com/", want: "c", document: true},
		// spec "URL Path": /wp, Web Package, is not served by this cache.
		{in: "/wp/s/example.com/"},
		// spec "URL Path": /cert, Certificate, is not served by this cache.
		{in: "/cert/s/example.com/"},
		// A serving type alone names nothing.
		{in: "/c"},
		// The root names nothing.
		{in: "/"},
		// Serving types are lowercase.
		{in: "/C/s/example.com/"},
		// ii without a width.
		{in: "/ii/s/example.com/"},
		// A width must not start with 0.
		{in: "/ii/w0/s/example.com/"},
		// A large width, as ampcache.ImageMaxWidth makes it.
		{in: "/ii/w100000/example.com/x", want: "ii/w100000"},
		// A negative width.
		{in: "/ii/w-1/example.com/x"},
		// A width that is not a number.
		{in: "/ii/wide/example.com/x"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, document := servedPath(tt.in)
			if string(got) != tt.want || document != tt.document {
				t.Errorf("served(%q) = %q, %v; want %q, %v", tt.in, got, document, tt.want, tt.document)
			}
			checkServingOracle(t, tt.in)
		})
	}
}

// servedPath reads the serving type of a cache path as the cache does, with
// ampcache, and returns it if the cache serves it.
func servedPath(path string) (ampcache.Serving, bool) {
	r, _ := ampcache.NewRegistry(ampcache.Caches())
	_, s, err := r.ParseCacheURL("https://example-com.cdn.ampproject.org" + path)
	if err != nil {
		return "", false
	}
	document, ok := served(s)
	if !ok {
		return "", false
	}
	return s, document
}

// checkServingOracle checks the cache's serving types against slowServing,
// for a path whose publisher host ampcache accepts.
func checkServingOracle(t *testing.T, in string) {
	t.Helper()
	s, _ := servedPath(in)
	m := slowServing.FindStringSubmatch(in)
	if s != "" && (m == nil || m[1] != string(s)) {
		t.Errorf("served(%q) = %q; oracle %q", in, s, m)
	}
	if s == "" && m != nil {
		if _, _, err := mustRegistry().ParseCacheURL("https://example-com.cdn.ampproject.org" + in); err == nil {
			t.Errorf("served(%q) refused; oracle %q", in, m)
		}
	}
}

func mustRegistry() *ampcache.Registry {
	r, err := ampcache.NewRegistry(ampcache.Caches())
	if err != nil {
		panic(err)
	}
	return r
}

// TestSplitHost checks that a Host that is not host[:port] is
// refused, so that nothing of it but the host name and the port as a
// number reaches a Location.
func TestSplitHost(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		port    int
		hasPort bool
		ok      bool
	}{
		// A host name.
		{in: "www-example-com.cdn.ampproject.org", name: "www-example-com.cdn.ampproject.org", ok: true},
		// A host and a port.
		{in: "a.cdn.ampproject.org:8443", name: "a.cdn.ampproject.org", port: 8443, hasPort: true, ok: true},
		// Leading zeros, as host.Port allows.
		{in: "a.example:0080", name: "a.example", port: 80, hasPort: true, ok: true},
		// An empty port is no port.
		{in: "a.example:", name: "a.example", ok: true},
		// Userinfo after the port.
		{in: "www-example-com.cdn.ampproject.org:1@evil.com"},
		// A port above 65535.
		{in: "a.example:65536"},
		// A path in the Host.
		{in: "a.example/x"},
		// Two ports.
		{in: "a.example:1:2"},
		// A space.
		{in: "a example"},
		// Non-ASCII.
		{in: "ä.example"},
		// Empty.
		{in: ""},
		// A port alone.
		{in: ":80"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			name, port, hasPort, ok := splitHost(tt.in)
			if name != tt.name || port != tt.port || hasPort != tt.hasPort || ok != tt.ok {
				t.Errorf("splitHost(%q) = %q, %d, %v, %v; want %q, %d, %v, %v", tt.in, name, port, hasPort, ok, tt.name, tt.port, tt.hasPort, tt.ok)
			}
		})
	}
}

// isCacheOnlySlow is the oracle's list of cache-only query parameters: the
// AMP runtime's, and the spec's amp_latest_update_time.
func isCacheOnlySlow(name string) bool {
	switch name {
	case "amp_gsa", "amp_r", "amp_kit", "usqp", "amp_latest_update_time":
		return true
	}
	return strings.HasPrefix(name, "amp_js_")
}
