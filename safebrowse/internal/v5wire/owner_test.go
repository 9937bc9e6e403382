// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// TestOnlyOwner: of the module's packages, only v5wire's and v4wire's
// non-test files import protowire: each owns its API's messages.
func TestOnlyOwner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/urlspec/urlspec/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const pw = "google.golang.org/protobuf/encoding/protowire"
	var importers []string
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if imp == pw {
				importers = append(importers, f[0])
			}
		}
	}
	want := []string{
		"github.com/urlspec/urlspec/safebrowse/internal/v4wire",
		"github.com/urlspec/urlspec/safebrowse/internal/v5wire",
	}
	if !reflect.DeepEqual(importers, want) {
		t.Errorf("protowire imported by %q; want %q", importers, want)
	}
}
