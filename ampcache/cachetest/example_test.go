// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// site is a small publisher site for the examples.
func site() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html ⚡><head><link rel=canonical href=/></head><body>Hello from %s</body></html>", r.Host)
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/plain.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><head><link rel=canonical href="https://www.example.com/"></head></html>`)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusInternalServerError)
	})
	return mux
}

// show prints the status, Location and first line of the body's h1 or text.
func show(c *http.Client, url string) {
	res, err := c.Get(url)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	body := string(b)
	if i := strings.Index(body, "<body>"); i >= 0 {
		body = strings.TrimSuffix(body[i+len("<body>"):], "</body></html>")
	} else if i := strings.Index(body, "<p>"); i >= 0 {
		body = strings.TrimSpace(body[i:])
	}
	fmt.Println(res.Status, res.Header.Get("Location"), body)
}

func ExampleNewServer() {
	s, err := cachetest.NewServer(site())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	c := s.Client() // reaches the server under any host name
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	cdn := "https://www-example-com.cdn.ampproject.org"
	show(c, cdn+"/c/s/www.example.com/")
	show(c, cdn+"/c/s/www.example.com/old")        // spec "Redirects"
	show(c, cdn+"/c/s/www.example.com/plain.html") // spec "Invalid AMP"
	show(c, cdn+"/c/s/www.example.com/broken")     // spec "Server Errors"
	show(c, "https://example-com.cdn.ampproject.org/c/s/www.example.com/")
	// Output:
	// 200 OK  Hello from www.example.com
	// 200 OK  Hello from www.example.com
	// 302 Found https://www.example.com/ <p><a href="https://www.example.com/">https://www.example.com/</a></p>
	// 404 Not Found  <p>cachetest: origin status in &#34;https://www.example.com/broken&#34;: 500 Internal Server Error</p>
	// 301 Moved Permanently https://www-example-com.cdn.ampproject.org/c/s/www.example.com/ <p><a href="https://www-example-com.cdn.ampproject.org/c/s/www.example.com/">https://www-example-com.cdn.ampproject.org/c/s/www.example.com/</a></p>
}

// A Cache is an http.Handler to mount where requests for cache hosts
// arrive.
func ExampleNew() {
	c, err := cachetest.New(site())
	if err != nil {
		fmt.Println(err)
		return
	}
	r := httptest.NewRequest("GET", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/?amp_js_v=0.1", nil)
	w := httptest.NewRecorder()
	c.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Content-Type"))

	_, err = cachetest.New(nil)
	fmt.Println(err)
	// Output:
	// 200 text/html; charset=utf-8
	// cachetest: New: nil origin handler
}

// An origin that runs as a server on loopback is given by its base URL.
func ExampleOriginURL() {
	publisher := httptest.NewServer(site())
	defer publisher.Close()
	origin, err := cachetest.OriginURL(publisher.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := cachetest.NewServer(origin)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	show(s.Client(), "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/")

	_, err = cachetest.OriginURL("https://www.example.com")
	fmt.Println(err)
	// Output:
	// 200 OK  Hello from www.example.com
	// cachetest: invalid origin in "https://www.example.com": host is not on loopback
}
