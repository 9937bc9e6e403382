// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibraryDeps: the Prometheus client is for cmd/sbserver only;
// importing a library package (everything outside cmd/ and examples/) must
// compile in none of it.
func TestLibraryDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module: not with -short")
	}
	const mod = "github.com/urlspec/urlspec/"
	out, err := exec.Command("go", "list", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var lib []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, mod+"cmd/") && !strings.HasPrefix(p, mod+"examples/") {
			lib = append(lib, p)
		}
	}
	if len(lib) < 5 {
		t.Fatalf("only %d library packages: %v", len(lib), lib)
	}
	for _, p := range lib {
		out, err := exec.Command("go", "list", "-deps", p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		for _, d := range strings.Fields(string(out)) {
			if strings.Contains(d, "prometheus") {
				t.Errorf("%s depends on %s", p, d)
			}
		}
	}
	// The test tests something: the command does depend on it.
	out, err = exec.Command("go", "list", "-deps", mod+"cmd/sbserver").Output()
	if err != nil || !strings.Contains(string(out), "github.com/prometheus/client_golang/prometheus\n") {
		t.Errorf("cmd/sbserver does not depend on the Prometheus client (%v): the check is wrong", err)
	}
}
