package cachetest_test

import "github.com/urlspec/urlspec/ampcache"

// fallback is the spec's Fallback Algorithm prefix of domain.
func fallback(domain string) string { return ampcache.FallbackPrefix(domain) }
