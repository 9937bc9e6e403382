// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// nginxPath returns Debian's nginx, or skips the test.
func nginxPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("no nginx: apt-get install nginx (CI does) to test nginx/mirror.conf in front of two replicas")
	return ""
}

// freePort returns a loopback port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startNginx runs nginx with nginx/mirror.conf, its three addresses set
// to listen and the two replicas, in a main configuration of its own, on
// loopback. It returns nginx's base URL.
func startNginx(t *testing.T, replicas [2]string) string {
	t.Helper()
	bin := nginxPath(t)
	conf, err := os.ReadFile("nginx/mirror.conf")
	if err != nil {
		t.Fatal(err)
	}
	listen := "127.0.0.1:" + strconv.Itoa(freePort(t))
	site := strings.NewReplacer("127.0.0.1:8080", listen, "127.0.0.1:8081", replicas[0], "127.0.0.1:8082", replicas[1]).Replace(string(conf))
	if !strings.Contains(site, replicas[0]) || !strings.Contains(site, replicas[1]) || !strings.Contains(site, listen) {
		t.Fatalf("nginx/mirror.conf no longer names 127.0.0.1:8080, :8081 and :8082")
	}
	dir := t.TempDir()
	user := ""
	if os.Getuid() == 0 {
		user = "user root;" // workers would run as nobody, who cannot enter the test's directory
	}
	main := fmt.Sprintf(`%s
worker_processes 1;
daemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 256; }
http {
    access_log %[2]s/access.log;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/mirror.conf;
}
`, user, dir)
	if err := os.WriteFile(filepath.Join(dir, "mirror.conf"), []byte(site), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	// nginx logs to its error.log; its workers must not hold a pipe of
	// ours, or Wait would wait for them too.
	out, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		// SIGTERM: the master stops its workers, then exits.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
			t.Logf("nginx:\n%s\n%s", stderr, log)
		}
	})
	base := "http://" + listen
	for deadline := time.Now().Add(10 * time.Second); ; {
		select {
		case err := <-done:
			done <- err
			stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
			t.Fatalf("nginx exited: %v\n%s", err, stderr)
		default:
		}
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("nginx not listening after 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return base
}

// startReplica runs the built binary as a mirror of up, with its own
// -dir, and waits until its lists are loaded.
func startReplica(t *testing.T, up *sbtest.Server) *proc {
	t.Helper()
	p := startBinary(t, "-mirror", "-addr", "127.0.0.1:0", "-upstream", up.URL, "-key", up.APIKey, "-dir", t.TempDir())
	for deadline := time.Now().Add(10 * time.Second); ; {
		if status, _ := send(t, "GET", "http://"+p.addr+"/readyz", ""); status == 200 {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s not ready after 10 s", p.addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestNginx: nginx/mirror.conf in front of two sbserver -mirror replicas
// of one upstream, round robin, and 20 clients through it. Every
// client's verdicts equal a direct client's; a client that moves between
// replicas never gets the whole list again for it; and when one replica
// stops, no verdict is wrong and the clients go on through the other.
func TestNginx(t *testing.T) {
	t.Parallel()
	nginxPath(t)
	up := sbtest.NewServer(sbtest.WithTestURLs())
	t.Cleanup(up.Close)
	var sites []string
	for i := range 60 {
		site := "site" + strconv.Itoa(i) + ".example/"
		sites = append(sites, "http://"+site+"p")
		switch i % 3 {
		case 0:
			up.Add("se-4b", site)
		case 1:
			up.Add("mw-4b", site)
		}
	}
	a, b := startReplica(t, up), startReplica(t, up)
	base := startNginx(t, [2]string{a.addr, b.addr})
	if n := up.Requests("hashList") + up.Requests("hashLists:batchGet"); n != 2 {
		t.Errorf("two replicas made %d upstream list requests, want 2", n)
	}

	direct, err := lookup.New(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if err := direct.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := func(urls []string) []string {
		vs, err := direct.LookupAll(context.Background(), urls)
		if err != nil {
			t.Fatal(err)
		}
		return verdictStrings(vs)
	}

	const clients = 20
	cs := make([]*lookup.Client, clients)
	for i := range cs {
		c, err := lookup.New(lookup.Config{APIKey: "fleet", BaseURL: base, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		cs[i] = c
	}
	// urls are client i's in a round: 10 sites of 60, overlapping.
	urls := func(i, round int) []string {
		var out []string
		for j := range 10 {
			out = append(out, sites[(3*i+j+20*round)%len(sites)])
		}
		if i == 0 {
			out = append(out, "http://malware.testing.google.test/testing/malware/")
		}
		return out
	}
	lookupAll := func(round int) {
		var wg sync.WaitGroup
		for i, c := range cs {
			wg.Go(func() {
				if round == 0 {
					if err := c.Update(context.Background()); err != nil {
						t.Errorf("client %d: update: %v", i, err)
						return
					}
				}
				vs, err := c.LookupAll(context.Background(), urls(i, round))
				if err != nil {
					t.Errorf("client %d, round %d: %v", i, round, err)
					return
				}
				if got, w := verdictStrings(vs), want(urls(i, round)); strings.Join(got, "\n") != strings.Join(w, "\n") {
					t.Errorf("client %d, round %d: verdicts\n%s\nwant\n%s", i, round, strings.Join(got, "\n"), strings.Join(w, "\n"))
				}
			})
		}
		wg.Wait()
	}
	lookupAll(0)
	// Round robin: both replicas served lists.
	for _, p := range []*proc{a, b} {
		_, body := send(t, "GET", "http://"+p.addr+"/metrics", "")
		if !strings.Contains(body, `sbserver_mirror_requests_total{method="hashLists:batchGet"}`) || strings.Contains(body, `sbserver_mirror_requests_total{method="hashLists:batchGet"} 0`) {
			t.Errorf("replica %s served no list: not round robin", p.addr)
		}
	}
	// A client that moves: its versions, sent through nginx again and
	// again (each request to the next replica), get empty partial
	// updates, never the whole list.
	for i, c := range cs[:4] {
		for _, l := range c.Lists() {
			for range 2 {
				msg := fetchList(t, base, l.Name, l.Version)
				if !msg.Partial || len(msg.Additions) != 0 || len(msg.Removals) != 0 || string(msg.Version) != string(l.Version) {
					t.Errorf("client %d, %s at %q: partial %v, %d additions, version %q", i, l.Name, l.Version, msg.Partial, len(msg.Additions), msg.Version)
				}
			}
		}
	}

	// One replica stops: the clients go on through the other.
	if err := a.stop(t); err != nil {
		t.Errorf("replica exit: %v", err)
	}
	lookupAll(1)
	lookupAll(2)
	for _, l := range cs[0].Lists() {
		if msg := fetchList(t, base, l.Name, l.Version); !msg.Partial {
			t.Errorf("%s after the stop: the whole list", l.Name)
		}
	}
	if n := up.Requests("hashList") + up.Requests("hashLists:batchGet"); n != 3 {
		t.Errorf("%d upstream list requests, want the replicas' 2 and the direct client's 1", n)
	}
}

// verdictStrings returns each verdict as a string to compare.
func verdictStrings(vs []lookup.Verdict) []string {
	var out []string
	for _, v := range vs {
		s := fmt.Sprint(v.Unsafe())
		for _, t := range v.Threats {
			s += " " + t.Type.String() + " " + t.Expression
		}
		out = append(out, s)
	}
	return out
}

// fetchList gets one list at version through base, in protobuf, read by
// hashlist's reader.
func fetchList(t *testing.T, base, name string, version []byte) hashlist.Message {
	t.Helper()
	u := base + "/v5/hashList/" + name + "?alt=proto&key=fleet"
	if len(version) > 0 {
		u += "&version=" + url.QueryEscape(base64.StdEncoding.EncodeToString(version))
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var msg hashlist.Message
	if err := msg.UnmarshalBinary(body); resp.StatusCode != 200 || err != nil {
		t.Fatalf("%s: %d %v %.200s", name, resp.StatusCode, err, body)
	}
	return msg
}
