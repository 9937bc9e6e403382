// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/internal/rpcstatus"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// route returns the endpoint of a request path, as Requests names it, and
// for hashList the list's name; "" for a path the server does not serve.
func route(path string) (endpoint, name string) {
	switch {
	case path == "/v5/hashes:search":
		return epSearch, ""
	case path == "/v5/hashLists:batchGet":
		return epBatchGet, ""
	case path == "/v5/hashLists":
		return epHashLists, ""
	case path == "/v5/urls:search":
		return epURLs, ""
	case strings.HasPrefix(path, "/v5/hashList/"):
		return epHashList, path[len("/v5/hashList/"):]
	}
	return "", ""
}

// params are the query parameters of each endpoint, under the lowerCamel
// names the API documents and the snake_case names Google's APIs also
// accept; every endpoint also takes key, alt and the standard system
// parameters of Google's APIs (v5http's common parameters), accepted and
// ignored. Any other parameter is a 400, so a client's misspelt parameter
// does not go unnoticed. ($ct, a common parameter, never gets here:
// chromiumForm takes it out with $req, or refuses it.)
var params = map[string]map[string]string{
	epSearch:    v5http.SearchParams,
	epHashList:  v5http.HashListParams,
	epBatchGet:  v5http.BatchGetParams,
	epURLs:      {"urls": "urls"},
	epHashLists: v5http.HashListsParams,
}

// badRequest is a reply other than 200: its status, message, and the
// reason of the ErrorInfo in its details ("" for none).
type badRequest struct {
	status int
	msg    string
	reason string
}

func (e *badRequest) Error() string { return e.msg }

func invalid(format string, args ...any) *badRequest {
	return &badRequest{status: http.StatusBadRequest, msg: "sbtest: " + fmt.Sprintf(format, args...)}
}

// serveHTTP serves the OHTTP gateway's endpoints (gateway.go), Web
// Risk's (webrisk.go), or else a v5 request. Web Risk is served here, not
// in serve, so that the gateway, which answers with serve, serves v5
// alone, as Google's does.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.serveOHTTP(w, r):
	case wrRoute(r.URL.Path) != "":
		s.serveWebRisk(w, r, wrRoute(r.URL.Path))
	default:
		s.serve(w, r, false)
	}
}

// serve counts the request, unless it is one the gateway decapsulated
// (inner), applies a fault, checks the key, alt and the parameters, and
// serves the endpoint.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, inner bool) {
	ep, name := route(r.URL.Path)
	q, qerr := url.ParseQuery(r.URL.RawQuery)
	q, qerr = chromiumForm(ep, q, qerr)

	s.mu.Lock()
	if !inner {
		s.requests[""]++
	}
	var f Fault
	if ep != "" {
		if !inner {
			s.requests[ep]++
		}
		if ep == epSearch && qerr == nil {
			for _, k := range []string{"hashPrefixes", "hash_prefixes"} {
				for _, v := range q[k] {
					if p, err := decodeBytes(v); err == nil {
						s.prefixes = append(s.prefixes, p)
					}
				}
			}
		}
		f = s.takeFault(ep)
	}
	s.mu.Unlock()

	if ep == "" {
		replyError(w, http.StatusNotFound, "sbtest: no endpoint at "+inputerr.Quote(r.URL.Path))
		return
	}
	if !s.wait(w, r, f.Latency) {
		return
	}
	if f.Status != 0 {
		replyError(w, f.Status, fmt.Sprintf("sbtest: injected fault: %d %s", f.Status, http.StatusText(f.Status)))
		return
	}
	if f.Garbage {
		replyBody(w, s.wantJSON(q), garbage)
		return
	}

	msg, err := s.serveEndpoint(r, ep, name, q, qerr, f.BadChecksum)
	if err != nil {
		if err.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", "GET")
		}
		replyReason(w, err.status, err.msg, err.reason)
		return
	}
	if !s.wantJSON(q) {
		replyBody(w, false, msg.appendProto(nil))
		return
	}
	body, jerr := msg.MarshalJSON()
	if jerr != nil {
		replyError(w, http.StatusInternalServerError, "sbtest: internal error: "+jerr.Error())
		return
	}
	replyBody(w, true, append(body, '\n'))
}

// wantJSON reports whether a reply is JSON: only with [WithJSON], for
// alt=json or no alt. Otherwise every reply is binary protobuf, as
// Google's v5 API answers (serveEndpoint refuses alt=json).
func (s *Server) wantJSON(q url.Values) bool {
	alt := q["alt"]
	return s.json && (len(alt) == 0 || alt[0] != "proto")
}

// errUnsupportedFormat is Google's answer to alt=json on the v5 API, word
// for word.
const errUnsupportedFormat = "Unsupported Output Format"

// serveEndpoint checks the request and returns the reply's body.
func (s *Server) serveEndpoint(r *http.Request, ep, name string, q url.Values, qerr error, badChecksum bool) (reply, *badRequest) {
	if r.Method != http.MethodGet {
		return nil, &badRequest{status: http.StatusMethodNotAllowed, msg: "sbtest: method " + inputerr.Quote(r.Method) + " not allowed; use GET"}
	}
	if qerr != nil {
		// net/url's message quotes no more than an escape's three bytes,
		// and the query, which may hold the key, is not quoted.
		return nil, invalid("malformed query: %v", qerr)
	}
	p, perr := v5http.Params(q, params[ep])
	if perr != nil {
		return nil, invalid("%v", perr)
	}
	key := p["key"]
	if h := r.Header.Values("X-Goog-Api-Key"); len(h) > 0 {
		key = append(key, h...)
	}
	if err := s.checkKey(key); err != nil {
		return nil, err
	}
	switch alt := p["alt"]; {
	case len(alt) > 1 || (len(alt) == 1 && alt[0] != "proto" && alt[0] != "json"):
		return nil, invalid("alt=%s is not served; use alt=json or alt=proto", inputerr.Quote(strings.Join(alt, ",")))
	case len(alt) == 1 && alt[0] == "json" && !s.json:
		return nil, &badRequest{status: http.StatusBadRequest, msg: errUnsupportedFormat}
	}
	if err := checkUTF8(p); err != nil {
		return nil, err
	}
	switch ep {
	case epURLs:
		return s.searchURLs(p)
	case epSearch:
		return s.search(p)
	case epHashList:
		return s.hashList(name, p, badChecksum)
	case epBatchGet:
		return s.batchGet(p, badChecksum)
	default:
		return s.listHashLists(p)
	}
}

// checkKey checks the key, given as the key parameter or the
// X-Goog-Api-Key header, as Google's APIs take it. A missing key is a 403
// PERMISSION_DENIED with reason CREDENTIALS_MISSING, as Google's APIs
// answer; a wrong one is a 400 INVALID_ARGUMENT with reason
// API_KEY_INVALID and Google's message, which does not echo the key.
func (s *Server) checkKey(key []string) *badRequest {
	switch {
	case len(key) == 0:
		return &badRequest{status: http.StatusForbidden, msg: "sbtest: the request is missing an API key (key= or X-Goog-Api-Key)", reason: rpcstatus.ReasonCredentialsMissing}
	case len(key) > 1:
		return invalid("key given %d times", len(key))
	case key[0] != s.APIKey:
		return &badRequest{status: http.StatusBadRequest, msg: "sbtest: API key not valid. Please pass a valid API key.", reason: rpcstatus.ReasonAPIKeyInvalid}
	}
	return nil
}

// checkUTF8 refuses a parameter value that is not valid UTF-8: every
// parameter but the key is a proto3 string, or bytes as base64 text, and a
// proto3 string must be UTF-8, so Google's APIs answer such a request with
// a 400 INVALID_ARGUMENT. The value is not quoted; the first parameter by
// name is named.
func checkUTF8(p url.Values) *badRequest {
	for _, name := range slices.Sorted(maps.Keys(p)) {
		for i, v := range p[name] {
			if !utf8.ValidString(v) {
				return invalid("%s[%d] is not valid UTF-8", name, i)
			}
		}
	}
	return nil
}

// single returns the one value of parameter name, as [v5http.Single].
func single(p url.Values, name string) (string, *badRequest) {
	v, err := v5http.Single(p, name)
	if err != nil {
		return "", invalid("%v", err)
	}
	return v, nil
}

// int32Param returns the value of a non-negative int32 parameter, as
// [v5http.Int32].
func int32Param(p url.Values, name string) (int, *badRequest) {
	n, err := v5http.Int32(p, name)
	if err != nil {
		return 0, invalid("%v", err)
	}
	return n, nil
}

// decodeBytes decodes a bytes parameter as Google's APIs do: standard or
// URL-safe base64, padded or not.
func decodeBytes(s string) ([]byte, error) { return v5wire.DecodeBytes(s) }

// replyBody sends a 200 with a JSON or binary protobuf body.
func replyBody(w http.ResponseWriter, isJSON bool, body []byte) {
	ct := "application/x-protobuf"
	if isJSON {
		ct = "application/json; charset=UTF-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// replyError sends an error in the form of Google's APIs:
// {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}},
// with the status names of google.rpc.Code (a 405 is UNIMPLEMENTED). A
// 429, which the server sends only when a test injects it, carries the
// ErrorInfo of a used-up quota, RATE_LIMIT_EXCEEDED, as Google's do.
func replyError(w http.ResponseWriter, code int, msg string) {
	replyReason(w, code, msg, "")
}

// replyReason is replyError with the reason of an ErrorInfo of the Safe
// Browsing service in the error's details ("" for none).
func replyReason(w http.ResponseWriter, code int, msg, reason string) {
	replyService(w, code, msg, reason, rpcstatus.SafeBrowsing)
}

// replyService is replyReason for the API of service, which the
// ErrorInfo's metadata names: rpcstatus.SafeBrowsing or rpcstatus.WebRisk.
func replyService(w http.ResponseWriter, code int, msg, reason, service string) {
	if reason == "" && code == http.StatusTooManyRequests {
		reason = rpcstatus.ReasonRateLimitExceeded
	}
	var info rpcstatus.ErrorInfo
	if reason != "" {
		info = rpcstatus.ErrorInfo{Reason: reason, Service: service}
	}
	v5http.WriteErrorInfo(w, code, v5http.StatusName(code), msg, info)
}
