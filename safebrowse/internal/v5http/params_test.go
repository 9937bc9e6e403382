// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"net/url"
	"reflect"
	"testing"
)

func TestParams(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    url.Values
		wantErr string
	}{
		// A snake_case name is read under its lowerCamel name.
		{name: "snake_case", in: "page_size=2&pageToken=t", want: url.Values{"pageSize": {"2"}, "pageToken": {"t"}}},
		// The common parameters are taken by every method.
		{name: "common", in: "key=k&alt=proto&$ct=application/json&prettyPrint=false", want: url.Values{"key": {"k"}, "alt": {"proto"}, "$ct": {"application/json"}, "prettyPrint": {"false"}}},
		// A parameter of another method is refused.
		{name: "other method", in: "version=AAAA", wantErr: `unknown parameter "version"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Params(q, HashListsParams)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Params(%q) error %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Params(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestInt32(t *testing.T) {
	tests := []struct {
		name    string
		in      []string
		want    int
		wantErr string
	}{
		// Absent is 0.
		{name: "absent"},
		// The largest int32.
		{name: "max", in: []string{"2147483647"}, want: 2147483647},
		// One past it.
		{name: "overflow", in: []string{"2147483648"}, wantErr: `n="2147483648" is not a non-negative int32`},
		// Negative values have no meaning for a size.
		{name: "negative", in: []string{"-1"}, wantErr: `n="-1" is not a non-negative int32`},
		// Given twice.
		{name: "twice", in: []string{"1", "2"}, wantErr: "n given 2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := url.Values{}
			if tt.in != nil {
				p["n"] = tt.in
			}
			got, err := Int32(p, "n")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Int32(%q) error %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Int32(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}
