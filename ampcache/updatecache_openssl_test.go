// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
)

// These tests check update-cache signatures against OpenSSL, the tool
// Google's update-cache page uses to make the key. CI installs it
// (.ci/run); without it they skip.

// openssl returns a function that runs openssl in dir, or skips the test
// if openssl is not installed.
func openssl(t *testing.T) func(stdin string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not found in PATH: install it (Debian: apt-get install openssl) to check update-cache signatures against OpenSSL")
	}
	dir := t.TempDir()
	return func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
}

// UpdateCacheURL's signatures verify with "openssl dgst -sha256 -verify"
// over the string Google's page says is signed: the path and query from
// "/update-cache/" up to and including amp_ts, without the cache host.
func TestUpdateCacheURLOpenSSLVerify(t *testing.T) {
	run := openssl(t)
	dir := t.TempDir()
	der, err := x509.MarshalPKIXPublicKey(&publisherKey().PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM := filepath.Join(dir, "apikey.pub")
	writeFile(t, pubPEM, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	urls, err := ampcache.UpdateCacheURLs("https://www.example.com/news/a.html?id=7&b=%20", time.Now(), publisherKey())
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range urls {
		signed, sig := splitSigned(t, u)
		msg, sigFile := filepath.Join(dir, "msg"+strconv.Itoa(i)), filepath.Join(dir, "sig"+strconv.Itoa(i))
		writeFile(t, msg, []byte(signed))
		writeFile(t, sigFile, sig)
		if out := run("", "dgst", "-sha256", "-verify", pubPEM, "-signature", sigFile, msg); !strings.Contains(out, "Verified OK") {
			t.Errorf("openssl does not verify %q: %s", u, out)
		}
		// And OpenSSL refuses the same signature over the URL with its host.
		writeFile(t, msg, []byte(u[:strings.LastIndex(u, "&amp_url_signature=")]))
		cmd := exec.Command("openssl", "dgst", "-sha256", "-verify", pubPEM, "-signature", sigFile, msg)
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "Verification failure") {
			t.Errorf("openssl verified the signature over the URL with its host: %s", out)
		}
	}
}

// VerifyUpdateCache accepts a URL signed without this package: the key is
// made with "openssl genrsa", the public key published as apikey.pub with
// "openssl rsa -pubout", the request signed with "openssl dgst -sha256
// -sign" and encoded URL-safe by openssl base64 and tr, as a publisher's
// shell script would.
func TestVerifyUpdateCacheOpenSSLSign(t *testing.T) {
	run := openssl(t)
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	run("", "genrsa", "-out", filepath.Join(dir, "private-key.pem"), "2048")
	run("", "rsa", "-in", filepath.Join(dir, "private-key.pem"), "-pubout", "-out", filepath.Join(dir, "apikey.pub"))
	pub := readPublicKey(t, filepath.Join(dir, "apikey.pub"))

	now := time.Now()
	signed := "/update-cache/c/s/www.example.com/news/a.html?id=7&amp_action=flush&amp_ts=" + strconv.FormatInt(now.Unix(), 10)
	writeFile(t, filepath.Join(dir, "msg"), []byte(signed))
	for _, tt := range []struct{ name, tr string }{
		// Unpadded, as amp-toolbox writes it.
		{"unpadded", "tr '+/' '-_' | tr -d '=\\n'"},
		// Padded.
		{"padded", "tr '+/' '-_' | tr -d '\\n'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", "openssl dgst -sha256 -sign private-key.pem msg | openssl base64 -A | "+tt.tr)
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			u := "https://www-example-com.cdn.ampproject.org" + signed + "&amp_url_signature=" + string(out)
			got, err := ampcache.VerifyUpdateCache(u, pub, now)
			if want := "https://www.example.com/news/a.html?id=7"; err != nil || got != want {
				t.Errorf("VerifyUpdateCache(%q) = %q, %v; want %q", u, got, err, want)
			}
		})
	}

	// UpdateCacheURL with OpenSSL's key signs the same bytes: PKCS #1 v1.5
	// is deterministic. OpenSSL 3's genrsa writes PKCS #8; the PKCS #1 form
	// ("openssl rsa -traditional") holds the same key.
	run("", "rsa", "-in", filepath.Join(dir, "private-key.pem"), "-traditional", "-out", filepath.Join(dir, "pkcs1.pem"))
	cmd := exec.Command("sh", "-c", "openssl dgst -sha256 -sign private-key.pem msg | openssl base64 -A | tr '+/' '-_' | tr -d '='")
	cmd.Dir = dir
	b64, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "https://www-example-com.cdn.ampproject.org" + signed + "&amp_url_signature=" + string(b64)
	for _, name := range []string{"private-key.pem", "pkcs1.pem"} {
		key := readPrivateKey(t, filepath.Join(dir, name))
		got, err := ampcache.UpdateCacheURL(google, "https://www.example.com/news/a.html?id=7", now, key)
		if err != nil || got != want {
			t.Errorf("UpdateCacheURL with OpenSSL's %s =\n%s, %v\nwant\n%s", name, got, err, want)
		}
	}
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// readPublicKey reads a PEM "PUBLIC KEY", as openssl rsa -pubout writes it.
func readPublicKey(t *testing.T, name string) *rsa.PublicKey {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PUBLIC KEY" {
		t.Fatalf("%s: no PEM PUBLIC KEY", name)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(*rsa.PublicKey)
}

// readPrivateKey reads a PEM private key in PKCS #8 or PKCS #1.
func readPrivateKey(t *testing.T, name string) *rsa.PrivateKey {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s: no PEM", name)
	}
	if block.Type == "RSA PRIVATE KEY" {
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(*rsa.PrivateKey)
}
