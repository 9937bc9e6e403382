// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// findRequest returns a fullHashes:find request for the prefixes of
// hashes hs, each n bytes long, on the lists types × plats of URLs.
func findRequest(types []v4wire.ThreatType, plats []v4wire.PlatformType, n int, hs ...[32]byte) *v4wire.FindFullHashesRequest {
	m := &v4wire.FindFullHashesRequest{Client: v4wire.ClientInfo{ClientID: "v4update-test", ClientVersion: "1"},
		ThreatInfo: v4wire.ThreatInfo{ThreatTypes: types, PlatformTypes: plats, ThreatEntryTypes: []v4wire.ThreatEntryType{v4wire.URL}}}
	for _, h := range hs {
		m.ThreatInfo.ThreatEntries = append(m.ThreatInfo.ThreatEntries, v4wire.ThreatEntry{Hash: bytes.Clone(h[:n])})
	}
	return m
}

var allTypes = []v4wire.ThreatType{v4wire.Malware, v4wire.SocialEngineering, v4wire.UnwantedSoftware, v4wire.PotentiallyHarmfulApplication}

// TestFind: one ThreatMatch per full hash listed with a prefix asked, per
// threat type asked among the hash's own that is not a canary, and per
// platform asked, in every form a client sends; with the 32-byte hash,
// URL, a cacheDuration, the reply's negativeCacheDuration and a
// minimumWaitDuration of 0s.
func TestFind(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{}, sbtest.WithCacheDuration(10*time.Minute))
	evil := sha256.Sum256([]byte("evil.example/"))
	canary := sha256.Sum256([]byte("canary.example/"))
	twin := evil
	twin[31] ^= 1 // another full hash with evil's prefix
	clean := sha256.Sum256([]byte("clean.example/"))
	for _, err := range []error{
		h.up.AddHash("mw-4b", evil),
		h.up.AddHash("se-4b", evil),
		h.up.AddHash("pha-4b", evil),
		h.up.AddHash("uwsa-4b", twin),
		h.up.AddHash("se-4b", canary, sbtest.Canary),
		h.up.AddHash("mw-4b", canary),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	plats := []v4wire.PlatformType{v4wire.Windows, v4wire.AnyPlatform}
	// PHA is not asked; CSD_WHITELIST (8) is asked and not served.
	types := []v4wire.ThreatType{v4wire.SocialEngineering, v4wire.Malware, v4wire.UnwantedSoftware, 8}
	type match struct {
		t v4wire.ThreatType
		p v4wire.PlatformType
		h [32]byte
	}
	want := []match{
		{v4wire.SocialEngineering, v4wire.Windows, evil}, {v4wire.SocialEngineering, v4wire.AnyPlatform, evil},
		{v4wire.Malware, v4wire.Windows, evil}, {v4wire.Malware, v4wire.AnyPlatform, evil},
		{v4wire.UnwantedSoftware, v4wire.Windows, twin}, {v4wire.UnwantedSoftware, v4wire.AnyPlatform, twin},
		// The canary's SOCIAL_ENGINEERING is dropped, its MALWARE kept.
		{v4wire.Malware, v4wire.Windows, canary}, {v4wire.Malware, v4wire.AnyPlatform, canary},
	}
	for form := range formNames {
		t.Run(formNames[form], func(t *testing.T) {
			status, r, body := h.find(t, form, findRequest(types, plats, 4, evil, canary, clean))
			if status != http.StatusOK {
				t.Fatalf("%d %s", status, body)
			}
			var got []match
			for _, m := range r.Matches {
				if m.ThreatEntryType != v4wire.URL || len(m.Threat.Hash) != 32 || !m.HasCacheDuration || m.Metadata == nil || len(m.Metadata) != 0 ||
					m.CacheDuration <= 9*time.Minute || m.CacheDuration > 10*time.Minute {
					t.Errorf("match %+v", m)
				}
				got = append(got, match{m.ThreatType, m.PlatformType, [32]byte(m.Threat.Hash)})
			}
			if len(got) != len(want) {
				t.Fatalf("%d matches, want %d: %v", len(got), len(want), got)
			}
			for _, w := range want {
				found := false
				for _, g := range got {
					found = found || g == w
				}
				if !found {
					t.Errorf("no match %v", w)
				}
			}
			if !r.HasMinimumWait || r.MinimumWait != 0 {
				t.Errorf("minimumWaitDuration %v (present %v), want 0s", r.MinimumWait, r.HasMinimumWait)
			}
			if !r.HasNegativeCacheDuration || r.NegativeCacheDuration <= 9*time.Minute || r.NegativeCacheDuration > 10*time.Minute {
				t.Errorf("negativeCacheDuration %v (present %v)", r.NegativeCacheDuration, r.HasNegativeCacheDuration)
			}
		})
	}
	if form := formJSON; true {
		// In JSON each match has its threatEntryMetadata, empty, as
		// gglsbl reads it.
		_, _, body := h.find(t, form, findRequest(types, plats, 4, evil))
		n, m := bytes.Count(body, []byte(`"threatEntryMetadata":{}`)), bytes.Count(body, []byte(`"threatType"`))
		if n != m || m == 0 {
			t.Errorf("JSON: %d empty threatEntryMetadata in %d matches: %s", n, m, body)
		}
	}
	if form := formJSON; true {
		// In JSON the duration is "0s", present.
		_, _, body := h.find(t, form, findRequest(types, plats, 4, clean))
		if !bytes.Contains(body, []byte(`"minimumWaitDuration":"0s"`)) || bytes.Contains(body, []byte(`"matches"`)) {
			t.Errorf("JSON of a clean prefix: %s", body)
		}
	}
	// The searches went through the source: asked once upstream, then
	// answered from its cache.
	if n := h.up.Requests("hashes:search"); n != 1 {
		t.Errorf("%d upstream searches for one set of prefixes asked 4 times, want 1", n)
	}
	if st := h.src.Stats(); st.CacheHits == 0 {
		t.Errorf("the source's cache answered nothing: %+v", st)
	}
}

// TestFindLonger: a prefix longer than 4 bytes matches only the full
// hashes that begin with it.
func TestFindLonger(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	evil := sha256.Sum256([]byte("evil.example/"))
	twin := evil
	twin[5] ^= 1 // shares 4 bytes, not 8
	h.up.AddHash("mw-4b", evil)
	h.up.AddHash("mw-4b", twin)
	_, r, _ := h.find(t, formProto, findRequest(allTypes, []v4wire.PlatformType{v4wire.AnyPlatform}, 8, evil))
	if len(r.Matches) != 1 || !bytes.Equal(r.Matches[0].Threat.Hash, evil[:]) {
		t.Errorf("matches %+v, want evil's alone", r.Matches)
	}
}

// TestFindFails: a search the upstream fails is a 503 in Google's shape,
// never an empty "safe" reply; while the source backs off, with
// Retry-After.
func TestFindFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	evil := sha256.Sum256([]byte("evil.example/"))
	h.up.AddHash("mw-4b", evil)
	h.up.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: http.StatusInternalServerError})
	for i := range 4 { // the third failure starts the back-off
		for form := range formNames {
			status, r, body := h.find(t, form, findRequest(allTypes, []v4wire.PlatformType{v4wire.AnyPlatform}, 4, evil))
			if status != http.StatusServiceUnavailable || !bytes.Contains(body, []byte(`"status":"UNAVAILABLE"`)) {
				t.Fatalf("try %d (%s): %d %+v %s, want 503", i, formNames[form], status, r, body)
			}
		}
	}
	req := h.request(t, "/v4/fullHashes:find", formJSON, nil, v4wire.AppendFindFullHashesRequestJSON(nil,
		findRequest(allTypes, []v4wire.PlatformType{v4wire.AnyPlatform}, 4, evil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("while backing off: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestFindTooLong: a reply past its bound is a 503 that asks for fewer
// prefixes, refused before the matches are built, and the bound counts
// every platform asked.
func TestFindTooLong(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	var hs [][32]byte
	for i := range 40 {
		hs = append(hs, sha256.Sum256([]byte{byte(i)}))
		h.up.AddHash("mw-4b", hs[i])
	}
	h.v4.maxFindReply = 40 * 8 * minMatchBytes // 40 hashes on 8 platforms fit, barely
	plats := []v4wire.PlatformType{1, 2, 3, 4, 5, 6, 7, 8}
	status, _, body := h.find(t, formProto, findRequest(allTypes, plats[:4], 4, hs...))
	if status != http.StatusOK {
		t.Errorf("on 4 platforms: %d %s", status, body)
	}
	status, _, body = h.find(t, formProto, findRequest(allTypes, plats, 4, hs...))
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "fewer prefixes") {
		t.Errorf("on 8 platforms: %d %s, want 503", status, body)
	}
}

// TestFindErrors: requests no reply could answer rightly are 400s.
func TestFindErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	evil := sha256.Sum256([]byte("evil.example/"))
	any := []v4wire.PlatformType{v4wire.AnyPlatform}
	many := findRequest(allTypes, any, 4)
	for i := range MaxFindPrefixes + 1 {
		p := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		many.ThreatInfo.ThreatEntries = append(many.ThreatInfo.ThreatEntries, v4wire.ThreatEntry{Hash: p[:4]})
	}
	tests := []struct {
		name string
		in   *v4wire.FindFullHashesRequest
		want string
	}{
		// No prefix.
		{"no entries", findRequest(allTypes, any, 4), "threatEntries is required"},
		// A 3-byte prefix.
		{"short", findRequest(allTypes, any, 3, evil), "3 bytes"},
		// No threat type.
		{"no types", findRequest(nil, any, 4, evil), "threatTypes is required"},
		// No platform.
		{"no platforms", findRequest(allTypes, nil, 4, evil), "platformTypes is required"},
		// Past the bound.
		{"too many", many, "more than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := h.find(t, formJSON, tt.in)
			if status != http.StatusBadRequest || !strings.Contains(string(body), tt.want) {
				t.Errorf("%d %s, want 400 with %q", status, body, tt.want)
			}
		})
	}
	// Entry types without URL: no match, no error.
	m := findRequest(allTypes, any, 4, evil)
	h.up.AddHash("mw-4b", evil)
	m.ThreatInfo.ThreatEntryTypes = []v4wire.ThreatEntryType{v4wire.Executable}
	if status, r, body := h.find(t, formJSON, m); status != http.StatusOK || len(r.Matches) != 0 {
		t.Errorf("EXECUTABLE: %d %s, want no match", status, body)
	}
}
