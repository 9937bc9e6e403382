// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"reflect"
	"testing"

	safebrowsing "google.golang.org/api/safebrowsing/v4"
)

// newV4 is a v4 client of base with key.
func newV4(t *testing.T, base, key string) *safebrowsing.Service {
	t.Helper()
	svc, err := safebrowsing.NewService(ctx(t), clientOptions(base, key)...)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// findAll asks threatMatches.find for testURLs and clean, under every
// threat type and ANY_PLATFORM.
func findAll(t *testing.T, svc *safebrowsing.Service) (*safebrowsing.GoogleSecuritySafebrowsingV4FindThreatMatchesResponse, error) {
	var entries []*safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry
	entries = append(entries, &safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{Url: clean})
	for u := range testURLs() {
		entries = append(entries, &safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{Url: u})
	}
	req := &safebrowsing.GoogleSecuritySafebrowsingV4FindThreatMatchesRequest{
		Client: &safebrowsing.GoogleSecuritySafebrowsingV4ClientInfo{ClientId: "urlspec-gapi", ClientVersion: "1"},
		ThreatInfo: &safebrowsing.GoogleSecuritySafebrowsingV4ThreatInfo{
			ThreatTypes:      []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"},
			PlatformTypes:    []string{"ANY_PLATFORM"},
			ThreatEntryTypes: []string{"URL"},
			ThreatEntries:    entries,
		},
	}
	return svc.ThreatMatches.Find(req).Context(ctx(t)).Do()
}

// TestSbserverV4: Google's v4 Go client's threatMatches.find against
// sbserver -fake: one match per test URL with its threat type, none for
// the clean URL, and API_KEY_INVALID for a wrong client key.
func TestSbserverV4(t *testing.T) {
	t.Parallel()
	base := startSbserver(t)
	res, err := findAll(t, newV4(t, base, clientKey))
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]string)
	for _, m := range res.Matches {
		if m.PlatformType != "ANY_PLATFORM" || m.ThreatEntryType != "URL" || m.Threat == nil || got[m.Threat.Url] != "" {
			t.Errorf("match %+v", m)
			continue
		}
		got[m.Threat.Url] = m.ThreatType
	}
	if want := testURLs(); !reflect.DeepEqual(got, want) {
		t.Errorf("matches %v, want %v", got, want)
	}

	_, err = findAll(t, newV4(t, base, "not-"+clientKey))
	wantAPIError(t, err, 403, "API_KEY_INVALID")
}
