// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// OHTTPConfig sends every search through a relay to the gateway. Against
// Google, RelayURL is a relay run by someone else, and KeyURL is left
// empty for DefaultOHTTPKeyURL; here sbtest is both the v5 server and the
// gateway, behind its loopback relay.
func ExampleOHTTPConfig() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()

	c, err := lookup.New(lookup.Config{
		APIKey:  s.APIKey,
		BaseURL: s.URL,
		Mode:    lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{
			RelayURL: relay.URL,
			KeyURL:   s.OHTTPKeyURL(),
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Update(ctx); err != nil { // fetches the key; a service runs Run
		log.Fatal(err)
	}
	v, err := c.Lookup(ctx, "http://evil.example/login")
	fmt.Println(v.Threats[0].Type, err)
	fmt.Println("direct searches:", s.Requests("hashes:search"), "through the gateway:", s.Requests("ohttp"))
	// Output:
	// SOCIAL_ENGINEERING <nil>
	// direct searches: 0 through the gateway: 1
}

// With Padding, the relay sees each search as 512 bytes, 1, 2, 4 or 8
// KiB, not a length that counts its prefixes. Here a relay in front of
// sbtest's prints the length of each request it forwards.
func ExampleOHTTPConfig_padding() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Println("the relay forwards", len(body), "bytes")
		res, err := http.Post(relay.URL, r.Header.Get("Content-Type"), bytes.NewReader(body))
		if err != nil {
			http.Error(w, "no relay", http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		w.Header().Set("Content-Type", res.Header.Get("Content-Type"))
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	defer counting.Close()

	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{RelayURL: counting.URL, KeyURL: s.OHTTPKeyURL(), Padding: true}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Update(ctx); err != nil {
		log.Fatal(err)
	}
	v, err := c.Lookup(ctx, "http://evil.example/login") // 2 prefixes
	fmt.Println(v.Unsafe(), err)
	if _, err := c.Lookup(ctx, "http://a.b.c.d.example/1/2/3/4?q"); err != nil { // 4 hosts × 6 paths: 24 prefixes
		log.Fatal(err)
	}
	// Output:
	// the relay forwards 512 bytes
	// true <nil>
	// the relay forwards 1024 bytes
}

// OHTTPStatus reports the gateway key in use, and a rotation: the search
// that meets the rotated key fails, and the key is fetched again.
func ExampleClient_OHTTPStatus() {
	s := sbtest.NewServer()
	defer s.Close()
	relay := sbtest.NewRelay(s.OHTTPGatewayURL())
	defer relay.Close()
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{RelayURL: relay.URL, KeyURL: s.OHTTPKeyURL(), KeyRefetchJitter: -1}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	fmt.Printf("%+v\n", c.OHTTPStatus())
	c.Update(ctx)
	fmt.Println(c.OHTTPStatus().KeyID)

	s.RotateOHTTPKey()
	_, err = c.Lookup(ctx, "http://example.com/")
	fmt.Println(err)
	for c.OHTTPStatus().KeyID != 2 { // the refetch runs on its own
		time.Sleep(time.Millisecond)
	}
	_, err = c.Lookup(ctx, "http://example.com/")
	fmt.Println(c.OHTTPStatus().KeyID, err)
	// Output:
	// {KeyID:0 Fetched:0001-01-01 00:00:00 +0000 UTC Err:<nil>}
	// 1
	// lookup: OHTTP relay: hashes:search: HTTP 422 Unprocessable Entity: {"type":"https://iana.org/assignments/http-problem-types#ohttp-key","title":"key identifier unknown"
	// 2 <nil>
}

// ErrOHTTP marks a search that failed on the way through the relay: here
// the relay is down. The outer status is a StatusError too; nothing goes
// directly instead.
func ExampleErrOHTTP() {
	s := sbtest.NewServer()
	defer s.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "relay down", http.StatusBadGateway)
	}))
	defer down.Close()
	c, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: lookup.NoStorage,
		OHTTP: &lookup.OHTTPConfig{RelayURL: down.URL, KeyURL: s.OHTTPKeyURL()}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	c.Update(ctx)
	v, err := c.Lookup(ctx, "http://example.com/")
	var se *lookup.StatusError
	fmt.Println(v.Unsafe(), errors.Is(err, lookup.ErrOHTTP), errors.As(err, &se) && se.StatusCode == 502)
	fmt.Println(err)
	fmt.Println("direct searches:", s.Requests("hashes:search"))
	// Output:
	// false true true
	// lookup: OHTTP relay: hashes:search: HTTP 502 Bad Gateway: relay down
	// direct searches: 0
}
