// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
)

// allow is the Allow header of each method's 405.
var allow = [numMethods]string{"POST, GET", "POST, GET", "GET, HEAD"}

// params are the query parameters each method takes beside the common
// ones of Google's APIs ([v5http.Params]): Chromium's $req for the two
// that take a request.
var params = [numMethods]map[string]string{
	methodFetch: {v4wire.ReqParam: v4wire.ReqParam},
	methodFind:  {v4wire.ReqParam: v4wire.ReqParam},
	methodLists: {},
}

// A request is a parsed request: its method, its body (for fetch and
// find: the request message, binary when binary is set, else JSON), and
// the encoding of the reply.
type request struct {
	method int
	body   []byte
	binary bool
	proto  bool
}

// parseRequest reads the request of method from r:
//
//   - POST with a body: binary protobuf when its Content-Type is
//     application/x-protobuf, as google/safebrowsing posts it; JSON when
//     it is application/json or absent, as Google's generated clients
//     post it;
//   - GET with $req, Chromium's form: the binary request in base64url,
//     with $ct=application/x-protobuf (or no $ct) and, when it sends one,
//     X-HTTP-Method-Override: POST;
//   - threatLists: GET or HEAD, with no body.
//
// The reply is binary with alt=proto, JSON with alt=json, and otherwise
// in the request's own encoding: binary for a binary body or $req, JSON
// for a JSON body or none.
func parseRequest(method int, r *http.Request) (*request, *apiError) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, invalid("malformed query: %s", inputerr.Quote(err.Error()))
	}
	p, err := v5http.Params(q, params[method])
	if err != nil {
		return nil, invalid("%v", err)
	}
	alt, aerr := single(p, "alt")
	if aerr != nil {
		return nil, aerr
	}
	ct, aerr := single(p, v4wire.CTParam)
	if aerr != nil {
		return nil, aerr
	}
	switch alt {
	case "", "json", "proto":
	default:
		return nil, invalid("alt=%s is not served; use alt=json or alt=proto", inputerr.Quote(alt))
	}
	req := &request{method: method}
	_, hasReq := p[v4wire.ReqParam]
	switch {
	case method == methodLists:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return nil, notAllowed(r.Method, "GET")
		}
		if ct != "" {
			return nil, invalid("$ct is for a request in $req; threatLists takes none")
		}
	case r.Method == http.MethodGet:
		if !hasReq {
			return nil, invalid("a GET takes its request in $req (Chromium's form); or POST it")
		}
		if o := r.Header.Get("X-HTTP-Method-Override"); o != "" && !strings.EqualFold(o, http.MethodPost) {
			return nil, invalid("X-HTTP-Method-Override: %s; only POST is served", inputerr.Quote(o))
		}
		if ct != "" && ct != v4wire.ReqContentType {
			return nil, invalid("$ct=%s is not served; $req holds %s", inputerr.Quote(ct), v4wire.ReqContentType)
		}
		b, err := v4wire.ParseReq(p)
		if err != nil {
			return nil, invalid("%v", err)
		}
		if len(b) > MaxRequestBytes {
			return nil, &apiError{status: http.StatusRequestEntityTooLarge, msg: "v4update: $req holds more than " + strconv.Itoa(MaxRequestBytes) + " bytes"}
		}
		req.body, req.binary = b, true
	case r.Method == http.MethodPost:
		if hasReq {
			return nil, invalid("$req is for Chromium's GET; a POST carries its request in its body")
		}
		if ct != "" {
			return nil, invalid("$ct is for a request in $req; a POST gives its Content-Type")
		}
		binary, aerr := bodyType(r.Header.Get("Content-Type"))
		if aerr != nil {
			return nil, aerr
		}
		b, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxRequestBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, &apiError{status: http.StatusRequestEntityTooLarge, msg: "v4update: request body over " + strconv.Itoa(MaxRequestBytes) + " bytes"}
			}
			return nil, invalid("reading the request body: %s", inputerr.Quote(err.Error()))
		}
		req.body, req.binary = b, binary
	default:
		return nil, notAllowed(r.Method, "POST")
	}
	switch alt {
	case "proto":
		req.proto = true
	case "":
		req.proto = req.binary
	}
	return req, nil
}

// bodyType reads a POST's Content-Type: binary for
// application/x-protobuf; JSON for application/json, or none.
func bodyType(ct string) (binary bool, e *apiError) {
	if ct == "" {
		return false, nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err != nil:
		return false, invalid("Content-Type %s is malformed", inputerr.Quote(ct))
	case mt == v4wire.ReqContentType:
		return true, nil
	case mt == "application/json":
		return false, nil
	}
	return false, &apiError{status: http.StatusUnsupportedMediaType,
		msg: "v4update: Content-Type " + inputerr.Quote(ct) + " is not served; use application/json or " + v4wire.ReqContentType}
}

func notAllowed(method, use string) *apiError {
	return &apiError{status: http.StatusMethodNotAllowed, msg: "v4update: method " + inputerr.Quote(method) + " not allowed; use " + use}
}

// single returns the one value of parameter name, "" when absent.
func single(p url.Values, name string) (string, *apiError) {
	v, err := v5http.Single(p, name)
	if err != nil {
		return "", invalid("%v", err)
	}
	return v, nil
}

// parseFetch reads the FetchThreatListUpdatesRequest of req.
func (req *request) parseFetch() (v4wire.FetchThreatListUpdatesRequest, *apiError) {
	var m v4wire.FetchThreatListUpdatesRequest
	var err error
	if req.binary {
		m, err = v4wire.ParseFetchThreatListUpdatesRequest(req.body)
	} else {
		m, err = v4wire.ParseFetchThreatListUpdatesRequestJSON(req.body)
	}
	if err != nil {
		return m, invalid("the request is not a FetchThreatListUpdatesRequest: %s", inputerr.Quote(err.Error()))
	}
	return m, nil
}

// parseFind reads the FindFullHashesRequest of req.
func (req *request) parseFind() (v4wire.FindFullHashesRequest, *apiError) {
	var m v4wire.FindFullHashesRequest
	var err error
	if req.binary {
		m, err = v4wire.ParseFindFullHashesRequest(req.body)
	} else {
		m, err = v4wire.ParseFindFullHashesRequestJSON(req.body)
	}
	if err != nil {
		return m, invalid("the request is not a FindFullHashesRequest: %s", inputerr.Quote(err.Error()))
	}
	return m, nil
}
