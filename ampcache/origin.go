package ampcache

import "strings"

// PublisherDomain returns the publisher domain of an AMP Cache Origin, by the
// spec's "AMP Cache Origin to Publisher Domain". STUB (issue 4).
func PublisherDomain(origin string) (string, error) {
	return defaultRegistry.PublisherDomain(origin)
}

// PublisherDomain is like the package-level [PublisherDomain] on r's caches.
// STUB (issue 4): ASCII only, no check.
func (r *Registry) PublisherDomain(origin string) (string, error) {
	rest, ok := strings.CutPrefix(origin, "https://")
	if !ok {
		return "", newError(ErrInvalidOrigin, origin, "")
	}
	for _, c := range r.caches {
		if p, ok := strings.CutSuffix(rest, "."+c.CacheDomain); ok {
			if !strings.Contains(p, "-") {
				return "", newError(ErrNotReversible, origin, "")
			}
			p = strings.TrimSuffix(strings.TrimPrefix(p, "0-"), "-0")
			p = strings.ReplaceAll(p, "--", "\x00")
			p = strings.ReplaceAll(p, "-", ".")
			return strings.ReplaceAll(p, "\x00", "-"), nil
		}
	}
	return "", newError(ErrUnknownCache, origin, "")
}
