package cachetest

import (
	"net"
	"net/url"
	"strings"
)

// serving is the serving type of a cache path, the prefix directory of the
// spec's "URL Path" section.
type serving struct {
	dir      string // "c", "v", "i", "r" or "ii/w<N>"
	document bool   // c and v serve AMP documents; the rest serve subresources
}

// parseServing splits a cache request path into its serving type and the
// rest, which starts with "/s/" for an https publisher URL or "/" and the
// publisher host. It accepts the serving types this cache serves, as the
// spec's "URL Path" lists them:
//
//   - c (Content) and v (Viewer) serve AMP documents;
//   - i (Image), ii/w<N> (Image with a maximum width of N pixels, N a
//     positive decimal number without leading zeros, as
//     [ampcache.ImageMaxWidth] makes it), and r
//     (Resource, for fonts and other subresources) serve subresources.
//
// Every other serving type, including wp and cert, reports ok == false.
func parseServing(path string) (s serving, rest string, ok bool) {
	dir, rest, found := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !found || !strings.HasPrefix(path, "/") {
		return serving{}, "", false
	}
	switch dir {
	case "c", "v":
		return serving{dir: dir, document: true}, "/" + rest, true
	case "i", "r":
		return serving{dir: dir}, "/" + rest, true
	case "ii":
		w, rest, found := strings.Cut(rest, "/")
		if !found || !validWidth(w) {
			return serving{}, "", false
		}
		return serving{dir: "ii/" + w}, "/" + rest, true
	}
	return serving{}, "", false
}

// validWidth reports whether w is "w<N>" with N a positive decimal number
// without leading zeros.
func validWidth(w string) bool {
	n, ok := strings.CutPrefix(w, "w")
	if !ok || len(n) == 0 || n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// splitCacheHost splits a request host into its domain prefix and the
// cache domain of domains it is on, ignoring ASCII case, a port and a
// final dot. A host that is the cache domain itself has an empty prefix.
// The longest matching cache domain wins.
func splitCacheHost(host string, domains []string) (prefix, domain string, ok bool) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range domains {
		if len(d) <= len(domain) {
			continue
		}
		if host == d {
			prefix, domain, ok = "", d, true
		} else if p, found := strings.CutSuffix(host, "."+d); found {
			prefix, domain, ok = p, d, true
		}
	}
	return prefix, domain, ok
}

// isCacheOnly reports whether a query parameter name configures the cache
// and is not passed to the origin (spec: "URL Path", last paragraph). These
// are the parameters the AMP runtime removes from a cache URL (amp_js_*,
// amp_gsa, amp_r, amp_kit, usqp), and the spec's own example,
// amp_latest_update_time, which amp-live-list adds to refresh a document.
func isCacheOnly(name string) bool {
	switch name {
	case "amp_gsa", "amp_r", "amp_kit", "usqp", "amp_latest_update_time":
		return true
	}
	return strings.HasPrefix(name, "amp_js_")
}

// stripCacheOnly removes the cache-only parameters from rawQuery, keeping
// every other parameter byte for byte and in order. A name is compared
// after unescaping, so "amp%5Fr" is removed as "amp_r" is.
func stripCacheOnly(rawQuery string) string {
	if rawQuery == "" {
		return ""
	}
	var b strings.Builder
	kept := false
	for param := range strings.SplitSeq(rawQuery, "&") {
		name, _, _ := strings.Cut(param, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if isCacheOnly(name) {
			continue
		}
		if kept {
			b.WriteByte('&')
		}
		b.WriteString(param)
		kept = true
	}
	return b.String()
}
