// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse_test

import (
	"fmt"

	"github.com/urlspec/urlspec/safebrowse"
)

func ExampleCanonicalize() {
	for _, u := range []string{
		"http://host/%25%32%35",
		"www.GOOgle.com/blah/..#frag",
		"http://3279880203/blah",
		"http://[::ffff:1.2.3.4]:8080/",
		"http://evil.com\\@good.com/",
		"http://bücher.de/a b?q//r",
		"//example.net:8080/x",
		"ht%74p://evil.com/login",
		"http://example.org:99999/",
		"mailto:someone@example.com",
		"http:///path",
	} {
		c, err := safebrowse.Canonicalize(u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c)
	}
	// Output:
	// http://host/%25
	// http://www.google.com/
	// http://195.127.0.11/blah
	// http://1.2.3.4/
	// http://evil.com/@good.com/
	// http://xn--bcher-kva.de/a%20b?q//r
	// http://example.net/x
	// http://evil.com/login
	// safebrowse: invalid port in "http://example.org:99999/": "99999" is not a port
	// safebrowse: unsupported scheme in "mailto:someone@example.com": "mailto" is not hierarchical
	// safebrowse: URL has no host in "http:///path"
}

func ExampleAppendCanonical() {
	buf := make([]byte, 0, 256)
	for _, u := range []string{"http://www.google.com.../", "https://A.com//b/./c?x"} {
		out, err := safebrowse.AppendCanonical(buf[:0], u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", out)
	}
	// Output:
	// http://www.google.com/
	// https://a.com/b/c?x
}

func ExampleParse() {
	u, err := safebrowse.Parse("HTTP://user@[2001:0db8::1]:443/a/./b?q=1#top")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u)
	fmt.Println(u.Scheme(), u.Host(), u.Path(), u.RawQuery(), u.HasQuery(), u.IsIP())

	_, err = safebrowse.Parse("http://[fe80::1%25eth0]/")
	fmt.Println(err)
	// Output:
	// http://[2001:db8::1]/a/b?q=1
	// http [2001:db8::1] /a/b q=1 true true
	// safebrowse: invalid host in "http://[fe80::1%25eth0]/": brackets hold no IPv6 address
}
