// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/cachetest"
)

// keyFiles writes the test keys to a directory, in each form ampflush
// reads or refuses, and returns their names and the publisher's key.
func keyFiles(t *testing.T) (map[string]string, *rsa.PrivateKey) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pkcs8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"pkcs8.pem": pkcs8(key),
		"pkcs1.pem": pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		"weak.pem":  pkcs8(weak),
		"ec.pem":    pkcs8(ec),
		"cert.pem":  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}),
		"text.pem":  []byte("not a key\n"),
	}
	names := map[string]string{}
	for n, b := range files {
		names[n] = filepath.Join(dir, n)
		if err := os.WriteFile(names[n], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names["missing.pem"] = filepath.Join(dir, "missing.pem")
	return names, key
}

func TestRun(t *testing.T) {
	files, key := keyFiles(t)
	now := time.Now()
	clock := func() time.Time { return now }
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantLines  int    // signed URLs printed
		wantStdout string // a part of stdout
		wantStderr string // a part of stderr
		wantStatus int
	}{
		// A URL argument, with a PKCS #8 key: one URL per cache.
		{"pkcs8", []string{"-key", files["pkcs8.pem"], "https://www.example.com/a"}, "", 2, "https://www-example-com.cdn.ampproject.org/update-cache/c/s/www.example.com/a?amp_action=flush&amp_ts=", "", 0},
		// URLs from standard input, with a PKCS #1 key.
		{"stdin", []string{"-key", files["pkcs1.pem"]}, "https://www.example.com/a\n\nhttp://example.com/b\n", 4, "https://example-com.www.bing-amp.com/update-cache/c/example.com/b?", "", 0},
		// An invalid URL is reported, and the others still printed.
		{"bad URL", []string{"-key", files["pkcs8.pem"], "ftp://x", "https://example.com/"}, "", 2, "", `ampcache: invalid URL in "ftp://x"`, 1},
		// -h prints the usage, once, on standard error as every command
		// does, and succeeds.
		{"help", []string{"-h"}, "", 0, "", "usage: ampflush -key private-key.pem", 0},
		// -key is required.
		{"no key", []string{"https://example.com/"}, "", 0, "", "-key is required", 2},
		// An unknown flag.
		{"bad flag", []string{"-x"}, "", 0, "", "flag provided but not defined", 2},
		// Keys that are not RSA of 2048 bits or more.
		{"weak key", []string{"-key", files["weak.pem"], "https://example.com/"}, "", 0, "", "want at least 2048 bits", 1},
		{"ec key", []string{"-key", files["ec.pem"], "https://example.com/"}, "", 0, "", "want an RSA key", 1},
		// Files that are not private keys.
		{"certificate", []string{"-key", files["cert.pem"], "https://example.com/"}, "", 0, "", `PEM block "CERTIFICATE"`, 1},
		{"not PEM", []string{"-key", files["text.pem"], "https://example.com/"}, "", 0, "", "no PEM block", 1},
		{"missing file", []string{"-key", files["missing.pem"], "https://example.com/"}, "", 0, "", "no such file", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr, nil, clock)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %q", status, tt.wantStatus, stderr.String())
			}
			out := stdout.String()
			if !strings.Contains(out, tt.wantStdout) || !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out, stderr.String(), tt.wantStdout, tt.wantStderr)
			}
			if tt.name == "help" {
				if n := strings.Count(stderr.String(), "usage"); n != 1 || out != "" {
					t.Errorf("-h: usage printed %d times on stderr, stdout %q; want once, and nothing", n, out)
				}
				return
			}
			n := 0
			for line := range strings.Lines(out) {
				if _, err := ampcache.VerifyUpdateCache(strings.TrimSpace(line), &key.PublicKey, now); err != nil {
					t.Errorf("line %q: %v", line, err)
				}
				n++
			}
			if n != tt.wantLines {
				t.Errorf("%d URLs printed, want %d:\n%s", n, tt.wantLines, out)
			}
		})
	}
}

// -send sends each request to the caches, here a local one that checks
// them as Google's does, and prints each status.
func TestRunSend(t *testing.T) {
	files, key := keyFiles(t)
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	site := http.NewServeMux()
	site.HandleFunc("/.well-known/amphtml/apikey.pub", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		pem.Encode(w, &pem.Block{Type: "PUBLIC KEY", Bytes: der})
	})
	s, err := cachetest.NewServer(site)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	var stdout, stderr strings.Builder
	args := []string{"-key", files["pkcs8.pem"], "-send", "https://www.example.com/a"}
	if status := run(args, nil, &stdout, &stderr, s.Client(), time.Now); status != 0 {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
	want := "204 https://www-example-com.cdn.ampproject.org/update-cache/c/s/www.example.com/a?amp_action=flush&amp_ts="
	if out := stdout.String(); strings.Count(out, "\n") != 2 || !strings.HasPrefix(out, want) || !strings.Contains(out, "\n204 https://www-example-com.www.bing-amp.com/") {
		t.Errorf("stdout:\n%s\nwant two 204 lines, starting %q", out, want)
	}

	// A clock 5 minutes slow: the caches answer 403, and ampflush fails.
	stdout.Reset()
	stale := func() time.Time { return time.Now().Add(-5 * time.Minute) }
	if status := run(args, nil, &stdout, &stderr, s.Client(), stale); status != 1 {
		t.Errorf("stale: status %d, want 1", status)
	}
	if out := stdout.String(); strings.Count(out, "403 https://") != 2 {
		t.Errorf("stale: stdout:\n%s\nwant two 403 lines", out)
	}
	if got := s.Cache.Flushed(); len(got) != 2 || got[0] != "https://www.example.com/a" {
		t.Errorf("Flushed() = %q", got)
	}
}
