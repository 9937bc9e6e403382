// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// Web Risk's methods are GETs, their request in the query, as gRPC
// transcoding maps it: one parameter a field, named by its path of JSON
// names (constraints.maxDiffEntries) or of proto field names
// (constraints.max_diff_entries), a repeated field given once a value.
// The parsers take both names; a field given under both, or a singular
// field given twice, is an error. Parameters they do not know (key, alt,
// $fields, prettyPrint) are left to the caller. The writers use the JSON
// names, as Google's documentation does.

// query is a request's parameters, as url.Values holds them.
type query map[string][]string

// one returns the value of the singular field named camel or proto, and
// whether it was given.
func (q query) one(camel, proto string) (string, bool, error) {
	vs, name, err := q.all(camel, proto)
	switch {
	case err != nil:
		return "", false, err
	case len(vs) > 1:
		return "", false, fmt.Errorf("%s given more than once", name)
	}
	if len(vs) == 0 {
		return "", false, nil
	}
	return vs[0], true, nil
}

// all returns the values of the field named camel or proto, and the name
// it was given by.
func (q query) all(camel, proto string) ([]string, string, error) {
	a, b := q[camel], q[proto]
	switch {
	case camel == proto:
		return a, camel, nil
	case len(a) > 0 && len(b) > 0:
		return nil, "", fmt.Errorf("%s given as %s too", camel, proto)
	case len(b) > 0:
		return b, proto, nil
	}
	return a, camel, nil
}

// int32 returns the value of the singular int32 field named camel or
// proto, 0 when absent.
func (q query) int32(camel, proto string) (int32, error) {
	s, ok, err := q.one(camel, proto)
	if err != nil || !ok {
		return 0, err
	}
	v, err := parseInt([]byte(s), 32)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", camel, err)
	}
	return int32(v), nil
}

// bytes returns the value of the singular bytes field named camel or
// proto, in standard or URL-safe base64, padded or not; nil when absent
// or empty.
func (q query) bytes(camel, proto string) ([]byte, error) {
	s, ok, err := q.one(camel, proto)
	if err != nil || !ok || s == "" {
		return nil, err
	}
	b, err := v5wire.DecodeBytes(s)
	if err != nil {
		return nil, fmt.Errorf("%s %s is not base64", camel, inputerr.Quote(s))
	}
	return b, nil
}

// enums returns the values of the repeated enum field named camel or
// proto, by name or number: a name the package does not know is -1.
func enums[E ~int32](q query, camel, proto string, names []string) ([]E, error) {
	vs, _, err := q.all(camel, proto)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	out := make([]E, len(vs))
	for i, s := range vs {
		v, err := parseEnum(names, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", camel, err)
		}
		out[i] = E(v)
	}
	return out, nil
}

// appendParam appends name=value to the query b, escaped, after an "&"
// unless b is empty.
func appendParam(b []byte, name, value string) []byte {
	if len(b) > 0 {
		b = append(b, '&')
	}
	b = append(b, url.QueryEscape(name)...)
	b = append(b, '=')
	return append(b, url.QueryEscape(value)...)
}

// appendBytesParam appends a bytes field in URL-safe base64 with padding,
// the web-safe form that webrisk.proto asks of a bytes field in a URI;
// nothing when v is empty.
func appendBytesParam(b []byte, name string, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	return appendParam(b, name, base64.URLEncoding.EncodeToString(v))
}

// appendInt32Param appends an int32 field, nothing when v is 0.
func appendInt32Param(b []byte, name string, v int32) []byte {
	if v == 0 {
		return b
	}
	return appendParam(b, name, strconv.Itoa(int(v)))
}

// appendEnumParams appends a repeated enum field, one parameter a value,
// each by name, or by number when it has none.
func appendEnumParams[E ~int32](b []byte, name string, names []string, vs []E) []byte {
	for _, v := range vs {
		b = appendParam(b, name, enumText(names, int32(v)))
	}
	return b
}

// enumText returns v's name, or its number when it has none.
func enumText(names []string, v int32) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return strconv.Itoa(int(v))
}
