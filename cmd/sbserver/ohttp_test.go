// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestBinaryOHTTP: the built binary with -upstream an sbtest server,
// -ohttp-relay a loopback relay to that server's gateway and -ohttp-key-url
// its key, answers urls:search with every search through the relay: the
// upstream sees gateway requests and no direct search. /status and /metrics
// report the key.
func TestBinaryOHTTP(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithTestURLs())
	defer up.Close()
	relay := sbtest.NewRelay(up.OHTTPGatewayURL())
	defer relay.Close()
	keyFile := writeKeys(t, up.APIKey)
	p := startBinary(t, "-addr", "127.0.0.1:0", "-upstream", up.URL, "-key-file", keyFile,
		"-ohttp-relay", relay.URL, "-ohttp-key-url", up.OHTTPKeyURL())
	base := "http://" + p.addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		if status, _ := send(t, "GET", base+"/readyz", ""); status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz not 200 after 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}

	const malware = "http://malware.testing.google.test/testing/malware/"
	status, body := send(t, "GET", base+"/v5/urls:search?urls="+url.QueryEscape(malware)+"&urls=http://example.com/", "")
	want := `{"threats":[{"url":"` + malware + `","threatTypes":["MALWARE"]}],"cacheDuration":"300s"}`
	if status != 200 || strings.TrimSpace(body) != want {
		t.Fatalf("urls:search: %d %s; want 200 %s", status, body, want)
	}
	if n := up.Requests("hashes:search"); n != 0 {
		t.Errorf("the upstream saw %d direct searches; want none", n)
	}
	if n := up.Requests("ohttp"); n == 0 {
		t.Error("the upstream's gateway saw no request")
	}

	status, body = send(t, "GET", base+"/status", "")
	var st statusReply
	if err := json.Unmarshal([]byte(body), &st); err != nil || status != 200 || st.OHTTP == nil || st.OHTTP.Fetched.IsZero() || st.OHTTP.Error != "" {
		t.Errorf("/status: %d %s (%v); want the OHTTP key, fetched, no error", status, body, err)
	}
	_, metrics := send(t, "GET", base+"/metrics", "")
	for _, series := range []string{"sbserver_ohttp_searches_total 1", "sbserver_ohttp_key_fetches_total 1", "sbserver_ohttp_key_errors_total 0"} {
		if !strings.Contains(metrics, series+"\n") {
			t.Errorf("/metrics has no %q", series)
		}
	}
	if strings.Contains(p.log()+body+metrics, up.APIKey) {
		t.Error("the upstream key shows in the log, /status or /metrics")
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestOHTTPFlags: -ohttp-key-url and -ohttp-padding need -ohttp-relay;
// each falls back to its SBSERVER_ variable.
func TestOHTTPFlags(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	var stderr strings.Builder
	if _, err := parseFlags([]string{"-key", "k", "-ohttp-key-url", "http://127.0.0.1:1/keys"}, getenv, &stderr); err == nil ||
		!strings.Contains(err.Error(), "-ohttp-key-url needs -ohttp-relay") {
		t.Errorf("-ohttp-key-url alone: %v; want a usage error", err)
	}
	if _, err := parseFlags([]string{"-key", "k", "-ohttp-padding"}, getenv, &stderr); err == nil ||
		!strings.Contains(err.Error(), "-ohttp-padding needs -ohttp-relay") {
		t.Errorf("-ohttp-padding alone: %v; want a usage error", err)
	}
	env["SBSERVER_OHTTP_RELAY"] = "http://127.0.0.1:1/relay"
	env["SBSERVER_OHTTP_KEY_URL"] = "http://127.0.0.1:1/keys"
	env["SBSERVER_OHTTP_PADDING"] = "true"
	c, err := parseFlags([]string{"-key", "k"}, getenv, &stderr)
	if err != nil || c.ohttpRelay != "http://127.0.0.1:1/relay" || c.ohttpKeyURL != "http://127.0.0.1:1/keys" || !c.ohttpPadding {
		t.Errorf("from the environment: %+v, %v", c, err)
	}
}
