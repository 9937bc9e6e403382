// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseFlags: the flags that fall back to the environment, from the
// command line and from $SBSERVER_<FLAG>.
func TestParseFlags(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	clientKeys := filepath.Join(dir, "clients")
	if err := os.WriteFile(keyFile, []byte("  upstream-key \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clientKeys, []byte("# team A\n  key-a  \n\n#key-x\nkey-b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"SAFE_BROWSING_API_KEY":   "from-env",
		"SBSERVER_CLIENT_KEYS":    clientKeys,
		"SBSERVER_CACHE_DURATION": "60s",
		"SBSERVER_LOG_FORMAT":     "json",
	}
	getenv := func(k string) string { return env[k] }

	// The environment fills in; -key-file wins over $SAFE_BROWSING_API_KEY;
	// a non-loopback address is allowed with client keys.
	c, err := parseFlags([]string{"-addr", "0.0.0.0:8080", "-key-file", keyFile}, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.key != "upstream-key" || !slices.Equal(c.keys, []string{"key-a", "key-b"}) || c.cacheDuration != time.Minute || c.logFormat != "json" {
		t.Errorf("config %+v", c)
	}
	// The command line wins over the environment.
	c, err = parseFlags([]string{"-cache-duration", "2s", "-log-format", "text"}, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.key != "from-env" || c.cacheDuration != 2*time.Second || c.logFormat != "text" {
		t.Errorf("config %+v", c)
	}
	// Every new flag has its variable.
	for _, name := range envFlags {
		if envName(name) == "" || !slices.Contains([]string{"SBSERVER_UPSTREAM", "SBSERVER_KEY_FILE", "SBSERVER_CACHE_DURATION", "SBSERVER_TLS_CERT",
			"SBSERVER_TLS_KEY", "SBSERVER_CLIENT_KEYS", "SBSERVER_LOG_FORMAT", "SBSERVER_LOG_LEVEL", "SBSERVER_MIRROR", "SBSERVER_CACHE_SIZE",
			"SBSERVER_OHTTP_RELAY", "SBSERVER_OHTTP_KEY_URL", "SBSERVER_CACHE_BYTES", "SBSERVER_UPSTREAM_SEARCHES", "SBSERVER_OHTTP_PADDING",
			"SBSERVER_MAX_SEARCHES_PER_MINUTE", "SBSERVER_API"}, envName(name)) {
			t.Errorf("flag -%s: variable %s", name, envName(name))
		}
	}
}

// TestMaxSearchesPerMinute: -max-searches-per-minute, from the command
// line or $SBSERVER_MAX_SEARCHES_PER_MINUTE, 0 by default (no cap), and
// its bounds.
func TestMaxSearchesPerMinute(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    int
		wantErr string
	}{
		// No cap by default.
		{"default", nil, nil, 0, ""},
		// The flag, the variable, and the flag over the variable.
		{"flag", []string{"-max-searches-per-minute", "6000"}, nil, 6000, ""},
		{"env", nil, map[string]string{"SBSERVER_MAX_SEARCHES_PER_MINUTE": "100"}, 100, ""},
		{"flag over env", []string{"-max-searches-per-minute", "5"}, map[string]string{"SBSERVER_MAX_SEARCHES_PER_MINUTE": "100"}, 5, ""},
		// Negative, or past lookup's bound.
		{"negative", []string{"-max-searches-per-minute", "-1"}, nil, 0, "-max-searches-per-minute -1"},
		{"huge", []string{"-max-searches-per-minute", "6000001"}, nil, 0, "-max-searches-per-minute 6000001"},
		// Not a number.
		{"word", []string{"-max-searches-per-minute", "many"}, nil, 0, "max-searches-per-minute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "SAFE_BROWSING_API_KEY" {
					return "k"
				}
				return tt.env[k]
			}
			c, err := parseFlags(tt.args, getenv, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("parseFlags = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.maxSearchesPerMinute != tt.want {
				t.Errorf("maxSearchesPerMinute %d, want %d", c.maxSearchesPerMinute, tt.want)
			}
		})
	}
}

// TestSearchBudgetServed: past -max-searches-per-minute, a check that
// needs an upstream search is a 503, never a safe reply, and
// sbserver_searches_over_budget_total counts it.
func TestSearchBudgetServed(t *testing.T) {
	addr, _, stop := start(t, "-fake", "-mode", "NoStorage", "-max-searches-per-minute", "1")
	defer stop()
	base := "http://" + addr
	waitReadyz(t, base)
	ctx := context.Background()
	if status, body, err := get(ctx, base+"/v5/urls:search?urls=http://a.example/"); err != nil || status != 200 {
		t.Fatalf("the first search: %d %v %s", status, err, body)
	}
	if status, body, err := get(ctx, base+"/v5/urls:search?urls=http://b.example/"); err != nil || status != 503 {
		t.Errorf("past the budget: %d %v %s, want 503", status, err, body)
	}
	if n := metric(t, base, "sbserver_searches_over_budget_total"); n != 1 {
		t.Errorf("sbserver_searches_over_budget_total %v, want 1", n)
	}
}
