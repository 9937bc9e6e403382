// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http/httptest"
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
