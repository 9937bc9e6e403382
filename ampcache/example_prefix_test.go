// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"errors"
	"fmt"

	"github.com/urlspec/urlspec/ampcache"
)

func ExampleDomainPrefix() {
	for _, domain := range []string{
		"example.com",
		"foo-example.com",
		"en-us.example.com",
		"xn--57hw060o.com", // ⚡😊.com
		"bücher.de",
	} {
		prefix, err := ampcache.DomainPrefix(domain)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s.cdn.ampproject.org\n", prefix)
	}
	// Output:
	// example-com.cdn.ampproject.org
	// foo--example-com.cdn.ampproject.org
	// 0-en--us-example-com-0.cdn.ampproject.org
	// xn---com-p33b41770a.cdn.ampproject.org
	// xn--bcher-de-65a.cdn.ampproject.org
}

// A domain whose prefix would be too long, or would hold no hyphen, gets the
// fallback: the base32 of its SHA-256.
func ExampleDomainPrefix_fallback() {
	prefix, _ := ampcache.DomainPrefix("localhost")
	fmt.Println(prefix)
	fmt.Println(prefix == ampcache.FallbackPrefix("localhost"))
	// Output:
	// jgla3zmib2ggq5buc4hwi5taloh6jlvzukddfr4zltz3vay5s5rq
	// true
}

// Invalid domains are errors that wrap a sentinel.
func ExampleDomainPrefix_error() {
	for _, domain := range []string{"xn--99999a", "a..b", "example.com:443"} {
		_, err := ampcache.DomainPrefix(domain)
		fmt.Println(err)
		fmt.Println(errors.Is(err, ampcache.ErrInvalidPunycode))
	}
	// Output:
	// ampcache: invalid punycode in "xn--99999a"
	// true
	// ampcache: empty label in "a..b"
	// false
	// ampcache: invalid host in "example.com:443": forbidden code point ':'
	// false
}

func ExampleAppendDomainPrefix() {
	// Build a cache host in a reused buffer, with no allocations.
	buf := make([]byte, 0, 128)
	for _, domain := range []string{"www.example.com", "amp.dev"} {
		buf, _ = ampcache.AppendDomainPrefix(buf[:0], domain)
		buf = append(buf, ".cdn.ampproject.org"...)
		fmt.Println(string(buf))
	}
	// Output:
	// www-example-com.cdn.ampproject.org
	// amp-dev.cdn.ampproject.org
}

func ExampleFallbackPrefix() {
	fmt.Println(ampcache.FallbackPrefix("example.com"))
	// Output:
	// un42n5xov642kxrxrqiyanhcoupgql5lt4wtbkyt2ijflbwodfdq
}
