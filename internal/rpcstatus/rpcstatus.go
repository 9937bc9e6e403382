// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package rpcstatus writes the error body of Google's APIs:
// google.rpc.Status (google/rpc/status.proto) in Google's JSON mapping,
// with a google.rpc.ErrorInfo (google/rpc/error_details.proto) in its
// details where Google's APIs give one, so that Google's client libraries
// raise the error as theirs and read its reason (apierror.APIError.Reason
// in Go). It is the one writer of that body for the module's servers:
// safebrowse/internal/v5http, which the mirror and sbtest answer with, and
// cmd/sbserver, which cannot import safebrowse's internal packages.
//
// The reasons are those google/api/error_reason.proto defines for the
// "googleapis.com" domain; the servers send no other.
package rpcstatus

import "encoding/json"

// The reasons of an [ErrorInfo] that the module's servers give, as
// google/api/error_reason.proto (ErrorReason) defines them.
const (
	// ReasonAPIKeyInvalid: the request's API key is not valid (malformed,
	// unknown or expired). Google's APIs send it with a 400
	// INVALID_ARGUMENT, "API key not valid. Please pass a valid API key.".
	ReasonAPIKeyInvalid = "API_KEY_INVALID"
	// ReasonCredentialsMissing: the request has no credentials at all,
	// neither an API key nor a token.
	ReasonCredentialsMissing = "CREDENTIALS_MISSING"
	// ReasonRateLimitExceeded: the consumer has used up a rate quota;
	// sent with a 429 RESOURCE_EXHAUSTED.
	ReasonRateLimitExceeded = "RATE_LIMIT_EXCEEDED"
)

// The services an [ErrorInfo]'s metadata names.
const (
	// SafeBrowsing is the service of the Safe Browsing API.
	SafeBrowsing = "safebrowsing.googleapis.com"
	// WebRisk is the service of the Web Risk API.
	WebRisk = "webrisk.googleapis.com"
)

// An ErrorInfo is a google.rpc.ErrorInfo in the domain of Google's API
// infrastructure, "googleapis.com": why a request failed, as a reason a
// program can test, and the service that refused it, as the metadata's
// "service". The zero ErrorInfo means no details.
type ErrorInfo struct {
	Reason  string // one of the Reason constants
	Service string // such as [SafeBrowsing]; "" for no metadata
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

// status is google.rpc.Status as Google's APIs send it: the HTTP status
// as code, and the canonical code's name as status.
type status struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Status  string          `json:"status,omitempty"`
	Details []errorInfoJSON `json:"details,omitempty"`
}

// AppendJSON appends to b the error body of Google's APIs and a newline:
//
//	{"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}}
//
// code being the HTTP status and name the canonical code's name (left out
// when empty, as for a redirect, which no code stands for), with
//
//	"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
//	  "reason": "API_KEY_INVALID", "domain": "googleapis.com",
//	  "metadata": {"service": "safebrowsing.googleapis.com"}}]
//
// after status when info has a reason.
func AppendJSON(b []byte, code int, name, msg string, info ErrorInfo) []byte {
	s := status{Code: code, Message: msg, Status: name}
	if info.Reason != "" {
		d := errorInfoJSON{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: info.Reason, Domain: "googleapis.com"}
		if info.Service != "" {
			d.Metadata = map[string]string{"service": info.Service}
		}
		s.Details = []errorInfoJSON{d}
	}
	body, _ := json.Marshal(struct {
		Error status `json:"error"`
	}{s}) // strings, ints and a map of strings: it cannot fail
	return append(append(b, body...), '\n')
}
