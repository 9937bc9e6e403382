// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cmdtest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestHelp: every command of the module, under cmd/ and examples/, exits
// 0 on -h and prints its usage once, to standard error, as the flag
// package does. The commands are found with go list, so a new one is
// checked too. They are built in one go build with this test binary's own
// build flags (-race under go test -race), so that the packages go test
// compiled for the tests serve the commands too: built with other flags,
// the whole graph down to the standard library would compile again.
func TestHelp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./cmd/...", "./examples/...")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 9 { // the commands of today: a broken pattern finds fewer
		t.Fatalf("go list found %d commands: %v", len(pkgs), pkgs)
	}
	bin := t.TempDir()
	args := append([]string{"build", "-o", bin + string(filepath.Separator)}, buildFlags(t)...)
	build := exec.Command("go", append(args, pkgs...)...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, pkg := range pkgs {
		name := pkg[strings.LastIndex(pkg, "/")+1:]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(bin, name), "-h")
			// A -race binary sleeps a second at exit, for the reports of
			// goroutines still running; -h starts none.
			cmd.Env = append(cmd.Environ(), "SAFE_BROWSING_API_KEY=", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			switch {
			case errors.As(err, &ee):
				t.Errorf("-h exits %d, want 0; stderr:\n%s", ee.ExitCode(), stderr.String())
			case err != nil:
				t.Fatal(err)
			}
			if n := strings.Count(strings.ToLower(stderr.String()), "usage"); n != 1 {
				t.Errorf("-h prints \"usage\" %d times on standard error, want once:\n%s", n, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("-h prints on standard output:\n%s", stdout.String())
			}
		})
	}
}

// buildFlags returns the go build flags that made this test binary and
// that change how every package compiles: -race, -msan, -asan, -trimpath
// and -tags. The environment (CGO_ENABLED, GOARCH, GOFLAGS, ...) passes
// to a child go command by itself.
func buildFlags(t *testing.T) []string {
	t.Helper()
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information in the test binary")
	}
	var flags []string
	for _, s := range bi.Settings {
		switch s.Key {
		case "-race", "-msan", "-asan", "-trimpath":
			if s.Value == "true" {
				flags = append(flags, s.Key)
			}
		case "-tags":
			flags = append(flags, s.Key+"="+s.Value)
		}
	}
	return flags
}
