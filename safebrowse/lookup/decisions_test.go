// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/listname"
)

// The four wire decisions of the package doc, each tested against replies
// and requests built by hand.

// TestSearchSplitByURL (decision 1): a search for 1000 prefixes goes out as
// several requests, none with a URL over 8 KiB, which together ask every
// prefix once.
func TestSearchSplitByURL(t *testing.T) {
	s := newTestServer(t)
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: NoStorage})
	urls := make([]string, 1000)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://h%d.example/", i) // one expression each
	}
	if _, err := c.LookupAll(bg, urls); err != nil {
		t.Fatal(err)
	}
	n := s.count("hashes:search")
	if n < 3 {
		t.Errorf("1000 prefixes in %d requests; want them split", n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, l := range s.urlLens {
		if l > maxURL {
			t.Errorf("request %d: URL of %d bytes, over %d", i, l, maxURL)
		}
	}
	seen := map[string]bool{}
	for _, p := range s.searched {
		if seen[string(p)] {
			t.Errorf("prefix %x asked twice", p)
		}
		seen[string(p)] = true
	}
	if len(seen) != len(urls) {
		t.Errorf("%d prefixes asked; want %d", len(seen), len(urls))
	}
}

// TestSplitSearch (decision 1): each run fills the URL up to the limit, and
// a key so long that no prefix fits still sends one prefix a request.
func TestSplitSearch(t *testing.T) {
	tests := []struct {
		name string
		key  string
		n    int
	}{
		// A key of 19 bytes: runs of a few hundred.
		{"short key", testKey, 1000},
		// A key of 9000 bytes: one prefix a request.
		{"huge key", string(make([]byte, 9000)), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, Config{BaseURL: "http://127.0.0.1:1", APIKey: tt.key, Mode: NoStorage})
			prefixes := make([]key, tt.n)
			for i := range prefixes {
				prefixes[i] = key{p: uint32(i)}
			}
			parts := c.splitSearch(prefixes)
			total := 0
			for i, p := range parts {
				total += len(p)
				q := appendPrefixQuery(nil, p)
				l := len(c.requestURL(methodSearch, string(q)))
				if len(p) > 1 && l > maxURL {
					t.Errorf("run %d: %d prefixes in a URL of %d bytes", i, len(p), l)
				}
				if i < len(parts)-1 && len(p) > 1 && l+prefixParam <= maxURL {
					t.Errorf("run %d: room for one more prefix", i)
				}
			}
			if total != tt.n {
				t.Errorf("%d prefixes in the runs; want %d", total, tt.n)
			}
		})
	}
}

// TestStrayFullHashDropped (decision 3): a reply that holds, beside the
// full hash asked, one whose prefix was not asked keeps its verdict; the
// stray hash is no verdict, is not cached, and starts no back-off.
func TestStrayFullHashDropped(t *testing.T) {
	s := newTestServer(t)
	c, _ := readyClient(t, s, LocalList, map[string][]string{"se-4b": {"evil.example/", "stray.example/"}})
	evil, stray := hashOf("evil.example/"), hashOf("stray.example/")
	s.set(func(s *testServer) {
		s.handle = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			// Both full hashes, whatever was asked, then cache_duration
			// 300 s: a reply built by hand.
			w.Write(cat(
				[]byte{0x0a, 0x26}, fullHashMsg(evil, detailMsg(SocialEngineering)),
				[]byte{0x0a, 0x26}, fullHashMsg(stray, detailMsg(Malware)),
				[]byte{0x12, 0x03, 0x08, 0xac, 0x02},
			))
		}
	})
	v, err := c.Lookup(bg, "http://evil.example/")
	if err != nil {
		t.Fatalf("Lookup: %v; want the verdict kept", err)
	}
	if got := short(v); len(got) != 1 || got[0] != "SOCIAL_ENGINEERING evil.example/" {
		t.Errorf("threats %q; want the one asked for", got)
	}
	before := s.count("hashes:search")
	// The stray hash was not cached: its URL is searched, and the reply
	// (the same, now holding its hash as asked) decides.
	v, err = c.Lookup(bg, "http://stray.example/")
	var be *BackoffError
	if errors.As(err, &be) {
		t.Fatalf("back-off after a stray hash: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if s.count("hashes:search") != before+1 {
		t.Errorf("stray.example/ answered from the cache; want a search")
	}
	if got := short(v); len(got) != 1 || got[0] != "MALWARE stray.example/" {
		t.Errorf("threats %q", got)
	}
}

// TestResourceListNames (decision 4): lists whose messages carry the
// resource form of their names, "hashLists/se-4b", as safebrowsing.proto
// names them, are applied, one at a time and in a batch.
func TestResourceListNames(t *testing.T) {
	for _, names := range [][]string{{"se-4b"}, DefaultLists} {
		t.Run(fmt.Sprint(len(names)), func(t *testing.T) {
			s := newTestServer(t)
			s.set(func(s *testServer) {
				for _, n := range names {
					msg := listOf(t, listname.Collection+n, "v1", 30*time.Minute, "evil-"+n+".example/")
					s.lists[n] = func(string) []byte { return msg }
				}
			})
			c, _ := newTestClient(t, Config{BaseURL: s.URL, Mode: LocalList, Lists: names})
			if err := c.Update(bg); err != nil {
				t.Fatal(err)
			}
			if !c.IsReady() {
				t.Fatal("not ready after Update")
			}
			for _, s := range c.lists {
				if s.list.Len() != 1 {
					t.Errorf("list %s holds %d hashes; want 1", s.name, s.list.Len())
				}
			}
		})
	}
}
