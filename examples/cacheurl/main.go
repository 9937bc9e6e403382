// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command cacheurl prints the AMP Cache URLs of publisher URLs: one line
// per registered cache and serving type.
//
// Usage:
//
//	go run ./examples/cacheurl https://www.example.com/a/b.html?q=1
//	printf 'https://example.com/\nhttp://點看.com/\n' | go run ./examples/cacheurl
//
// It reads URLs from its arguments, or one per line from standard input
// when it has none (blank lines are skipped). For each it prints the URL, then one indented line per
// cache and serving type, "<TAB>cache id<TAB>serving<TAB>cache URL", or the
// error on standard error. It exits with status 1 if any URL was invalid.
// -h prints the usage.
package main

import (
	"fmt"
	"io"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/examples/internal/input"
)

var servings = []ampcache.Serving{
	ampcache.Content,
	ampcache.Viewer,
	ampcache.WebPackage,
	ampcache.Certificate,
	ampcache.Image,
	ampcache.ImageMaxWidth(800),
	ampcache.Resource,
}

func main() {
	buf := make([]byte, 0, 512)
	input.Main("cacheurl", "cacheurl [url ...]", func(out, errs io.Writer, u string) bool {
		fmt.Fprintln(out, u)
		for _, c := range ampcache.Caches() {
			for _, s := range servings {
				var err error
				buf, err = ampcache.AppendCacheURL(buf[:0], c.CacheDomain, u, s)
				if err != nil {
					fmt.Fprintf(errs, "cacheurl: %v\n", err)
					return false
				}
				fmt.Fprintf(out, "\t%s\t%s\t%s\n", c.ID, s, buf)
			}
		}
		return true
	})
}
