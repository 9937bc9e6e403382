// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/googleapis/gax-go/v2/apierror"
	"google.golang.org/api/option"
)

// built is the sbserver binary, built once for the package's tests.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// sbserverBinary builds cmd/sbserver from the main module, two directories
// up, into a temporary directory, and returns its path.
func sbserverBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds sbserver: not with -short")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "gapi-sbserver")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "sbserver")
		cmd := exec.Command("go", "build", "-o", built.path, "./cmd/sbserver")
		cmd.Dir = filepath.Join("..", "..")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build ./cmd/sbserver: %v\n%s", built.err, built.out)
	}
	return built.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// clientKey is the client key sbserver is started with.
const clientKey = "gapi-client-key"

// startSbserver runs the built sbserver with args, -fake and -mirror when
// none are given, and -client-keys on a free loopback port, waits until
// /readyz answers 200, and returns its base URL, "http://127.0.0.1:port".
// The process is killed when the test ends.
func startSbserver(t *testing.T, args ...string) string {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "client-keys")
	if err := os.WriteFile(keys, []byte(clientKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(args) == 0 {
		args = []string{"-fake", "-mirror"}
	}
	cmd := exec.Command(sbserverBinary(t), append(args, "-addr", "127.0.0.1:0", "-client-keys", keys)...)
	cmd.Env = append(os.Environ(), "SAFE_BROWSING_API_KEY=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log strings.Builder
	logged := func() string { mu.Lock(); defer mu.Unlock(); return log.String() }
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("sbserver's log:\n%s", logged())
		}
	})
	// The log line is msg="sbserver listening" addr=http://127.0.0.1:port.
	listening := regexp.MustCompile(`sbserver listening"? "?addr"?[=:]"?(http://[^\s"]+)`)
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addrc <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var base string
	select {
	case base = <-addrc:
	case <-time.After(30 * time.Second):
		t.Fatalf("no \"sbserver listening\" line in 30 s:\n%s", logged())
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 20 s (%v):\n%s", err, logged())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// clientOptions point a generated client at base with key ("" for none),
// sent as option.WithAPIKey sends it, as key=. WithAPIKey itself is not
// used: option.WithHTTPClient, which keeps the client off any other
// credentials, makes the client ignore it.
func clientOptions(base, key string) []option.ClientOption {
	var rt http.RoundTripper = http.DefaultTransport
	if key != "" {
		rt = keyTransport{key, rt}
	}
	return []option.ClientOption{
		option.WithEndpoint(base + "/"),
		option.WithHTTPClient(&http.Client{Transport: rt, Timeout: 30 * time.Second}),
	}
}

// keyTransport adds key= to each request's query.
type keyTransport struct {
	key  string
	base http.RoundTripper
}

func (t keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	q := r.URL.Query()
	q.Set("key", t.key)
	r.URL.RawQuery = q.Encode()
	return t.base.RoundTrip(r)
}

// wantAPIError checks that err is an API error as Google's clients read
// it: HTTP status code, and the reason of its ErrorInfo ("" for none),
// whose domain is googleapis.com and whose metadata names the Safe
// Browsing service.
func wantAPIError(t *testing.T, err error, code int, reason string) {
	t.Helper()
	wantServiceError(t, err, code, reason, "safebrowsing.googleapis.com")
}

// wantServiceError is wantAPIError for the API of service, such as
// "webrisk.googleapis.com".
func wantServiceError(t *testing.T, err error, code int, reason, service string) {
	t.Helper()
	var ae *apierror.APIError
	if !errors.As(err, &ae) {
		var ok bool
		if ae, ok = apierror.FromError(err); !ok {
			t.Fatalf("error %v (%T) is not an API error", err, err)
		}
	}
	if ae.HTTPCode() != code || ae.Reason() != reason {
		t.Errorf("HTTP %d, reason %q; want %d, %q: %v", ae.HTTPCode(), ae.Reason(), code, reason, err)
	}
	if reason != "" && (ae.Domain() != "googleapis.com" || ae.Metadata()["service"] != service) {
		t.Errorf("domain %q, metadata %v; want googleapis.com, %s", ae.Domain(), ae.Metadata(), service)
	}
}

// ctx is the context of every call: a call that hangs fails the test.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}
