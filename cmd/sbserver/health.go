// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"net/http"
	"time"
)

// errShuttingDown is /readyz's cause once shutdown has begun.
var errShuttingDown = errors.New("sbserver: shutting down")

type healthReply struct {
	Status string `json:"status"` // "ok", or "unavailable"
	Error  string `json:"error,omitempty"`
}

// healthz answers GET /healthz: 200 while the process serves.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, healthReply{Status: "ok"})
}

// readyz answers GET /readyz: 200 once the lists are loaded, else a 503
// with the cause; a 503 too as soon as shutdown begins, before the
// requests in flight drain, so that a load balancer stops sending.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	err := notReady(s.c)
	if s.closing.Load() {
		err = errShuttingDown
	}
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, healthReply{Status: "unavailable", Error: mask(err.Error(), s.o.UpstreamKey)})
		return
	}
	writeJSON(w, http.StatusOK, healthReply{Status: "ok"})
}

type statusReply struct {
	Ready  bool         `json:"ready"`
	API    string       `json:"api"` // SafeBrowsing or WebRisk, as -api takes it
	Mode   string       `json:"mode"`
	Frozen bool         `json:"frozen"`
	Lists  []listStatus `json:"lists"`
	OHTTP  *ohttpStatus `json:"ohttp,omitempty"` // with -ohttp-relay only
	Error  string       `json:"error,omitempty"`
}

// ohttpStatus is the OHTTP gateway key the client holds, as
// lookup.Client.OHTTPStatus reports it.
type ohttpStatus struct {
	KeyID   uint8     `json:"keyId"`
	Fetched time.Time `json:"fetched,omitzero"` // absent: no key held yet
	Error   string    `json:"error,omitempty"`  // the last key error; absent: none
}

type listStatus struct {
	Name    string    `json:"name"`
	Entries int       `json:"entries"`
	Version []byte    `json:"version,omitempty"` // base64, as the API sends bytes
	Loaded  bool      `json:"loaded"`
	Next    time.Time `json:"next,omitzero"`    // due for an update; absent: at once (never, when frozen)
	Updated time.Time `json:"updated,omitzero"` // last successful update; absent: none yet
	Error   string    `json:"error,omitempty"`  // the last update's error; absent: it succeeded
}

// status answers GET /status with the state of each list and whether the
// client is ready: a 200 when it is, a 503 with the cause before.
func (s *server) status(w http.ResponseWriter, r *http.Request) {
	reply := statusReply{API: s.o.API.String(), Mode: s.o.Mode.String(), Frozen: s.o.Frozen, Lists: []listStatus{}}
	for _, l := range s.c.Lists() {
		ls := listStatus{Name: l.Name, Entries: l.Entries, Version: l.Version, Loaded: l.Loaded}
		if !s.o.Frozen {
			ls.Next = l.Next
		}
		updated, lastErr := listDetail(l)
		ls.Updated = updated
		if lastErr != nil {
			ls.Error = mask(lastErr.Error(), s.o.UpstreamKey)
		}
		reply.Lists = append(reply.Lists, ls)
	}
	if s.o.OHTTP {
		o := s.c.OHTTPStatus()
		reply.OHTTP = &ohttpStatus{KeyID: o.KeyID, Fetched: o.Fetched}
		if o.Err != nil {
			reply.OHTTP.Error = mask(o.Err.Error(), s.o.UpstreamKey)
		}
	}
	status := http.StatusOK
	if err := notReady(s.c); err != nil {
		status = http.StatusServiceUnavailable
		reply.Error = mask(err.Error(), s.o.UpstreamKey)
	} else {
		reply.Ready = true
	}
	writeJSON(w, status, reply)
}
