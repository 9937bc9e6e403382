// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/urlspec/urlspec/internal/rpcstatus"
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

func TestWriteErrorInfo(t *testing.T) {
	rec := httptest.NewRecorder()
	info := rpcstatus.ErrorInfo{Reason: rpcstatus.ReasonAPIKeyInvalid, Service: rpcstatus.SafeBrowsing}
	n := WriteErrorInfo(rec, 400, StatusName(400), "bad key", info)
	want := `{"error":{"code":400,"message":"bad key","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}` + "\n"
	if got := rec.Body.String(); got != want || n != len(want) || rec.Code != 400 {
		t.Errorf("status %d, body %q (n %d), want %q", rec.Code, got, n, want)
	}
	if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
		t.Errorf("Content-Length %q, want %d", got, len(want))
	}
}
