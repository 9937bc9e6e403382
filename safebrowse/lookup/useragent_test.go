// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// TestModuleVersion: the product token names the module's version from the
// build info, or "devel".
func TestModuleVersion(t *testing.T) {
	dep := func(path, version string, replace *debug.Module) *debug.Module {
		return &debug.Module{Path: path, Version: version, Replace: replace}
	}
	tests := []struct {
		name string
		in   *debug.BuildInfo // nil: no build info
		want string
	}{
		// A binary built without module support.
		{"no build info", nil, "devel"},
		// Built in the module's own checkout.
		{"main module, devel", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "devel"},
		// The main module at a tagged version (go install ...@v1.2.3).
		{"main module, tagged", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		// A dependency of another program.
		{"dependency", &debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "v9.0.0"},
			Deps: []*debug.Module{dep("golang.org/x/net", "v0.62.0", nil), dep(modulePath, "v0.4.0", nil)}}, "v0.4.0"},
		// A dependency replaced by a directory has no version.
		{"replaced by a directory", &debug.BuildInfo{Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{dep(modulePath, "v0.4.0", dep("../urlspec", "", nil))}}, "devel"},
		// A dependency replaced by another version.
		{"replaced by a version", &debug.BuildInfo{Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{dep(modulePath, "v0.4.0", dep("example.com/fork", "v0.5.0", nil))}}, "v0.5.0"},
		// Another program that does not depend on the module (cannot happen).
		{"absent", &debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "v9.0.0"}}, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := moduleVersion(tt.in, tt.in != nil); got != tt.want {
				t.Errorf("moduleVersion = %q, want %q", got, tt.want)
			}
		})
	}
	if tok := productToken(); !regexp.MustCompile(`^urlspec/(devel|v[0-9]\S*)$`).MatchString(tok) {
		t.Errorf("productToken() = %q", tok)
	}
}

// TestUserAgent: every request, search and list fetch alike, carries
// Config.UserAgent before the library's product token.
func TestUserAgent(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // before the product token
		wantErr string
	}{
		// None: the product token alone.
		{"default", "", "", ""},
		// A program's own token comes first.
		{"program", "myscanner/1.2 (+https://example.com/bot)", "myscanner/1.2 (+https://example.com/bot) ", ""},
		// Spaces around it are dropped.
		{"spaces", "  myscanner/1.2 ", "myscanner/1.2 ", ""},
		// A control character would split the header: New refuses it.
		{"newline", "a\r\nX-Evil: 1", "", "Config.UserAgent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = append(got, r.UserAgent())
				mu.Unlock()
				http.Error(w, "no", http.StatusServiceUnavailable)
			}))
			defer srv.Close()
			c, err := New(Config{APIKey: testKey, BaseURL: srv.URL, UserAgent: tt.in})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("New = %v, want an error naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Update(bg)
			c.isReady.Store(true) // so that a lookup searches
			c.searchAll(bg, []key{{p: 1}})
			mu.Lock()
			defer mu.Unlock()
			want := tt.want + productToken()
			if len(got) != 2 || got[0] != want || got[1] != want {
				t.Errorf("User-Agent %q, want %q on both requests", got, want)
			}
		})
	}
}
