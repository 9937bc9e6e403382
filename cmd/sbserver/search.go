// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

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

// search answers GET /v5/urls:search?urls=...: Google's v5 urls.search,
// from the hash procedures of the client, so that no URL leaves the
// network. threats lists the unsafe URLs only, in the order asked;
// cacheDuration, always present, covers every URL asked.
func (s *server) search(w http.ResponseWriter, r *http.Request) {
	urls, err := readQuery(r.URL.RawQuery, "urls")
	if err != nil {
		s.fail(w, googleErrors, http.StatusBadRequest, err)
		return
	}
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
	writeJSONBytes(w, appendSearchReply(make([]byte, 0, 512), urls, vs, s.cacheDuration))
}

// appendSearchReply appends SearchUrlsResponse in Google's JSON mapping,
// as encoding/json writes it from searchReply, and a newline: the threats
// of the verdicts vs of urls, and cacheDuration, a Duration in JSON.
func appendSearchReply(b []byte, urls []string, vs []lookup.Verdict, cacheDuration string) []byte {
	b = append(b, '{')
	threats := false
	var buf [maxThreatType]lookup.ThreatType
	for i, v := range vs {
		types := appendThreatTypes(buf[:0], v)
		if len(types) == 0 {
			continue
		}
		if !threats {
			b = append(b, `"threats":[`...)
			threats = true
		} else {
			b = append(b, ',')
		}
		b = append(b, `{"url":`...)
		b = appendJSONString(b, urls[i])
		b = append(b, `,"threatTypes":[`...)
		for j, t := range types {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, t.String())
		}
		b = append(b, "]}"...)
	}
	if threats {
		b = append(b, "],"...)
	}
	b = append(b, `"cacheDuration":`...)
	b = appendJSONString(b, cacheDuration)
	return append(b, "}\n"...)
}

// checkAll looks up urls for a drop-in endpoint, whose reply is all or
// nothing: it answers a 400 INVALID_ARGUMENT naming the first URL that
// cannot be parsed (field[i]), else a 503 UNAVAILABLE if any URL could
// not be checked, with Retry-After while the client backs off, and
// returns false; or returns every verdict.
func (s *server) checkAll(w http.ResponseWriter, r *http.Request, urls []string, field string) ([]lookup.Verdict, bool) {
	vs, err := s.c.LookupAll(r.Context(), urls)
	if err == nil {
		return vs, true // every URL checked: no error to split
	}
	errs, whole := perURLErrors(err, len(urls))
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

// threatTypes returns the names of v's threat types, as appendThreatTypes
// gives them.
func threatTypes(v lookup.Verdict) []string {
	var buf [maxThreatType]lookup.ThreatType
	var names []string
	for _, t := range appendThreatTypes(buf[:0], v) {
		names = append(names, t.String())
	}
	return names
}

// maxThreatType bounds the threat types that sbserver reports: those
// below it, the v5 API's.
const maxThreatType = 8

// appendThreatTypes appends v's threat types, each once, in the order of
// v's threats, leaving out a type whose every threat is CANARY (Google's
// "do not enforce"). FRAME_ONLY threats count.
func appendThreatTypes(dst []lookup.ThreatType, v lookup.Verdict) []lookup.ThreatType {
	var seen [maxThreatType]bool
	for _, t := range v.Threats {
		if t.Has(lookup.Canary) || t.Type < 0 || t.Type >= maxThreatType || seen[t.Type] {
			continue
		}
		seen[t.Type] = true
		dst = append(dst, t.Type)
	}
	return dst
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
