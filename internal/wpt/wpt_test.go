// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package wpt

import "testing"

// TestCases checks that the vendored suite reads completely: its README
// counts 869 cases, some of them failures and some with a hostname.
func TestCases(t *testing.T) {
	cases, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	var failures, hosts int
	for _, c := range cases {
		if c.Failure {
			failures++
		}
		if c.Hostname != "" {
			hosts++
		}
	}
	if len(cases) != 869 || failures == 0 || hosts == 0 {
		t.Errorf("read %d cases, %d failures, %d with a hostname; want 869 and some of each", len(cases), failures, hosts)
	}
}
