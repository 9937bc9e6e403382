// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// The bounds of a lookup request.
const (
	maxBody = 1 << 20 // bytes of a request body
	maxURLs = 1000    // URLs in one request
)

// handler serves the proxy's endpoints in front of one lookup.Client.
type handler struct {
	c      *lookup.Client
	mode   lookup.Mode
	frozen bool
	key    string // masked out of every reply, in case an error carries it
}

// newHandler returns the proxy's endpoints: POST /v5/urls:lookup and
// GET /status. Other methods get a 405, other paths a 404.
func newHandler(c *lookup.Client, mode lookup.Mode, frozen bool, key string) http.Handler {
	h := &handler{c: c, mode: mode, frozen: frozen, key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v5/urls:lookup", h.lookup)
	mux.HandleFunc("GET /status", h.status)
	// The same errors as net/http's, in JSON, for clients that read only JSON.
	mux.HandleFunc("/v5/urls:lookup", h.notAllowed("POST"))
	mux.HandleFunc("/status", h.notAllowed("GET, HEAD"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, http.StatusNotFound, errors.New("sbserver: not found: the endpoints are POST /v5/urls:lookup and GET /status"))
	})
	return mux
}

// notAllowed answers a 405 naming the allowed methods.
func (h *handler) notAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		h.fail(w, http.StatusMethodNotAllowed, fmt.Errorf("sbserver: method %s not allowed: use %s", r.Method, allow))
	}
}

type lookupRequest struct {
	URLs []string `json:"urls"`
}

type lookupReply struct {
	Verdicts []verdict `json:"verdicts,omitzero"` // absent when no URL was checked
	Error    string    `json:"error,omitempty"`
}

// A verdict is one URL's answer. Unsafe is absent (null) when the URL could
// not be checked and nothing known makes it unsafe: a failed check is
// never reported as safe.
type verdict struct {
	URL     string   `json:"url"`
	Unsafe  *bool    `json:"unsafe,omitempty"`
	Threats []threat `json:"threats"`
	Error   string   `json:"error,omitempty"`
}

type threat struct {
	ThreatType string   `json:"threatType"`
	Attributes []string `json:"attributes,omitempty"`
	Expression string   `json:"expression"`
}

// lookup answers POST /v5/urls:lookup: {"urls": [...]} in, one verdict per
// URL out, in order. The status is 200 when every URL was checked or could
// not be parsed (the verdict of a bad URL carries its error); 503 when the
// check itself failed for some URL (lists not ready, a failed search, the
// client backing off), with the error, and the verdicts that stand.
func (h *handler) lookup(w http.ResponseWriter, r *http.Request) {
	var req lookupRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.fail(w, http.StatusRequestEntityTooLarge, fmt.Errorf("sbserver: request body over %d bytes", maxBody))
			return
		}
		h.fail(w, http.StatusBadRequest, fmt.Errorf("sbserver: request body is not {\"urls\": [...]}: %v", err))
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		h.fail(w, http.StatusBadRequest, errors.New("sbserver: request body holds more than one JSON value"))
		return
	}
	if len(req.URLs) > maxURLs {
		h.fail(w, http.StatusBadRequest, fmt.Errorf("sbserver: %d URLs in one request, at most %d", len(req.URLs), maxURLs))
		return
	}

	vs, err := h.c.LookupAll(r.Context(), req.URLs)
	failed := make([]error, len(req.URLs))
	var whole error // an error of the check, not of a URL: the reply is a 503
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var ue *lookup.URLError
			if !errors.As(e, &ue) || ue.Index < 0 || ue.Index >= len(failed) {
				whole = e
				continue
			}
			failed[ue.Index] = ue.Err
			if whole == nil && !badURL(ue.Err) {
				whole = ue.Err
			}
		}
	} else if err != nil {
		// Not ready, or closed: no URL was checked.
		h.fail(w, http.StatusServiceUnavailable, err)
		return
	}

	reply := lookupReply{Verdicts: make([]verdict, len(req.URLs))}
	for i, v := range vs {
		out := verdict{URL: req.URLs[i], Threats: make([]threat, 0, len(v.Threats))}
		for _, t := range v.Threats {
			tj := threat{ThreatType: t.Type.String(), Expression: t.Expression}
			for _, a := range t.Attributes {
				tj.Attributes = append(tj.Attributes, a.String())
			}
			out.Threats = append(out.Threats, tj)
		}
		unsafe := v.Unsafe()
		if failed[i] == nil || unsafe {
			out.Unsafe = &unsafe
		}
		if failed[i] != nil {
			out.Error = h.mask(failed[i].Error())
		}
		reply.Verdicts[i] = out
	}
	status := http.StatusOK
	if whole != nil {
		status = http.StatusServiceUnavailable
		reply.Error = h.mask(whole.Error())
		retryAfter(w, whole)
	}
	h.reply(w, status, reply)
}

// badURL reports whether err says the URL itself cannot be checked, as
// opposed to a failure of the check. An error it does not know is a
// failure of the check: the reply is then a 503, the safe side.
func badURL(err error) bool {
	for _, e := range []error{
		safebrowse.ErrEmpty, safebrowse.ErrNoHost, safebrowse.ErrScheme, safebrowse.ErrTooLong,
		safebrowse.ErrInvalidHost, safebrowse.ErrInvalidPort, safebrowse.ErrInvalidURL,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// retryAfter sets Retry-After when err is the client backing off.
func retryAfter(w http.ResponseWriter, err error) {
	var be *lookup.BackoffError
	if errors.As(err, &be) {
		secs := math.Ceil(time.Until(be.Until).Seconds())
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(secs))))
	}
}

type statusReply struct {
	Ready  bool         `json:"ready"`
	Mode   string       `json:"mode"`
	Frozen bool         `json:"frozen"`
	Lists  []listStatus `json:"lists"`
	Error  string       `json:"error,omitempty"`
}

type listStatus struct {
	Name    string    `json:"name"`
	Entries int       `json:"entries"`
	Version []byte    `json:"version,omitempty"` // base64, as the API sends bytes
	Loaded  bool      `json:"loaded"`
	Next    time.Time `json:"next,omitzero"` // due for an update; absent: at once (never, when frozen)
}

// status answers GET /status with the state of each list and whether the
// client is ready: a 200 when it is, a 503 with lookup.ErrNotReady before.
func (h *handler) status(w http.ResponseWriter, r *http.Request) {
	reply := statusReply{Ready: h.c.IsReady(), Mode: h.mode.String(), Frozen: h.frozen, Lists: []listStatus{}}
	for _, l := range h.c.Lists() {
		ls := listStatus{Name: l.Name, Entries: l.Entries, Version: l.Version, Loaded: l.Loaded}
		if !h.frozen {
			ls.Next = l.Next
		}
		reply.Lists = append(reply.Lists, ls)
	}
	status := http.StatusOK
	if !reply.Ready {
		status = http.StatusServiceUnavailable
		reply.Error = lookup.ErrNotReady.Error()
	}
	h.reply(w, status, reply)
}

// fail replies with status and {"error": err}.
func (h *handler) fail(w http.ResponseWriter, status int, err error) {
	retryAfter(w, err)
	h.reply(w, status, lookupReply{Error: h.mask(err.Error())})
}

// reply writes v as JSON.
func (h *handler) reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// mask removes the API key from s. The lookup package already masks it in
// its errors; this is the proxy's own guard, since a reply leaves the process.
func (h *handler) mask(s string) string {
	if h.key == "" {
		return s
	}
	return strings.ReplaceAll(s, h.key, "REDACTED")
}
