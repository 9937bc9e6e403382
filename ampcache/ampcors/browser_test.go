// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package ampcors_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache/ampcors"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// The browser test: headless Chromium loads an AMP page from a cache
// origin, and the page calls the publisher's API with fetch. A
// cachetest.Server on loopback plays the AMP Cache, which fetches the page
// from the publisher, and the publisher's site with its API; Chromium's
// --host-resolver-rules send the cache and publisher host names to it, on
// port 443 of each name, so that the Origin the browser sends has no port,
// as in production.
//
// Chromium is driven from the command line: --dump-dom prints the DOM once
// the page's work is done (--virtual-time-budget lets the fetches finish
// first), and the page writes its results into the DOM. No browser driver
// enters go.mod.

// browserPage is the AMP page that the cache serves. Its script makes the
// fetches of an amp-list or amp-form, with credentials, and writes one line
// per fetch into <pre id=results>, then "done".
const browserPage = `<!doctype html>
<html ⚡ lang="en">
<head><meta charset="utf-8"><title>CORS test</title>
<link rel="canonical" href="https://www.example.com/amp.html"></head>
<body>
<pre id="results"></pre>
<script>
const out = document.getElementById('results');
const api = 'https://www.example.com/api';
function log(name, s) { out.textContent += name + ': ' + s + '\n'; }
async function run(name, url, init) {
  try {
    const res = await fetch(url, Object.assign({credentials: 'include'}, init));
    const body = await res.text();
    let line = 'ok ' + res.status + ' ' + body.trim();
    const src = res.headers.get('AMP-Access-Control-Allow-Source-Origin');
    if (src) line += ' source-origin=' + src;
    log(name, line);
  } catch (e) {
    log(name, 'error ' + e.name + ': ' + e.message);
  }
}
(async () => {
  log('origin', location.origin);
  await run('simple', api + '?case=simple');
  await run('preflight', api + '?case=preflight', {method: 'PUT', headers: {'X-Custom': 'yes', 'Content-Type': 'application/json'}, body: '{}'});
  await run('preflight-again', api + '?case=preflight', {method: 'PUT', headers: {'X-Custom': 'yes', 'Content-Type': 'application/json'}, body: '{}'});
  await run('source-origin', api + '?case=source&__amp_source_origin=' + encodeURIComponent('https://www.example.com'));
  await run('escaped-source-origin', api + '?case=escaped&%5F%5Famp_source_origin=' + encodeURIComponent('https://evil.com'));
  await run('email-sender', api + '?case=email', {headers: {'AMP-Email-Sender': 'news@example.com'}});
  log('done', 'yes');
})();
</script>
</body>
</html>
`

// apiRequest is one request that reached the publisher's API, or was
// answered by the middleware.
type apiRequest struct {
	Method, Origin, Query string
	Status                int
	ReachedNext           bool
}

// browserTest is the loopback HTTPS server of the test and the log of the
// API requests it saw.
type browserTest struct {
	srv *cachetest.Server

	mu    sync.Mutex
	log   []apiRequest
	pages []string // the hosts the publisher served the page for
}

// newBrowserTest starts the server: requests for a cache host go to the
// cache, which fetches from the publisher, and the others to the
// publisher. The publisher's API is wrapped in
// the middleware; unwrap, if not nil, sits between the middleware and the
// API, to break what the middleware did in the control test.
func newBrowserTest(t *testing.T, unwrap func(http.Handler) http.Handler) *browserTest {
	t.Helper()
	cors, err := ampcors.New(ampcors.Config{
		Origins:      []string{"https://example.com", "https://www.example.com"},
		EmailSenders: []string{"news@example.com"},
	})
	if err != nil {
		t.Fatal(err)
	}
	bt := &browserTest{}
	var api http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*r.Context().Value(reachedKey{}).(*bool) = true
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":[%q]}`+"\n", r.URL.Query().Get("case"))
	})
	if unwrap != nil {
		api = unwrap(api)
	}
	api = cors.Handler(api)
	publisher := http.NewServeMux()
	publisher.HandleFunc("/amp.html", func(w http.ResponseWriter, r *http.Request) {
		bt.mu.Lock()
		bt.pages = append(bt.pages, r.Host)
		bt.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, browserPage)
	})
	publisher.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		reached := false
		api.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), reachedKey{}, &reached)))
		bt.mu.Lock()
		bt.log = append(bt.log, apiRequest{r.Method, r.Header.Get("Origin"), r.URL.RawQuery, rec.status, reached})
		bt.mu.Unlock()
	})
	bt.srv, err = cachetest.NewServer(publisher)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bt.srv.Close)
	return bt
}

// reachedKey is the context key of a *bool that the API handler sets:
// the request got past the middleware.
type reachedKey struct{}

// statusRecorder records the status of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// chromiumTimeout bounds one run of Chromium.
const chromiumTimeout = 60 * time.Second

// runChromium loads url in headless Chromium, with the hosts mapped to
// the test server, and returns the DOM.
func (bt *browserTest) runChromium(t *testing.T, chromium, url string, hosts ...string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(bt.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, h := range hosts {
		rules = append(rules, "MAP "+h+":443 127.0.0.1:"+port)
	}
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium,
		"--headless",
		"--no-sandbox",
		"--disable-gpu",
		"--disable-quic",
		"--no-first-run",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(),
		"--host-resolver-rules="+strings.Join(rules, ", "),
		"--ignore-certificate-errors",
		"--virtual-time-budget=10000",
		"--dump-dom",
		url,
	)
	// Chromium starts helper processes: run it in a process group of its
	// own and kill the group on timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("chromium did not finish in %v; stderr:\n%s", chromiumTimeout, stderr.String())
	}
	if err != nil {
		t.Fatalf("chromium: %v; stderr:\n%s", err, stderr.String())
	}
	return stdout.String()
}

var resultsRE = regexp.MustCompile(`(?s)<pre id="results">(.*?)</pre>`)

// results reads the lines the page wrote, as name → value. It fails the
// test if the page never reported "done".
func results(t *testing.T, dom string) map[string]string {
	t.Helper()
	m := resultsRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no results in the DOM:\n%s", dom)
	}
	text := html.UnescapeString(m[1])
	t.Logf("the page wrote:\n%s", text)
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		out[k] = v
	}
	if out["done"] != "yes" {
		t.Fatalf("the page did not finish; it wrote:\n%s", text)
	}
	return out
}

// findChromium returns the path of Chromium, or skips the test. The
// CHROMIUM environment variable may name another binary.
func findChromium(t *testing.T) string {
	t.Helper()
	name := os.Getenv("CHROMIUM")
	if name == "" {
		name = "chromium"
	}
	path, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrNotFound) || err != nil {
		t.Skipf("no %s on PATH: skipping the browser test (install Debian's chromium package to run it)", name)
	}
	return path
}

func TestBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("the browser test is slow")
	}
	hosts := []string{"www-example-com.cdn.ampproject.org", "evil-com.cdn.ampproject.org", "www.example.com"}
	// Each subtest has its own server and its own Chromium: in parallel.

	t.Run("allowed", func(t *testing.T) {
		t.Parallel()
		bt := newBrowserTest(t, nil)
		page := "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/amp.html"
		got := results(t, bt.runChromium(t, chromium, page, hosts...))
		want := map[string]string{
			"origin": "https://www-example-com.cdn.ampproject.org",
			// The browser accepted the credentialed response.
			"simple": `ok 200 {"items":["simple"]}`,
			// The preflight succeeded, and so did the PUT.
			"preflight":       `ok 200 {"items":["preflight"]}`,
			"preflight-again": `ok 200 {"items":["preflight"]}`,
			// The exposed header is readable by the page.
			"source-origin": `ok 200 {"items":["source"]} source-origin=https://www.example.com`,
			// The escaped name, which once slipped past the check, is refused (a 403
			// without Access-Control-Allow-Origin is a TypeError).
			"escaped-source-origin": "error TypeError: Failed to fetch",
			// AMP-Email-Sender from an allowed Origin: preflighted, allowed.
			"email-sender": `ok 200 {"items":["email"]}`,
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: the page saw %q, want %q", k, got[k], v)
			}
		}
		// What the server saw: the cache fetched the page from the
		// publisher; one preflight, answered by the middleware, whose max
		// age spared the second PUT a preflight.
		bt.mu.Lock()
		defer bt.mu.Unlock()
		if !slices.Equal(bt.pages, []string{"www.example.com"}) {
			t.Errorf("the publisher served the page for %q, want once, to the cache, for www.example.com", bt.pages)
		}
		var preflights int
		for _, r := range bt.log {
			t.Logf("server saw: %s ?%s Origin: %s → %d, next reached: %v", r.Method, r.Query, r.Origin, r.Status, r.ReachedNext)
			if r.Origin != "https://www-example-com.cdn.ampproject.org" {
				t.Errorf("request with Origin %q, want the cache origin", r.Origin)
			}
			if strings.Contains(r.Query, "case=escaped") && (r.Status != http.StatusForbidden || r.ReachedNext) {
				t.Errorf("escaped __amp_source_origin: status %d, next reached %v; want 403 from the middleware", r.Status, r.ReachedNext)
			}
			if r.Method == "OPTIONS" {
				preflights++
				if r.Status != http.StatusNoContent || r.ReachedNext {
					t.Errorf("preflight: status %d, next reached %v; want 204 from the middleware", r.Status, r.ReachedNext)
				}
			}
		}
		if preflights != 2 {
			t.Errorf("%d preflights, want 2, of the PUT and of the email fetch (the second PUT should use the cached preflight)", preflights)
		}
		if len(bt.log) != 8 {
			t.Errorf("%d API requests, want 8 (6 fetches and 2 preflights)", len(bt.log))
		}
	})

	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		bt := newBrowserTest(t, nil)
		page := "https://evil-com.cdn.ampproject.org/c/s/evil.com/amp.html"
		got := results(t, bt.runChromium(t, chromium, page, hosts...))
		if got["origin"] != "https://evil-com.cdn.ampproject.org" {
			t.Errorf("origin: the page saw %q", got["origin"])
		}
		// The email fetch from an Origin that is not allowed
		// is refused at its preflight, and never sent.
		for _, k := range []string{"simple", "preflight", "preflight-again", "source-origin", "escaped-source-origin", "email-sender"} {
			if !strings.HasPrefix(got[k], "error TypeError") {
				t.Errorf("%s: the page saw %q, want a TypeError (CORS refused)", k, got[k])
			}
		}
		bt.mu.Lock()
		defer bt.mu.Unlock()
		if len(bt.log) == 0 {
			t.Error("the server saw no API request: the refusal was not the middleware's")
		}
		for _, r := range bt.log {
			t.Logf("server saw: %s ?%s Origin: %s → %d, next reached: %v", r.Method, r.Query, r.Origin, r.Status, r.ReachedNext)
			if strings.Contains(r.Query, "case=email") && r.Method != http.MethodOptions {
				t.Errorf("the email fetch was sent after its preflight was refused")
			}
			if r.Status != http.StatusForbidden || r.ReachedNext {
				t.Errorf("%s from %s: status %d, next reached %v; want 403 from the middleware", r.Method, r.Origin, r.Status, r.ReachedNext)
			}
		}
	})

	// The control: the same page and API, but Access-Control-Allow-Credentials
	// removed after the middleware set it. The browser must refuse the
	// credentialed responses, which shows that the test above can fail.
	t.Run("control without credentials header", func(t *testing.T) {
		t.Parallel()
		bt := newBrowserTest(t, func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Del("Access-Control-Allow-Credentials")
				next.ServeHTTP(w, r)
			})
		})
		page := "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/amp.html"
		got := results(t, bt.runChromium(t, chromium, page, hosts...))
		for _, k := range []string{"simple", "preflight", "source-origin"} {
			if !strings.HasPrefix(got[k], "error TypeError") {
				t.Errorf("%s: the page saw %q, want a TypeError (no credentials header)", k, got[k])
			}
		}
	})
}
