// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5http

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// The query parameters of each method, each name mapped to its lowerCamel
// form. The maps are read-only.
var (
	// SearchParams are those of hashes:search.
	SearchParams = map[string]string{
		"hashPrefixes":  "hashPrefixes",
		"hash_prefixes": "hashPrefixes",
	}
	// HashListParams are those of hashList/{name}.
	HashListParams = map[string]string{
		"version":                               "version",
		"sizeConstraints.maxUpdateEntries":      "maxUpdateEntries",
		"size_constraints.max_update_entries":   "maxUpdateEntries",
		"sizeConstraints.maxDatabaseEntries":    "maxDatabaseEntries",
		"size_constraints.max_database_entries": "maxDatabaseEntries",
	}
	// BatchGetParams are those of hashLists:batchGet.
	BatchGetParams = map[string]string{
		"names":                                 "names",
		"version":                               "version",
		"sizeConstraints.maxUpdateEntries":      "maxUpdateEntries",
		"size_constraints.max_update_entries":   "maxUpdateEntries",
		"sizeConstraints.maxDatabaseEntries":    "maxDatabaseEntries",
		"size_constraints.max_database_entries": "maxDatabaseEntries",
	}
	// HashListsParams are those of hashLists (ListHashLists).
	HashListsParams = map[string]string{
		"pageSize":   "pageSize",
		"page_size":  "pageSize",
		"pageToken":  "pageToken",
		"page_token": "pageToken",
	}
)

// commonParams are the key, alt, $ct and the system parameters of
// Google's APIs (https://cloud.google.com/apis/docs/system-parameters),
// which the generated client libraries may send, taken by every method.
var commonParams = map[string]string{
	"key":             "key",
	"alt":             "alt",
	"$ct":             "$ct",
	"$.xgafv":         "$.xgafv",
	"access_token":    "access_token",
	"callback":        "callback",
	"fields":          "fields",
	"oauth_token":     "oauth_token",
	"prettyPrint":     "prettyPrint",
	"quotaUser":       "quotaUser",
	"uploadType":      "uploadType",
	"upload_protocol": "upload_protocol",
}

// Params returns the parameters of q under their lowerCamel names: the
// common parameters, which every method takes, and those of method. Any
// other parameter is an error, so that a client's misspelt parameter
// does not go unnoticed.
func Params(q url.Values, method map[string]string) (url.Values, error) {
	p := make(url.Values, len(q))
	for k, vs := range q {
		c, ok := commonParams[k]
		if !ok {
			c, ok = method[k]
		}
		if !ok {
			return nil, fmt.Errorf("unknown parameter %s", inputerr.Quote(k))
		}
		p[c] = append(p[c], vs...)
	}
	return p, nil
}

// Single returns the one value of parameter name, or "" when it is
// absent; more than one is an error.
func Single(p url.Values, name string) (string, error) {
	switch vs := p[name]; len(vs) {
	case 0:
		return "", nil
	case 1:
		return vs[0], nil
	default:
		return "", fmt.Errorf("%s given %d times", name, len(vs))
	}
}

// Int32 returns the value of an int32 parameter, 0 when absent; a value
// that is not a non-negative int32 is an error.
func Int32(p url.Values, name string) (int, error) {
	v, err := Single(p, name)
	if err != nil || v == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%s is not a non-negative int32", name, inputerr.Quote(v))
	}
	return int(n), nil
}
