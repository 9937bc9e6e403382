// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
)

// TestWPTNoPanic runs every input and hostname of the suite through
// DomainPrefix: none may panic, and every result is a valid prefix.
func TestWPTNoPanic(t *testing.T) {
	for _, h := range wpt.Hosts(t) {
		p, err := DomainPrefix(h)
		if err == nil && !validPrefix.MatchString(p) {
			t.Errorf("DomainPrefix(%q) = %q: not a valid prefix", h, p)
		}
	}
}
