// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ampprefix prints the AMP Cache domain prefix of publisher domains.
//
// Usage:
//
//	go run ./examples/ampprefix example.com en-us.example.com
//	printf 'example.com\nbücher.de\n' | go run ./examples/ampprefix
//
// It reads domains from its arguments, or one per line from standard input
// when it has none (blank lines are skipped), and prints "domain<TAB>prefix", or the error. It exits
// with status 1 if any domain was invalid.
package main

import (
	"fmt"
	"io"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/examples/internal/input"
)

func main() {
	input.Main("ampprefix", func(out io.Writer, domain string) bool {
		prefix, err := ampcache.DomainPrefix(domain)
		if err != nil {
			fmt.Fprintf(out, "%s\t%v\n", domain, err)
			return false
		}
		fmt.Fprintf(out, "%s\t%s\n", domain, prefix)
		return true
	})
}
