// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// systemParams are the query parameters that Google's APIs take on every
// method (the discovery documents' "parameters"), which the generated
// clients may add. sbserver accepts and ignores them: key is checked by
// checkKey, and alt must be json.
var systemParams = map[string]bool{
	"key": true, "alt": true, "$.xgafv": true, "prettyPrint": true, "fields": true,
	"quotaUser": true, "access_token": true, "oauth_token": true, "callback": true,
	"upload_protocol": true, "uploadType": true,
}

// checkParams returns an error for a query parameter that is neither a
// system parameter nor one of own, or an alt other than json.
func checkParams(q url.Values, own string) error {
	for name := range q {
		if !systemParams[name] && name != own {
			return fmt.Errorf("sbserver: unknown query parameter %s", inputerr.Quote(name))
		}
	}
	if alt := q.Get("alt"); alt != "" && alt != "json" {
		return fmt.Errorf("sbserver: alt=%s: only alt=json is served", inputerr.Quote(alt))
	}
	return nil
}

// searchReply is SearchUrlsResponse in Google's JSON mapping.
type searchReply struct {
	Threats       []threatURL `json:"threats,omitempty"`
	CacheDuration string      `json:"cacheDuration"`
}

// threatURL is ThreatUrl: a URL asked and the threat types it is on.
type threatURL struct {
	URL         string   `json:"url"`
	ThreatTypes []string `json:"threatTypes"`
}

// search answers GET /v5/urls:search?urls=...: Google's v5 urls.search,
// from the hash procedures of the client, so that no URL leaves the
// network. threats lists the unsafe URLs only, in the order asked;
// cacheDuration, always present, covers every URL asked.
func (s *server) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := checkParams(q, "urls"); err != nil {
		s.fail(w, googleErrors, http.StatusBadRequest, err)
		return
	}
	urls := q["urls"]
	switch {
	case len(urls) == 0:
		s.fail(w, googleErrors, http.StatusBadRequest, errors.New("sbserver: urls is required"))
		return
	case len(urls) > maxSearchURLs:
		s.fail(w, googleErrors, http.StatusBadRequest, fmt.Errorf("sbserver: %d urls in one request, at most %d", len(urls), maxSearchURLs))
		return
	}
	for i, u := range urls {
		if !utf8.ValidString(u) {
			s.fail(w, googleErrors, http.StatusBadRequest, inField(fmt.Sprintf("urls[%d]", i), errNotUTF8))
			return
		}
	}
	vs, ok := s.checkAll(w, r, urls, "urls")
	if !ok {
		return
	}
	reply := searchReply{CacheDuration: durationJSON(s.o.CacheDuration)}
	for i, v := range vs {
		if types := threatTypes(v); len(types) > 0 {
			reply.Threats = append(reply.Threats, threatURL{URL: urls[i], ThreatTypes: types})
		}
	}
	writeJSON(w, http.StatusOK, reply)
}

// checkAll looks up urls for a drop-in endpoint, whose reply is all or
// nothing: it answers a 400 INVALID_ARGUMENT naming the first URL that
// cannot be parsed (field[i]), else a 503 UNAVAILABLE if any URL could
// not be checked, with Retry-After while the client backs off, and
// returns false; or returns every verdict.
func (s *server) checkAll(w http.ResponseWriter, r *http.Request, urls []string, field string) ([]lookup.Verdict, bool) {
	vs, errs, whole := s.check(r, urls, nil)
	if whole != nil {
		s.fail(w, googleErrors, http.StatusServiceUnavailable, whole)
		return nil, false
	}
	var failed error
	for i, err := range errs {
		if err == nil {
			continue
		}
		if badURL(err) {
			s.fail(w, googleErrors, http.StatusBadRequest, inField(fmt.Sprintf("%s[%d]", field, i), err))
			return nil, false
		}
		if failed == nil {
			failed = err
		}
	}
	if failed != nil {
		s.fail(w, googleErrors, http.StatusServiceUnavailable, failed)
		return nil, false
	}
	return vs, true
}

// threatTypes returns the names of v's threat types, each once, in the
// order of v's threats, leaving out a type whose every threat is CANARY
// (Google's "do not enforce"). FRAME_ONLY threats count.
func threatTypes(v lookup.Verdict) []string {
	var types []string
	var seen [8]bool
	for _, t := range v.Threats {
		if t.Has(lookup.Canary) || t.Type < 0 || int(t.Type) >= len(seen) || seen[t.Type] {
			continue
		}
		seen[t.Type] = true
		types = append(types, t.Type.String())
	}
	return types
}

// durationJSON writes d as Google's JSON mapping writes a Duration: seconds
// with an "s" suffix and 0, 3, 6 or 9 fractional digits ("300s", "1.500s").
func durationJSON(d time.Duration) string {
	secs := d / time.Second
	nanos := d % time.Second
	s := strconv.FormatInt(int64(secs), 10)
	switch {
	case nanos == 0:
	case nanos%time.Millisecond == 0:
		s += fmt.Sprintf(".%03d", nanos/time.Millisecond)
	case nanos%time.Microsecond == 0:
		s += fmt.Sprintf(".%06d", nanos/time.Microsecond)
	default:
		s += fmt.Sprintf(".%09d", nanos)
	}
	return s + "s"
}
