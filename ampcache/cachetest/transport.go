// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// handlerTransport is an [http.RoundTripper] that answers each request by
// calling an in-process handler, the way the cache fetches an origin given
// as an [http.Handler]. The handler runs in its own goroutine and streams
// its body through a pipe, so the cache reads only as much as it wants: once
// the cache closes the body, the handler's writes fail, as they would on a
// closed connection.
type handlerTransport struct {
	h http.Handler
}

// RoundTrip implements [http.RoundTripper].
func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	sreq := serverRequest(req)
	pr, pw := io.Pipe()
	w := &pipeWriter{header: make(http.Header), pw: pw, head: make(chan struct{})}
	stop := context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	go func() {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					p = "aborted"
				}
				w.fail(fmt.Errorf("handler panicked: %v", p))
				return
			}
			w.finish()
		}()
		t.h.ServeHTTP(w, sreq)
	}()
	select {
	case <-w.head:
	case <-ctx.Done():
		pr.CloseWithError(ctx.Err())
		return nil, ctx.Err()
	}
	if w.err != nil {
		stop()
		pr.CloseWithError(w.err)
		return nil, w.err
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", w.status, http.StatusText(w.status)),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.sent,
		Body:          &pipeBody{ctx: ctx, pr: pr, stop: stop},
		ContentLength: -1,
		Request:       req,
	}, nil
}

// serverRequest turns an outgoing client request into the incoming request
// a server would see, as [net/http/httptest.NewRequest] does, without its
// panics: Host and RequestURI are set, and TLS is set for https.
func serverRequest(req *http.Request) *http.Request {
	s := req.Clone(req.Context())
	s.Host = req.URL.Host
	s.RequestURI = req.URL.RequestURI()
	s.RemoteAddr = "127.0.0.1:1"
	s.Proto, s.ProtoMajor, s.ProtoMinor = "HTTP/1.1", 1, 1
	if s.Body == nil {
		s.Body = http.NoBody
	}
	if req.URL.Scheme == "https" {
		s.TLS = &tls.ConnectionState{Version: tls.VersionTLS13, HandshakeComplete: true, ServerName: req.URL.Hostname()}
	}
	// A server request has a path-only URL.
	u := *req.URL
	u.Scheme, u.Host = "", ""
	s.URL = &u
	return s
}

// pipeWriter is the [http.ResponseWriter] given to an in-process origin.
// The status and a snapshot of the header are published on head when the
// handler first writes, calls WriteHeader, or returns; the body goes into
// the pipe.
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter

	once   sync.Once
	head   chan struct{} // closed once status and sent are set
	status int
	sent   http.Header
	err    error // set before head is closed if the handler failed first
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		return // informational responses are not the response
	}
	w.publish(code, nil)
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	w.publish(http.StatusOK, nil)
	return w.pw.Write(p)
}

// Flush implements [http.Flusher]: the pipe has no buffer to flush.
func (w *pipeWriter) Flush() { w.publish(http.StatusOK, nil) }

func (w *pipeWriter) publish(code int, err error) {
	w.once.Do(func() {
		if err == nil && (code < 100 || code > 999) {
			err = fmt.Errorf("handler wrote invalid status %d", code)
		}
		w.status, w.sent, w.err = code, w.header.Clone(), err
		close(w.head)
	})
}

// finish ends a handler that returned normally.
func (w *pipeWriter) finish() {
	w.publish(http.StatusOK, nil)
	w.pw.Close()
}

// fail ends a handler that panicked: before the head it is a fetch error,
// after it the body ends in that error.
func (w *pipeWriter) fail(err error) {
	w.publish(0, err)
	w.pw.CloseWithError(err)
}

// pipeBody is the body of an in-process response. Closing it stops the
// handler's writes and the context watch.
type pipeBody struct {
	ctx  context.Context
	pr   *io.PipeReader
	stop func() bool
}

// Read reads the handler's body. Once the request's context is done, the
// body ends in the context's error, as a network response's would, even
// if the handler returned meanwhile: a body cut short is never taken for a
// whole one.
func (b *pipeBody) Read(p []byte) (int, error) {
	n, err := b.pr.Read(p)
	if err != nil {
		if cerr := b.ctx.Err(); cerr != nil {
			return n, cerr
		}
	}
	return n, err
}

func (b *pipeBody) Close() error {
	b.stop()
	return b.pr.Close()
}
