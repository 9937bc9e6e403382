// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"errors"
	"fmt"

	"github.com/urlspec/urlspec/ampcache"
)

func ExamplePublisherDomain() {
	for _, origin := range []string{
		"https://www-example-com.cdn.ampproject.org",
		"https://0-en--us-example-com-0.www.bing-amp.com",
		"https://xn---com-p33b41770a.cdn.ampproject.org",
		"https://0-example-0.cdn.ampproject.org",
		"https://www-example-com.example.net",
		"null",
	} {
		domain, err := ampcache.PublisherDomain(origin)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(domain)
	}
	// Output:
	// www.example.com
	// en-us.example.com
	// xn--57hw060o.com
	// ampcache: invalid origin in "https://0-example-0.cdn.ampproject.org": "0-example-0" is not the domain prefix of "example"
	// ampcache: unknown cache in "https://www-example-com.example.net"
	// ampcache: invalid origin in "null": not an https origin
}

// ExamplePublisherDomain_notReversible shows what to do with a hashed
// prefix: compare the Origin with the cache origins of the domains you
// serve.
func ExamplePublisherDomain_notReversible() {
	mine := []string{"example.com", "a-very-long-subdomain-name-for-the-example.publisher.example"}
	origin := "https://dhg6cj4r2zjl5gffkjcih3ghgnavftq3qefonahfcladyjvjgmia.www.bing-amp.com"

	_, err := ampcache.PublisherDomain(origin)
	fmt.Println(err)
	if errors.Is(err, ampcache.ErrNotReversible) {
		for _, d := range mine {
			origins, err := ampcache.Origins(d)
			if err != nil {
				fmt.Println(err)
				continue
			}
			for _, o := range origins {
				if o == origin {
					fmt.Println("request from", d)
				}
			}
		}
	}
	// Output:
	// ampcache: hashed domain prefix cannot be reversed in "https://dhg6cj4r2zjl5gffkjcih3ghgnavftq3qefonahfcladyjvjgmia.www.bing-amp.com"
	// request from a-very-long-subdomain-name-for-the-example.publisher.example
}

func ExampleCache_Origin() {
	for _, c := range ampcache.Caches() {
		o, err := c.Origin("www.example.com")
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c.ID, o)
	}
	// Output:
	// google https://www-example-com.cdn.ampproject.org
	// bing https://www-example-com.www.bing-amp.com
}

func ExampleOrigins() {
	origins, err := ampcache.Origins("en-us.example.com")
	fmt.Println(origins, err)
	_, err = ampcache.Origins("a..b")
	fmt.Println(err)
	// Output:
	// [https://0-en--us-example-com-0.cdn.ampproject.org https://0-en--us-example-com-0.www.bing-amp.com] <nil>
	// ampcache: empty label in "a..b"
}
