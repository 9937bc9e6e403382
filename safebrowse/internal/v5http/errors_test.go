// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestWriteError(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Retry-After", "3")
	n := WriteError(rec, 503, StatusName(503), `list "se-4b" not loaded`)
	const want = `{"error":{"code":503,"message":"list \"se-4b\" not loaded","status":"UNAVAILABLE"}}` + "\n"
	if got := rec.Body.String(); got != want || n != len(want) {
		t.Errorf("body %q (n %d), want %q", got, n, want)
	}
	for k, v := range map[string]string{
		"Content-Type":           "application/json; charset=UTF-8",
		"X-Content-Type-Options": "nosniff",
		"Content-Length":         strconv.Itoa(len(want)),
		"Retry-After":            "3",
	} {
		if got := rec.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if rec.Code != 503 {
		t.Errorf("status %d, want 503", rec.Code)
	}
}

func TestStatusName(t *testing.T) {
	for code, want := range map[int]string{400: "INVALID_ARGUMENT", 405: "UNIMPLEMENTED", 503: "UNAVAILABLE", 418: "UNKNOWN"} {
		if got := StatusName(code); got != want {
			t.Errorf("StatusName(%d) = %q, want %q", code, got, want)
		}
	}
}

func TestAppendError(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		status string
		info   ErrorInfo
		want   string
	}{
		// No reason: no details, as before.
		{name: "plain", code: 503, status: "UNAVAILABLE", want: `{"error":{"code":503,"message":"m","status":"UNAVAILABLE"}}`},
		// A wrong key, in the shape Google's APIs send (error_reason.proto's example).
		{name: "key", code: 400, status: "INVALID_ARGUMENT", info: ErrorInfo{ReasonAPIKeyInvalid, SafeBrowsing},
			want: `{"error":{"code":400,"message":"m","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}`},
		// The service is a parameter: Web Risk's front names its own.
		{name: "webrisk", code: 429, status: "RESOURCE_EXHAUSTED", info: ErrorInfo{ReasonRateLimitExceeded, WebRisk},
			want: `{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"service":"webrisk.googleapis.com"}}]}}`},
		// No service: no metadata.
		{name: "no service", code: 403, status: "PERMISSION_DENIED", info: ErrorInfo{Reason: ReasonCredentialsMissing},
			want: `{"error":{"code":403,"message":"m","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"CREDENTIALS_MISSING","domain":"googleapis.com"}]}}`},
		// A redirect has no canonical code: status is left out.
		{name: "redirect", code: 307, want: `{"error":{"code":307,"message":"m"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendError([]byte("x"), tt.code, tt.status, "m", tt.info))
			if want := "x" + tt.want + "\n"; got != want {
				t.Errorf("AppendError:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestWriteErrorInfo(t *testing.T) {
	rec := httptest.NewRecorder()
	info := ErrorInfo{ReasonAPIKeyInvalid, SafeBrowsing}
	n := WriteErrorInfo(rec, 400, StatusName(400), "bad key", info)
	want := string(AppendError(nil, 400, "INVALID_ARGUMENT", "bad key", info))
	if got := rec.Body.String(); got != want || n != len(want) || rec.Code != 400 {
		t.Errorf("status %d, body %q (n %d), want %q", rec.Code, got, n, want)
	}
	if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
		t.Errorf("Content-Length %q, want %d", got, len(want))
	}
}
