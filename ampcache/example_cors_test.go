package ampcache_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/urlspec/urlspec/ampcache"
)

func ExampleNewCORS() {
	cors, err := ampcache.NewCORS(ampcache.CORSConfig{
		Origins: []string{"https://example.com", "https://www.example.com"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, origin := range []string{
		"https://www.example.com",
		"https://www-example-com.cdn.ampproject.org",
		"https://www-example-com.www.bing-amp.com",
		"https://evil-com.cdn.ampproject.org",
		"null",
	} {
		fmt.Println(origin, cors.Allowed(origin))
	}
	// Output:
	// https://www.example.com true
	// https://www-example-com.cdn.ampproject.org true
	// https://www-example-com.www.bing-amp.com true
	// https://evil-com.cdn.ampproject.org false
	// null false
}

// ExampleNewCORS_error shows the errors for a bad configuration.
func ExampleNewCORS_error() {
	for _, origins := range [][]string{
		nil,
		{"https://example.com/"},
		{"example.com"},
	} {
		_, err := ampcache.NewCORS(ampcache.CORSConfig{Origins: origins})
		fmt.Println(err)
	}
	// Output:
	// ampcache: empty input in "": no publisher origins
	// ampcache: invalid origin in "https://example.com/": want scheme://host[:port] and nothing else
	// ampcache: invalid origin in "example.com": scheme is not "https" or "http"
}

func ExampleCORS_Handler() {
	cors, err := ampcache.NewCORS(ampcache.CORSConfig{
		Origins: []string{"https://www.example.com"},
	})
	if err != nil {
		panic(err)
	}
	api := cors.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"items":[]}`)
	}))

	show := func(method, origin string, header ...string) {
		r := httptest.NewRequest(method, "https://www.example.com/api", nil)
		r.Header.Set("Origin", origin)
		for i := 0; i < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		fmt.Println(strings.TrimSpace(fmt.Sprint(method, " ", origin, " → ", w.Code, " ", w.Body.String())))
		for _, k := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods", "Access-Control-Max-Age", "Vary"} {
			if v := w.Header().Get(k); v != "" {
				fmt.Printf("\t%s: %s\n", k, v)
			}
		}
	}
	show("GET", "https://www-example-com.cdn.ampproject.org")
	show("OPTIONS", "https://www-example-com.cdn.ampproject.org", "Access-Control-Request-Method", "PUT")
	show("GET", "https://evil-com.cdn.ampproject.org")
	// Output:
	// GET https://www-example-com.cdn.ampproject.org → 200 {"items":[]}
	// 	Access-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org
	// 	Access-Control-Allow-Credentials: true
	// 	Vary: Origin
	// OPTIONS https://www-example-com.cdn.ampproject.org → 204
	// 	Access-Control-Allow-Origin: https://www-example-com.cdn.ampproject.org
	// 	Access-Control-Allow-Credentials: true
	// 	Access-Control-Allow-Methods: PUT
	// 	Access-Control-Max-Age: 7200
	// 	Vary: Origin
	// GET https://evil-com.cdn.ampproject.org → 403 ampcache: CORS origin not allowed
	// 	Vary: Origin
}

// ExampleCORS_Handler_email shows AMP for Email: a configured sender is
// answered with AMP-Email-Allow-Sender.
func ExampleCORS_Handler_email() {
	cors, err := ampcache.NewCORS(ampcache.CORSConfig{
		Origins:      []string{"https://www.example.com"},
		EmailSenders: []string{"news@example.com"},
	})
	if err != nil {
		panic(err)
	}
	api := cors.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for _, sender := range []string{"news@example.com", "spam@example.net"} {
		r := httptest.NewRequest("GET", "https://www.example.com/api", nil)
		r.Header.Set("AMP-Email-Sender", sender)
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		fmt.Println(sender, w.Code, w.Header().Get("AMP-Email-Allow-Sender"))
	}
	// Output:
	// news@example.com 200 news@example.com
	// spam@example.net 403
}
