package ampcache

import "strings"

// SourceURL returns the publisher URL of an AMP Cache URL. STUB (issue 4).
func SourceURL(cacheURL string) (string, error) {
	return defaultRegistry.SourceURL(cacheURL)
}

// SourceURL is like the package-level [SourceURL] on r's caches. STUB (issue 4).
func (r *Registry) SourceURL(cacheURL string) (string, error) {
	rest, ok := strings.CutPrefix(cacheURL, "https://")
	if !ok {
		return "", newError(ErrNotCacheURL, cacheURL, "")
	}
	host, path, _ := strings.Cut(rest, "/")
	for _, c := range r.caches {
		if host == c.CacheDomain || strings.HasSuffix(host, "."+c.CacheDomain) {
			scheme := "http://"
			_, path, _ = strings.Cut(path, "/")
			if p, ok := strings.CutPrefix(path, "s/"); ok {
				scheme, path = "https://", p
			}
			return scheme + path, nil
		}
	}
	return "", newError(ErrNotCacheURL, cacheURL, "")
}
