// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"reflect"
	"testing"

	"github.com/urlspec/urlspec/safebrowse"
)

var errBoom = errors.New("boom")

// TestBatchError checks the message and the unwrapping of a BatchError.
func TestBatchError(t *testing.T) {
	e1 := &invalidURLError{safebrowse.ErrEmpty}
	e3 := ErrNotReady
	tests := []struct {
		name       string
		in         []error
		want       string
		wantUnwrap []error
	}{
		// One failed URL: its message alone.
		{"one", []error{nil, e1, nil}, "lookup: URL 1: safebrowse: empty URL", []error{e1}},
		// Two: the first, and a count.
		{"two", []error{nil, e1, nil, e3}, "lookup: URL 1: safebrowse: empty URL (and 1 more URL failed)", []error{e1, e3}},
		// Many: the message stays one line however many failed.
		{"three", []error{e1, e1, e3}, "lookup: URL 0: safebrowse: empty URL (and 2 more URLs failed)", []error{e1, e1, e3}},
		// An error without the package's prefix keeps its text.
		{"other", []error{nil, nil, errBoom}, "lookup: URL 2: boom", []error{errBoom}},
		// None, which LookupAll never returns.
		{"none", []error{nil}, "lookup: no URL failed", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &BatchError{Errs: tt.in}
			if got := e.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if got := e.Unwrap(); !reflect.DeepEqual(got, tt.wantUnwrap) {
				t.Errorf("Unwrap() = %v, want %v", got, tt.wantUnwrap)
			}
		})
	}
	if batchError([]error{nil, nil}) != nil {
		t.Error("batchError of no failure is not nil")
	}
}

// TestInvalidURL: every error for a URL that cannot be canonicalised is
// both an ErrInvalidURL and the safebrowse error, from Lookup and
// LookupAll alike; a failed check is not an ErrInvalidURL.
func TestInvalidURL(t *testing.T) {
	tests := []struct {
		in      string
		wantErr error // the safebrowse sentinel
	}{
		// Empty.
		{"", safebrowse.ErrEmpty},
		// A scheme that is not hierarchical.
		{"mailto:x@example.com", safebrowse.ErrScheme},
		// No host.
		{"http:///path", safebrowse.ErrNoHost},
		// A port out of range.
		{"http://example.com:99999/", safebrowse.ErrInvalidPort},
	}
	s := newTestServer(t)
	c, _ := readyClient(t, s, LocalList, nil)
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := c.Lookup(bg, tt.in)
			if !errors.Is(err, ErrInvalidURL) || !errors.Is(err, tt.wantErr) {
				t.Errorf("Lookup: err = %v, want ErrInvalidURL and %v", err, tt.wantErr)
			}
			_, err = c.LookupAll(bg, []string{"http://a.example/", tt.in})
			var be *BatchError
			if !errors.As(err, &be) || be.Errs[0] != nil || !errors.Is(be.Errs[1], ErrInvalidURL) || !errors.Is(be.Errs[1], tt.wantErr) {
				t.Errorf("LookupAll: err = %v, want ErrInvalidURL and %v for URL 1", err, tt.wantErr)
			}
		})
	}
	if _, err := c.Lookup(bg, "http://a.example/"); err != nil {
		t.Fatal(err)
	}
	// Not ready: every URL's error, and no ErrInvalidURL.
	c2, _ := newTestClient(t, Config{BaseURL: s.URL})
	_, err := c2.LookupAll(bg, []string{"http://a.example/", "http://b.example/"})
	var be *BatchError
	if !errors.As(err, &be) || len(be.Errs) != 2 || !errors.Is(be.Errs[1], ErrNotReady) || errors.Is(err, ErrInvalidURL) {
		t.Errorf("LookupAll before Ready: %v", err)
	}
}
