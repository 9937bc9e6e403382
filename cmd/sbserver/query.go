// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"iter"
	"net/url"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// maxQueryParams is net/url's default limit on the parameters of a query:
// url.ParseQuery, and so http.Request.URL.Query, reads a query of more as
// empty, and so does queryParams (the GODEBUG urlmaxqueryparams, which
// moves net/url's limit, does not move this one).
const maxQueryParams = 10000

// queryParams yields the name, unescaped, and the value, still escaped, of
// each parameter of the raw query, in order, as url.ParseQuery reads them
// but for one check that it leaves to the caller, who unescapes the value
// in the same pass: url.ParseQuery also skips a pair whose value is badly
// escaped, which appendValue and unescapeValue report. A pair holding a
// ';', an empty pair and a pair whose name is badly escaped are skipped,
// and a query of more than maxQueryParams parameters yields none. Unlike
// url.ParseQuery it builds no map: a name allocates only when it is
// escaped.
func queryParams(raw string) iter.Seq2[string, string] {
	return func(yield func(name, value string) bool) {
		if strings.Count(raw, "&") >= maxQueryParams {
			return
		}
		for rest := raw; rest != ""; {
			var pair string
			pair, rest, _ = strings.Cut(rest, "&")
			if pair == "" || strings.Contains(pair, ";") {
				continue
			}
			name, value, _ := strings.Cut(pair, "=")
			name, err := url.QueryUnescape(name)
			if err != nil {
				continue
			}
			if !yield(name, value) {
				return
			}
		}
	}
}

// appendValue appends the query value s unescaped as url.QueryUnescape
// unescapes it, %XX as the byte XX and '+' as a space, or returns b as it
// was and false when a '%' of s does not begin a %XX escape.
func appendValue(b []byte, s string) ([]byte, bool) {
	n := len(b)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return b[:n], false
			}
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		case '+':
			c = ' '
		}
		b = append(b, c)
	}
	return b, true
}

// unescapeValue returns the query value s unescaped, as appendValue does:
// s itself when it holds nothing to unescape.
func unescapeValue(s string) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	b, ok := appendValue(make([]byte, 0, len(s)), s)
	return string(b), ok
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// queryGet returns the first value of the parameter name in the raw query,
// unescaped, or "": url.Values.Get of url.ParseQuery, without the map.
func queryGet(raw, name string) string {
	for n, v := range queryParams(raw) {
		if n != name {
			continue
		}
		if v, ok := unescapeValue(v); ok {
			return v
		}
	}
	return ""
}

// readQuery returns the values of the query parameter own in the raw query,
// unescaped, in order, or an error for a parameter that is neither a
// system parameter nor own (the first one) or an alt other than json. The
// values share one allocation.
func readQuery(raw, own string) ([]string, error) {
	var (
		stack              [2048]byte
		buf                = stack[:0]                       // the values of own, unescaped, end to end
		ends               = make([]int, 0, maxSearchURLs+1) // where each ends in buf
		unknown, alt       string
		hasUnknown, hasAlt bool
	)
	for name, value := range queryParams(raw) {
		if name == own {
			var ok bool
			if buf, ok = appendValue(buf, value); ok {
				ends = append(ends, len(buf))
			}
			continue
		}
		value, ok := unescapeValue(value)
		switch {
		case !ok: // a pair that url.ParseQuery skips
		case name == "alt" && !hasAlt:
			alt, hasAlt = value, true
		case !systemParams[name] && !hasUnknown:
			unknown, hasUnknown = name, true
		}
	}
	if hasUnknown {
		return nil, fmt.Errorf("sbserver: unknown query parameter %s", inputerr.Quote(unknown))
	}
	if alt != "" && alt != "json" {
		return nil, fmt.Errorf("sbserver: alt=%s: only alt=json is served", inputerr.Quote(alt))
	}
	if len(ends) == 0 {
		return nil, nil
	}
	all := string(buf)
	vals := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		vals[i] = all[start:end]
		start = end
	}
	return vals, nil
}
