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
// when it has none (blank lines are skipped), and prints "domain<TAB>prefix", or the error on standard error.
// It exits with status 1 if any domain was invalid. -h prints the usage.
package main

import (
	"fmt"
	"io"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/examples/internal/input"
)

func main() {
	input.Main("ampprefix", "ampprefix [domain ...]", func(out, errs io.Writer, domain string) bool {
		prefix, err := ampcache.DomainPrefix(domain)
		if err != nil {
			fmt.Fprintf(errs, "ampprefix: %v\n", err)
			return false
		}
		fmt.Fprintf(out, "%s\t%s\n", domain, prefix)
		return true
	})
}
