// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// Relay is an Oblivious HTTP relay (RFC 9458 section 6.2) on a loopback
// address, for tests: it forwards each encapsulated request POSTed to its
// URL to one gateway, and the gateway's reply back, and records nothing.
// Like [net/http/httptest.Server], it has a URL, a Client and Close.
//
// It forwards the body and its Content-Type only: not the client's
// address, User-Agent, cookies or other headers, as a relay must not. It
// passes back the gateway's status and body, with its Content-Type,
// Cache-Control and X-OhttpPublickey-Rotated headers. In production the
// relay is run by someone other than the client's operator, or it hides
// nothing from the gateway's owner; this one is for tests.
type Relay struct {
	// URL is the relay's URL, "http://127.0.0.1:port/": the RelayURL a
	// client POSTs encapsulated requests to.
	URL string

	gateway string
	http    *http.Client
	srv     *httptest.Server
}

// NewRelay starts and returns a relay on a loopback address that forwards
// to gatewayURL, such as a [Server]'s [Server.OHTTPGatewayURL]. The caller
// should call Close when finished. Like [NewServer], it panics if it cannot
// listen, and if gatewayURL is not an absolute http or https URL: that is
// a mistake in the test.
//
// The relay refuses a request that is not a POST (405), not
// message/ohttp-req (415) or longer than [ohttp.MaxMessageSize] (413); a
// gateway it cannot reach, or whose reply is longer than that, is a 502.
func NewRelay(gatewayURL string) *Relay {
	u, err := url.Parse(gatewayURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		panic(fmt.Sprintf("sbtest: NewRelay: gateway URL %s is not an absolute http or https URL", inputerr.Quote(gatewayURL)))
	}
	r := &Relay{
		gateway: gatewayURL,
		http: &http.Client{
			Timeout:       time.Minute,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL + "/"
	return r
}

// Client returns an HTTP client configured for making requests to the
// relay; Close closes its idle connections.
func (r *Relay) Client() *http.Client { return r.srv.Client() }

// Close shuts down the relay and blocks until every request it is
// serving has finished. Close may be called more than once.
func (r *Relay) Close() {
	r.srv.Close()
	r.http.CloseIdleConnections()
}

// relayHeaders are the reply headers the relay passes back.
var relayHeaders = []string{"Content-Type", "Cache-Control", "X-OhttpPublickey-Rotated"}

func (r *Relay) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "sbtest relay: use POST", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); mt != "message/ohttp-req" {
		http.Error(w, "sbtest relay: want Content-Type message/ohttp-req", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, ohttp.MaxMessageSize+1))
	switch {
	case err != nil:
		http.Error(w, "sbtest relay: reading the request: "+inputerr.Quote(err.Error()), http.StatusBadRequest)
		return
	case len(body) > ohttp.MaxMessageSize:
		http.Error(w, "sbtest relay: request too large", http.StatusRequestEntityTooLarge)
		return
	}
	out, err := http.NewRequestWithContext(req.Context(), http.MethodPost, r.gateway, bytes.NewReader(body))
	if err != nil {
		http.Error(w, "sbtest relay: "+inputerr.Quote(err.Error()), http.StatusBadGateway)
		return
	}
	out.Header.Set("Content-Type", "message/ohttp-req")
	out.Header.Set("User-Agent", "") // send none
	resp, err := r.http.Do(out)
	if err != nil {
		http.Error(w, "sbtest relay: the gateway did not answer", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, ohttp.MaxMessageSize+1))
	if err != nil || len(reply) > ohttp.MaxMessageSize {
		http.Error(w, "sbtest relay: the gateway's reply was cut short or too large", http.StatusBadGateway)
		return
	}
	for _, h := range relayHeaders {
		if v := resp.Header.Values(h); len(v) > 0 {
			w.Header()[h] = v
		}
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(reply)
}
