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
// each parameter of the raw query, in order, exactly those that
// url.ParseQuery keeps: a pair holding a ';', an empty pair and a pair
// whose name or value is badly escaped are skipped, and a query of more
// than maxQueryParams parameters yields none. Unlike url.ParseQuery it
// builds no map and unescapes no value: a name allocates only when it is
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
			if err != nil || !validEscapes(value) {
				continue
			}
			if !yield(name, value) {
				return
			}
		}
	}
}

// validEscapes reports whether every '%' of s begins a %XX escape, as
// url.QueryUnescape requires.
func validEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

// appendUnescaped appends s, whose escapes are valid, unescaped as
// url.QueryUnescape unescapes it: %XX is the byte XX, '+' a space.
func appendUnescaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '%':
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		case '+':
			c = ' '
		}
		b = append(b, c)
	}
	return b
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
		if n == name {
			return unescape(v)
		}
	}
	return ""
}

// unescape returns s, whose escapes are valid, unescaped; s itself when it
// holds nothing to unescape.
func unescape(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	return string(appendUnescaped(make([]byte, 0, len(s)), s))
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
		switch {
		case name == own:
			buf = appendUnescaped(buf, value)
			ends = append(ends, len(buf))
		case name == "alt" && !hasAlt:
			alt, hasAlt = unescape(value), true
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
