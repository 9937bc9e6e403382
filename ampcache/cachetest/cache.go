// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/internal/inputerr"
)

// Bounds on the work one request can cause. The options change the last
// three.
const (
	// MaxURLLength bounds the length of a cache request's URL (its request
	// target), as common servers do: a longer URL gets 414.
	MaxURLLength = 8192
	// DefaultMaxRedirects is how many origin redirects the cache follows
	// for one request, as Google's crawlers do (up to 10 hops); one more
	// gets 404.
	DefaultMaxRedirects = 10
	// DefaultMaxBodySize bounds an origin body, in bytes, after any
	// transparent decompression; a longer body gets 404.
	DefaultMaxBodySize = 8 << 20
	// DefaultTimeout bounds the whole origin fetch of one request,
	// redirects included; a slower origin gets 404.
	DefaultTimeout = 10 * time.Second
)

// userAgent is sent to the origin: it carries the token of Google's AMP
// Cache fetcher, so publisher code that looks for it sees the cache.
const userAgent = "Mozilla/5.0 (compatible; Google-AMPHTML; urlspec cachetest)"

// Cache is an AMP Cache for tests: an [http.Handler] that serves a
// publisher's site under real cache URLs, following the spec's "URL Path"
// and "Redirect & Error Handling" sections. Mount it where requests for
// cache hosts arrive, or use [NewServer], which serves it on loopback.
//
// A Cache fetches from its origin on every request: it stores nothing.
// It is safe for concurrent use.
type Cache struct {
	fetch        http.RoundTripper
	registry     *ampcache.Registry
	maxRedirects int
	maxBody      int64
	timeout      time.Duration
	now          func() time.Time // the clock update-cache checks amp_ts on

	mu      sync.Mutex
	flushed []string // publisher URLs of accepted update-cache requests
}

// An Option configures a [Cache].
type Option func(*Cache) error

// WithRegistry makes the cache answer for the caches of r instead of the
// built-in ones ([ampcache.Caches]).
func WithRegistry(r *ampcache.Registry) Option {
	return func(c *Cache) error {
		if r == nil {
			return optionError("WithRegistry", "nil registry")
		}
		c.registry = r
		return nil
	}
}

// WithMaxRedirects sets how many origin redirects the cache follows for
// one request; 0 follows none. The default is [DefaultMaxRedirects].
func WithMaxRedirects(n int) Option {
	return func(c *Cache) error {
		if n < 0 {
			return optionError("WithMaxRedirects", strconv.Itoa(n)+" is negative")
		}
		c.maxRedirects = n
		return nil
	}
}

// WithMaxBodySize sets the largest origin body, in bytes, the cache reads.
// The default is [DefaultMaxBodySize].
func WithMaxBodySize(n int64) Option {
	return func(c *Cache) error {
		if n <= 0 {
			return optionError("WithMaxBodySize", strconv.FormatInt(n, 10)+" is not positive")
		}
		c.maxBody = n
		return nil
	}
}

// WithTimeout bounds the whole origin fetch of one request, redirects
// included. The default is [DefaultTimeout].
func WithTimeout(d time.Duration) Option {
	return func(c *Cache) error {
		if d <= 0 {
			return optionError("WithTimeout", d.String()+" is not positive")
		}
		c.timeout = d
		return nil
	}
}

// New returns a Cache that serves the publisher site origin. The origin
// sees each fetch as a server would: Host is the publisher host, the URL is
// the publisher path and query without the cache-only parameters, and TLS
// is set for https publisher URLs. Use [OriginURL] for a site that runs as
// a server on loopback.
func New(origin http.Handler, opts ...Option) (*Cache, error) {
	if origin == nil {
		return nil, inputerr.Field(ErrInvalidOrigin, "cachetest", "New", "nil origin handler")
	}
	c := &Cache{
		fetch:        handlerTransport{origin},
		maxRedirects: DefaultMaxRedirects,
		maxBody:      DefaultMaxBodySize,
		timeout:      DefaultTimeout,
		now:          time.Now,
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.registry == nil {
		r, err := ampcache.NewRegistry(ampcache.Caches())
		if err != nil {
			return nil, err
		}
		c.registry = r
	}
	return c, nil
}

// IsCacheHost reports whether host (with or without a port) is on one of
// the cache's cache domains: the domain itself or one label below it, as
// [ampcache.Registry.SplitCacheHost] reads it; or one label below a
// cache's updateCacheApiDomainSuffix.
func (c *Cache) IsCacheHost(host string) bool {
	name, _, _, ok := splitHost(host)
	if !ok {
		return false
	}
	if _, _, ok = c.registry.SplitCacheHost(name); ok {
		return true
	}
	_, ok = c.updateCache(name)
	return ok
}

// ServeHTTP serves one cache request. In order:
//
//  1. a method other than GET or HEAD gets 405, and a URL over
//     [MaxURLLength] bytes gets 414;
//  2. a Host that is not a host name and an optional port gets 400; a
//     path that starts with /update-cache/ is an update-cache request
//     (see "Update-cache" in the package documentation); a host that is
//     not on a cache domain ([ampcache.Registry.SplitCacheHost]) gets 404;
//  3. the path must be /<serving>/[s/]<host>/<path> with a serving type of
//     c, v, i, ii/w<N> or r (spec: "URL Path"); any other gets 404. The
//     cache URL is mapped back to the publisher URL, without the cache-only
//     query parameters, and its serving type read, in one parse by
//     [ampcache.Registry.ParseCacheURL]; a URL that maps to none gets 404;
//  4. a host whose prefix is not the publisher host's
//     [ampcache.DomainPrefix] is redirected (301) to the right one, with
//     the same path and query (spec: "Domain Name Prefix");
//  5. the publisher URL is fetched from the origin (without the cache-only
//     query parameters, spec: "URL Path"), following redirects up to the
//     bound (spec: "Redirects");
//  6. an origin status other than 200 gets 404 with an error page (spec:
//     "Not Found" and "Server Errors"), as do a fetch that fails, times
//     out or redirects too often, and a body over the size bound;
//  7. a document (c, v) that is not AMP is redirected (302) to its
//     canonical URL, or else to the publisher URL (spec: "Invalid AMP");
//  8. otherwise the content is served for the original cache URL, with
//     status 200.
func (c *Cache) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		c.fail(w, http.StatusMethodNotAllowed, newError(ErrMethod, r.Method, ""))
		return
	}
	uri := r.RequestURI
	if !strings.HasPrefix(uri, "/") {
		// The absolute form of a request target, or a request built for a
		// handler directly: r.URL has the path and query.
		uri = r.URL.RequestURI()
	}
	if len(uri) > MaxURLLength {
		c.fail(w, http.StatusRequestURITooLong, newError(ErrURLTooLong, uri[:64]+"...", strconv.Itoa(len(uri))+" bytes"))
		return
	}
	name, port, hasPort, ok := splitHost(r.Host)
	if !ok {
		c.fail(w, http.StatusBadRequest, newError(ErrInvalidHost, r.Host, "want a host name and an optional port"))
		return
	}
	if strings.HasPrefix(uri, updateCachePrefix) {
		c.serveUpdate(w, r, name, uri)
		return
	}
	prefix, cache, ok := c.registry.SplitCacheHost(name)
	if !ok {
		c.fail(w, http.StatusNotFound, newError(ErrNotCacheHost, r.Host, ""))
		return
	}
	domain := cache.CacheDomain
	pub, s, err := c.publisherURL(domain, uri)
	if errors.Is(err, ampcache.ErrInvalidServing) {
		s, err = "", nil
	}
	if err != nil {
		c.fail(w, http.StatusNotFound, err)
		return
	}
	document, ok := served(s)
	if !ok {
		c.fail(w, http.StatusNotFound, newError(ErrUnknownServing, uri, "serving types are c, v, i, ii/w<N> and r"))
		return
	}
	want, err := ampcache.DomainPrefix(pub.Hostname())
	if err != nil {
		c.fail(w, http.StatusNotFound, inputerr.Wrap(ErrInvalidURL, uri, err))
		return
	}
	if !strings.EqualFold(prefix, want) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		// Only the validated prefix, the registry's domain and the port
		// as a number reach the Location.
		loc := scheme + "://" + want + "." + domain
		if hasPort {
			loc += ":" + strconv.Itoa(port)
		}
		c.redirect(w, http.StatusMovedPermanently, loc+uri)
		return
	}
	res, err := c.get(r, pub)
	if err != nil {
		c.fail(w, http.StatusNotFound, err)
		return
	}
	if document {
		info := readAMP(res.body, res.url)
		if !info.amp || !isHTML(res.header.Get("Content-Type"), res.body) {
			to := info.canonical
			if to == "" {
				to = pub.String()
			}
			c.redirect(w, http.StatusFound, to)
			return
		}
	}
	c.serve(w, res)
}

// publisherURL maps a cache request back to its publisher URL, with the
// cache-only query parameters removed, and its serving type, with one
// parse by [ampcache.Registry.ParseCacheURL].
func (c *Cache) publisherURL(domain, uri string) (*url.URL, ampcache.Serving, error) {
	src, s, err := c.registry.ParseCacheURL("https://" + domain + uri)
	if err != nil {
		return nil, "", inputerr.Wrap(ErrInvalidURL, uri, err)
	}
	u, err := url.Parse(src)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, "", newError(ErrInvalidURL, uri, "no publisher URL")
	}
	u.ForceQuery = false
	u.Fragment, u.RawFragment = "", ""
	return u, s, nil
}

// isHTML reports whether a document is HTML, by its Content-Type or, when
// the origin sent none, by sniffing as browsers do.
func isHTML(contentType string, body []byte) bool {
	if contentType == "" {
		contentType = http.DetectContentType(body)
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/html")
}

// hopByHop lists the headers a proxy must not forward (RFC 9110, section
// 7.6.1), with the Content-Length the cache recomputes, and Set-Cookie: a
// shared cache never hands one user's cookies to another.
var hopByHop = []string{
	"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
	"Proxy-Authorization", "TE", "Trailer", "Transfer-Encoding", "Upgrade",
	"Content-Length", "Set-Cookie", "Set-Cookie2",
}

// serve writes a fetched response for the cache URL. Its headers are the
// origin's, less the hop-by-hop ones (and those named in Connection), with
// Content-Type always set (sniffed if the origin sent none),
// X-Content-Type-Options: nosniff, and Content-Length.
func (c *Cache) serve(w http.ResponseWriter, res *response) {
	h := w.Header()
	for k, v := range res.header {
		h[k] = v
	}
	for _, v := range res.header["Connection"] {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				h.Del(f)
			}
		}
	}
	for _, k := range hopByHop {
		h.Del(k)
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", http.DetectContentType(res.body))
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(res.body)))
	w.WriteHeader(http.StatusOK)
	w.Write(res.body)
}

// redirect answers with a redirect to loc and a short HTML body.
func (c *Cache) redirect(w http.ResponseWriter, code int, loc string) {
	h := w.Header()
	h.Set("Location", loc)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	text := loc
	if len(text) > 100 {
		text = text[:100] + "..."
	}
	pageTemplate.Execute(w, page{Code: code, Status: http.StatusText(code), Link: loc, LinkText: text})
}

// fail answers with an error page that holds err's message. The message is
// at most 512 bytes (internal/inputerr), so the page is at most 4 KiB
// whatever the request, even with every byte escaped as HTML.
func (c *Cache) fail(w http.ResponseWriter, code int, err error) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	pageTemplate.Execute(w, page{Code: code, Status: http.StatusText(code), Message: err.Error()})
}

type page struct {
	Code          int
	Status        string
	Message, Link string
	LinkText      string // Link, cut to 100 bytes
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>{{.Code}} {{.Status}}</title>
<h1>{{.Code}} {{.Status}}</h1>
{{if .Link}}<p><a href="{{.Link}}">{{.LinkText}}</a></p>{{end}}{{if .Message}}<p>{{.Message}}</p>{{end}}
`))
