// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/urlspec/urlspec/ampcache/ampcors"
)

func ExampleNew() {
	policy, err := ampcors.New(ampcors.Config{
		Origins: []string{"https://example.com", "https://www.example.com"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(policy.Allowed("https://www-example-com.cdn.ampproject.org"))
	// Output:
	// true
}

// ExampleNew_error shows the errors for a bad configuration: each names
// the field at fault.
func ExampleNew_error() {
	for _, cfg := range []ampcors.Config{
		{},
		{Origins: []string{"https://example.com/"}},
		{Origins: []string{"https://example.com", "example.com"}},
		{Origins: []string{"https://example.com"}, EmailSenders: []string{"newsletter"}},
	} {
		_, err := ampcors.New(cfg)
		fmt.Println(err)
	}
	// Output:
	// ampcors: Config.Origins: empty
	// ampcors: Config.Origins[0]: invalid origin "https://example.com/": want scheme://host[:port] and nothing else
	// ampcors: Config.Origins[1]: invalid origin "example.com": want scheme://host[:port]
	// ampcors: Config.EmailSenders[0]: invalid email sender "newsletter": want an address of visible ASCII, with an @, no comma, at most 254 bytes
}

func ExamplePolicy_Allowed() {
	policy, err := ampcors.New(ampcors.Config{
		Origins: []string{"https://example.com", "https://www.example.com"},
	})
	if err != nil {
		panic(err)
	}
	for _, origin := range []string{
		"https://www.example.com",
		"https://www-example-com.cdn.ampproject.org",
		"https://WWW-EXAMPLE-COM.www.bing-amp.com:443",
		"https://evil-com.cdn.ampproject.org",
		"https://en--us-example-com.cdn.ampproject.org",
		"null",
	} {
		fmt.Println(origin, policy.Allowed(origin))
	}
	// Output:
	// https://www.example.com true
	// https://www-example-com.cdn.ampproject.org true
	// https://WWW-EXAMPLE-COM.www.bing-amp.com:443 true
	// https://evil-com.cdn.ampproject.org false
	// https://en--us-example-com.cdn.ampproject.org false
	// null false
}

func ExamplePolicy_Handler() {
	policy, err := ampcors.New(ampcors.Config{
		Origins: []string{"https://www.example.com"},
	})
	if err != nil {
		panic(err)
	}
	api := policy.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"items":[]}`)
	}))

	show := func(method, target, origin string, header ...string) {
		r := httptest.NewRequest(method, "https://www.example.com"+target, nil)
		r.Header.Set("Origin", origin)
		for i := 0; i < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		fmt.Println(strings.TrimSpace(fmt.Sprint(method, " ", target, " ", origin, " → ", w.Code, " ", w.Body.String())))
		for _, k := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods", "Access-Control-Max-Age", "AMP-Access-Control-Allow-Source-Origin", "Vary"} {
			if v := w.Header().Get(k); v != "" {
				fmt.Printf("\t%s: %s\n", k, v)
			}
		}
	}
	show("GET", "/api", "https://www-example-com.cdn.ampproject.org")
	show("OPTIONS", "/api", "https://www-example-com.cdn.ampproject.org", "Access-Control-Request-Method", "PUT")
	show("GET", "/api?__amp_source_origin=https%3A%2F%2Fwww.example.com", "https://www-example-com.cdn.ampproject.org")
	show("GET", "/api?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com", "https://www-example-com.cdn.ampproject.org")
	show("GET", "/api", "https://evil-com.cdn.ampproject.org")
	// Output:
	// GET /api https://www-example-com.cdn.ampproject.org → 200 {"items":[]}
	// 	Access-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org
	// 	Access-Control-Allow-Credentials: true
	// 	Vary: Origin
	// OPTIONS /api https://www-example-com.cdn.ampproject.org → 204
	// 	Access-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org
	// 	Access-Control-Allow-Credentials: true
	// 	Access-Control-Allow-Methods: PUT
	// 	Access-Control-Max-Age: 7200
	// 	Vary: Origin
	// GET /api?__amp_source_origin=https%3A%2F%2Fwww.example.com https://www-example-com.cdn.ampproject.org → 200 {"items":[]}
	// 	Access-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org
	// 	Access-Control-Allow-Credentials: true
	// 	AMP-Access-Control-Allow-Source-Origin: https://www.example.com
	// 	Vary: Origin
	// GET /api?%5F%5Famp_source_origin=https%3A%2F%2Fevil.com https://www-example-com.cdn.ampproject.org → 403 ampcors: __amp_source_origin not allowed
	// 	Vary: Origin
	// GET /api https://evil-com.cdn.ampproject.org → 403 ampcors: origin not allowed
	// 	Vary: Origin
}

// ExamplePolicy_Handler_email shows AMP for Email: a configured sender is
// answered with AMP-Email-Allow-Sender, and a browser's preflight from an
// Origin that is not allowed is refused.
func ExamplePolicy_Handler_email() {
	policy, err := ampcors.New(ampcors.Config{
		Origins:      []string{"https://www.example.com"},
		EmailSenders: []string{"news@example.com"},
	})
	if err != nil {
		panic(err)
	}
	api := policy.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for _, sender := range []string{"news@example.com", "spam@example.net"} {
		r := httptest.NewRequest("GET", "https://www.example.com/api", nil)
		r.Header.Set("Origin", "https://mail.google.com")
		r.Header.Set("AMP-Email-Sender", sender)
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		fmt.Printf("%s %d AMP-Email-Allow-Sender=%q Access-Control-Allow-Origin=%q\n",
			sender, w.Code, w.Header().Get("AMP-Email-Allow-Sender"), w.Header().Get("Access-Control-Allow-Origin"))
	}
	r := httptest.NewRequest("OPTIONS", "https://www.example.com/api", nil)
	r.Header.Set("Origin", "https://evil.com")
	r.Header.Set("Access-Control-Request-Method", "GET")
	r.Header.Set("Access-Control-Request-Headers", "amp-email-sender")
	w := httptest.NewRecorder()
	api.ServeHTTP(w, r)
	fmt.Println("preflight from https://evil.com:", w.Code)
	// Output:
	// news@example.com 200 AMP-Email-Allow-Sender="news@example.com" Access-Control-Allow-Origin=""
	// spam@example.net 403 AMP-Email-Allow-Sender="" Access-Control-Allow-Origin=""
	// preflight from https://evil.com: 403
}
