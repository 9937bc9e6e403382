// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rpcstatus

import "testing"

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		status string
		info   ErrorInfo
		want   string
	}{
		// No reason: no details.
		{name: "plain", code: 503, status: "UNAVAILABLE", want: `{"error":{"code":503,"message":"m \"q\"","status":"UNAVAILABLE"}}`},
		// A wrong key, in the shape of error_reason.proto's example.
		{name: "key", code: 400, status: "INVALID_ARGUMENT", info: ErrorInfo{ReasonAPIKeyInvalid, SafeBrowsing},
			want: `{"error":{"code":400,"message":"m \"q\"","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}`},
		// The service is a parameter: a Web Risk front names its own.
		{name: "webrisk", code: 429, status: "RESOURCE_EXHAUSTED", info: ErrorInfo{ReasonRateLimitExceeded, WebRisk},
			want: `{"error":{"code":429,"message":"m \"q\"","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"service":"webrisk.googleapis.com"}}]}}`},
		// No service: no metadata.
		{name: "no service", code: 403, status: "PERMISSION_DENIED", info: ErrorInfo{Reason: ReasonCredentialsMissing},
			want: `{"error":{"code":403,"message":"m \"q\"","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"CREDENTIALS_MISSING","domain":"googleapis.com"}]}}`},
		// A redirect has no canonical code: status is left out.
		{name: "redirect", code: 307, want: `{"error":{"code":307,"message":"m \"q\""}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendJSON([]byte("x"), tt.code, tt.status, `m "q"`, tt.info))
			if want := "x" + tt.want + "\n"; got != want {
				t.Errorf("AppendJSON:\n got %s\nwant %s", got, want)
			}
		})
	}
}
