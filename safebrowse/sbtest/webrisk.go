// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/internal/rpcstatus"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/internal/v5http"
)

// This file serves the Web Risk API (webrisk.googleapis.com/v1) beside
// v5: its three methods, their key, alt and parameters, and its errors.

// Web Risk's endpoints, as [Server.Requests] and [Fault] name them: the
// paths of the methods, without their leading slash.
const (
	epWRDiff   = "v1/threatLists:computeDiff"
	epWRHashes = "v1/hashes:search"
	epWRURIs   = "v1/uris:search"
)

// wrRoute returns the Web Risk endpoint of a request path, or "" for a
// path that is not Web Risk's.
func wrRoute(path string) string {
	switch path {
	case "/" + epWRDiff, "/" + epWRHashes, "/" + epWRURIs:
		return path[1:]
	}
	return ""
}

// wrParams are the query parameters of each Web Risk method, under the
// JSON and the proto names of its request's fields, each mapped to
// itself: v4wire's parsers read both names, and refuse a field given
// under both. Every method also takes v5http's common parameters (key,
// alt and the system parameters of Google's APIs); any other parameter is
// a 400, as on v5.
var wrParams = map[string]map[string]string{
	epWRDiff: identity("threatType", "threat_type", "versionToken", "version_token",
		"constraints.maxDiffEntries", "constraints.max_diff_entries",
		"constraints.maxDatabaseEntries", "constraints.max_database_entries",
		"constraints.supportedCompressions", "constraints.supported_compressions"),
	epWRHashes: identity("hashPrefix", "hash_prefix", "threatTypes", "threat_types"),
	epWRURIs:   identity("uri", "threatTypes", "threat_types"),
}

func identity(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = n
	}
	return m
}

// A wrReply is a Web Risk message the server sends, in either of
// Google's encodings; v4wire writes both.
type wrReply interface {
	appendProto(b []byte) []byte
	appendJSON(b []byte) []byte
}

type wrDiffReply struct {
	v4wire.ComputeThreatListDiffResponse
}

func (r *wrDiffReply) appendProto(b []byte) []byte {
	return v4wire.AppendComputeThreatListDiffResponse(b, &r.ComputeThreatListDiffResponse)
}

func (r *wrDiffReply) appendJSON(b []byte) []byte {
	return v4wire.AppendComputeThreatListDiffResponseJSON(b, &r.ComputeThreatListDiffResponse)
}

type wrHashesReply struct{ v4wire.SearchHashesResponse }

func (r *wrHashesReply) appendProto(b []byte) []byte {
	return v4wire.AppendSearchHashesResponse(b, &r.SearchHashesResponse)
}

func (r *wrHashesReply) appendJSON(b []byte) []byte {
	return v4wire.AppendSearchHashesResponseJSON(b, &r.SearchHashesResponse)
}

type wrURIsReply struct{ v4wire.SearchUrisResponse }

func (r *wrURIsReply) appendProto(b []byte) []byte {
	return v4wire.AppendSearchUrisResponse(b, &r.SearchUrisResponse)
}

func (r *wrURIsReply) appendJSON(b []byte) []byte {
	return v4wire.AppendSearchUrisResponseJSON(b, &r.SearchUrisResponse)
}

// serveWebRisk counts a request to the Web Risk endpoint ep, applies a
// fault, checks the method, the key, alt and the parameters, and serves
// the endpoint, as serve does for v5. A reply is JSON unless alt=proto,
// and an error names the Web Risk service in its ErrorInfo.
func (s *Server) serveWebRisk(w http.ResponseWriter, r *http.Request, ep string) {
	q, qerr := url.ParseQuery(r.URL.RawQuery)

	s.mu.Lock()
	s.requests[""]++
	s.requests[ep]++
	if ep == epWRHashes && qerr == nil {
		for _, k := range []string{"hashPrefix", "hash_prefix"} {
			for _, v := range q[k] {
				if p, err := decodeBytes(v); err == nil {
					s.prefixes = append(s.prefixes, p)
				}
			}
		}
	}
	f := s.takeFault(ep)
	s.mu.Unlock()

	isJSON := !wrProto(q)
	if !s.wait(w, r, f.Latency) {
		return
	}
	if f.Status != 0 {
		replyService(w, f.Status, fmt.Sprintf("sbtest: injected fault: %d %s", f.Status, http.StatusText(f.Status)), "", rpcstatus.WebRisk)
		return
	}
	if f.Garbage {
		replyBody(w, isJSON, garbage)
		return
	}
	msg, err := s.serveWREndpoint(r, ep, q, qerr, f.BadChecksum)
	if err != nil {
		if err.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", "GET")
		}
		replyService(w, err.status, err.msg, err.reason, rpcstatus.WebRisk)
		return
	}
	if isJSON {
		replyBody(w, true, append(msg.appendJSON(nil), '\n'))
		return
	}
	replyBody(w, false, msg.appendProto(nil))
}

// wrProto reports whether a Web Risk request asks for binary protobuf,
// with alt=proto; no alt, or alt=json, is JSON, the default of Google's
// REST APIs. Another alt is refused by serveWREndpoint, in JSON.
func wrProto(q url.Values) bool {
	alt := q["alt"]
	return len(alt) == 1 && alt[0] == "proto"
}

// serveWREndpoint checks a Web Risk request and returns its reply.
func (s *Server) serveWREndpoint(r *http.Request, ep string, q url.Values, qerr error, badChecksum bool) (wrReply, *badRequest) {
	if r.Method != http.MethodGet {
		return nil, &badRequest{status: http.StatusMethodNotAllowed, msg: "sbtest: method " + inputerr.Quote(r.Method) + " not allowed; use GET"}
	}
	if qerr != nil {
		return nil, invalid("malformed query: %v", qerr)
	}
	p, perr := v5http.Params(q, wrParams[ep])
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
	if alt := p["alt"]; len(alt) > 1 || (len(alt) == 1 && alt[0] != "proto" && alt[0] != "json") {
		return nil, invalid("alt=%s is not served; use alt=json or alt=proto", inputerr.Quote(strings.Join(alt, ",")))
	}
	if err := checkUTF8(p); err != nil {
		return nil, err
	}
	switch ep {
	case epWRDiff:
		return s.computeDiff(p, badChecksum)
	case epWRHashes:
		return s.searchWRHashes(p)
	default:
		return s.searchURIs(p)
	}
}

// wrThreatTypes returns the threat types a search asks for, once each, in
// the order of the enum: threatTypes is required, and each must be one of
// Web Risk's four.
func wrThreatTypes(p url.Values, types []v4wire.WebRiskThreatType) ([]v4wire.WebRiskThreatType, *badRequest) {
	if len(types) == 0 {
		return nil, invalid("threatTypes is required")
	}
	var out []v4wire.WebRiskThreatType
	for i, t := range types {
		if !t.Valid() {
			return nil, invalid("threatTypes[%d]=%s is not a Web Risk threat type", i, inputerr.Quote(rawValue(p, "threatTypes", "threat_types", i)))
		}
	}
	for _, d := range wrDefs {
		for _, t := range types {
			if t == d.threat {
				out = append(out, t)
				break
			}
		}
	}
	return out, nil
}

// rawValue returns the i-th value of the parameter named camel or proto,
// as sent, to quote in an error.
func rawValue(p url.Values, camel, proto string, i int) string {
	vs := p[camel]
	if len(vs) == 0 {
		vs = p[proto]
	}
	if i < len(vs) {
		return vs[i]
	}
	return ""
}
