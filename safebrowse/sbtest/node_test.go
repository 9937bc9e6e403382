// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// nodeDir holds the Node project of Google's generated client,
// @googleapis/safebrowsing, pinned by its package-lock.json.
const nodeDir = "../../testdata/node"

// TestNodeClient calls the server, WithJSON, with Google's generated Node
// client, in JSON (its only format), for each method of the v5 discovery
// document, and once with a wrong key, whose ErrorInfo reason it reads. It
// skips when node, or the project's node_modules (npm ci in
// testdata/node), is missing; CI installs both.
func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: install nodejs and run `npm ci` in testdata/node")
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@googleapis", "safebrowsing")); err != nil {
		t.Skip("testdata/node/node_modules is missing: run `npm ci` in testdata/node")
	}
	s := sbtest.NewServer(sbtest.WithJSON())
	defer s.Close()
	if err := s.Add("se-4b", "evil.example/", sbtest.Canary); err != nil {
		t.Fatal(err)
	}
	h := hash("evil.example/")
	cmd := exec.Command(node, "clients.js")
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(),
		"ROOT_URL="+s.URL+"/",
		"API_KEY="+s.APIKey,
		"PREFIX="+base64.StdEncoding.EncodeToString(h[:4]),
		"URL=http://evil.example/",
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	got := map[string]map[string]any{}
	wrongKey := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var line struct {
			Method string         `json:"method"`
			Status int            `json:"status"`
			Data   map[string]any `json:"data"`
			Error  string         `json:"error"`
			Reason string         `json:"reason"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		if line.Method == "urls.search wrong key" {
			wrongKey = true
			if line.Status != 400 || line.Reason != "API_KEY_INVALID" || !strings.Contains(line.Error, "API key not valid") {
				t.Errorf("%s: status %d, error %q, reason %q; want 400, API key not valid, API_KEY_INVALID", line.Method, line.Status, line.Error, line.Reason)
			}
			continue
		}
		if line.Error != "" || line.Status != 200 {
			t.Errorf("%s: status %d, error %q", line.Method, line.Status, line.Error)
			continue
		}
		got[line.Method] = line.Data
	}
	if !wrongKey {
		t.Error("no line for the call with a wrong key")
	}
	sum := func(exprs ...string) string {
		var b []byte
		for _, e := range exprs {
			h := hash(e)
			b = append(b, h[:4]...)
		}
		return b64(checksum(b))
	}
	want := map[string]string{
		"hashes.search": `{"fullHashes":[{"fullHash":"` + b64(h[:]) + `","fullHashDetails":[{"threatType":"SOCIAL_ENGINEERING","attributes":["CANARY"]}]}],"cacheDuration":"300s"}`,
		"hashList.get":  `{"name":"se-4b","version":"` + b64([]byte("se-4b:1")) + `","additionsFourBytes":{"firstValue":` + firstValue(h) + `},"minimumWaitDuration":"1800s","sha256Checksum":"` + sum("evil.example/") + `"}`,
		"hashLists.batchGet": `{"hashLists":[{"name":"se-4b","version":"` + b64([]byte("se-4b:1")) + `","additionsFourBytes":{"firstValue":` + firstValue(h) + `},"minimumWaitDuration":"1800s","sha256Checksum":"` + sum("evil.example/") + `"},` +
			`{"name":"mw-4b","version":"` + b64([]byte("mw-4b:0")) + `","minimumWaitDuration":"1800s","sha256Checksum":"` + sum() + `"}]}`,
		"hashLists.list": `{"hashLists":[{"name":"gc-32b","metadata":{"likelySafeTypes":["GENERAL_BROWSING"],"description":"Global Cache: expressions likely to be safe (sbtest)","hashLength":"THIRTY_TWO_BYTES"}},` +
			`{"name":"se-4b","metadata":{"threatTypes":["SOCIAL_ENGINEERING"],"description":"Social engineering (sbtest)","hashLength":"FOUR_BYTES"}}],"nextPageToken":"2"}`,
		"urls.search": `{"threats":[{"url":"http://evil.example/","threatTypes":["SOCIAL_ENGINEERING"]}],"cacheDuration":"300s"}`,
	}
	for method, w := range want {
		var wv map[string]any
		if err := json.Unmarshal([]byte(w), &wv); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if !reflect.DeepEqual(got[method], wv) {
			t.Errorf("%s:\n got %v\nwant %v", method, got[method], wv)
		}
	}
	for _, ep := range []string{"hashes:search", "hashList", "hashLists:batchGet", "hashLists", "urls:search"} {
		want := 1
		if ep == "urls:search" {
			want = 2 // and the wrong key's
		}
		if n := s.Requests(ep); n != want {
			t.Errorf("Requests(%q) = %d, want %d", ep, n, want)
		}
	}
}

// firstValue returns the 4-byte prefix of h as the decimal firstValue of a
// RiceDeltaEncoded32Bit in JSON.
func firstValue(h [32]byte) string {
	v := uint32(h[0])<<24 | uint32(h[1])<<16 | uint32(h[2])<<8 | uint32(h[3])
	b, _ := json.Marshal(v)
	return string(b)
}

func checksum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}
