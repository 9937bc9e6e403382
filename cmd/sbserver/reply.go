// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/urlspec/urlspec/internal/rpcstatus"
)

// inField returns err as the error of a request field: "sbserver:
// urls[1]: URL is not valid UTF-8", the package named once however err's
// message begins. errors.Is and As see err.
func inField(field string, err error) error {
	return &fieldError{field: field, err: err}
}

type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string {
	return "sbserver: " + e.field + ": " + strings.TrimPrefix(e.err.Error(), "sbserver: ")
}

func (e *fieldError) Unwrap() error { return e.err }

// An errorShape is how an endpoint writes its errors.
type errorShape int

const (
	// plainErrors is sbserver's own shape, {"error": "message"}, on
	// POST /v5/urls:lookup, /status, /healthz, /readyz, /metrics and
	// unknown paths.
	plainErrors errorShape = iota
	// googleErrors is the shape of Google's APIs,
	// {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}},
	// on the drop-in endpoints and the mirror's, so that Google's generated
	// clients raise the error as an API error. A refused client key also
	// carries the google.rpc.ErrorInfo of Google's APIs in "details" (see
	// keyErrorInfo), whose reason those clients expose; the plain shape
	// has no room for it.
	googleErrors
)

type plainError struct {
	Error string `json:"error"`
}

// rpcStatus names the google.rpc.Code of an HTTP status, as Google's APIs
// map them (google/rpc/code.proto gives each code its HTTP status); ""
// for a status below 400, a redirect, which no code stands for.
func rpcStatus(code int) string {
	if code < 400 {
		return ""
	}
	switch code {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return "UNIMPLEMENTED"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	if code >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}

// writeJSON writes v as the JSON reply, with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError writes msg in shape, with status, and in Google's shape info
// as the error's details (none for the zero ErrorInfo), written by
// rpcstatus as the mirror's and sbtest's errors are. The message has had the
// upstream key masked by the caller (see server.fail).
func writeError(w http.ResponseWriter, shape errorShape, status int, msg string, info rpcstatus.ErrorInfo) {
	if shape == googleErrors {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(status)
		w.Write(rpcstatus.AppendJSON(nil, status, rpcStatus(status), msg, info))
		return
	}
	writeJSON(w, status, plainError{msg})
}

// mask removes key from s.
func mask(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "REDACTED")
}
