// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// Fault is a failure the server injects into its replies, to test how a
// client takes a server that is slow, failing or broken. Its fields
// combine: Latency comes first, then Status, or else Garbage; BadChecksum
// alters an otherwise good list reply.
type Fault struct {
	// Endpoint is the endpoint the fault hits, named as [Server.Requests]
	// names them; "" hits every endpoint.
	Endpoint string
	// Status, when non-zero, is the status of the reply, with an error
	// body in the form of Google's APIs (a JSON object whose
	// error.message begins "sbtest: injected fault"). It must lie in
	// 200–599.
	Status int
	// Latency is how long the server waits before replying. The wait ends
	// early when the request's context is done (the client gave up), and
	// then nothing is sent; it also ends when the server closes, with a
	// 503.
	Latency time.Duration
	// BadChecksum makes list replies (hashList and hashLists:batchGet)
	// carry a wrong sha256_checksum: every list in the reply, even one
	// that has not changed; and Web Risk's computeDiff replies a wrong
	// checksum.sha256.
	BadChecksum bool
	// Garbage makes the reply a 200 whose body is not a valid protobuf
	// message, nor JSON (with the Content-Type of the form asked).
	Garbage bool
	// Times is how many requests the fault hits; 0 means every request
	// until [Server.ClearFaults].
	Times int
}

// endpoints are the endpoints the server serves, as Requests names them.
var endpoints = []string{epSearch, epHashList, epBatchGet, epHashLists, epURLs, epKeyConfig, epOHTTP, epWRDiff, epWRHashes, epWRURIs}

// Endpoint names.
const (
	epSearch    = "hashes:search"
	epHashList  = "hashList"
	epBatchGet  = "hashLists:batchGet"
	epHashLists = "hashLists"
	epURLs      = "urls:search"
)

// Inject adds the fault f. Faults are tried in the order they were
// injected: a request to an endpoint takes the first fault that hits it
// and has hits left, and that fault then has one fewer, whatever the
// request: a fault comes before the server checks the key, alt and the
// parameters, as a failing front end would. Inject panics if
// f is invalid (an unknown endpoint, a status outside 200–599, a negative
// latency or count), as [net/http.ServeMux.Handle] panics on a bad
// pattern: it is a mistake in the test.
func (s *Server) Inject(f Fault) {
	if err := f.check(); err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

func (f *Fault) check() error {
	known := f.Endpoint == ""
	for _, e := range endpoints {
		known = known || f.Endpoint == e
	}
	switch {
	case !known:
		return errors.New("sbtest: Inject: unknown endpoint " + inputerr.Quote(f.Endpoint))
	case f.Status != 0 && (f.Status < 200 || f.Status > 599):
		return fmt.Errorf("sbtest: Inject: status %d outside 200–599", f.Status)
	case f.Latency < 0:
		return fmt.Errorf("sbtest: Inject: negative latency %v", f.Latency)
	case f.Times < 0:
		return fmt.Errorf("sbtest: Inject: negative Times %d", f.Times)
	}
	return nil
}

// takeFault returns a copy of the fault that hits a request to endpoint,
// counting the hit, or the zero Fault. s.mu must be held.
func (s *Server) takeFault(endpoint string) Fault {
	for i, f := range s.faults {
		if f.Endpoint != "" && f.Endpoint != endpoint {
			continue
		}
		hit := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return hit
	}
	return Fault{}
}

// wait waits for d, and reports whether the request should go on: false
// when its context is done or the server closes first (in which case it
// has replied).
func (s *Server) wait(w http.ResponseWriter, r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closed:
		replyError(w, http.StatusServiceUnavailable, "sbtest: server closed")
		return false
	}
}

// garbage is a body that is not a protobuf message: its first tag is a
// varint longer than ten bytes.
var garbage = []byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01sbtest garbage")
