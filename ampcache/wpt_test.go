// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
)

// wptCase is one case of the browsers' URL suite (internal/wpt).
type wptCase = wpt.Case

// wptCases reads the browsers' URL suite, testdata/wpt-urltestdata.json.
func wptCases(tb testing.TB) []wptCase {
	tb.Helper()
	cases, err := wpt.Cases()
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// wptHosts returns the inputs and the hostnames of the suite, as hostile
// and unusual domains.
func wptHosts(tb testing.TB) []string {
	var hosts []string
	for _, c := range wptCases(tb) {
		hosts = append(hosts, c.Input)
		if c.Hostname != "" {
			hosts = append(hosts, c.Hostname)
		}
	}
	return hosts
}

// TestWPTNoPanic runs every input and hostname of the suite through
// DomainPrefix: none may panic, and every result is a valid prefix.
func TestWPTNoPanic(t *testing.T) {
	for _, h := range wptHosts(t) {
		p, err := DomainPrefix(h)
		if err == nil && !validPrefix.MatchString(p) {
			t.Errorf("DomainPrefix(%q) = %q: not a valid prefix", h, p)
		}
	}
}
