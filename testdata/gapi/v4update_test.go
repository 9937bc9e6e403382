// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
	safebrowsing "google.golang.org/api/safebrowsing/v4"
)

// This file tests safebrowse/v4update, the v4 Update API served from a
// v5 client's lists, with Google's generated v4 client,
// google.golang.org/api/safebrowsing/v4: the server in process, on a
// lookup.Client fed by sbtest. The lists it fetches are decoded here, by
// decodeRice, written from the v4 reference, and each checksum is
// verified over that decoding.

// v4Lists are the lists the test asks for: the four served, on
// ANY_PLATFORM and on WINDOWS, and one that is not served.
var v4Lists = []*safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesRequestListUpdateRequest{
	{ThreatType: "MALWARE", PlatformType: "ANY_PLATFORM", ThreatEntryType: "URL"},
	{ThreatType: "SOCIAL_ENGINEERING", PlatformType: "WINDOWS", ThreatEntryType: "URL"},
	{ThreatType: "UNWANTED_SOFTWARE", PlatformType: "ANY_PLATFORM", ThreatEntryType: "URL"},
	{ThreatType: "POTENTIALLY_HARMFUL_APPLICATION", PlatformType: "ANDROID", ThreatEntryType: "URL"},
	{ThreatType: "CSD_DOWNLOAD_WHITELIST", PlatformType: "CHROME", ThreatEntryType: "URL"},
}

// A v4List is a v4 list as a client holds it: its entries in byte order,
// and the state of its last update.
type v4List struct {
	entries []string
	state   string
}

// apply applies lr to l as the v4 reference (Local databases) says: a
// FULL_UPDATE empties the list and holds no removals; a PARTIAL_UPDATE
// removes the entries at the removal indices, which point into the list
// in byte order; then the additions are added, raw ones cut by their
// prefixSize, Rice-coded ones as little-endian uint32s, each set read by
// its compressionType; and the SHA-256 of the entries, sorted in byte
// order and concatenated, must be checksum.sha256.
func (l *v4List) apply(lr *safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesResponseListUpdateResponse) error {
	var entries []string
	switch lr.ResponseType {
	case "FULL_UPDATE":
		if len(lr.Removals) > 0 {
			return errors.New("removals in a FULL_UPDATE")
		}
	case "PARTIAL_UPDATE":
		entries = slices.Clone(l.entries)
	default:
		return fmt.Errorf("responseType %q", lr.ResponseType)
	}
	gone := make(map[int64]bool)
	for _, set := range lr.Removals {
		var idx []int64
		switch set.CompressionType {
		case "RAW":
			if set.RawIndices == nil {
				return errors.New("RAW removals without rawIndices")
			}
			idx = set.RawIndices.Indices
		case "RICE":
			r := set.RiceIndices
			if r == nil {
				return errors.New("RICE removals without riceIndices")
			}
			vs, err := decodeRice(r.FirstValue, r.RiceParameter, r.NumEntries, r.EncodedData)
			if err != nil {
				return fmt.Errorf("riceIndices: %v", err)
			}
			for _, v := range vs {
				idx = append(idx, int64(v))
			}
		default:
			return fmt.Errorf("removals of compressionType %q", set.CompressionType)
		}
		for _, i := range idx {
			if i < 0 || i >= int64(len(entries)) || gone[i] {
				return fmt.Errorf("removal index %d of %d entries", i, len(entries))
			}
			gone[i] = true
		}
	}
	kept := entries[:0]
	for i, e := range entries {
		if !gone[int64(i)] {
			kept = append(kept, e)
		}
	}
	entries = kept
	for _, set := range lr.Additions {
		switch set.CompressionType {
		case "RAW":
			r := set.RawHashes
			if r == nil {
				return errors.New("RAW additions without rawHashes")
			}
			b, err := base64.StdEncoding.DecodeString(r.RawHashes)
			if err != nil || r.PrefixSize < 4 || r.PrefixSize > 32 || len(b)%int(r.PrefixSize) != 0 {
				return fmt.Errorf("rawHashes of size %d: %d bytes, %v", r.PrefixSize, len(b), err)
			}
			for i := 0; i < len(b); i += int(r.PrefixSize) {
				entries = append(entries, string(b[i:i+int(r.PrefixSize)]))
			}
		case "RICE":
			r := set.RiceHashes
			if r == nil {
				return errors.New("RICE additions without riceHashes")
			}
			vs, err := decodeRice(r.FirstValue, r.RiceParameter, r.NumEntries, r.EncodedData)
			if err != nil {
				return fmt.Errorf("riceHashes: %v", err)
			}
			for _, v := range vs {
				entries = append(entries, string(binary.LittleEndian.AppendUint32(nil, v)))
			}
		default:
			return fmt.Errorf("additions of compressionType %q", set.CompressionType)
		}
	}
	slices.Sort(entries)
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	if lr.Checksum == nil || lr.Checksum.Sha256 != base64.StdEncoding.EncodeToString(sum[:]) {
		return fmt.Errorf("checksum %+v, want %x", lr.Checksum, sum)
	}
	l.entries, l.state = entries, lr.NewClientState
	return nil
}

// fetchV4 fetches v4Lists from the states of lists, with compression
// (RICE, RAW or both), applies the reply, and returns it.
func fetchV4(t *testing.T, svc *safebrowsing.Service, lists []*v4List, compressions ...string) *safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesResponse {
	t.Helper()
	req := &safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesRequest{
		Client: &safebrowsing.GoogleSecuritySafebrowsingV4ClientInfo{ClientId: "urlspec-gapi", ClientVersion: "1"},
	}
	for i, l := range v4Lists {
		lr := *l
		lr.State = lists[i].state
		lr.Constraints = &safebrowsing.GoogleSecuritySafebrowsingV4FetchThreatListUpdatesRequestListUpdateRequestConstraints{SupportedCompressions: compressions}
		req.ListUpdateRequests = append(req.ListUpdateRequests, &lr)
	}
	res, err := svc.ThreatListUpdates.Fetch(req).Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ListUpdateResponses) != len(v4Lists) {
		t.Fatalf("%d list updates for %d lists", len(res.ListUpdateResponses), len(v4Lists))
	}
	for i, lr := range res.ListUpdateResponses {
		if want := v4Lists[i]; lr.ThreatType != want.ThreatType || lr.PlatformType != want.PlatformType || lr.ThreatEntryType != want.ThreatEntryType {
			t.Errorf("list update %d is of %s/%s/%s, want %s/%s/%s", i, lr.ThreatType, lr.PlatformType, lr.ThreatEntryType, want.ThreatType, want.PlatformType, want.ThreatEntryType)
		}
		if err := lists[i].apply(lr); err != nil {
			t.Fatalf("%s: %v", lr.ThreatType, err)
		}
		for _, set := range slices.Concat(lr.Additions, lr.Removals) {
			// Prefixes longer than 4 bytes have no Rice coding: raw.
			long := set.RawHashes != nil && set.RawHashes.PrefixSize > 4
			if !slices.Contains(compressions, set.CompressionType) && !(long && set.CompressionType == "RAW") {
				t.Errorf("%s: a set of compressionType %q, asked %v", lr.ThreatType, set.CompressionType, compressions)
			}
		}
	}
	if res.MinimumWaitDuration == "" {
		t.Errorf("no minimumWaitDuration")
	}
	return res
}

// prefix4 returns the 4-byte prefix of an expression's hash.
func prefix4(expr string) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:4])
}

// TestV4Update: Google's v4 Go client against safebrowse/v4update on a
// lookup.Client fed by sbtest: threatListUpdates.fetch with RICE and with
// RAW gets full updates holding sbtest's lists, then partial updates
// after an upstream change, each checksum verified over this file's
// decoding; fullHashes.find gives each test URL's threat type on each
// platform asked; threatLists.list names the lists served.
func TestV4Update(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithMinimumWait(0))
	defer up.Close()
	for i := range 300 { // a Rice stream of some length
		up.Add("uwsa-4b", "many"+strconv.Itoa(i)+".example/")
	}
	src, err := lookup.New(lookup.Config{BaseURL: up.URL, APIKey: up.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	update := func() {
		t.Helper()
		if err := src.Update(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	update()
	v4, err := v4update.New(src, v4update.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v4)
	defer srv.Close()
	svc := newV4(t, srv.URL, "client-key")

	want := map[string][]string{}
	for _, u := range sbtest.TestURLs {
		if typ, ok := threatTypes[u.List]; ok {
			want[typ] = append(want[typ], prefix4(u.Expression))
		}
	}
	for i := range 300 {
		want["UNWANTED_SOFTWARE"] = append(want["UNWANTED_SOFTWARE"], prefix4("many"+strconv.Itoa(i)+".example/"))
	}
	check := func(what string, lists []*v4List) {
		t.Helper()
		for i, l := range v4Lists {
			w := want[l.ThreatType]
			slices.Sort(w)
			if !slices.Equal(lists[i].entries, w) {
				t.Errorf("%s: %s holds %d entries, want %d", what, l.ThreatType, len(lists[i].entries), len(w))
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
	for _, c := range []struct {
		lists        []*v4List
		compressions []string
	}{{rice, []string{"RICE"}}, {raw, []string{"RAW"}}} {
		res := fetchV4(t, svc, c.lists, c.compressions...)
		for _, lr := range res.ListUpdateResponses {
			if lr.ResponseType != "FULL_UPDATE" {
				t.Errorf("%s: %s, want FULL_UPDATE", lr.ThreatType, lr.ResponseType)
			}
		}
		check(c.compressions[0], c.lists)
	}
	if uws := rice[2]; len(uws.entries) < 300 {
		t.Errorf("UNWANTED_SOFTWARE holds %d entries", len(uws.entries))
	}

	// An upstream change reaches both clients as partial updates.
	up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
	up.Add("mw-4b", "new.example/")
	want["MALWARE"] = []string{prefix4("new.example/")}
	for i := range 100 {
		up.Remove("uwsa-4b", "many"+strconv.Itoa(3*i)+".example/")
		w := want["UNWANTED_SOFTWARE"]
		want["UNWANTED_SOFTWARE"] = slices.DeleteFunc(w, func(p string) bool { return p == prefix4("many"+strconv.Itoa(3*i)+".example/") })
	}
	update()
	for _, c := range []struct {
		lists        []*v4List
		compressions []string
	}{{rice, []string{"RICE"}}, {raw, []string{"RAW"}}} {
		res := fetchV4(t, svc, c.lists, c.compressions...)
		for i, lr := range res.ListUpdateResponses {
			if wantType := map[bool]string{true: "FULL_UPDATE", false: "PARTIAL_UPDATE"}[i == 4]; lr.ResponseType != wantType {
				t.Errorf("%s after the change: %s, want %s", lr.ThreatType, lr.ResponseType, wantType)
			}
		}
		if mw := res.ListUpdateResponses[0]; len(mw.Removals) != 1 || len(mw.Additions) != 1 {
			t.Errorf("MALWARE after the change: %d removal sets, %d addition sets", len(mw.Removals), len(mw.Additions))
		}
		check(c.compressions[0]+" after the change", c.lists)
	}

	// fullHashes.find: the test URLs' full hashes, each on its threat
	// type, on every platform asked.
	find := &safebrowsing.GoogleSecuritySafebrowsingV4FindFullHashesRequest{
		Client: &safebrowsing.GoogleSecuritySafebrowsingV4ClientInfo{ClientId: "urlspec-gapi", ClientVersion: "1"},
		ThreatInfo: &safebrowsing.GoogleSecuritySafebrowsingV4ThreatInfo{
			ThreatTypes:      []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"},
			PlatformTypes:    []string{"ANY_PLATFORM", "WINDOWS"},
			ThreatEntryTypes: []string{"URL"},
		},
	}
	wantMatches := map[string]string{}
	for _, u := range sbtest.TestURLs[1:] { // the first is gone
		typ, ok := threatTypes[u.List]
		if !ok {
			continue
		}
		h := sha256.Sum256([]byte(u.Expression))
		find.ThreatInfo.ThreatEntries = append(find.ThreatInfo.ThreatEntries, &safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{Hash: base64.StdEncoding.EncodeToString(h[:4])})
		wantMatches[base64.StdEncoding.EncodeToString(h[:])] = typ
	}
	h := sha256.Sum256([]byte("clean.example/"))
	find.ThreatInfo.ThreatEntries = append(find.ThreatInfo.ThreatEntries, &safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{Hash: base64.StdEncoding.EncodeToString(h[:4])})
	res, err := svc.FullHashes.Find(find).Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, m := range res.Matches {
		if m.ThreatEntryType != "URL" || m.Threat == nil || m.CacheDuration == "" {
			t.Errorf("match %+v", m)
			continue
		}
		got[m.Threat.Hash] = append(got[m.Threat.Hash], m.ThreatType+"/"+m.PlatformType)
	}
	for hash, typ := range wantMatches {
		if w := []string{typ + "/ANY_PLATFORM", typ + "/WINDOWS"}; !slices.Equal(got[hash], w) {
			t.Errorf("matches of %s: %v, want %v", hash, got[hash], w)
		}
	}
	if len(got) != len(wantMatches) || res.MinimumWaitDuration != "0s" || res.NegativeCacheDuration == "" {
		t.Errorf("fullHashes.find: %d full hashes matched, want %d; minimumWaitDuration %q, negativeCacheDuration %q",
			len(got), len(wantMatches), res.MinimumWaitDuration, res.NegativeCacheDuration)
	}

	// threatLists.list: each threat type served, on each platform.
	tl, err := svc.ThreatLists.List().Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.ThreatLists) != 32 {
		t.Errorf("threatLists.list: %d lists, want 32", len(tl.ThreatLists))
	}

	// An error reads as Google's, through apierror: a search that fails
	// upstream is a 503.
	up.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 500})
	h = sha256.Sum256([]byte("other.example/"))
	find.ThreatInfo.ThreatEntries = []*safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{{Hash: base64.StdEncoding.EncodeToString(h[:4])}}
	_, err = svc.FullHashes.Find(find).Context(ctx(t)).Do()
	wantAPIError(t, err, 503, "")
}

// TestV4UpdateWebRisk: Google's v4 Go client against safebrowse/v4update
// on a Web Risk client: MALWARE holds the upstream's 8-byte entry beside
// its 4-byte ones, raw, each checksum verified over this file's decoding;
// PHA, which Web Risk lacks, is an empty full update; fullHashes.find
// finds the 8-byte entry's full hash.
func TestV4UpdateWebRisk(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithTestURLs())
	defer up.Close()
	if err := up.AddPrefix("mw-4b", "long.example/", 8); err != nil {
		t.Fatal(err)
	}
	src, err := lookup.New(lookup.Config{API: lookup.WebRisk, BaseURL: up.URL, APIKey: up.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	v4, err := v4update.New(src, v4update.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v4)
	defer srv.Close()
	svc := newV4(t, srv.URL, "client-key")
	long := sha256.Sum256([]byte("long.example/"))
	for _, compression := range []string{"RICE", "RAW"} {
		var lists []*v4List
		for range v4Lists {
			lists = append(lists, new(v4List))
		}
		fetchV4(t, svc, lists, compression)
		if mw := lists[0].entries; len(mw) != 2 || !slices.Contains(mw, string(long[:8])) {
			t.Errorf("%s: MALWARE %x, want its test URL's 4-byte entry and long.example/'s 8-byte one", compression, mw)
		}
		if pha := lists[3].entries; len(pha) != 0 {
			t.Errorf("%s: POTENTIALLY_HARMFUL_APPLICATION holds %d entries, want none", compression, len(pha))
		}
	}
	res, err := svc.FullHashes.Find(&safebrowsing.GoogleSecuritySafebrowsingV4FindFullHashesRequest{
		ThreatInfo: &safebrowsing.GoogleSecuritySafebrowsingV4ThreatInfo{
			ThreatTypes: []string{"MALWARE"}, PlatformTypes: []string{"ANY_PLATFORM"}, ThreatEntryTypes: []string{"URL"},
			ThreatEntries: []*safebrowsing.GoogleSecuritySafebrowsingV4ThreatEntry{{Hash: base64.StdEncoding.EncodeToString(long[:8])}},
		},
	}).Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Threat.Hash != base64.StdEncoding.EncodeToString(long[:]) {
		t.Errorf("fullHashes.find of the 8-byte entry: %+v", res.Matches)
	}
}
