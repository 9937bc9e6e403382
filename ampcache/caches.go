// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"encoding/json"
	"strconv"
)

//go:generate go run gen.go -version "amphtml build-system/global-configs/caches.json, main, 2026-11-22"

// Cache is one AMP Cache, as recorded in the AMP project's caches.json
// (spec: "Domain Name Suffix"). The JSON field names are those of
// caches.json. The zero Cache is not a valid cache: it has no CacheDomain.
type Cache struct {
	// ID is the cache's short name, unique in a list: "google", "bing".
	ID string `json:"id"`
	// Name is the cache's display name: "Google AMP Cache".
	Name string `json:"name"`
	// Docs is the URL of the cache's documentation.
	Docs string `json:"docs"`
	// CacheDomain is the domain the cache serves documents on, below one
	// domain prefix per publisher domain: "cdn.ampproject.org".
	CacheDomain string `json:"cacheDomain"`
	// UpdateCacheAPIDomainSuffix is the domain of the cache's update-cache
	// API.
	UpdateCacheAPIDomainSuffix string `json:"updateCacheApiDomainSuffix"`
	// ThirdPartyFrameDomainSuffix is the domain the cache serves third-party
	// iframes on: "ampproject.net".
	ThirdPartyFrameDomainSuffix string `json:"thirdPartyFrameDomainSuffix"`
}

// Caches returns a copy of the built-in list of AMP Caches, in the order of
// caches.json. The list was taken from the AMP project on [CachesVersion].
func Caches() []Cache { return append([]Cache(nil), builtinCaches...) }

// Origin returns the cache origin of a publisher domain on c, the value a
// browser sends in the Origin header of a CORS request from the domain's
// documents on c (spec: "Combined Algorithm", step 1):
//
//	"https://" + DomainPrefix(domain) + "." + c.CacheDomain
//
// The spec tells publishers to compare an Origin whose domain prefix is a
// hash, which [PublisherDomain] cannot reverse, with the origins of the
// domains they know: Origin computes them. It returns an error if domain
// has no domain prefix, or if c.CacheDomain is not a lowercase host name.
func (c Cache) Origin(domain string) (string, error) {
	if err := checkCacheDomain(c.CacheDomain); err != nil {
		return "", err
	}
	var buf [maxOriginLen]byte
	b, err := c.appendOrigin(buf[:0], domain)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func (c Cache) appendOrigin(dst []byte, domain string) ([]byte, error) {
	dst = append(dst, "https://"...)
	dst, err := AppendDomainPrefix(dst, domain)
	if err != nil {
		return nil, err
	}
	dst = append(dst, '.')
	return append(dst, c.CacheDomain...), nil
}

// ParseCaches parses a caches.json file, as published by the AMP project,
// and validates it: the list must not be empty, every id must be non-empty
// and unique, and every cacheDomain must be a lowercase host name, unique in
// the list. Fields this package does not know are ignored. Use it with
// [NewRegistry] to work with a newer list than the built-in one.
func ParseCaches(data []byte) ([]Cache, error) {
	var file struct {
		Caches []Cache `json:"caches"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, newError(ErrInvalidCaches, summary(data), err.Error())
	}
	if file.Caches == nil {
		return nil, newError(ErrInvalidCaches, summary(data), `no "caches" list`)
	}
	if err := checkCaches(file.Caches); err != nil {
		return nil, err
	}
	return file.Caches, nil
}

// summary returns the start of data, to quote in an error.
func summary(data []byte) string {
	const max = 64
	if len(data) > max {
		return string(data[:max]) + "..."
	}
	return string(data)
}

// checkCaches validates a list of caches, as ParseCaches documents.
func checkCaches(caches []Cache) error {
	if len(caches) == 0 {
		return newError(ErrInvalidCaches, "", "no caches")
	}
	for i, c := range caches {
		if c.ID == "" {
			return newError(ErrInvalidCaches, c.CacheDomain, "cache "+strconv.Itoa(i)+" has an empty id")
		}
		if err := checkCacheDomain(c.CacheDomain); err != nil {
			return newError(ErrInvalidCaches, c.CacheDomain, "cache "+strconv.Quote(c.ID)+": cacheDomain is not a lowercase host name")
		}
		for _, d := range caches[:i] {
			if d.ID == c.ID {
				return newError(ErrInvalidCaches, c.ID, "duplicate id")
			}
			if d.CacheDomain == c.CacheDomain {
				return newError(ErrInvalidCaches, c.CacheDomain, "duplicate cacheDomain")
			}
		}
	}
	return nil
}

// checkCacheDomain returns an error unless s is a lowercase host name, as
// isHostName defines it.
func checkCacheDomain(s string) error {
	if !isHostName(s, false) {
		return newError(ErrInvalidHost, s, "cache domain is not a lowercase host name")
	}
	return nil
}

// isHostName reports whether s is a host name: one or more labels joined by
// dots, each 1 to 63 letters, digits and hyphens that neither begins nor
// ends with a hyphen (RFC 1123 section 2.1), at most 253 bytes in all, with
// a last label that is not all digits, so that a URL parser does not read s
// as an IPv4 address. Upper case letters are allowed only if upper is set.
func isHostName(s string, upper bool) bool {
	if len(s) == 0 || len(s) > maxDomain {
		return false
	}
	start, digits := 0, true
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			n := i - start
			if n == 0 || n > maxLabel || s[start] == '-' || s[i-1] == '-' {
				return false
			}
			if i == len(s) && digits {
				return false
			}
			start, digits = i+1, true
			continue
		}
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', c == '-':
			digits = false
		case '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z' && upper:
			digits = false
		default:
			return false
		}
	}
	return true
}

// maxOriginLen bounds a cache origin: "https://", a domain prefix, a dot,
// a cache domain and ":443".
const maxOriginLen = len("https://") + maxLabel + 1 + maxDomain + len(":443")

// Registry is a list of AMP Caches, for callers who keep their own. Its
// methods work as the package-level functions of the same names do on the
// built-in list. A Registry is immutable and safe for concurrent use. The
// zero Registry, and a nil *Registry, have no caches.
type Registry struct {
	caches []Cache
}

// NewRegistry returns a Registry of a copy of caches. It validates them as
// [ParseCaches] does, and returns an error wrapping [ErrInvalidCaches] if
// they fail.
func NewRegistry(caches []Cache) (*Registry, error) {
	if err := checkCaches(caches); err != nil {
		return nil, err
	}
	return &Registry{caches: append([]Cache(nil), caches...)}, nil
}

// list returns r's caches; a nil Registry has none.
func (r *Registry) list() []Cache {
	if r == nil {
		return nil
	}
	return r.caches
}

// Caches returns a copy of r's caches, in r's order.
func (r *Registry) Caches() []Cache { return append([]Cache(nil), r.list()...) }

// Origins returns the cache origins of a publisher domain, one per
// built-in cache, in the order of [Caches], as [Cache.Origin] computes them.
// To check a CORS Origin whose prefix [PublisherDomain] cannot reverse,
// compare it with the Origins of each domain you serve.
func Origins(domain string) ([]string, error) { return defaultRegistry.Origins(domain) }

// Origins returns the cache origins of a publisher domain, one per cache of
// r, in r's order, as [Cache.Origin] computes them.
func (r *Registry) Origins(domain string) ([]string, error) {
	var buf [maxLabel]byte
	prefix, err := AppendDomainPrefix(buf[:0], domain)
	if err != nil {
		return nil, err
	}
	caches := r.list()
	out := make([]string, len(caches))
	for i, c := range caches {
		out[i] = "https://" + string(prefix) + "." + c.CacheDomain
	}
	return out, nil
}

// defaultRegistry is the built-in list. It shares builtinCaches, which
// nothing modifies.
var defaultRegistry = &Registry{caches: builtinCaches}
