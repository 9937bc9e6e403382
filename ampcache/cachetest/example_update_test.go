// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// A publisher tests its flush code: the cache fetches apikey.pub from the
// publisher's site and checks each signed update-cache request.
func ExampleCache_Flushed() {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	site := http.NewServeMux()
	site.HandleFunc("/.well-known/amphtml/apikey.pub", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		pem.Encode(w, &pem.Block{Type: "PUBLIC KEY", Bytes: der})
	})
	s, err := cachetest.NewServer(site)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	flush := func(ts time.Time) {
		urls, err := ampcache.UpdateCacheURLs("https://www.example.com/article", ts, key)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, u := range urls {
			res, err := s.Client().Get(u)
			if err != nil {
				fmt.Println(err)
				return
			}
			res.Body.Close()
			fmt.Println(res.Status)
		}
	}
	flush(time.Now())
	flush(time.Now().Add(-5 * time.Minute)) // a stale timestamp
	fmt.Println(s.Cache.Flushed())
	// Output:
	// 204 No Content
	// 204 No Content
	// 403 Forbidden
	// 403 Forbidden
	// [https://www.example.com/article https://www.example.com/article]
}
