// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"strings"
	"time"

	"github.com/urlspec/urlspec/ampcache"
)

// cutSignature shortens the amp_url_signature of u, which changes with
// each key, for printing.
func cutSignature(u string) string {
	head, sig, _ := strings.Cut(u, "amp_url_signature=")
	return fmt.Sprintf("%samp_url_signature=<%d characters>", head, len(sig))
}

func ExampleUpdateCacheURL() {
	// The publisher's key; its public half is served as PEM from
	// https://www.example.com/.well-known/amphtml/apikey.pub.
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	google := ampcache.Caches()[0]
	ts := time.Unix(1700000000, 0)
	u, err := ampcache.UpdateCacheURL(google, "https://www.example.com/news/article.html?id=7", ts, key)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cutSignature(u))

	// Keys other than RSA of 2048 bits or more are refused.
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, err = ampcache.UpdateCacheURL(google, "https://www.example.com/", ts, ec)
	fmt.Println(err)
	// Output:
	// https://www-example-com.cdn.ampproject.org/update-cache/c/s/www.example.com/news/article.html?id=7&amp_action=flush&amp_ts=1700000000&amp_url_signature=<342 characters>
	// ampcache: invalid update-cache key in "*ecdsa.PublicKey": want an RSA key
}

func ExampleUpdateCacheURLs() {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	urls, err := ampcache.UpdateCacheURLs("https://example.com/article", time.Unix(1700000000, 0), key)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range urls {
		fmt.Println(cutSignature(u))
	}
	// Output:
	// https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/article?amp_action=flush&amp_ts=1700000000&amp_url_signature=<342 characters>
	// https://example-com.www.bing-amp.com/update-cache/c/s/example.com/article?amp_action=flush&amp_ts=1700000000&amp_url_signature=<342 characters>
}

func ExampleVerifyUpdateCache() {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := time.Unix(1700000000, 0)
	u, err := ampcache.UpdateCacheURL(ampcache.Caches()[0], "https://example.com/article?id=7#top", ts, key)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The cache checks the request with the key from apikey.pub, on its
	// own clock.
	fmt.Println(ampcache.VerifyUpdateCache(u, &key.PublicKey, ts.Add(30*time.Second)))

	// 61 seconds late.
	_, err = ampcache.VerifyUpdateCache(u, &key.PublicKey, ts.Add(61*time.Second))
	fmt.Println(err)

	// Another article, with the first one's signature.
	other := strings.Replace(u, "id=7", "id=8", 1)
	_, err = ampcache.VerifyUpdateCache(other, &key.PublicKey, ts)
	fmt.Println(err)
	// Output:
	// https://example.com/article?id=7 <nil>
	// ampcache: invalid update-cache timestamp in "https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/article?id=7&amp_action=flush&am"... (476 bytes): amp_ts is more than 60 seconds from now, 1700000061
	// ampcache: invalid update-cache signature in "https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/article?id=8&amp_action=flush&am"... (476 bytes): the signature does not verify
}
