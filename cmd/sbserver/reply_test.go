// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/urlspec/urlspec/internal/rpcstatus"
)

// googleError is the JSON error body of Google's APIs, as a client reads
// it.
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Details []struct {
			Type     string            `json:"@type"`
			Reason   string            `json:"reason"`
			Domain   string            `json:"domain"`
			Metadata map[string]string `json:"metadata"`
		} `json:"details"`
	} `json:"error"`
}

func TestWriteError(t *testing.T) {
	key := rpcstatus.ErrorInfo{Reason: rpcstatus.ReasonAPIKeyInvalid, Service: rpcstatus.SafeBrowsing}
	tests := []struct {
		name   string
		shape  errorShape
		status int
		info   rpcstatus.ErrorInfo
		want   string
	}{
		// Google's shape, no details.
		{name: "google", shape: googleErrors, status: 503, want: `{"error":{"code":503,"message":"m","status":"UNAVAILABLE"}}`},
		// Google's shape, with the ErrorInfo of a wrong key.
		{name: "google details", shape: googleErrors, status: 403, info: key,
			want: `{"error":{"code":403,"message":"m","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}`},
		// A redirect: no status.
		{name: "redirect", shape: googleErrors, status: 307, want: `{"error":{"code":307,"message":"m"}}`},
		// sbserver's own shape has no room for details.
		{name: "plain", shape: plainErrors, status: 403, info: key, want: `{"error":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeError(rec, tt.shape, tt.status, "m", tt.info)
			if got := rec.Body.String(); rec.Code != tt.status || got != tt.want+"\n" {
				t.Errorf("%d %s\nwant %d %s", rec.Code, got, tt.status, tt.want)
			}
			for k, v := range map[string]string{"Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"} {
				if got := rec.Header().Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"http://a.example/", `"http://a.example/"`},     // nothing to escape
		{`a"b\c`, `"a\"b\\c"`},                           // quote and backslash
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},                   // short escapes
		{"\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`}, // other controls; DEL is not one
		{"<a>&", `"\u003ca\u003e\u0026"`},                // HTML's, as encoding/json escapes them
		{"\u2028\u2029", `"\u2028\u2029"`},               // JavaScript's line ends
		{"é\U0001F600", `"é` + "\U0001F600" + `"`},       // UTF-8 as it is
		{"a\xffb\xc3", `"a\ufffdb\ufffd"`},               // not UTF-8
	} {
		if got := string(appendJSONString(nil, tt.in)); got != tt.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppendJSONString checks appendJSONString against encoding/json.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "http://a.example/?q=<b>&c", "\x00\u2028\xff\xc3", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json: %s", s, got[1:], want)
		}
	})
}

// TestSetJSONHeaders: the shared header values are not changed by what a
// handler may do to its headers.
func TestSetJSONHeaders(t *testing.T) {
	h := http.Header{}
	setJSONHeaders(h)
	h.Add("Cache-Control", "private")
	h.Set("Content-Type", "text/plain")
	h2 := http.Header{}
	setJSONHeaders(h2)
	want := http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"no-store"}, "X-Content-Type-Options": {"nosniff"}}
	if !reflect.DeepEqual(h2, want) {
		t.Errorf("headers %v, want %v", h2, want)
	}
}
