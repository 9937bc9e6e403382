// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// Server is a [Cache] served over https on a loopback address, like an
// [net/http/httptest.Server]. It answers for every host name: a request for
// a cache host goes to the cache, and a request for any other host goes to
// the origin, as the publisher's own site. Its certificates are issued per
// host name by an authority made for the server, which [Server.Client]
// trusts. So a test can fetch real cache URLs, such as
// https://www-example-com.cdn.ampproject.org/c/s/www.example.com/, and
// follow the cache's redirects to the publisher.
type Server struct {
	// URL is the base URL of the listener, "https://127.0.0.1:port".
	URL string
	// Listener is the loopback listener the server accepts on.
	Listener net.Listener
	// Cache is the handler for cache hosts.
	Cache *Cache

	origin http.Handler
	ca     *authority
	srv    *http.Server

	mu     sync.Mutex
	client *http.Client
}

// NewServer starts and returns a Server that serves origin under the cache
// hosts. The options are those of [New]. The caller should call Close when
// finished, to shut it down.
func NewServer(origin http.Handler, opts ...Option) (*Server, error) {
	c, err := New(origin, opts...)
	if err != nil {
		return nil, err
	}
	ca, err := newAuthority()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		if ln, err = net.Listen("tcp6", "[::1]:0"); err != nil {
			return nil, err
		}
	}
	s := &Server{
		URL:      "https://" + ln.Addr().String(),
		Listener: ln,
		Cache:    c,
		origin:   origin,
		ca:       ca,
	}
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.route),
		TLSConfig:         &tls.Config{GetCertificate: ca.getCertificate, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(quietWriter{}, "cachetest: ", 0),
	}
	go s.srv.ServeTLS(ln, "", "")
	return s, nil
}

// route sends requests for cache hosts to the cache, and others to the
// origin.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	if s.Cache.IsCacheHost(r.Host) {
		s.Cache.ServeHTTP(w, r)
		return
	}
	s.origin.ServeHTTP(w, r)
}

// Certificate returns the certificate of the authority that issues the
// server's certificates: add it to a pool of roots to trust the server,
// or write it out for curl's --cacert.
func (s *Server) Certificate() *x509.Certificate { return s.ca.cert }

// Client returns an HTTP client that reaches the server for every host
// name: it dials the listener whatever the URL's host and port, and trusts
// the server's certificates. It follows redirects as [http.Client] does;
// set CheckRedirect on a copy to see them.
func (s *Server) Client() *http.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		pool := x509.NewCertPool()
		pool.AddCert(s.ca.cert)
		addr := s.Listener.Addr().String()
		var d net.Dialer
		s.client = &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return d.DialContext(ctx, "tcp", addr)
			},
			TLSClientConfig:   &tls.Config{RootCAs: pool},
			ForceAttemptHTTP2: true,
		}}
	}
	return s.client
}

// Close shuts down the server, closing its listener and connections, and
// the idle connections of its client. Unlike [net/http/httptest.Server.Close], it
// does not wait for handlers still running: their requests' contexts are
// done, and the cache's own fetches end within their time bound.
func (s *Server) Close() {
	s.srv.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
}

// quietWriter drops the TLS handshake errors of clients that do not trust
// the server (curl without --cacert), and logs the rest to stderr.
type quietWriter struct{}

func (quietWriter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("TLS handshake error")) {
		return len(p), nil
	}
	return os.Stderr.Write(p)
}
