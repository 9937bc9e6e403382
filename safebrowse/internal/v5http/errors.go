// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"encoding/json"
	"net/http"
	"strconv"
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

// The reasons of an [ErrorInfo] in the googleapis.com domain that the
// module's servers give, as google/api/error_reason.proto (ErrorReason)
// defines them. No other reason is sent.
const (
	// ReasonAPIKeyInvalid: the request's API key is not valid (it may be
	// malformed, unknown or expired). Google's APIs send it with a 400
	// INVALID_ARGUMENT, "API key not valid. Please pass a valid API key.".
	ReasonAPIKeyInvalid = "API_KEY_INVALID"
	// ReasonCredentialsMissing: the request has no credentials at all,
	// neither an API key nor a token.
	ReasonCredentialsMissing = "CREDENTIALS_MISSING"
	// ReasonRateLimitExceeded: the consumer has used up a rate quota; sent
	// with a 429 RESOURCE_EXHAUSTED.
	ReasonRateLimitExceeded = "RATE_LIMIT_EXCEEDED"
)

// The services an [ErrorInfo]'s metadata names.
const (
	// SafeBrowsing is the service of the Safe Browsing API.
	SafeBrowsing = "safebrowsing.googleapis.com"
	// WebRisk is the service of the Web Risk API.
	WebRisk = "webrisk.googleapis.com"
)

// An ErrorInfo is a google.rpc.ErrorInfo (google/rpc/error_details.proto)
// in the domain of Google's API infrastructure, "googleapis.com": why a
// request failed, as a reason a program can test (Go's generated clients
// give it as apierror.APIError.Reason), and the service that refused it.
// The zero ErrorInfo means no details.
type ErrorInfo struct {
	Reason  string // one of the Reason constants
	Service string // the metadata's "service", such as [SafeBrowsing]
}

// errorInfoJSON is an ErrorInfo as an element of google.rpc.Status's
// details, a google.protobuf.Any in Google's JSON mapping: "@type" first,
// then the message's fields in number order.
type errorInfoJSON struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// rpcStatus is google.rpc.Status in Google's JSON mapping, as Google's
// APIs send it: the HTTP status as code, and the canonical code's name as
// status.
type rpcStatus struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Status  string          `json:"status,omitempty"`
	Details []errorInfoJSON `json:"details,omitempty"`
}

// AppendError appends the body of [WriteError] to b: {"error": {"code":
// 400, "message": "...", "status": "INVALID_ARGUMENT"}} and a newline,
// with "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
// "reason": ..., "domain": "googleapis.com", "metadata": {"service": ...}}]
// when info has a reason. An empty status is left out, as for a redirect,
// which no canonical code stands for.
func AppendError(b []byte, code int, status, msg string, info ErrorInfo) []byte {
	s := rpcStatus{Code: code, Message: msg, Status: status}
	if info.Reason != "" {
		d := errorInfoJSON{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: info.Reason, Domain: "googleapis.com"}
		if info.Service != "" {
			d.Metadata = map[string]string{"service": info.Service}
		}
		s.Details = []errorInfoJSON{d}
	}
	body, _ := json.Marshal(struct {
		Error rpcStatus `json:"error"`
	}{s}) // strings, ints and a map of strings: it cannot fail
	return append(append(b, body...), '\n')
}

// WriteError sends msg with HTTP status code in the error shape of
// Google's APIs, as [AppendError] writes it with no details, status being
// the canonical code (see [StatusName]), and returns the length of the
// body. Headers set before the call, such as Retry-After, are sent with
// it.
func WriteError(w http.ResponseWriter, code int, status, msg string) int {
	return WriteErrorInfo(w, code, status, msg, ErrorInfo{})
}

// WriteErrorInfo is [WriteError] with info as the error's details.
func WriteErrorInfo(w http.ResponseWriter, code int, status, msg string, info ErrorInfo) int {
	body := AppendError(nil, code, status, msg, info)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	w.Write(body)
	return len(body)
}
