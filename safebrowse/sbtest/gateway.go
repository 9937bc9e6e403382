// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// The paths of Google's Safe Browsing Oblivious HTTP Gateway API
// (https://developers.google.com/safe-browsing/ohttp/reference), and the
// endpoint names [Server.Requests] gives them.
const (
	pathKeyConfig = "/v1/ohttp/hpkekeyconfig"
	pathGateway   = "/v1/ohttp:handleOhttpEncapsulatedRequest"

	epKeyConfig = "hpkekeyconfig"
	epOHTTP     = "ohttp"
)

// problemOHTTPKey is the problem type of RFC 9458 section 5.3: the gateway
// cannot use the request's key.
const problemOHTTPKey = "https://iana.org/assignments/http-problem-types#ohttp-key"

// gateway is the server's OHTTP side: its one key and the Gateway that
// holds it. The Server's mutex guards it.
type gateway struct {
	keyID uint8
	gw    *ohttp.Gateway
}

// newGateway returns a gateway with a fresh X25519 key, HKDF-SHA256 and
// AES-128-GCM, under keyID.
func newGateway(keyID uint8) gateway {
	sk, err := hpke.DHKEM(ecdh.X25519()).GenerateKey()
	if err != nil {
		panic("sbtest: generating the OHTTP key: " + err.Error()) // crypto/rand failed
	}
	gw, err := ohttp.NewGateway(ohttp.GatewayKey{KeyID: keyID, PrivateKey: sk})
	if err != nil {
		panic("sbtest: " + err.Error()) // a fixed, valid key
	}
	return gateway{keyID, gw}
}

// OHTTPKeyURL returns the URL of the server's OHTTP key configuration,
// URL + "/v1/ohttp/hpkekeyconfig", as lookup's OHTTPConfig.KeyURL takes
// it.
func (s *Server) OHTTPKeyURL() string { return s.URL + pathKeyConfig }

// OHTTPGatewayURL returns the URL a relay forwards encapsulated requests
// to, URL + "/v1/ohttp:handleOhttpEncapsulatedRequest", as [NewRelay]
// takes it.
func (s *Server) OHTTPGatewayURL() string { return s.URL + pathGateway }

// RotateOHTTPKey switches the gateway to a new key, with the next key ID
// (wrapping after 255), and returns that ID. The old key is forgotten at
// once: a request encapsulated under it gets a 422, as Google's gateway
// answers a key it no longer holds, and the key configuration serves the
// new key.
func (s *Server) RotateOHTTPKey() uint8 {
	s.mu.Lock()
	id := s.gateway.keyID + 1
	s.mu.Unlock()
	g := newGateway(id) // outside the lock: key generation is slow
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gateway.keyID+1 == id { // no rotation meanwhile
		s.gateway = g
	}
	return s.gateway.keyID
}

// serveOHTTP serves the gateway's two endpoints, reporting false for any
// other path.
func (s *Server) serveOHTTP(w http.ResponseWriter, r *http.Request) bool {
	var ep string
	switch r.URL.Path {
	case pathKeyConfig:
		ep = epKeyConfig
	case pathGateway:
		ep = epOHTTP
	default:
		return false
	}
	s.mu.Lock()
	s.requests[""]++
	s.requests[ep]++
	f := s.takeFault(ep)
	g := s.gateway
	s.mu.Unlock()

	if !s.wait(w, r, f.Latency) {
		return true
	}
	switch {
	case f.Status != 0:
		replyError(w, f.Status, fmt.Sprintf("sbtest: injected fault: %d %s", f.Status, http.StatusText(f.Status)))
	case f.Garbage && ep == epKeyConfig:
		replyRaw(w, "application/ohttp-keys", garbage)
	case f.Garbage:
		replyRaw(w, "message/ohttp-res", garbage)
	case ep == epKeyConfig:
		s.serveKeyConfig(w, r, g)
	default:
		s.serveGateway(w, r, g)
	}
	return true
}

// serveKeyConfig answers GET /v1/ohttp/hpkekeyconfig with the gateway's key
// as application/ohttp-keys. A key parameter is accepted and ignored, as
// Google's gateway does not vary its key by API key.
func (s *Server) serveKeyConfig(w http.ResponseWriter, r *http.Request, g gateway) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		replyError(w, http.StatusMethodNotAllowed, fmt.Sprintf("sbtest: method %s not allowed; use GET", inputerr.Quote(r.Method)))
		return
	}
	body, err := ohttp.AppendKeyConfigs(nil, g.gw.KeyConfigs())
	if err != nil {
		replyError(w, http.StatusInternalServerError, "sbtest: internal error: "+err.Error())
		return
	}
	replyRaw(w, "application/ohttp-keys", body)
}

// serveGateway answers POST /v1/ohttp:handleOhttpEncapsulatedRequest: it
// decapsulates the request, answers the Binary HTTP request inside with
// the v5 server whatever its authority, and encapsulates the reply. A
// request the gateway cannot decapsulate gets a plain error: 422 with the
// ohttp-key problem for a key it does not hold, 400 otherwise. An inner
// request that is not valid Binary HTTP gets an encapsulated 400. The
// inner request may be truncated and padded with any number of zero
// bytes, as RFC 9292 section 3.8 allows and lookup's OHTTPConfig.Padding
// sends; the padding is checked, although RFC 9292 lets a recipient skip
// that: a byte after the message that is not zero makes it invalid.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request, g gateway) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		replyError(w, http.StatusMethodNotAllowed, fmt.Sprintf("sbtest: method %s not allowed; use POST", inputerr.Quote(r.Method)))
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "message/ohttp-req" {
		replyError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("sbtest: Content-Type %s; want message/ohttp-req", inputerr.Quote(r.Header.Get("Content-Type"))))
		return
	}
	req, err := io.ReadAll(io.LimitReader(r.Body, ohttp.MaxMessageSize+1))
	switch {
	case err != nil:
		replyError(w, http.StatusBadRequest, "sbtest: reading the request: "+inputerr.Quote(err.Error()))
		return
	case len(req) > ohttp.MaxMessageSize:
		replyError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("sbtest: encapsulated request over %d bytes", ohttp.MaxMessageSize))
		return
	}
	inner, rcpt, err := g.gw.Open(req)
	switch {
	case errors.Is(err, ohttp.ErrUnknownKey):
		replyProblem(w, http.StatusUnprocessableEntity, problemOHTTPKey, "key identifier unknown")
		return
	case err != nil:
		replyError(w, http.StatusBadRequest, "sbtest: "+strings.TrimPrefix(err.Error(), "ohttp: "))
		return
	}
	resp := s.serveInner(r, inner)
	msg, err := ohttp.AppendResponse(nil, resp)
	if err == nil {
		msg, err = rcpt.Seal(msg)
	}
	if err != nil {
		replyError(w, http.StatusInternalServerError, "sbtest: internal error: "+err.Error())
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	replyRaw(w, "message/ohttp-res", msg)
}

// serveInner answers a decapsulated Binary HTTP request with the v5
// server, as if it had come directly, but counted as the gateway's.
func (s *Server) serveInner(outer *http.Request, b []byte) *ohttp.Response {
	in, err := ohttp.ParseRequest(b)
	if err != nil {
		return innerError(http.StatusBadRequest, "sbtest: "+strings.TrimPrefix(err.Error(), "ohttp: "))
	}
	if !strings.HasPrefix(in.Path, "/") {
		return innerError(http.StatusBadRequest, fmt.Sprintf("sbtest: inner path %s does not start with /", inputerr.Quote(in.Path)))
	}
	u, err := url.ParseRequestURI(in.Path)
	if err != nil {
		return innerError(http.StatusBadRequest, fmt.Sprintf("sbtest: inner path %s: %s", inputerr.Quote(in.Path), inputerr.Quote(err.Error())))
	}
	r := (&http.Request{
		Method:     in.Method,
		URL:        u,
		RequestURI: in.Path,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     make(http.Header, len(in.Header)),
		Host:       in.Authority,
		RemoteAddr: outer.RemoteAddr,
		Body:       io.NopCloser(bytes.NewReader(in.Content)),
	}).WithContext(outer.Context())
	for _, f := range in.Header {
		r.Header.Add(f.Name, f.Value)
	}
	rec := httptest.NewRecorder()
	s.serve(rec, r, true)
	resp := &ohttp.Response{Status: rec.Code, Content: rec.Body.Bytes()}
	if ct := rec.Header().Get("Content-Type"); ct != "" {
		resp.Header = []ohttp.Field{{Name: "content-type", Value: ct}}
	}
	return resp
}

// innerError is an encapsulated error reply, in the form of Google's APIs.
func innerError(code int, msg string) *ohttp.Response {
	rec := httptest.NewRecorder()
	replyError(rec, code, msg)
	return &ohttp.Response{Status: code, Header: []ohttp.Field{{Name: "content-type", Value: rec.Header().Get("Content-Type")}}, Content: rec.Body.Bytes()}
}

// replyRaw sends a 200 with body as contentType.
func replyRaw(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// replyProblem sends an RFC 9457 problem, as RFC 9458 section 5.3 asks of
// a gateway that cannot use a request's key.
func replyProblem(w http.ResponseWriter, code int, typ, title string) {
	body := fmt.Appendf(nil, "{\"type\":%q,\"title\":%q}\n", typ, title)
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	w.Write(body)
}
