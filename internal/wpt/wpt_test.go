// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package wpt

import "testing"

// TestCases checks that the vendored suite reads completely: its README
// counts 869 cases, some of them failures and some with a hostname.
func TestCases(t *testing.T) {
	cases := Cases(t)
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

// TestInputsHosts checks the two views of the suite: Inputs holds every
// non-empty input and nothing else; Hosts holds every input and every
// hostname.
func TestInputsHosts(t *testing.T) {
	cases := Cases(t)
	inputs, hosts := Inputs(t), Hosts(t)
	i, h := 0, 0
	for _, c := range cases {
		if c.Input != "" {
			if i >= len(inputs) || inputs[i] != c.Input {
				t.Fatalf("Inputs()[%d] is not %q", i, c.Input)
			}
			i++
		}
		if h >= len(hosts) || hosts[h] != c.Input {
			t.Fatalf("Hosts()[%d] is not the input %q", h, c.Input)
		}
		h++
		if c.Hostname != "" {
			if h >= len(hosts) || hosts[h] != c.Hostname {
				t.Fatalf("Hosts()[%d] is not the hostname %q", h, c.Hostname)
			}
			h++
		}
	}
	if i != len(inputs) || h != len(hosts) {
		t.Errorf("Inputs has %d extra, Hosts %d extra", len(inputs)-i, len(hosts)-h)
	}
}
