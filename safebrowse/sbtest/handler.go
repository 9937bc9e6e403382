// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
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

// badRequest is a reply other than 200: its status and message.
type badRequest struct {
	status int
	msg    string
}

func (e *badRequest) Error() string { return e.msg }

func invalid(format string, args ...any) *badRequest {
	return &badRequest{http.StatusBadRequest, "sbtest: " + fmt.Sprintf(format, args...)}
}

// serveHTTP serves the OHTTP gateway's endpoints (gateway.go), or else a
// v5 request.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.serveOHTTP(w, r) {
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
		replyBody(w, wantJSON(q), garbage)
		return
	}

	msg, err := s.serveEndpoint(r, ep, name, q, qerr, f.BadChecksum)
	if err != nil {
		if err.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", "GET")
		}
		replyError(w, err.status, err.msg)
		return
	}
	if !wantJSON(q) {
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

// wantJSON reports whether a request asks for JSON: alt=json, or no alt,
// as Google's servers default to JSON.
func wantJSON(q url.Values) bool {
	alt := q["alt"]
	return len(alt) == 0 || alt[0] != "proto"
}

// serveEndpoint checks the request and returns the reply's body.
func (s *Server) serveEndpoint(r *http.Request, ep, name string, q url.Values, qerr error, badChecksum bool) (reply, *badRequest) {
	if r.Method != http.MethodGet {
		return nil, &badRequest{http.StatusMethodNotAllowed, "sbtest: method " + inputerr.Quote(r.Method) + " not allowed; use GET"}
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
// X-Goog-Api-Key header, as Google's APIs take it. A missing key is a 403, as Google's
// APIs answer; a wrong one is a 400 with Google's message, which does not
// echo the key.
func (s *Server) checkKey(key []string) *badRequest {
	switch {
	case len(key) == 0:
		return &badRequest{http.StatusForbidden, "sbtest: the request is missing an API key (key= or X-Goog-Api-Key)"}
	case len(key) > 1:
		return invalid("key given %d times", len(key))
	case key[0] != s.APIKey:
		return invalid("API key not valid. Please pass a valid API key.")
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
// with the status names of google.rpc.Code (a 405 is UNIMPLEMENTED).
func replyError(w http.ResponseWriter, code int, msg string) {
	v5http.WriteError(w, code, v5http.StatusName(code), msg)
}
