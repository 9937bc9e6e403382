// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// oddKey is an API key that, lower-cased, is a list name by the rule of
// Config.Lists.
const oddKey = "OddKey-Zq9-4b"

// oddLists is a ListHashLists reply with every kind of name the client
// must skip, beside the lists it keeps, and descriptions that show the
// key.
func oddLists() []v5wire.HashList {
	md := func(desc string, w int) *v5wire.Metadata {
		return &v5wire.Metadata{Description: desc, HashLength: v5wire.HashLengthOf(w), ThreatTypes: []v5wire.ThreatType{v5wire.Malware}}
	}
	return []v5wire.HashList{
		{Name: "se-4b", Metadata: md("social engineering, key "+oddKey, 4)},
		// The resource form of a list already named: one list, kept once.
		{Name: "hashLists/se-4b", Metadata: md("the second se-4b", 4)},
		{Name: "Se-4b", Metadata: md("upper case", 4)},
		{Name: "se_new-4b", Metadata: md("underscore", 4)},
		{Name: strings.Repeat("a", 62) + "-4b", Metadata: md("65 bytes", 4)},
		// Trimmed once, it keeps a '/'.
		{Name: "hashLists/hashLists/mw-4b", Metadata: md("prefix twice", 4)},
		// The key lower-cased, and a name that holds it.
		{Name: strings.ToLower(oddKey), Metadata: md("the key", 4)},
		{Name: "hashLists/x" + strings.ToLower(oddKey), Metadata: md("holds the key", 4)},
		{Name: "hashLists/gc-32b", Metadata: md("global cache, "+strings.ToLower(oddKey), 32)},
		{Name: "mw-4b", Metadata: md("malware", 4)},
	}
}

// oddServer answers ListHashLists with lists, in pages of 3.
func oddServer(t *testing.T, lists []v5wire.HashList) *testServer {
	s := newTestServer(t)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v5/hashLists" {
			http.NotFound(w, r)
			return
		}
		start := 0
		fmt.Sscan(r.URL.Query().Get("pageToken"), &start)
		m := v5wire.ListHashListsResponse{HashLists: lists[start:min(start+3, len(lists))]}
		if start+3 < len(lists) {
			m.NextPageToken = fmt.Sprint(start + 3)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(v5wire.AppendListHashListsResponse(nil, &m))
	}
	return s
}

// TestHashListsNames: HashLists keeps the lists whose names Config.Lists
// accepts, once each, skips the rest with a log line each, and shows the
// key, in any case, nowhere: not in what it returns, not in the log.
func TestHashListsNames(t *testing.T) {
	s := oddServer(t, oddLists())
	var logs bytes.Buffer
	c, err := New(Config{APIKey: oddKey, BaseURL: s.URL, Mode: NoStorage, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.HashLists(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.Name)
	}
	if want := []string{"se-4b", "gc-32b", "mw-4b"}; !slices.Equal(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	if d := got[0].Description; d != "social engineering, key REDACTED" {
		t.Errorf("se-4b: description %q, want the first se-4b's, masked", d)
	}
	if d := got[1].Description; d != "global cache, REDACTED" {
		t.Errorf("gc-32b: description %q, want it masked", d)
	}
	// What it keeps goes into Config.Lists.
	mc, err := NewMirrorSource(Config{APIKey: oddKey, BaseURL: s.URL, Lists: names})
	if err != nil {
		t.Fatalf("NewMirrorSource with the names kept: %v", err)
	}
	mc.Close()
	out := logs.String()
	for _, want := range []string{
		`Se-4b`, `se_new-4b`, strings.Repeat("a", 62) + `-4b`, `hashLists/hashLists/mw-4b`,
		`"list":"REDACTED"`, `"list":"hashLists/xREDACTED"`, `hashLists/se-4b`, `named twice`, `shows the API key`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no log line shows %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "skipping a list"); n != 7 {
		t.Errorf("%d lines of skipped lists, want 7:\n%s", n, out)
	}
	if leaks := strings.Contains(strings.ToLower(out), strings.ToLower(oddKey)); leaks {
		t.Errorf("the log shows the key:\n%s", out)
	}
	for _, l := range got {
		if shows(fmt.Sprintf("%+v", l), oddKey) {
			t.Errorf("%+v shows the key", l)
		}
	}
}

// TestHashListsSkipsLogged: a reply of many bad names costs a bounded
// number of log lines, and is no error.
func TestHashListsSkipsLogged(t *testing.T) {
	var lists []v5wire.HashList
	for i := range 40 {
		lists = append(lists, v5wire.HashList{Name: fmt.Sprintf("Bad%d-4b", i)})
	}
	lists = append(lists, v5wire.HashList{Name: "se-4b"})
	s := oddServer(t, lists)
	var logs bytes.Buffer
	c, err := New(Config{APIKey: testKey, BaseURL: s.URL, Mode: NoStorage, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.HashLists(context.Background())
	if err != nil || len(got) != 1 || got[0].Name != "se-4b" {
		t.Fatalf("%+v, %v; want se-4b alone", got, err)
	}
	if n := strings.Count(logs.String(), "\n"); n != maxSkipsLogged+1 {
		t.Errorf("%d log lines, want %d:\n%s", n, maxSkipsLogged+1, logs.String())
	}
	if !strings.Contains(logs.String(), fmt.Sprintf("skipped=%d", 40-maxSkipsLogged)) {
		t.Errorf("no line counts the rest:\n%s", logs.String())
	}
}

// TestListNamesRule: Config.Lists takes the names HashLists keeps, by the
// same rule, and refuses the others.
func TestListNamesRule(t *testing.T) {
	tests := []struct {
		in      []string
		want    []string
		wantErr string
	}{
		// The resource form, trimmed once.
		{[]string{"hashLists/se-4b", "mw-4b"}, []string{"se-4b", "mw-4b"}, ""},
		// 64 bytes is the most.
		{[]string{strings.Repeat("a", 61) + "-4b"}, []string{strings.Repeat("a", 61) + "-4b"}, ""},
		// Upper case.
		{[]string{"Se-4b"}, nil, "bad list name"},
		// An underscore.
		{[]string{"se_new-4b"}, nil, "bad list name"},
		// 65 bytes.
		{[]string{strings.Repeat("a", 62) + "-4b"}, nil, "bad list name"},
		// The prefix twice.
		{[]string{"hashLists/hashLists/se-4b"}, nil, "bad list name"},
		// No width suffix: refused here, as hashlist would refuse it.
		{[]string{"se"}, nil, "bad list name"},
		// One list named twice, once in the resource form.
		{[]string{"se-4b", "hashLists/se-4b"}, nil, "named twice"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.in, ","), func(t *testing.T) {
			got, err := listNames(LocalList, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("%q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestMaskFold: the key is masked in any ASCII case, raw and escaped, and
// nothing else is touched.
func TestMaskFold(t *testing.T) {
	const key = "AIza/Key+1"
	tests := []struct{ in, want string }{
		// Raw, as given.
		{"x AIza/Key+1 y", "x REDACTED y"},
		// Lower- and upper-cased.
		{"aiza/key+1-4b", "REDACTED-4b"},
		{"AIZA/KEY+1AIza/Key+1", "REDACTEDREDACTED"},
		// Query-escaped, with hex in either case.
		{"key=AIza%2FKey%2B1&", "key=REDACTED&"},
		{"key=aiza%2fkey%2b1", "key=REDACTED"},
		// Path-escaped.
		{"/aiza%2Fkey+1/", "/REDACTED/"},
		// Non-ASCII bytes keep their offsets.
		{"é\xffAIZA/KEY+1é", "é\xffREDACTEDé"},
		// Nothing to mask.
		{"AIza/Key+", "AIza/Key+"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := mask(tt.in, key); got != tt.want {
				t.Errorf("mask(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
