// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"net/http"
	"strconv"

	"github.com/urlspec/urlspec/internal/rpcstatus"
)

// statusNames are the canonical codes Google's APIs give with each HTTP
// status (google/rpc/code.proto gives each code its status).
var statusNames = map[int]string{
	400: "INVALID_ARGUMENT",
	401: "UNAUTHENTICATED",
	403: "PERMISSION_DENIED",
	404: "NOT_FOUND",
	405: "UNIMPLEMENTED",
	409: "ABORTED",
	429: "RESOURCE_EXHAUSTED",
	499: "CANCELLED",
	500: "INTERNAL",
	501: "UNIMPLEMENTED",
	503: "UNAVAILABLE",
	504: "DEADLINE_EXCEEDED",
}

// StatusName returns the canonical code Google's APIs give with HTTP
// status code, "UNKNOWN" for one it does not name.
func StatusName(code int) string {
	if name, ok := statusNames[code]; ok {
		return name
	}
	return "UNKNOWN"
}

// WriteError sends msg with HTTP status code in the error shape of
// Google's APIs, {"error": {"code": 400, "message": "...", "status":
// "INVALID_ARGUMENT"}}, status being the canonical code (see
// [StatusName]), and returns the length of the body. Headers set before
// the call, such as Retry-After, are sent with it.
func WriteError(w http.ResponseWriter, code int, status, msg string) int {
	return WriteErrorInfo(w, code, status, msg, rpcstatus.ErrorInfo{})
}

// WriteErrorInfo is [WriteError] with info as the error's details, a
// google.rpc.ErrorInfo (none for the zero ErrorInfo), written by
// [rpcstatus.AppendJSON].
func WriteErrorInfo(w http.ResponseWriter, code int, status, msg string, info rpcstatus.ErrorInfo) int {
	body := rpcstatus.AppendJSON(nil, code, status, msg, info)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	w.Write(body)
	return len(body)
}
