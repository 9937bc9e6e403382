// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/urlspec/urlspec/safebrowse/ohttp"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// exampleSearch sends one hashes:search for prefix through relayURL to the
// gateway whose key is at keyURL, and returns the outer status and, for a
// 200, the inner one and the inner body's length. It is what
// safebrowse/lookup does with Config.OHTTP set.
func exampleSearch(s *sbtest.Server, keyURL, relayURL string, prefix []byte) string {
	res, err := http.Get(keyURL)
	if err != nil {
		return err.Error()
	}
	keys, _ := io.ReadAll(res.Body)
	res.Body.Close()
	configs, err := ohttp.ParseKeyConfigs(keys)
	if err != nil {
		return err.Error()
	}
	c, err := ohttp.NewClient(configs)
	if err != nil {
		return err.Error()
	}
	path := "/v5/hashes:search?key=" + url.QueryEscape(s.APIKey) + "&alt=proto&hashPrefixes=" +
		base64.URLEncoding.EncodeToString(prefix)
	msg, err := ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Scheme: "https",
		Authority: "safebrowsing.googleapis.com", Path: path})
	if err != nil {
		return err.Error()
	}
	enc, sender, err := c.Seal(msg)
	if err != nil {
		return err.Error()
	}
	res, err = http.Post(relayURL, "message/ohttp-req", bytes.NewReader(enc))
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Sprintf("key %d: outer %d %s", c.Suite().KeyID, res.StatusCode, res.Header.Get("Content-Type"))
	}
	inner, err := sender.Open(body)
	if err != nil {
		return err.Error()
	}
	r, err := ohttp.ParseResponse(inner)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("key %d: outer %d, inner %d, %d bytes", c.Suite().KeyID, res.StatusCode, r.Status, len(r.Content))
}

// NewRelay puts a relay in front of the server's gateway: a client POSTs
// encapsulated searches to the relay, and the server counts them as
// "ohttp", not as hashes:search, while SearchedPrefixes still shows what
// was asked.
func ExampleNewRelay() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	r := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer r.Close()

	h := sha256.Sum256([]byte("evil.example/"))
	fmt.Println(exampleSearch(s, s.OHTTPKeyURL(), r.URL, h[:4]))
	fmt.Println(s.Requests("hashes:search"), s.Requests("ohttp"))
	fmt.Printf("%x\n", s.SearchedPrefixes())
	// Output:
	// key 1: outer 200, inner 200, 45 bytes
	// 0 1
	// [f001957c]
}

// RotateOHTTPKey makes the gateway refuse the old key with a 422, until
// the client fetches the key configuration again.
func ExampleServer_RotateOHTTPKey() {
	s := sbtest.NewServer()
	defer s.Close()
	r := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer r.Close()

	// A client that fetched key 1 before the rotation.
	res, _ := http.Get(s.OHTTPKeyURL())
	old, _ := io.ReadAll(res.Body)
	res.Body.Close()
	oldKeys := httpServe(old)
	defer oldKeys.Close()

	fmt.Println(s.RotateOHTTPKey())
	fmt.Println(exampleSearch(s, oldKeys.URL, r.URL, []byte{1, 2, 3, 4}))
	fmt.Println(exampleSearch(s, s.OHTTPKeyURL(), r.URL, []byte{1, 2, 3, 4}))
	// Output:
	// 2
	// key 1: outer 422 application/problem+json
	// key 2: outer 200, inner 200, 5 bytes
}

// OHTTPKeyURL and OHTTPGatewayURL are the two endpoints of the gateway,
// under the server's URL: a client's key URL, and a relay's target.
func ExampleServer_OHTTPKeyURL() {
	s := sbtest.NewServer()
	defer s.Close()
	fmt.Println(strings.TrimPrefix(s.OHTTPKeyURL(), s.URL))
	fmt.Println(strings.TrimPrefix(s.OHTTPGatewayURL(), s.URL))
	// Output:
	// /v1/ohttp/hpkekeyconfig
	// /v1/ohttp:handleOhttpEncapsulatedRequest
}

// httpServe serves body at every path: a stale copy of a key endpoint.
func httpServe(body []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
}

// OHTTPGatewayURL is where a relay forwards encapsulated requests: the
// gateway answers only POSTs of message/ohttp-req.
func ExampleServer_OHTTPGatewayURL() {
	s := sbtest.NewServer()
	defer s.Close()
	r := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer r.Close()
	res, err := s.Client().Get(s.OHTTPGatewayURL())
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()
	fmt.Println(res.StatusCode)
	// Output: 405
}

// Client is an HTTP client for the relay: here a request the relay
// refuses, since it forwards only POSTs of message/ohttp-req.
func ExampleRelay_Client() {
	s := sbtest.NewServer()
	defer s.Close()
	r := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer r.Close()
	res, err := r.Client().Post(r.URL, "text/plain", strings.NewReader("hello"))
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()
	fmt.Println(res.StatusCode)
	// Output: 415
}

// Close stops the relay: a request then fails to connect. A second Close
// is fine.
func ExampleRelay_Close() {
	s := sbtest.NewServer()
	defer s.Close()
	r := sbtest.NewRelay(s.OHTTPGatewayURL())
	c := r.Client()
	r.Close()
	r.Close()
	_, err := c.Post(r.URL, "message/ohttp-req", strings.NewReader(""))
	fmt.Println(err != nil)
	// Output: true
}
