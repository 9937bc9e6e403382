// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache/cachetest"
)

func TestNew(t *testing.T) {
	ok := http.NotFoundHandler()
	tests := []struct {
		name    string
		origin  http.Handler
		opts    []cachetest.Option
		wantErr error
	}{
		// The defaults.
		{name: "defaults", origin: ok},
		// Every option in range; 0 redirects follows none.
		{name: "all options", origin: ok, opts: []cachetest.Option{cachetest.WithMaxRedirects(0), cachetest.WithMaxBodySize(1), cachetest.WithTimeout(time.Millisecond), nil}},
		// A cache needs an origin.
		{name: "nil origin", wantErr: cachetest.ErrInvalidOrigin},
		// A negative bound.
		{name: "negative redirects", origin: ok, opts: []cachetest.Option{cachetest.WithMaxRedirects(-1)}, wantErr: cachetest.ErrInvalidOption},
		// A body bound of 0 could serve nothing.
		{name: "zero body", origin: ok, opts: []cachetest.Option{cachetest.WithMaxBodySize(0)}, wantErr: cachetest.ErrInvalidOption},
		// A timeout of 0 could fetch nothing.
		{name: "zero timeout", origin: ok, opts: []cachetest.Option{cachetest.WithTimeout(0)}, wantErr: cachetest.ErrInvalidOption},
		// A nil registry.
		{name: "nil registry", origin: ok, opts: []cachetest.Option{cachetest.WithRegistry(nil)}, wantErr: cachetest.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := cachetest.New(tt.origin, tt.opts...)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (c != nil) {
				t.Fatalf("New = %v, %v; want error %v", c, err, tt.wantErr)
			}
			s, err := cachetest.NewServer(tt.origin, tt.opts...)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("NewServer error %v, want %v", err, tt.wantErr)
			}
			if s != nil {
				s.Close()
			}
		})
	}
}
