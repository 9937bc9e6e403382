// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
)

// TestWPT runs the web-platform-tests URL suite. Every input must not
// panic. For absolute http and https inputs that browsers accept, the
// canonical host must be the host a browser sees, changed only by the Safe
// Browsing host rules: leading, trailing and repeated dots, and IPv4-mapped
// and NAT64 IPv6 become IPv4 (testdata/README.md).
func TestWPT(t *testing.T) {
	checked := 0
	for _, c := range wpt.Cases(t) {
		got, err := Canonicalize(c.Input)
		if c.Base != nil || c.Failure || (c.Protocol != "http:" && c.Protocol != "https:") {
			continue
		}
		if wptHost(c.Hostname) == "" {
			// Only dots: no host is left after host steps 1 and 2.
			if !errors.Is(err, ErrNoHost) {
				t.Errorf("Canonicalize(%q) = %q, %v; want ErrNoHost", c.Input, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Canonicalize(%q): %v; a browser accepts it with host %q", c.Input, err, c.Hostname)
			continue
		}
		u, _ := Parse(c.Input)
		if want := wptHost(c.Hostname); u.Host() != want {
			t.Errorf("Canonicalize(%q) = %q: host %q; want %q (browser: %q)", c.Input, got, u.Host(), want, c.Hostname)
		}
		checked++
	}
	t.Logf("%d browser hosts checked", checked)
}

// wptHost applies the Safe Browsing host rules a browser does not to the
// host h a browser sees.
func wptHost(h string) string {
	h = strings.Trim(h, ".")
	for strings.Contains(h, "..") {
		h = strings.ReplaceAll(h, "..", ".")
	}
	if strings.HasPrefix(h, "[") {
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err == nil {
			b := a.As16()
			if a.Is4In6() || netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
				return netip.AddrFrom4([4]byte(b[12:])).String()
			}
		}
	}
	return escapeSlow(h)
}
