// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// OriginURL returns a handler that forwards every request to the server at
// baseURL, keeping the request's Host, path and query: the publisher's site
// when it runs as a real server. Give it to [New] or [NewServer] as the
// origin.
//
// baseURL must be an http or https URL whose host is on loopback
// ("localhost", 127.0.0.0/8 or ::1), with no path, query, fragment or
// userinfo, such as "http://127.0.0.1:8080" or an
// [net/http/httptest.Server]'s URL. The cache is a test tool: it never
// fetches from the network. An https origin's certificate is not verified,
// since the connection never leaves the machine.
func OriginURL(baseURL string) (http.Handler, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, newError(ErrInvalidOrigin, baseURL, "malformed URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, newError(ErrInvalidOrigin, baseURL, "scheme is not http or https")
	case u.User != nil:
		return nil, newError(ErrInvalidOrigin, baseURL, "userinfo")
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "", u.Opaque != "":
		return nil, newError(ErrInvalidOrigin, baseURL, "base URL has a path, query or fragment")
	case !isLoopback(u.Hostname()):
		return nil, newError(ErrInvalidOrigin, baseURL, "host is not on loopback")
	}
	target := &url.URL{Scheme: u.Scheme, Host: u.Host}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	transport := &http.Transport{
		// Every connection goes to the origin, whatever the publisher host.
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "tcp", addr)
		},
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, // loopback only, checked above
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
	}
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme = target.Scheme
			r.Out.URL.Host = r.In.Host
			r.Out.Host = r.In.Host
		},
		Transport: transport,
		// The cache cuts bodies short on purpose; the error page says why.
		ErrorLog: log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "cachetest: origin "+target.String()+": "+err.Error(), http.StatusBadGateway)
		},
	}, nil
}

// isLoopback reports whether host names this machine: "localhost" or a
// loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
