// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
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
			"SBSERVER_OHTTP_RELAY", "SBSERVER_OHTTP_KEY_URL", "SBSERVER_CACHE_BYTES", "SBSERVER_UPSTREAM_SEARCHES", "SBSERVER_OHTTP_PADDING"}, envName(name)) {
			t.Errorf("flag -%s: variable %s", name, envName(name))
		}
	}
}
