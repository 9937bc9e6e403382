// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

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
	// webRiskErrors is googleErrors on Web Risk's endpoints, whose
	// ErrorInfo names the Web Risk service.
	webRiskErrors
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
	setJSONHeaders(w.Header())
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeJSONBytes writes body, JSON, as a 200 reply.
func writeJSONBytes(w http.ResponseWriter, body []byte) {
	setJSONHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// The values of the headers of a JSON reply, shared by every reply: a
// header's value is never changed in place, only replaced (Header.Set) or
// appended to, which copies the slice (its capacity is 1).
var (
	jsonContentType = []string{"application/json"}
	noStore         = []string{"no-store"}
	noSniff         = []string{"nosniff"}
)

// setJSONHeaders sets the headers of a JSON reply in h: its Content-Type,
// no caching and no sniffing.
func setJSONHeaders(h http.Header) {
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	h["X-Content-Type-Options"] = noSniff
}

// appendJSONString appends s as a JSON string, as encoding/json writes it:
// '"', '\\' and control characters escaped, and '<', '>', '&', U+2028 and
// U+2029 too; a byte that is not UTF-8 becomes \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// writeError writes msg in shape, with status, and in Google's shape info
// as the error's details (none for the zero ErrorInfo), written by
// rpcstatus as the mirror's and sbtest's errors are. The message has had the
// upstream key masked by the caller (see server.fail).
func writeError(w http.ResponseWriter, shape errorShape, status int, msg string, info rpcstatus.ErrorInfo) {
	if shape != plainErrors {
		setJSONHeaders(w.Header())
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
