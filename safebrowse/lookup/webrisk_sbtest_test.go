// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// This file tests the Web Risk client against sbtest's Web Risk server,
// which the module's other Web Risk clients are tested against too.

// newSBTestWebRisk returns sbtest's server and a Web Risk client of cfg
// for it, whose fake clock starts at the time of day, as the server's
// replies do.
func newSBTestWebRisk(t *testing.T, cfg Config, opts ...sbtest.Option) (*sbtest.Server, *Client, *fakeClock) {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	cfg.API, cfg.BaseURL, cfg.APIKey = WebRisk, s.URL, s.APIKey
	c, clk := newTestClient(t, cfg)
	clk.mu.Lock()
	clk.t = time.Now()
	clk.mu.Unlock()
	return s, c, clk
}

// TestWebRiskSBTest: lists of every Web Risk threat type, entries of 4 and
// 8 bytes, updated by a RESET then a DIFF that removes and adds, and the
// searches of each entry, whole, against sbtest.
func TestWebRiskSBTest(t *testing.T) {
	s, c, clk := newSBTestWebRisk(t, Config{Lists: []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
	for _, err := range []error{
		s.Add("mw-4b", "evil.example/"),
		s.AddPrefix("se-4b", "phish.example/login/", 8),
		s.Add("uwsa-4b", "pua.example/"),
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "maybe.example/"),
		s.Add("pha-4b", "pha.example/"), // no Web Risk list
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if n := s.Requests("v1/threatLists:computeDiff"); n != 4 {
		t.Errorf("%d computeDiff requests, want 4", n)
	}
	check := func(url string, want []ThreatType, searched int) {
		t.Helper()
		before := len(s.SearchedPrefixes())
		v, err := c.Lookup(bg, url)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		var got []ThreatType
		for _, th := range v.Threats {
			got = append(got, th.Type)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: threats %v, want %v", url, got, want)
		}
		ps := s.SearchedPrefixes()[before:]
		if searched == 0 && len(ps) != 0 || searched != 0 && (len(ps) != 1 || len(ps[0]) != searched) {
			t.Errorf("%s: searched %x, want one prefix of %d bytes", url, ps, searched)
		}
	}
	check("http://evil.example/", []ThreatType{Malware}, 4)
	check("http://phish.example/login/x.html", []ThreatType{SocialEngineering}, 8)
	check("http://pua.example/", []ThreatType{UnwantedSoftware}, 4)
	check("http://maybe.example/", []ThreatType{SocialEngineeringExtendedCoverage}, 4)
	check("http://pha.example/", nil, 0)
	check("http://good.example/", nil, 0)

	// A DIFF: evil.example/ goes, worse.example/ comes with an 8-byte
	// entry.
	if err := s.Remove("mw-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPrefix("mw-4b", "worse.example/", 8); err != nil {
		t.Fatal(err)
	}
	v1 := c.Lists()[0].Version
	clk.advance(sbtest.DefaultRecommendedNextDiff + time.Second)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if l := c.Lists()[0]; l.Entries != 1 || slices.Equal(l.Version, v1) || l.Err != nil {
		t.Errorf("MALWARE after the DIFF: %+v", l)
	}
	check("http://evil.example/", nil, 0)
	check("http://worse.example/", []ThreatType{Malware}, 8)
	snap, _ := c.ListSnapshot("MALWARE")
	if !slices.Equal(snap.Lengths, []uint8{8}) {
		t.Errorf("MALWARE's lengths %v, want [8]", snap.Lengths)
	}
}

// TestWebRiskSBTestChecksum: sbtest's wrong checksum keeps the old list
// answering, and the list is fetched whole at its next update.
func TestWebRiskSBTestChecksum(t *testing.T) {
	s, c, clk := newSBTestWebRisk(t, Config{Lists: []string{"MALWARE"}})
	if err := s.Add("mw-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("mw-4b", "other.example/"); err != nil {
		t.Fatal(err)
	}
	s.Inject(sbtest.Fault{Endpoint: "v1/threatLists:computeDiff", BadChecksum: true, Times: 1})
	clk.advance(sbtest.DefaultRecommendedNextDiff + time.Second)
	if err := c.Update(bg); !errors.Is(err, hashlist.ErrChecksum) {
		t.Fatalf("Update = %v, want ErrChecksum", err)
	}
	if l := c.Lists()[0]; l.Entries != 1 || !c.lists[0].whole {
		t.Errorf("list %+v: want the old entry, to be fetched whole", l)
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("the old list does not answer: %v, %v", v, err)
	}
	clk.advance(sbtest.DefaultRecommendedNextDiff + time.Second)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if l := c.Lists()[0]; l.Entries != 2 || c.lists[0].whole {
		t.Errorf("list %+v after the refetch, want 2 entries", l)
	}
}

// TestWebRiskSBTestNoStorage: NoStorage searches each distinct 4-byte
// prefix of the URL's expressions, one request each, within the budget.
func TestWebRiskSBTestNoStorage(t *testing.T) {
	s, c, _ := newSBTestWebRisk(t, Config{Mode: NoStorage, MaxSearchesPerMinute: 100})
	if err := s.Add("se-4b", "a.b.example.com/1/"); err != nil {
		t.Fatal(err)
	}
	v, err := c.Lookup(bg, benchURL)
	if err != nil || !v.Unsafe() {
		t.Fatalf("Lookup = %v, %v", v, err)
	}
	n := len(expressionsOf(t, c, benchURL))
	if got := s.Requests("v1/hashes:search"); got != n || c.Stats().Searches != uint64(n) {
		t.Errorf("%d searches, want one for each of the %d expressions", got, n)
	}
}
