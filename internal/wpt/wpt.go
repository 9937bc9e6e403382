// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package wpt reads the browsers' URL parsing suite, web-platform-tests
// url/resources/urltestdata.json, vendored as testdata/wpt-urltestdata.json
// (see testdata/README.md). The tests of every package use it as hostile
// input, as fuzz seeds, and for the host a browser sees; each reads it
// through Cases, Inputs or Hosts, which stop the test if the file cannot be
// read.
package wpt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Case is one case of the suite. A case with Failure set is one a browser
// rejects, and has no parts.
type Case struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
	Protocol string  `json:"protocol"`
	Hostname string  `json:"hostname"`
	Pathname string  `json:"pathname"`
	Search   string  `json:"search"`
	Failure  bool    `json:"failure"`
}

// Cases returns every case of the suite, in order, or stops tb if the file
// cannot be read.
func Cases(tb testing.TB) []Case {
	tb.Helper()
	cases, err := read()
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// Inputs returns the non-empty inputs of the suite, in order, as fuzz seeds
// and hostile inputs.
func Inputs(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, c := range Cases(tb) {
		if c.Input != "" {
			out = append(out, c.Input)
		}
	}
	return out
}

// Hosts returns the inputs of the suite and the hostnames a browser reads
// from them, in order, as hostile and unusual domains.
func Hosts(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, c := range Cases(tb) {
		out = append(out, c.Input)
		if c.Hostname != "" {
			out = append(out, c.Hostname)
		}
	}
	return out
}

// AddInputs adds each of Inputs to f's seed corpus.
func AddInputs(f *testing.F) {
	f.Helper()
	for _, s := range Inputs(f) {
		f.Add(s)
	}
}

// AddHosts adds each of Hosts to f's seed corpus.
func AddHosts(f *testing.F) {
	f.Helper()
	for _, s := range Hosts(f) {
		f.Add(s)
	}
}

// read returns every case of the suite, in order. The file's strings,
// which are comments, are skipped.
func read() ([]Case, error) {
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "wpt-urltestdata.json"))
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	var cases []Case
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue
		}
		var c Case
		if err := json.Unmarshal(r, &c); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}
