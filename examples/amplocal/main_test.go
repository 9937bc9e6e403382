// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

// The demo shows each behaviour of the cache with the status the spec
// gives it.
func TestDemo(t *testing.T) {
	s, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b strings.Builder
	runDemo(&b, s)
	out := b.String()
	for _, want := range []string{
		"GET https://www-example-com.cdn.ampproject.org/c/s/www.example.com/article.amp.html\nHTTP/2.0 200 OK\nContent-Type: text/html; charset=utf-8\n<h1>An AMP article</h1>",
		"/old-article\nHTTP/2.0 200 OK\nContent-Type: text/html; charset=utf-8\n<h1>An AMP article</h1>",
		"/article.html\nHTTP/2.0 302 Found\nLocation: https://www.example.com/article.html\n",
		"/missing\nHTTP/2.0 404 Not Found\n",
		"/broken\nHTTP/2.0 404 Not Found\n",
		"HTTP/2.0 301 Moved Permanently\nLocation: https://www-example-com.cdn.ampproject.org/c/s/www.example.com/article.amp.html\n",
		"/api/items\nOrigin: https://www-example-com.cdn.ampproject.org\nHTTP/2.0 200 OK\nAccess-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org\nAccess-Control-Allow-Credentials: true\nContent-Type: application/json\n",
		"/api/items\nOrigin: https://evil-com.cdn.ampproject.org\nHTTP/2.0 403 Forbidden\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}
