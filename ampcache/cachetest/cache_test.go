// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

const ampDoc = `<!doctype html>
<html ⚡ lang="en">
<head><meta charset="utf-8"><link rel="canonical" href="/canonical.html"><title>AMP</title></head>
<body>%s</body>
</html>
`

// publisher is the origin used by the tests: a site with a page for each
// behaviour of the spec's "Redirect & Error Handling".
func publisher() http.Handler {
	mux := http.NewServeMux()
	amp := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, ampDoc, body)
	}
	mux.HandleFunc("/index.amp.html", func(w http.ResponseWriter, r *http.Request) { amp(w, "index") })
	mux.HandleFunc("/amp-attr.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html amp><head></head><body>amp attribute</body></html>`)
	})
	// As the spec's example https://amp.dev/documentation/examples/api/redirect?url=...
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("url"), http.StatusMovedPermanently)
	})
	// /chain/N redirects N times before an AMP page, with each status in turn.
	mux.HandleFunc("/chain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			amp(w, "end of chain")
			return
		}
		codes := []int{301, 302, 303, 307, 308}
		http.Redirect(w, r, strconv.Itoa(n-1), codes[n%len(codes)])
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/redirect-no-location", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/redirect-javascript", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "javascript:alert(1)")
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/to-other-host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://other.example/moved.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("other.example/moved.html", func(w http.ResponseWriter, r *http.Request) { amp(w, "moved to other.example") })
	mux.HandleFunc("/not-found", http.NotFound)
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	mux.HandleFunc("/server-error", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/unavailable", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "later", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/invalid-amp", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><html><head><link rel="Alternate CANONICAL" href="https://www.example.com/canonical.html"></head><body>not AMP</body></html>`)
	})
	mux.HandleFunc("/invalid-amp-relative", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><head><base href="/docs/"><link rel=canonical href="page.html#top"></head></html>`)
	})
	mux.HandleFunc("/invalid-amp-no-canonical", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><head><title>plain</title></head><body><link rel=canonical href="/in-body"></body></html>`)
	})
	mux.HandleFunc("/amp-as-json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `<html amp>{}`)
	})
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no Content-Type: the cache sniffs one
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	mux.HandleFunc("/font.woff2", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "font/woff2")
		io.WriteString(w, "wOF2 font bytes")
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Connection", "X-Hop")
		h.Set("X-Hop", "named in Connection")
		h.Set("Keep-Alive", "timeout=5")
		h.Set("Proxy-Authenticate", "Basic")
		h.Set("Upgrade", "h2c")
		h.Set("Set-Cookie", "session=secret")
		h.Set("Cache-Control", "max-age=60")
		h.Set("X-End-To-End", "kept")
		amp(w, "headers")
	})
	// /echo shows what the origin received.
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		amp(w, fmt.Sprintf("uri=%s host=%s cookie=%q auth=%q ua=%q", r.RequestURI, r.Host, r.Header.Get("Cookie"), r.Header.Get("Authorization"), r.UserAgent()))
	})
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html amp>")
		chunk := []byte(strings.Repeat("x", 32<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	mux.HandleFunc("/stall-mid-body", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html amp><body>half a page")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	mux.HandleFunc("/panic", func(w http.ResponseWriter, r *http.Request) { panic("origin bug") })
	mux.HandleFunc("/canonical.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html><body>canonical page</body></html>")
	})
	return mux
}

// noFollow returns a copy of the server's client that does not follow
// redirects, so the tests see the cache's own answers.
func noFollow(s *cachetest.Server) *http.Client {
	c := *s.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.Timeout = 20 * time.Second
	return &c
}

// newServer starts a Server in front of the publisher, closed when tb
// ends.
func newServer(tb testing.TB, opts ...cachetest.Option) *cachetest.Server {
	tb.Helper()
	s, err := cachetest.NewServer(publisher(), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// origins runs f with the publisher given both ways, in parallel: as a
// handler, and as the base URL of a server on loopback. The servers close
// when the subtests f starts have ended too.
func origins(t *testing.T, opts []cachetest.Option, f func(t *testing.T, s *cachetest.Server)) {
	t.Run("handler", func(t *testing.T) {
		t.Parallel()
		f(t, newServer(t, opts...))
	})
	t.Run("url", func(t *testing.T) {
		t.Parallel()
		o := httptest.NewUnstartedServer(publisher())
		o.Config.ErrorLog = log.New(io.Discard, "", 0) // the /panic page's stack
		o.Start()
		t.Cleanup(o.Close)
		h, err := cachetest.OriginURL(o.URL)
		if err != nil {
			t.Fatal(err)
		}
		s, err := cachetest.NewServer(h, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		f(t, s)
	})
}

const cdn = "https://www-example-com.cdn.ampproject.org"

func TestCache(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		in       string
		want     int
		location string            // the Location header, if any
		body     string            // a substring of the body
		notBody  string            // must not be in the body
		header   map[string]string // headers and their values; "" means absent
	}{
		// spec "Redirects": "The AMP Cache follows redirects when resolving AMP URLs ...
		// Then the AMP Cache will return the content of the resolved redirect for the original URL."
		{name: "Redirects/resolved content for the original URL", in: cdn + "/c/s/www.example.com/redirect?url=https://www.example.com/index.amp.html", want: 200, body: "index"},
		// spec "Redirects": a chain of each redirect status, up to the bound.
		{name: "Redirects/chain of 10 is followed", in: cdn + "/c/s/www.example.com/chain/10", want: 200, body: "end of chain"},
		// One more redirect than the bound gets 404.
		{name: "Redirects/chain of 11 is over the bound", in: cdn + "/c/s/www.example.com/chain/11", want: 404, body: "too many redirects"},
		// A redirect loop ends at the bound.
		{name: "Redirects/loop", in: cdn + "/c/s/www.example.com/loop", want: 404, body: "too many redirects"},
		// A redirect with no Location cannot be followed.
		{name: "Redirects/no Location", in: cdn + "/c/s/www.example.com/redirect-no-location", want: 404, body: "invalid redirect"},
		// A redirect to another scheme is not followed.
		{name: "Redirects/javascript: Location", in: cdn + "/c/s/www.example.com/redirect-javascript", want: 404, body: "invalid redirect"},
		// A redirect to another publisher host is followed; the URL stays the original.
		{name: "Redirects/other host", in: cdn + "/c/s/www.example.com/to-other-host", want: 200, body: "moved to other.example"},

		// spec "Not Found": "When a page is not found in the AMP Cache, it will show an error page and return a 404 status."
		{name: "Not Found/error page and 404", in: cdn + "/c/s/www.example.com/not-found", want: 404, body: "<h1>404 Not Found</h1>", header: map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		// Another 4xx from the origin is not a page either.
		{name: "Not Found/origin 410", in: cdn + "/c/s/www.example.com/gone", want: 404, body: "410 Gone"},

		// spec "Server Errors": "If an URL returns a 5XX server errors, the AMP Cache will return a 404 status."
		{name: "Server Errors/500", in: cdn + "/c/s/www.example.com/server-error", want: 404, body: "500 Internal Server Error"},
		// spec "Server Errors": another 5XX.
		{name: "Server Errors/503", in: cdn + "/c/s/www.example.com/unavailable", want: 404, body: "503 Service Unavailable"},

		// spec "Invalid AMP": "When a page is invalid AMP, the AMP Cache will redirect to the canonical page."
		{name: "Invalid AMP/redirect to the canonical page", in: cdn + "/c/s/www.example.com/invalid-amp", want: 302, location: "https://www.example.com/canonical.html"},
		// A relative canonical href resolves against <base> and the document URL, without its fragment.
		{name: "Invalid AMP/relative canonical", in: cdn + "/c/s/www.example.com/invalid-amp-relative", want: 302, location: "https://www.example.com/docs/page.html"},
		// No canonical link in the head: the publisher URL.
		{name: "Invalid AMP/no canonical goes to the publisher URL", in: cdn + "/c/s/www.example.com/invalid-amp-no-canonical?a=1&amp_r=x", want: 302, location: "https://www.example.com/invalid-amp-no-canonical?a=1"},
		// An http publisher URL (no /s/) stays http.
		{name: "Invalid AMP/http publisher URL", in: cdn + "/c/www.example.com/invalid-amp-no-canonical", want: 302, location: "http://www.example.com/invalid-amp-no-canonical"},
		// A document that is not HTML is not AMP, whatever its bytes.
		{name: "Invalid AMP/not text/html", in: cdn + "/c/s/www.example.com/amp-as-json", want: 302, location: "https://www.example.com/amp-as-json"},
		// The viewer serving type checks AMP too.
		{name: "Invalid AMP/viewer", in: cdn + "/v/s/www.example.com/invalid-amp", want: 302, location: "https://www.example.com/canonical.html"},
		// <html amp> is AMP as <html ⚡> is.
		{name: "Invalid AMP/amp attribute is AMP", in: cdn + "/c/s/www.example.com/amp-attr.html", want: 200, body: "amp attribute"},

		// spec "URL Path": /c serves an AMP document.
		{name: "URL Path/c content", in: cdn + "/c/s/www.example.com/index.amp.html", want: 200, body: "index", header: map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		// spec "URL Path": /v serves an AMP document.
		{name: "URL Path/v viewer", in: cdn + "/v/s/www.example.com/index.amp.html", want: 200, body: "index"},
		// spec "URL Path": /i serves an image as it is; no AMP check; Content-Type sniffed when the origin sends none.
		{name: "URL Path/i image", in: cdn + "/i/s/www.example.com/image.png", want: 200, body: "PNG", header: map[string]string{"Content-Type": "image/png"}},
		// spec "URL Path": /ii/w800 serves the image as it is, not resized.
		{name: "URL Path/ii w800", in: cdn + "/ii/w800/s/www.example.com/image.png", want: 200, body: "PNG", header: map[string]string{"Content-Type": "image/png"}},
		// /r serves any subresource, such as a font, with the origin's Content-Type.
		{name: "URL Path/r resource", in: cdn + "/r/s/www.example.com/font.woff2", want: 200, body: "wOF2", header: map[string]string{"Content-Type": "font/woff2"}},
		// A subresource is not checked for AMP.
		{name: "URL Path/r of a non-AMP page", in: cdn + "/r/s/www.example.com/invalid-amp", want: 200, body: "not AMP"},
		// spec "URL Path": /wp (signed exchanges) is a serving type this cache does not serve.
		{name: "URL Path/wp is unknown here", in: cdn + "/wp/s/www.example.com/index.amp.html", want: 404, body: "unknown serving type"},
		// spec "URL Path": /cert is a serving type this cache does not serve.
		{name: "URL Path/cert is unknown here", in: cdn + "/cert/s/www.example.com/index.amp.html", want: 404, body: "unknown serving type"},
		// An unknown serving type gets 404.
		{name: "URL Path/unknown serving type", in: cdn + "/x/s/www.example.com/index.amp.html", want: 404, body: "unknown serving type"},
		// ii needs a width.
		{name: "URL Path/ii without width", in: cdn + "/ii/s/www.example.com/image.png", want: 404, body: "unknown serving type"},
		// A width is w and a decimal number without leading zero.
		{name: "URL Path/ii w0800", in: cdn + "/ii/w0800/s/www.example.com/image.png", want: 404, body: "unknown serving type"},
		// The root of a cache host names no document.
		{name: "URL Path/root", in: cdn + "/", want: 404},
		// spec "URL Path": "These parameters are not passed to the origin" (amp_latest_update_time is the spec's example; the others are the runtime's).
		{name: "URL Path/cache-only parameters are not passed", in: cdn + "/c/s/www.example.com/echo?a=1&amp_latest_update_time=5&amp_js_v=0.1&b=%20&usqp=mq331AQ&amp_gsa=1&amp_kit=1&amp_r=1", want: 200, body: "uri=/echo?a=1&b=%20 "},
		// Only cache-only parameters: the origin sees no query.
		{name: "URL Path/only cache-only parameters", in: cdn + "/c/s/www.example.com/echo?amp_js_v=a0", want: 200, body: "uri=/echo "},
		// A non-default port, percent-encoded in the cache path as the AMP runtime decodes it, reaches the origin in Host.
		{name: "URL Path/publisher port", in: cdn + "/c/s/www.example.com%3A8443/echo", want: 200, body: "host=www.example.com:8443 "},
		// The origin sees the publisher host and the cache's user agent, and none of the client's credentials.
		{name: "URL Path/origin request", in: cdn + "/c/s/www.example.com/echo", want: 200, body: `host=www.example.com cookie="" auth="" ua="Mozilla/5.0 (compatible; Google-AMPHTML; urlspec cachetest)"`},

		// spec "Domain Name Prefix": the right subdomain is served.
		{name: "Domain Name Prefix/en-us example", in: "https://0-en--us-example-com-0.cdn.ampproject.org/c/s/en-us.example.com/index.amp.html", want: 200, body: "index"},
		// A wrong subdomain is redirected (301) to the right one, same path and query.
		{name: "Domain Name Prefix/wrong prefix", in: "https://evil-com.cdn.ampproject.org/c/s/www.example.com/index.amp.html?q=1", want: 301, location: cdn + "/c/s/www.example.com/index.amp.html?q=1"},
		// The cache domain without a prefix is redirected to the prefix.
		{name: "Domain Name Prefix/no prefix", in: "https://cdn.ampproject.org/c/s/www.example.com/index.amp.html", want: 301, location: cdn + "/c/s/www.example.com/index.amp.html"},
		// A prefix of several labels is not a prefix: the host is not on the
		// cache (ampcache.Registry.SplitCacheHost, as SourceURL and the AMP
		// runtime read it), so the server sends it to the origin, which
		// does not serve it.
		{name: "Domain Name Prefix/dotted prefix", in: "https://www.example.com.cdn.ampproject.org/c/s/www.example.com/", want: 404, body: "page not found"},
		// spec "Fallback Algorithm": a domain too long for a readable prefix is served on its hash prefix.
		{name: "Domain Name Prefix/fallback", in: "https://wrong.cdn.ampproject.org/c/s/" + strings.Repeat("a", 60) + ".example.com/", want: 301, location: "https://" + fallback(strings.Repeat("a", 60)+".example.com") + ".cdn.ampproject.org/c/s/" + strings.Repeat("a", 60) + ".example.com/"},
		// spec "Domain Name Suffix": every registered cache is served (Bing).
		{name: "Domain Name Suffix/bing", in: "https://www-example-com.www.bing-amp.com/c/s/www.example.com/index.amp.html", want: 200, body: "index"},
		// Host names ignore ASCII case.
		{name: "Domain Name Suffix/case", in: "https://WWW-EXAMPLE-COM.CDN.AMPPROJECT.ORG/c/s/www.example.com/index.amp.html", want: 200, body: "index"},

		// Headers: the origin's end-to-end headers are kept; hop-by-hop headers and cookies are not.
		{name: "Headers/hop-by-hop dropped", in: cdn + "/c/s/www.example.com/headers", want: 200, body: "headers", header: map[string]string{
			"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff",
			"Cache-Control": "max-age=60", "X-End-To-End": "kept",
			"X-Hop": "", "Keep-Alive": "", "Proxy-Authenticate": "", "Upgrade": "", "Set-Cookie": "",
		}},
		// HEAD is answered like GET, without a body.
		{name: "Headers/HEAD", method: "HEAD", in: cdn + "/c/s/www.example.com/index.amp.html", want: 200, header: map[string]string{"Content-Type": "text/html; charset=utf-8"}},

		// Hostile: a method other than GET and HEAD.
		{name: "Hostile/POST", method: "POST", in: cdn + "/c/s/www.example.com/index.amp.html", want: 405, header: map[string]string{"Allow": "GET, HEAD"}},
		// Hostile: an overlong path gets 414 before any fetch.
		{name: "Hostile/overlong path", in: cdn + "/c/s/www.example.com/" + strings.Repeat("a", cachetest.MaxURLLength), want: 414},
		// Hostile: an origin that streams endlessly is cut at the body bound.
		{name: "Hostile/endless body", in: cdn + "/c/s/www.example.com/endless", want: 404, body: "origin body too large"},
		// Hostile: an origin that never answers is cut at the time bound.
		{name: "Hostile/stalled origin", in: cdn + "/c/s/www.example.com/stall", want: 404, body: "timed out"},
		// Hostile: an origin that stops in the middle of its body is cut at the time bound.
		{name: "Hostile/origin stalls mid-body", in: cdn + "/c/s/www.example.com/stall-mid-body", want: 404, body: "timed out"},
		// Hostile: an origin handler that panics is a failed fetch, not a crash.
		{name: "Hostile/panicking origin", in: cdn + "/c/s/www.example.com/panic", want: 404},
		// Hostile: a publisher host that is not a host.
		{name: "Hostile/empty publisher host", in: cdn + "/c/s//index.amp.html", want: 404},
		// Hostile: a publisher host with a forbidden character.
		{name: "Hostile/bad publisher host", in: cdn + "/c/s/a%00b.com/", want: 404},
		// Hostile: userinfo in the publisher URL is refused.
		{name: "Hostile/userinfo", in: cdn + "/c/s/user:pass@www.example.com/", want: 404},
	}
	opts := []cachetest.Option{cachetest.WithMaxBodySize(1 << 20), cachetest.WithTimeout(2 * time.Second)}
	origins(t, opts, func(t *testing.T, s *cachetest.Server) {
		client := noFollow(s)
		// The requests are independent, and the two that stall wait
		// for the time bound: in parallel.
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				method := tt.method
				if method == "" {
					method = http.MethodGet
				}
				req, err := http.NewRequest(method, tt.in, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Cookie", "user=secret")
				req.Header.Set("Authorization", "Bearer secret")
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != tt.want {
					t.Fatalf("%s %s: status %d, want %d; body:\n%s", method, tt.in, res.StatusCode, tt.want, body)
				}
				if got := res.Header.Get("Location"); got != tt.location {
					t.Errorf("Location = %q, want %q", got, tt.location)
				}
				if !strings.Contains(string(body), tt.body) {
					t.Errorf("body does not hold %q:\n%s", tt.body, body)
				}
				if res.Header.Get("Content-Type") == "" {
					t.Errorf("no Content-Type")
				}
				for k, v := range tt.header {
					if got := res.Header.Get(k); got != v {
						t.Errorf("%s = %q, want %q", k, got, v)
					}
				}
			})
		}
	})
}

// BenchmarkServeHTTP measures one cache request for an AMP page, through
// the mounted handler and the in-process origin: mapping, prefix check,
// fetch, AMP check and response.
func BenchmarkServeHTTP(b *testing.B) {
	c, err := cachetest.New(publisher())
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest("GET", cdn+"/c/s/www.example.com/index.amp.html?amp_js_v=0.1", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		c.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkServer measures one request through the server's client, over
// TLS on loopback.
func BenchmarkServer(b *testing.B) {
	s := newServer(b)
	c := s.Client()
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.Get(cdn + "/c/s/www.example.com/index.amp.html")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatal(res.StatusCode)
		}
	}
}

// fallback is the spec's Fallback Algorithm prefix of domain.
func fallback(domain string) string { return ampcache.FallbackPrefix(domain) }
