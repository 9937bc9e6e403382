// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	safebrowsing "google.golang.org/api/safebrowsing/v4"
)

// TestSbserverV4Update: Google's v4 Go client against the v4 Update API
// of the built sbserver, in front of an sbtest whose lists change, under
// -api safebrowsing and -api webrisk: threatListUpdates.fetch with RICE
// and with RAW gets full updates, then partial ones after the change,
// each checksum verified over this module's own decoding (decodeRice);
// fullHashes.find finds the listed full hashes; threatLists.list names
// the lists served; a wrong key and a failed upstream search read as
// Google's errors.
func TestSbserverV4Update(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		api    string
		search string // the upstream's search endpoint, as sbtest names it
		lists  int    // served: 4 threat types on 8 platforms, or 3 without PHA
	}{
		// A v5 upstream.
		{"safebrowsing", "hashes:search", 32},
		// A Web Risk upstream: no PHA, and an 8-byte entry.
		{"webrisk", "v1/hashes:search", 24},
	} {
		t.Run(tt.api, func(t *testing.T) {
			t.Parallel()
			webRisk := tt.api == "webrisk"
			// The upstream's lists are due again soon, so that sbserver
			// follows the change at once.
			up := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithMinimumWait(200*time.Millisecond),
				sbtest.WithRecommendedNextDiff(200*time.Millisecond))
			defer up.Close()
			want := map[string][]string{}
			for _, u := range sbtest.TestURLs {
				if typ, ok := threatTypes[u.List]; ok && !(webRisk && u.List == "pha-4b") {
					want[typ] = append(want[typ], prefix4(u.Expression))
				}
			}
			for i := range 300 { // a Rice stream of some length
				up.Add("uwsa-4b", "many"+strconv.Itoa(i)+".example/")
				want["UNWANTED_SOFTWARE"] = append(want["UNWANTED_SOFTWARE"], prefix4("many"+strconv.Itoa(i)+".example/"))
			}
			if webRisk {
				up.AddPrefix("mw-4b", "long.example/", 8)
				want["MALWARE"] = append(want["MALWARE"], entryOf("long.example/", 8))
			}
			base := startSbserver(t, "-api", tt.api, "-upstream", up.URL, "-key", up.APIKey)
			svc := newV4(t, base, clientKey)
			check := func(what string, lists []*v4List) bool {
				t.Helper()
				ok := true
				for i, l := range v4Lists {
					w := slices.Clone(want[l.ThreatType])
					if l.ThreatType == "CSD_DOWNLOAD_WHITELIST" {
						w = nil
					}
					slices.Sort(w)
					if !slices.Equal(lists[i].entries, w) {
						if what != "" {
							t.Errorf("%s: %s holds %d entries, want %d", what, l.ThreatType, len(lists[i].entries), len(w))
						}
						ok = false
					}
				}
				return ok
			}
			// served says whether v4Lists[i] is served.
			served := func(i int) bool {
				typ := v4Lists[i].ThreatType
				return typ != "CSD_DOWNLOAD_WHITELIST" && !(webRisk && typ == "POTENTIALLY_HARMFUL_APPLICATION")
			}
			wantTypes := func(what string, res *safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesResponse, partial bool) {
				t.Helper()
				for i, lr := range res.ListUpdateResponses {
					w := "FULL_UPDATE"
					if partial && served(i) {
						w = "PARTIAL_UPDATE"
					}
					if lr.ResponseType != w {
						t.Errorf("%s: %s is a %s, want a %s", what, lr.ThreatType, lr.ResponseType, w)
					}
				}
			}
			newLists := func() []*v4List {
				var ls []*v4List
				for range v4Lists {
					ls = append(ls, new(v4List))
				}
				return ls
			}
			rice, raw := newLists(), newLists()
			wantTypes("RICE", fetchV4(t, svc, rice, "RICE"), false)
			wantTypes("RAW", fetchV4(t, svc, raw, "RAW"), false)
			check("RICE", rice)
			check("RAW", raw)

			// The change: the malware test URL out, new.example/ in, and
			// 30 of uwsa-4b out; under Web Risk, another 8-byte entry.
			up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
			up.Add("mw-4b", "new.example/")
			want["MALWARE"] = slices.DeleteFunc(want["MALWARE"], func(p string) bool { return p == prefix4(sbtest.TestURLs[0].Expression) })
			want["MALWARE"] = append(want["MALWARE"], prefix4("new.example/"))
			if webRisk {
				up.AddPrefix("mw-4b", "long2.example/", 8)
				want["MALWARE"] = append(want["MALWARE"], entryOf("long2.example/", 8))
			}
			for i := range 30 {
				expr := "many" + strconv.Itoa(10*i) + ".example/"
				up.Remove("uwsa-4b", expr)
				want["UNWANTED_SOFTWARE"] = slices.DeleteFunc(want["UNWANTED_SOFTWARE"], func(p string) bool { return p == prefix4(expr) })
			}
			// It reaches the RICE client as partial updates...
			for deadline := time.Now().Add(20 * time.Second); ; {
				wantTypes("RICE after the change", fetchV4(t, svc, rice, "RICE"), true)
				if check("", rice) {
					break
				}
				if time.Now().After(deadline) {
					check("RICE after the change", rice)
					t.Fatal("the change did not reach the v4 client in 20 s")
				}
				time.Sleep(50 * time.Millisecond)
			}
			// ... and the RAW one.
			res := fetchV4(t, svc, raw, "RAW")
			wantTypes("RAW after the change", res, true)
			check("RAW after the change", raw)
			if mw := res.ListUpdateResponses[0]; len(mw.Removals) != 1 || len(mw.Additions) == 0 {
				t.Errorf("MALWARE's partial update: %d removal sets, %d addition sets", len(mw.Removals), len(mw.Additions))
			}

			// fullHashes.find: each listed full hash on its threat type,
			// on every platform asked.
			find := &safebrowsing.GoogleSecuritySafebrowsingV4FindFullHashesRequest{
				Client: &safebrowsing.GoogleSecuritySafebrowsingV4ClientInfo{ClientId: "urlspec-gapi", ClientVersion: "1"},
				ThreatInfo: &safebrowsing.GoogleSecuritySafebrowsingV4ThreatInfo{
					ThreatTypes:      []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"},
					PlatformTypes:    []string{"ANY_PLATFORM", "CHROME"},
					ThreatEntryTypes: []string{"URL"},
				},
			}
			wantMatches := map[string]string{}
			add := func(expr, typ string, n int) {
				h := sha256.Sum256([]byte(expr))
				find.ThreatInfo.ThreatEntries = append(find.ThreatInfo.ThreatEntries, &safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{Hash: base64.StdEncoding.EncodeToString(h[:n])})
				if typ != "" {
					wantMatches[base64.StdEncoding.EncodeToString(h[:])] = typ
				}
			}
			add("new.example/", "MALWARE", 4)
			add(sbtest.TestURLs[1].Expression, "SOCIAL_ENGINEERING", 4)
			add("many1.example/", "UNWANTED_SOFTWARE", 4)
			add("clean.example/", "", 4)
			if webRisk {
				add("long2.example/", "MALWARE", 8)
			} else {
				add(sbtest.TestURLs[3].Expression, "POTENTIALLY_HARMFUL_APPLICATION", 4)
			}
			fh, err := svc.FullHashes.Find(find).Context(ctx(t)).Do()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, m := range fh.Matches {
				if m.ThreatEntryType != "URL" || m.Threat == nil || m.CacheDuration == "" {
					t.Errorf("match %+v", m)
					continue
				}
				got[m.Threat.Hash] = append(got[m.Threat.Hash], m.ThreatType+"/"+m.PlatformType)
			}
			for hash, typ := range wantMatches {
				if w := []string{typ + "/ANY_PLATFORM", typ + "/CHROME"}; !slices.Equal(got[hash], w) {
					t.Errorf("matches of %s: %v, want %v", hash, got[hash], w)
				}
			}
			if len(got) != len(wantMatches) || fh.MinimumWaitDuration != "0s" || fh.NegativeCacheDuration == "" {
				t.Errorf("fullHashes.find: %d full hashes matched, want %d; minimumWaitDuration %q, negativeCacheDuration %q",
					len(got), len(wantMatches), fh.MinimumWaitDuration, fh.NegativeCacheDuration)
			}

			// threatLists.list: each threat type served, on each platform.
			tl, err := svc.ThreatLists.List().Context(ctx(t)).Do()
			if err != nil {
				t.Fatal(err)
			}
			if len(tl.ThreatLists) != tt.lists {
				t.Errorf("threatLists.list: %d lists, want %d", len(tl.ThreatLists), tt.lists)
			}

			// Errors read as Google's, through apierror: a wrong key...
			_, err = newV4(t, base, "wrong-key").ThreatLists.List().Context(ctx(t)).Do()
			wantAPIError(t, err, 403, "API_KEY_INVALID")
			// ... and a search that fails upstream, a 503.
			up.Inject(sbtest.Fault{Endpoint: tt.search, Status: 500})
			h := sha256.Sum256([]byte("other.example/"))
			find.ThreatInfo.ThreatEntries = []*safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{{Hash: base64.StdEncoding.EncodeToString(h[:4])}}
			_, err = svc.FullHashes.Find(find).Context(ctx(t)).Do()
			wantAPIError(t, err, 503, "")
		})
	}
}
