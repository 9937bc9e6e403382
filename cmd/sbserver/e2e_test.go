// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var built struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// binary builds the command as the Containerfile does (CGO_ENABLED=0) and
// returns its path.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary: not with -short")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "sbserver-e2e")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "sbserver")
		cmd := exec.Command("go", "build", "-trimpath", "-o", built.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}

// TestStatic: the binary the Containerfile copies into an image FROM
// scratch must need no dynamic loader and no shared library.
func TestStatic(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("ELF only")
	}
	f, err := elf.Open(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary names a dynamic loader (PT_INTERP): not static")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries: %v", libs)
	}
}

// TestContainerfile: the image FROM scratch has no /tmp and a root-owned
// /, so the -dir of the README's container command must be a directory
// the Containerfile makes, owned by the image's user, and a VOLUME so
// that the lists outlive the container.
func TestContainerfile(t *testing.T) {
	cf, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	user := regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`).FindSubmatch(cf)
	if user == nil {
		t.Fatal("Containerfile: no USER uid:gid")
	}
	dirs := regexp.MustCompile(`(?m)^\s*sbserver -addr .* -dir (\S+)`).FindAllSubmatch(readme, -1)
	if len(dirs) == 0 {
		t.Fatal("README.md: no container command with -dir")
	}
	for _, m := range dirs {
		dir := regexp.QuoteMeta(string(m[1]))
		chown := `(?m)^COPY --from=build --chown=` + string(user[1]) + ":" + string(user[2]) + ` \S+ ` + dir + `/?$`
		if !regexp.MustCompile(chown).Match(cf) {
			t.Errorf("README's -dir %s: the Containerfile makes no such directory owned by %s:%s", m[1], user[1], user[2])
		}
		if !regexp.MustCompile(`(?m)^VOLUME .*"` + dir + `"`).Match(cf) {
			t.Errorf("README's -dir %s: the Containerfile declares no VOLUME for it", m[1])
		}
	}
}

// A proc is the built binary, running.
type proc struct {
	cmd    *exec.Cmd
	addr   string // host:port, from the "sbserver listening" line
	mu     sync.Mutex
	stderr strings.Builder
	done   chan error
}

// startBinary runs the built binary with args and waits for its
// "sbserver listening" log line.
func startBinary(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binary(t), args...), done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), "SAFE_BROWSING_API_KEY=")
	r, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrc := make(chan string, 1)
	// In text or JSON: msg="sbserver listening" addr=http://... or "msg":"sbserver listening","addr":"http://...".
	listening := regexp.MustCompile(`"?msg"?[=:]"sbserver listening"[ ,]"?addr"?[=:]"?https?://([^\s"]+)`)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
		io.Copy(io.Discard, r)
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("stderr:\n%s", p.log())
		}
	})
	select {
	case p.addr = <-addrc:
	case err := <-p.done:
		t.Fatalf("sbserver exited: %v\n%s", err, p.log())
	case <-time.After(30 * time.Second):
		t.Fatalf("no \"sbserver listening\" line in 30 s:\n%s", p.log())
	}
	return p
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// stop sends SIGTERM and returns the exit error.
func (p *proc) stop(t *testing.T) error {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("no exit 20 s after SIGTERM")
		return nil
	}
}

// writeKeys writes a -client-keys file.
func writeKeys(t *testing.T, keys ...string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "client-keys")
	if err := os.WriteFile(name, []byte("# clients\n"+strings.Join(keys, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestBinary: the built binary with -fake and -client-keys, driven on
// every endpoint, including auth failures and cross-site refusals; then
// SIGTERM shuts it down with status 0.
func TestBinary(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "-fake", "-addr", "127.0.0.1:0", "-client-keys", writeKeys(t, clientKey), "-log-format", "json")
	base := "http://" + p.addr
	const malware = "http://malware.testing.google.test/testing/malware/"
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, _ := send(t, "GET", base+"/readyz", "")
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d after 10 s", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	jsonCT := "Content-Type: application/json"
	auth := "X-Goog-Api-Key: " + clientKey
	findBody := findBody(`"MALWARE"`, `"LINUX"`, malware, "http://example.com/")
	for _, tt := range []struct {
		name, method, path, body string
		headers                  []string
		wantStatus               int
		want                     string
	}{
		// The probes, with no key.
		{"healthz", "GET", "/healthz", "", nil, 200, `{"status":"ok"}`},
		// Ready once the fake's lists have loaded.
		{"readyz", "GET", "/readyz", "", nil, 200, `{"status":"ok"}`},
		// v5 urls.search with the key parameter.
		{"urls:search", "GET", "/v5/urls:search?urls=" + malware + "&urls=http://example.com/&key=" + clientKey, "", nil, 200,
			`{"threats":[{"url":"` + malware + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}`},
		// v4 threatMatches:find with a bearer token.
		{"threatMatches:find", "POST", "/v4/threatMatches:find", findBody, []string{jsonCT, "Authorization: Bearer " + clientKey}, 200,
			`{"matches":[{"threatType":"MALWARE","platformType":"LINUX","threatEntryType":"URL","threat":{"url":"` + malware + `"},"cacheDuration":"300s"}]}`},
		// sbserver's own lookup.
		{"urls:lookup", "POST", "/v5/urls:lookup", `{"urls":["` + malware + `"]}`, []string{jsonCT, auth}, 200, `"unsafe":true`},
		// The status.
		{"status", "GET", "/status", "", []string{auth}, 200, `"ready":true`},
		// The metrics.
		{"metrics", "GET", "/metrics", "", []string{auth}, 200, `sbserver_requests_total{code="200",endpoint="urls:search"} 1`},
		// No key: 401 in Google's shape.
		{"no key", "GET", "/v5/urls:search?urls=" + malware, "", nil, 401, `"status":"UNAUTHENTICATED"`},
		// A wrong key: 403.
		{"wrong key", "POST", "/v4/threatMatches:find?key=nope", findBody, []string{jsonCT}, 403, `"status":"PERMISSION_DENIED"`},
		// The fake's upstream key is no client key.
		{"upstream key", "GET", "/status?key=sbtest-key", "", nil, 403, `client key not accepted`},
		// A wrong key on the lookup: today's shape.
		{"lookup wrong key", "POST", "/v5/urls:lookup?key=nope", `{"urls":[]}`, []string{jsonCT}, 403, `{"error":"sbserver: client key not accepted"}`},
		// A cross-site request, even with a key.
		{"cross-site", "GET", "/v5/urls:search?urls=" + malware, "", []string{auth, "Sec-Fetch-Site: cross-site"}, 403, `cross-site request refused`},
		// Another origin.
		{"origin", "POST", "/v5/urls:lookup", `{"urls":[]}`, []string{jsonCT, auth, "Origin: https://attacker.example"}, 403, `cross-site request refused`},
		// A rebound name.
		{"rebinding", "GET", "/healthz", "", []string{"Host: attacker.example"}, 403, `Host is not this server's`},
		// A text/plain POST, which needs no preflight.
		{"text/plain", "POST", "/v5/urls:lookup", `{"urls":[]}`, []string{"Content-Type: text/plain", auth}, 415, `must be application/json`},
		// Another path.
		{"not found", "GET", "/v5/hashes:search", "", []string{auth}, 404, `not found`},
		// Another method.
		{"method", "DELETE", "/status", "", []string{auth}, 405, `not allowed`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := send(t, tt.method, base+tt.path, tt.body, tt.headers...)
			if status != tt.wantStatus || !strings.Contains(body, tt.want) {
				t.Errorf("status %d, body %.300s\nwant %d, %s", status, body, tt.wantStatus, tt.want)
			}
		})
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
	log := p.log()
	for _, secret := range []string{clientKey, "sbtest-key"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log shows the key %q", secret)
		}
	}
	if !strings.Contains(log, `"msg":"sbserver shutting down"`) {
		t.Errorf("no shutdown line in the JSON log:\n%s", log)
	}
}

// TestNodeClient: Google's published Node client, with its rootUrl
// pointed at the built binary, for urls.search (v5) and threatMatches.find
// (v4). CI installs Node and the client (.ci/run: npm ci in testdata/node).
func TestNodeClient(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node: install nodejs (CI does), then npm ci in testdata/node")
	}
	dir, err := filepath.Abs("../../testdata/node")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@googleapis", "safebrowsing")); err != nil {
		t.Skipf("no @googleapis/safebrowsing in %s/node_modules: run npm ci there (CI does)", dir)
	}
	p := startBinary(t, "-fake", "-addr", "127.0.0.1:0", "-client-keys", writeKeys(t, clientKey))
	deadline := time.Now().Add(10 * time.Second)
	for status, _ := send(t, "GET", "http://"+p.addr+"/readyz", ""); status != 200; status, _ = send(t, "GET", "http://"+p.addr+"/readyz", "") {
		if time.Now().After(deadline) {
			t.Fatal("not ready after 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd := exec.Command(node, "sbserver.mjs", "http://"+p.addr+"/", clientKey)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("node:\n%s", out)
	if err != nil {
		t.Fatalf("node sbserver.mjs: %v", err)
	}
}
