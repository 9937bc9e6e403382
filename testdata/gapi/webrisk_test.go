// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	webrisk "google.golang.org/api/webrisk/v1"
)

// This file tests sbtest's Web Risk API with Google's generated Web Risk
// client, google.golang.org/api/webrisk/v1. The lists it fetches are
// decoded here, from the Web Risk documentation alone, not by the
// module's hashlist, so that the server's Rice coding and checksums are
// checked against the text they implement.

// webRiskLists are Web Risk's threat types, each with the sbtest list
// whose test URL (sbtest.TestURLs) it holds; extended coverage has none.
var webRiskLists = map[string]string{
	"MALWARE":                              "mw-4b",
	"SOCIAL_ENGINEERING":                   "se-4b",
	"UNWANTED_SOFTWARE":                    "uws-4b",
	"SOCIAL_ENGINEERING_EXTENDED_COVERAGE": "",
}

// allTypes are the four threat types, in the order of the API's enum.
var allTypes = []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}

// newWebRisk is a Web Risk client of base with key.
func newWebRisk(t *testing.T, base, key string) *webrisk.Service {
	t.Helper()
	svc, err := webrisk.NewService(ctx(t), clientOptions(base, key)...)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// riceDecode decodes a Web Risk RiceDeltaEncoding, with decodeRice.
func riceDecode(r *webrisk.GoogleCloudWebriskV1RiceDeltaEncoding) ([]uint32, error) {
	return decodeRice(r.FirstValue, r.RiceParameter, r.EntryCount, r.EncodedData)
}

// wrList is a Web Risk list as a client holds it: its entries in byte
// order, and the version token of its last update.
type wrList struct {
	entries []string
	token   string
}

// apply applies a computeDiff reply to l as cloud.google.com/web-risk/
// docs (local databases, compression) says: a RESET empties the list; a
// DIFF removes the entries at the removal indices, which point into the
// list in byte order; then the additions are added, raw ones cut by
// their prefixSize, Rice-coded ones as little-endian uint32s; and the
// SHA-256 of the entries, sorted in byte order and concatenated, must be
// checksum.sha256.
func (l *wrList) apply(d *webrisk.GoogleCloudWebriskV1ComputeThreatListDiffResponse) error {
	var entries []string
	switch d.ResponseType {
	case "RESET":
	case "DIFF":
		entries = slices.Clone(l.entries)
	default:
		return fmt.Errorf("responseType %q", d.ResponseType)
	}
	if rm := d.Removals; rm != nil {
		if d.ResponseType == "RESET" {
			return errors.New("removals in a RESET")
		}
		var idx []int64
		if rm.RawIndices != nil {
			idx = append(idx, rm.RawIndices.Indices...)
		}
		if rm.RiceIndices != nil {
			vs, err := riceDecode(rm.RiceIndices)
			if err != nil {
				return fmt.Errorf("riceIndices: %v", err)
			}
			for _, v := range vs {
				idx = append(idx, int64(v))
			}
		}
		gone := make(map[int64]bool)
		for _, i := range idx {
			if i < 0 || i >= int64(len(entries)) || gone[i] {
				return fmt.Errorf("removal index %d of %d entries", i, len(entries))
			}
			gone[i] = true
		}
		kept := entries[:0]
		for i, e := range entries {
			if !gone[int64(i)] {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
	if a := d.Additions; a != nil {
		for _, r := range a.RawHashes {
			b, err := base64.StdEncoding.DecodeString(r.RawHashes)
			if err != nil || r.PrefixSize < 4 || r.PrefixSize > 32 || len(b)%int(r.PrefixSize) != 0 {
				return fmt.Errorf("rawHashes of size %d: %d bytes, %v", r.PrefixSize, len(b), err)
			}
			for i := 0; i < len(b); i += int(r.PrefixSize) {
				entries = append(entries, string(b[i:i+int(r.PrefixSize)]))
			}
		}
		if a.RiceHashes != nil {
			vs, err := riceDecode(a.RiceHashes)
			if err != nil {
				return fmt.Errorf("riceHashes: %v", err)
			}
			for _, v := range vs {
				entries = append(entries, string(binary.LittleEndian.AppendUint32(nil, v)))
			}
		}
	}
	slices.Sort(entries)
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	if d.Checksum == nil || d.Checksum.Sha256 != base64.StdEncoding.EncodeToString(sum[:]) {
		return fmt.Errorf("checksum %+v, want %x", d.Checksum, sum)
	}
	l.entries, l.token = entries, d.NewVersionToken
	return nil
}

// update asks computeDiff for the list of threat type typ from l's
// token, with RICE or RAW, and applies the reply.
func (l *wrList) update(t *testing.T, svc *webrisk.Service, typ, compression string) *webrisk.GoogleCloudWebriskV1ComputeThreatListDiffResponse {
	t.Helper()
	call := svc.ThreatLists.ComputeDiff().ThreatType(typ).ConstraintsSupportedCompressions(compression).Context(ctx(t))
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

// entryOf returns the first n bytes of an expression's hash.
func entryOf(expr string, n int) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:n])
}

// TestSbtestWebRisk: Google's Web Risk Go client against sbtest:
// computeDiff RESETs with RICE and RAW, checked against the seeds, then
// DIFFs with removals and 8-byte entries, each checksum verified over
// this file's decoding; the verdicts of the test URLs through
// hashes.search and uris.search; and Google's errors naming the Web Risk
// service.
func TestSbtestWebRisk(t *testing.T) {
	t.Parallel()
	s := sbtest.NewServer(sbtest.WithTestURLs())
	defer s.Close()
	for _, err := range []error{
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "ext.example/"),
		s.AddPrefix("mw-4b", "long.example/", 8),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range 300 { // a Rice stream of some length
		s.AddHash("uwsa-4b", sha256.Sum256([]byte("many"+strconv.Itoa(i))))
	}
	svc := newWebRisk(t, s.URL, s.APIKey)

	// RESETs, each holding what was seeded.
	lists := make(map[string]*wrList)
	for i, typ := range allTypes {
		l := new(wrList)
		compression := []string{"RICE", "RAW"}[i%2]
		if d := l.update(t, svc, typ, compression); d.ResponseType != "RESET" {
			t.Errorf("%s: %s, want RESET", typ, d.ResponseType)
		}
		lists[typ] = l
	}
	want := map[string][]string{
		"MALWARE":                              {entryOf(sbtest.TestURLs[0].Expression, 4), entryOf("long.example/", 8)},
		"SOCIAL_ENGINEERING":                   {entryOf(sbtest.TestURLs[1].Expression, 4)},
		"UNWANTED_SOFTWARE":                    {entryOf(sbtest.TestURLs[2].Expression, 4)},
		"SOCIAL_ENGINEERING_EXTENDED_COVERAGE": {entryOf("ext.example/", 4)},
	}
	for i := range 300 {
		h := sha256.Sum256([]byte("many" + strconv.Itoa(i)))
		want["UNWANTED_SOFTWARE"] = append(want["UNWANTED_SOFTWARE"], string(h[:4]))
	}
	for typ, w := range want {
		slices.Sort(w)
		w = slices.Compact(w)
		if got := lists[typ].entries; !slices.Equal(got, w) {
			t.Errorf("%s: %d entries, want %d", typ, len(got), len(w))
		}
	}

	// DIFFs: a 4-byte entry and an 8-byte one removed, an 8-byte one and
	// 4-byte ones added, with RICE and with RAW.
	s.Remove("mw-4b", "long.example/")
	s.AddPrefix("mw-4b", "longer.example/", 8)
	s.Add("mw-4b", "new.example/")
	for i := range 50 {
		s.RemoveHash("uwsa-4b", sha256.Sum256([]byte("many"+strconv.Itoa(3*i))))
		s.AddPrefix("uws-4b", "new"+strconv.Itoa(i)+".example/", 4+i%3*4)
	}
	for _, typ := range []string{"MALWARE", "UNWANTED_SOFTWARE"} {
		for _, compression := range []string{"RICE", "RAW"} {
			before := lists[typ].token
			d := lists[typ].update(t, svc, typ, compression)
			if compression == "RAW" {
				if d.ResponseType != "DIFF" || d.Additions != nil || d.Removals != nil || d.NewVersionToken != before {
					t.Errorf("%s again: %+v, want an empty DIFF", typ, d)
				}
				continue
			}
			if d.ResponseType != "DIFF" || d.Removals == nil || d.Removals.RiceIndices == nil || d.Additions == nil ||
				d.Additions.RiceHashes == nil || len(d.Additions.RawHashes) == 0 || d.NewVersionToken == before {
				t.Errorf("%s: %+v, want a DIFF with Rice-coded removals and additions, and raw ones", typ, d)
			}
		}
	}
	if l := lists["MALWARE"]; !slices.Contains(l.entries, entryOf("longer.example/", 8)) || slices.Contains(l.entries, entryOf("long.example/", 8)) ||
		!slices.Contains(l.entries, entryOf("new.example/", 4)) || len(l.entries) != 3 {
		t.Errorf("MALWARE after the DIFF: %x", l.entries)
	}
	// A raw DIFF: raw removal indices, and a 16-byte entry.
	s2 := sbtest.NewServer()
	defer s2.Close()
	s2.Add("se-4b", "a.example/")
	s2.Add("se-4b", "b.example/")
	raw := new(wrList)
	raw.update(t, newWebRisk(t, s2.URL, s2.APIKey), "SOCIAL_ENGINEERING", "RAW")
	s2.Remove("se-4b", "a.example/")
	s2.AddPrefix("se-4b", "c.example/", 16)
	if d := raw.update(t, newWebRisk(t, s2.URL, s2.APIKey), "SOCIAL_ENGINEERING", "RAW"); d.ResponseType != "DIFF" || d.Removals.RawIndices == nil {
		t.Errorf("raw DIFF: %+v", d)
	}

	// The verdicts of the test URLs, and of the lists' own entries.
	verdicts := map[string]string{"http://clean.example/": "", "http://ext.example/": "SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "http://longer.example/": "MALWARE"}
	for typ, list := range webRiskLists {
		for _, u := range sbtest.TestURLs {
			if list != "" && u.List == list {
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
			if res.Threat.ExpireTime == "" {
				t.Errorf("uris.search %s: no expireTime", u)
			}
		}
		if got != typ {
			t.Errorf("uris.search %s: %q, want %q", u, got, typ)
		}
	}
	for u, typ := range verdicts {
		expr := strings.TrimPrefix(u, "http://")
		n := 4
		if expr == "longer.example/" {
			n = 8
		}
		h := sha256.Sum256([]byte(expr))
		res, err := svc.Hashes.Search().HashPrefix(base64.StdEncoding.EncodeToString(h[:n])).ThreatTypes(allTypes...).Context(ctx(t)).Do()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, th := range res.Threats {
			if th.Hash == base64.StdEncoding.EncodeToString(h[:]) {
				got = append(got, th.ThreatTypes...)
			}
		}
		if strings.Join(got, ",") != typ || res.NegativeExpireTime == "" {
			t.Errorf("hashes.search %s: %+v, want %q", expr, res, typ)
		}
	}

	// Google's errors, read through apierror, naming Web Risk.
	_, err := newWebRisk(t, s.URL, "AIza-not-"+s.APIKey).Uris.Search().Uri(clean).ThreatTypes("MALWARE").Context(ctx(t)).Do()
	wantServiceError(t, err, 400, "API_KEY_INVALID", "webrisk.googleapis.com")
	_, err = newWebRisk(t, s.URL, "").ThreatLists.ComputeDiff().ThreatType("MALWARE").Context(ctx(t)).Do()
	wantServiceError(t, err, 403, "CREDENTIALS_MISSING", "webrisk.googleapis.com")
	s.Inject(sbtest.Fault{Endpoint: "v1/hashes:search", Status: 429, Times: 1})
	_, err = svc.Hashes.Search().HashPrefix("AAAAAA==").ThreatTypes("MALWARE").Context(ctx(t)).Do()
	wantServiceError(t, err, 429, "RATE_LIMIT_EXCEEDED", "webrisk.googleapis.com")
	_, err = svc.ThreatLists.ComputeDiff().ThreatType("MALWARE").ConstraintsMaxDiffEntries(1000).Context(ctx(t)).Do()
	wantServiceError(t, err, 400, "", "")
	if n := s.Requests("v1/threatLists:computeDiff"); n != 10 {
		t.Errorf("Requests(v1/threatLists:computeDiff) = %d, want 10", n)
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("v5's hashes:search got %d requests", n)
	}
	if n := len(s.SearchedPrefixes()); n != len(verdicts)+1 {
		t.Errorf("SearchedPrefixes holds %d prefixes, want %d", n, len(verdicts)+1)
	}
}
