// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"errors"
	"testing"

	"github.com/urlspec/urlspec/ampcache/cachetest"
)

func TestOriginURL(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
	}{
		// An http server on loopback, as httptest.NewServer gives.
		{in: "http://127.0.0.1:8080"},
		// A trailing slash is no path.
		{in: "http://127.0.0.1:8080/"},
		// https on loopback, as httptest.NewTLSServer gives.
		{in: "https://127.0.0.1:8443"},
		// localhost, default port.
		{in: "http://localhost"},
		// IPv6 loopback.
		{in: "http://[::1]:8080"},
		// All of 127.0.0.0/8 is loopback.
		{in: "http://127.1.2.3:80"},
		// Not loopback: the cache never fetches from the network.
		{in: "http://www.example.com", wantErr: true},
		// Not loopback, by address.
		{in: "http://10.0.0.1:8080", wantErr: true},
		// A path would be dropped silently.
		{in: "http://127.0.0.1:8080/site", wantErr: true},
		// A query.
		{in: "http://127.0.0.1:8080?x", wantErr: true},
		// A fragment.
		{in: "http://127.0.0.1:8080#x", wantErr: true},
		// Userinfo.
		{in: "http://u:p@127.0.0.1:8080", wantErr: true},
		// Another scheme.
		{in: "ftp://127.0.0.1", wantErr: true},
		// No scheme.
		{in: "127.0.0.1:8080", wantErr: true},
		// Empty.
		{in: "", wantErr: true},
		// Malformed.
		{in: "http://[::1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			h, err := cachetest.OriginURL(tt.in)
			if (err != nil) != tt.wantErr || (err == nil) == (h == nil) {
				t.Fatalf("OriginURL(%q) = %v, %v; want error %v", tt.in, h, err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, cachetest.ErrInvalidOrigin) {
				t.Errorf("error %v is not ErrInvalidOrigin", err)
			}
		})
	}
}
