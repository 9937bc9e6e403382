// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	webrisk "google.golang.org/api/webrisk/v1"
)

// This file tests sbserver -api webrisk -mirror with Google's generated
// Web Risk client, google.golang.org/api/webrisk/v1, pointed at it: the
// mirror's computeDiff, decoded by this module's test decoder
// (webrisk_test.go), and its hashes.search and uris.search.

// webRiskSources are the sbtest lists each Web Risk list holds.
var webRiskSources = map[string][]string{
	"MALWARE":                              {"mw-4b"},
	"SOCIAL_ENGINEERING":                   {"se-4b"},
	"UNWANTED_SOFTWARE":                    {"uws-4b", "uwsa-4b"},
	"SOCIAL_ENGINEERING_EXTENDED_COVERAGE": nil,
}

// TestSbserverWebRisk: Google's Web Risk Go client against the built
// sbserver -fake -api webrisk -mirror: a RESET of each of the four
// lists, with RICE and RAW, holding the fake's test URLs, then a DIFF
// from each token, each checksum verified over this module's own
// decoding; the test URLs' verdicts through hashes.search and
// uris.search; and Google's errors, naming the Web Risk service.
func TestSbserverWebRisk(t *testing.T) {
	t.Parallel()
	base := startSbserver(t, "-fake", "-api", "webrisk", "-mirror")
	svc := newWebRisk(t, base, clientKey)
	for i, typ := range allTypes {
		l := new(wrList)
		compression := []string{"RICE", "RAW"}[i%2]
		if d := l.update(t, svc, typ, compression); d.ResponseType != "RESET" {
			t.Errorf("%s: %s, want RESET", typ, d.ResponseType)
		}
		var want []string
		for _, u := range sbtest.TestURLs {
			if slices.Contains(webRiskSources[typ], u.List) {
				want = append(want, entryOf(u.Expression, 4))
			}
		}
		slices.Sort(want)
		if !slices.Equal(l.entries, want) {
			t.Errorf("%s: %x, want %x", typ, l.entries, want)
		}
		token := l.token
		if d := l.update(t, svc, typ, compression); d.ResponseType != "DIFF" || d.NewVersionToken != token || d.Additions != nil || d.Removals != nil {
			t.Errorf("%s again: %+v, want an empty DIFF", typ, d)
		}
	}

	// The verdicts of the test URLs.
	verdicts := map[string]string{"http://clean.example/": ""}
	for typ, lists := range webRiskSources {
		for _, u := range sbtest.TestURLs {
			if slices.Contains(lists, u.List) {
				verdicts["http://"+u.Expression] = typ
			}
		}
	}
	for u, typ := range verdicts {
		res, err := svc.Uris.Search().Uri(u).ThreatTypes(allTypes...).Context(ctx(t)).Do()
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Threat != nil {
			got = strings.Join(res.Threat.ThreatTypes, ",")
			if _, err := time.Parse(time.RFC3339, res.Threat.ExpireTime); err != nil {
				t.Errorf("uris.search %s: expireTime %q: %v", u, res.Threat.ExpireTime, err)
			}
		}
		if got != typ {
			t.Errorf("uris.search %s: %q, want %q", u, got, typ)
		}
		h := sha256.Sum256([]byte(strings.TrimPrefix(u, "http://")))
		hs, err := svc.Hashes.Search().HashPrefix(base64.StdEncoding.EncodeToString(h[:4])).ThreatTypes(allTypes...).Context(ctx(t)).Do()
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, th := range hs.Threats {
			if th.Hash == base64.StdEncoding.EncodeToString(h[:]) {
				found = append(found, th.ThreatTypes...)
			}
		}
		if strings.Join(found, ",") != typ || hs.NegativeExpireTime == "" {
			t.Errorf("hashes.search %s: %+v, want %q", u, hs, typ)
		}
	}

	// Google's errors, read through apierror, naming Web Risk.
	_, err := newWebRisk(t, base, "not-"+clientKey).Uris.Search().Uri(clean).ThreatTypes("MALWARE").Context(ctx(t)).Do()
	wantServiceError(t, err, 403, "API_KEY_INVALID", "webrisk.googleapis.com")
	_, err = newWebRisk(t, base, "").ThreatLists.ComputeDiff().ThreatType("MALWARE").Context(ctx(t)).Do()
	wantServiceError(t, err, 401, "CREDENTIALS_MISSING", "webrisk.googleapis.com")
	_, err = svc.Uris.Search().Uri(clean).Context(ctx(t)).Do()
	wantServiceError(t, err, 400, "", "")
	_, err = svc.ThreatLists.ComputeDiff().ThreatType("MALWARE").ConstraintsMaxDiffEntries(1000).Context(ctx(t)).Do()
	wantServiceError(t, err, 400, "", "")
}

// TestSbserverWebRiskDiff: Google's Web Risk Go client follows a change
// of the upstream through the built sbserver -api webrisk -mirror: a
// DIFF with Rice-coded removals and 4-byte additions and raw 8-byte
// ones, and a raw one, each checksum verified over this module's own
// decoding; and chunks of maxDiffEntries, each verified too.
func TestSbserverWebRiskDiff(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithRecommendedNextDiff(time.Nanosecond))
	defer up.Close()
	up.AddPrefix("mw-4b", "long.example/", 8)
	up.Add("mw-4b", "evil.example/")
	for i := range 1500 {
		up.AddHash("uwsa-4b", sha256.Sum256([]byte("many"+strconv.Itoa(i))))
	}
	base := startSbserver(t, "-api", "webrisk", "-mirror", "-upstream", up.URL, "-key", up.APIKey)
	svc := newWebRisk(t, base, clientKey)
	rice, raw, chunked := new(wrList), new(wrList), new(wrList)
	rice.update(t, svc, "MALWARE", "RICE")
	raw.update(t, svc, "MALWARE", "RAW")
	// A RESET of 1500 entries in chunks of 1024: a RESET, then a DIFF.
	first := chunked.updateMax(t, svc, "UNWANTED_SOFTWARE", 1024)
	if first.ResponseType != "RESET" || len(chunked.entries) != 1024 {
		t.Errorf("the first chunk: %s of %d entries, want a RESET of 1024", first.ResponseType, len(chunked.entries))
	}
	if d := chunked.updateMax(t, svc, "UNWANTED_SOFTWARE", 1024); d.ResponseType != "DIFF" || len(chunked.entries) != 1500 {
		t.Errorf("the second chunk: %s, %d entries, want a DIFF to 1500", d.ResponseType, len(chunked.entries))
	}

	// The change: the 8-byte entry and the 4-byte one out, 8-byte and
	// 4-byte ones in.
	up.Remove("mw-4b", "long.example/")
	up.Remove("mw-4b", "evil.example/")
	for i := range 30 {
		up.AddPrefix("mw-4b", "new"+strconv.Itoa(i)+".example/", 4+4*(i%2))
	}
	deadline := time.Now().Add(20 * time.Second)
	var d *webrisk.GoogleCloudWebriskV1ComputeThreatListDiffResponse
	for {
		before := rice.token
		d = rice.update(t, svc, "MALWARE", "RICE")
		if rice.token != before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the mirror did not follow the upstream in 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if d.ResponseType != "DIFF" || d.Removals == nil || d.Removals.RiceIndices == nil || d.Additions == nil ||
		d.Additions.RiceHashes == nil || len(d.Additions.RawHashes) != 1 || d.Additions.RawHashes[0].PrefixSize != 8 {
		t.Errorf("the DIFF: %+v, want Rice-coded removals and additions, and raw 8-byte ones", d)
	}
	if d := raw.update(t, svc, "MALWARE", "RAW"); d.ResponseType != "DIFF" || d.Removals == nil || d.Removals.RawIndices == nil {
		t.Errorf("the raw DIFF: %+v", d)
	}
	want := []string{}
	for i := range 30 {
		want = append(want, entryOf("new"+strconv.Itoa(i)+".example/", 4+4*(i%2)))
	}
	slices.Sort(want)
	if !slices.Equal(rice.entries, want) || !slices.Equal(raw.entries, want) {
		t.Errorf("after the DIFFs: %d and %d entries, want %d", len(rice.entries), len(raw.entries), len(want))
	}
}

// updateMax is update with constraints.maxDiffEntries max, RICE.
func (l *wrList) updateMax(t *testing.T, svc *webrisk.Service, typ string, max int64) *webrisk.GoogleCloudWebriskV1ComputeThreatListDiffResponse {
	t.Helper()
	call := svc.ThreatLists.ComputeDiff().ThreatType(typ).ConstraintsSupportedCompressions("RICE").ConstraintsMaxDiffEntries(max).Context(ctx(t))
	if l.token != "" {
		call = call.VersionToken(l.token)
	}
	d, err := call.Do()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.apply(d); err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	return d
}
