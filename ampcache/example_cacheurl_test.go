// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"fmt"

	"github.com/urlspec/urlspec/ampcache"
)

func ExampleCacheURL() {
	for _, u := range []string{
		"https://www.example.com/a/b.html?q=1",
		"http://example.com/",
		"https://點看.com",
		"http://origin.com:81/live",
		"https://user:pass@example.com/",
		"ftp://example.com/",
	} {
		c, err := ampcache.CacheURL("cdn.ampproject.org", u, ampcache.Content)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c)
	}
	// Output:
	// https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a/b.html?q=1
	// https://example-com.cdn.ampproject.org/c/example.com/
	// https://xn---com-k47jg78q.cdn.ampproject.org/c/s/xn--c1yn36f.com
	// https://origin-com.cdn.ampproject.org/c/origin.com%3A81/live
	// ampcache: invalid URL in "https://user:pass@example.com/": userinfo is not allowed
	// ampcache: invalid URL in "ftp://example.com/": not an http or https URL
}

// ExampleCacheURL_serving shows one publisher URL under each serving type.
func ExampleCacheURL_serving() {
	for _, s := range []ampcache.Serving{
		ampcache.Content, ampcache.Viewer, ampcache.WebPackage, ampcache.Certificate,
		ampcache.Image, ampcache.ImageMaxWidth(800), ampcache.Resource,
	} {
		c, err := ampcache.CacheURL("cdn.ampproject.org", "https://example.com/x", s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c)
	}
	// Output:
	// https://example-com.cdn.ampproject.org/c/s/example.com/x
	// https://example-com.cdn.ampproject.org/v/s/example.com/x
	// https://example-com.cdn.ampproject.org/wp/s/example.com/x
	// https://example-com.cdn.ampproject.org/cert/s/example.com/x
	// https://example-com.cdn.ampproject.org/i/s/example.com/x
	// https://example-com.cdn.ampproject.org/ii/w800/s/example.com/x
	// https://example-com.cdn.ampproject.org/r/s/example.com/x
}

func ExampleAppendCacheURL() {
	// Reuse one buffer for many URLs: no allocations for ASCII hosts.
	buf := make([]byte, 0, 256)
	for _, c := range ampcache.Caches() {
		var err error
		buf, err = ampcache.AppendCacheURL(buf[:0], c.CacheDomain, "https://example.com/", ampcache.Viewer)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://example-com.cdn.ampproject.org/v/s/example.com/
	// https://example-com.www.bing-amp.com/v/s/example.com/
}

func ExampleImageMaxWidth() {
	fmt.Println(ampcache.ImageMaxWidth(800))
	_, err := ampcache.CacheURL("cdn.ampproject.org", "https://example.com/a.png", ampcache.ImageMaxWidth(0))
	fmt.Println(err)
	// Output:
	// ii/w800
	// ampcache: invalid serving type in "ii/w0": want a positive width after ii/w
}
