// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"fmt"

	"github.com/urlspec/urlspec/ampcache"
)

func ExampleSourceURL() {
	for _, u := range []string{
		"https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a/b.html?q=1",
		"https://www-example-com.cdn.ampproject.org/v/s/www.example.com/?amp_js_v=0.1&q=1#top",
		"https://origin-com.cdn.ampproject.org/c/origin.com%3A81/live",
		"https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/not-found",
		"https://www.example.com/c/s/www.example.com/",
	} {
		src, err := ampcache.SourceURL(u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(src)
	}
	// Output:
	// https://www.example.com/a/b.html?q=1
	// https://www.example.com/?q=1#top
	// http://origin.com:81/live
	// ampcache: invalid URL in "https://amp-dev.cdn.ampproject.org/amp.dev/documentation/examples/api/not-found": ampcache: invalid serving type: "amp.dev" is not a serving type
	// ampcache: not an AMP cache URL in "https://www.example.com/c/s/www.example.com/"
}

func ExampleAppendSourceURL() {
	// Reuse one buffer for many URLs: no allocations.
	buf := make([]byte, 0, 256)
	for _, u := range []string{
		"https://www-example-com.cdn.ampproject.org/c/s/www.example.com/?usqp=mq331AQ",
		"https://www-example-com.www.bing-amp.com/ii/w800/www.example.com/a.png",
	} {
		var err error
		buf, err = ampcache.AppendSourceURL(buf[:0], u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://www.example.com/
	// http://www.example.com/a.png
}
