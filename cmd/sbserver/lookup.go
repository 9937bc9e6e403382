// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

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

// decodeBody decodes the one JSON value of a request body into v, whose
// unknown fields are an error. Its errors quote at most inputerr.MaxQuoted bytes
// of the body; a body over maxBody is a 413.
func decodeBody(r *http.Request, v any, want string) (int, error) {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err := dec.Token(); err != io.EOF {
			return http.StatusBadRequest, errors.New("sbserver: request body holds more than one JSON value")
		}
		return 0, nil
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge, fmt.Errorf("sbserver: request body over %d bytes", maxBody)
	}
	msg := err.Error()
	// encoding/json quotes an unknown field whole: quote it within the rule.
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if s, err := strconv.Unquote(name); err == nil {
			msg = "unknown field " + inputerr.Quote(s)
		}
	}
	if len(msg) > 2*inputerr.MaxQuoted {
		msg = msg[:2*inputerr.MaxQuoted] + "..."
	}
	return http.StatusBadRequest, fmt.Errorf("sbserver: request body is not %s: %s", want, msg)
}

// check looks up urls, those flagged invalid UTF-8 (bad[i]) aside: they get
// errNotUTF8, whatever the others get, even when no URL is left to look
// up. It returns one verdict and one error per URL, or whole, the error of
// the check when no URL was checked. It keeps the last search back-off
// met, for /metrics.
func (s *server) check(r *http.Request, urls []string, bad []bool) (vs []lookup.Verdict, errs []error, whole error) {
	if bad == nil {
		got, err := s.c.LookupAll(r.Context(), urls)
		errs, whole = perURLErrors(err, len(urls))
		if whole != nil {
			return nil, nil, whole
		}
		return got, errs, nil
	}
	vs, errs = make([]lookup.Verdict, len(urls)), make([]error, len(urls))
	ask, at := make([]string, 0, len(urls)), make([]int, 0, len(urls))
	for i, u := range urls {
		if bad[i] {
			errs[i] = errNotUTF8
			continue
		}
		ask = append(ask, u)
		at = append(at, i)
	}
	if len(ask) == 0 {
		return vs, errs, nil
	}
	got, err := s.c.LookupAll(r.Context(), ask)
	gotErrs, whole := perURLErrors(err, len(ask))
	if whole != nil {
		return nil, nil, whole
	}
	for j, i := range at {
		vs[i], errs[i] = got[j], gotErrs[j]
	}
	return vs, errs, nil
}

// lookup answers POST /v5/urls:lookup: {"urls": [...]} in, one verdict per
// URL out, in order. The status is 200 when every URL was checked or could
// not be parsed (the verdict of a bad URL carries its error); 503 when the
// check itself failed for some URL (lists not ready, a failed search, the
// client backing off), with the error, and the verdicts that stand.
func (s *server) lookup(w http.ResponseWriter, r *http.Request) {
	var req struct {
		URLs []jsonURL `json:"urls"`
	}
	if status, err := decodeBody(r, &req, `{"urls": [...]}`); err != nil {
		s.fail(w, plainErrors, status, err)
		return
	}
	if len(req.URLs) > maxURLs {
		s.fail(w, plainErrors, http.StatusBadRequest, fmt.Errorf("sbserver: %d URLs in one request, at most %d", len(req.URLs), maxURLs))
		return
	}
	urls, bad := make([]string, len(req.URLs)), []bool(nil)
	for i, u := range req.URLs {
		urls[i] = u.s
		if !u.valid {
			if bad == nil {
				bad = make([]bool, len(urls))
			}
			bad[i] = true
		}
	}
	vs, errs, whole := s.check(r, urls, bad)
	if whole != nil {
		// Not ready, or closed: no URL was checked.
		s.fail(w, plainErrors, http.StatusServiceUnavailable, whole)
		return
	}

	var failed error // a failure of the check, not of a URL: the reply is a 503
	reply := lookupReply{Verdicts: make([]verdict, len(urls))}
	for i, v := range vs { // one a URL: check gives each URL a verdict or an error
		out := verdict{URL: urls[i], Threats: make([]threat, 0, len(v.Threats))}
		if bad != nil && bad[i] {
			out.URL = strings.ToValidUTF8(urls[i], "\uFFFD")
		}
		for _, t := range v.Threats {
			tj := threat{ThreatType: t.Type.String(), Expression: t.Expression}
			for _, a := range t.Attributes {
				tj.Attributes = append(tj.Attributes, a.String())
			}
			out.Threats = append(out.Threats, tj)
		}
		unsafe := v.Unsafe()
		if errs[i] == nil || unsafe {
			out.Unsafe = &unsafe
		}
		if errs[i] != nil {
			out.Error = mask(errs[i].Error(), s.o.UpstreamKey)
			if failed == nil && !badURL(errs[i]) {
				failed = errs[i]
			}
		}
		reply.Verdicts[i] = out
	}
	status := http.StatusOK
	if failed != nil {
		status = http.StatusServiceUnavailable
		reply.Error = mask(failed.Error(), s.o.UpstreamKey)
		s.retryAfter(w, failed)
	}
	writeJSON(w, status, reply)
}
