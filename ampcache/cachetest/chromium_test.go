// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// TestChromium loads cache URLs from a Server in headless Chromium, which
// reaches the server for every host through --host-resolver-rules: the
// browser gets the resolved content of a redirect at the cache URL (spec
// "Redirects"), and lands on the canonical page of a document that is not
// AMP (spec "Invalid AMP"). Each page writes its location into the DOM.
// It skips without Chromium (.ci/run installs Debian's chromium).
func TestChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: skipping the browser test")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	const where = `<p id=where></p><script>document.getElementById("where").textContent = "at " + location.href</script>`
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/article.amp.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/article.amp.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><html ⚡><head><meta charset=utf-8></head><body><h1>AMP article</h1>`+where+`</body></html>`)
	})
	mux.HandleFunc("/plain.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><html><head><link rel=canonical href="/canonical.html"></head><body>not AMP</body></html>`)
	})
	mux.HandleFunc("/canonical.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html><html><body><h1>canonical page</h1>`+where+`</body></html>`)
	})
	s, err := cachetest.NewServer(mux)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close) // after the parallel subtests
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]

	tests := []struct {
		name, in string
		want     []string
	}{
		// spec "Redirects": the content of the resolved redirect, for the original URL.
		{name: "Redirects", in: cdn + "/c/s/www.example.com/old", want: []string{"<h1>AMP article</h1>", "at " + cdn + "/c/s/www.example.com/old"}},
		// spec "Invalid AMP": the browser is redirected to the canonical page.
		{name: "Invalid AMP", in: cdn + "/c/s/www.example.com/plain.html", want: []string{"<h1>canonical page</h1>", "at https://www.example.com/canonical.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // a Chromium each
			ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, chromium,
				"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+t.TempDir(),
				"--ignore-certificate-errors", // the server's authority is made per test
				"--host-resolver-rules=MAP *:443 127.0.0.1:"+port,
				"--dump-dom", tt.in)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("chromium: %v\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("DOM of %s lacks %q:\n%s", tt.in, w, out)
				}
			}
			t.Logf("Chromium saw: %s", strings.Join(strings.Fields(string(out)), " "))
		})
	}
}
