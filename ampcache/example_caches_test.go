// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"fmt"

	"github.com/urlspec/urlspec/ampcache"
)

func ExampleCaches() {
	for _, c := range ampcache.Caches() {
		fmt.Printf("%s\t%s\t%s\n", c.ID, c.CacheDomain, c.Name)
	}
	// Output:
	// google	cdn.ampproject.org	Google AMP Cache
	// bing	www.bing-amp.com	Bing AMP Cache
}

func ExampleParseCaches() {
	caches, err := ampcache.ParseCaches([]byte(`{"caches": [
		{"id": "google", "cacheDomain": "cdn.ampproject.org"},
		{"id": "mine", "cacheDomain": "amp.example.net"}
	]}`))
	fmt.Println(len(caches), err)
	_, err = ampcache.ParseCaches([]byte(`{"caches": [{"id": "x", "cacheDomain": "AMP.example.net"}]}`))
	fmt.Println(err)
	// Output:
	// 2 <nil>
	// ampcache: invalid caches.json in "AMP.example.net": cache "x": cacheDomain is not a lowercase host name
}

func ExampleNewRegistry() {
	r, err := ampcache.NewRegistry([]ampcache.Cache{{ID: "mine", CacheDomain: "amp.example.net"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.PublisherDomain("https://www-example-com.amp.example.net"))
	fmt.Println(r.SourceURL("https://www-example-com.amp.example.net/c/s/www.example.com/"))
	fmt.Println(r.PublisherDomain("https://www-example-com.cdn.ampproject.org"))
	// Output:
	// www.example.com <nil>
	// https://www.example.com/ <nil>
	//  ampcache: unknown cache in "https://www-example-com.cdn.ampproject.org"
}
