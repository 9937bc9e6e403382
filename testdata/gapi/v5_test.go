// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package gapi

import (
	"crypto/sha256"
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	safebrowsing "google.golang.org/api/safebrowsing/v5"
)

// threatTypes are the threat types of sbtest's 4-byte lists.
var threatTypes = map[string]string{
	"mw-4b":  "MALWARE",
	"se-4b":  "SOCIAL_ENGINEERING",
	"uws-4b": "UNWANTED_SOFTWARE",
	"pha-4b": "POTENTIALLY_HARMFUL_APPLICATION",
}

// clean is a URL on no list.
const clean = "http://clean.example/"

// testURLs returns the URL of each of sbtest.TestURLs on a threat list
// (gc-32b, the Global Cache, is none), with its threat type.
func testURLs() map[string]string {
	m := make(map[string]string)
	for _, u := range sbtest.TestURLs {
		if typ, ok := threatTypes[u.List]; ok {
			m["http://"+u.Expression] = typ
		}
	}
	return m
}

// wantVerdicts checks a SearchUrlsResponse for testURLs and clean: each
// test URL with its threat type, clean not at all, and cacheDuration.
func wantVerdicts(t *testing.T, res *safebrowsing.GoogleSecuritySafebrowsingV5SearchUrlsResponse) {
	t.Helper()
	got := make(map[string]string)
	for _, th := range res.Threats {
		got[th.Url] = strings.Join(th.ThreatTypes, ",")
	}
	if want := testURLs(); len(want) != 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("threats %v, want %v", got, want)
	}
	if res.CacheDuration != "300s" {
		t.Errorf("cacheDuration %q, want 300s", res.CacheDuration)
	}
}

// searchURLs calls urls.search for testURLs and clean.
func searchURLs(t *testing.T, svc *safebrowsing.Service) (*safebrowsing.GoogleSecuritySafebrowsingV5SearchUrlsResponse, error) {
	urls := []string{clean}
	for u := range testURLs() {
		urls = append(urls, u)
	}
	return svc.Urls.Search().Urls(urls...).Context(ctx(t)).Do()
}

// prefixOf is the standard base64 of the 4-byte hash prefix of an
// expression, as hashes.search takes it.
func prefixOf(expr string) (string, [32]byte) {
	h := sha256.Sum256([]byte(expr))
	return base64.StdEncoding.EncodeToString(h[:4]), h
}

// newV5 is a v5 client of base with key.
func newV5(t *testing.T, base, key string) *safebrowsing.Service {
	t.Helper()
	svc, err := safebrowsing.NewService(ctx(t), clientOptions(base, key)...)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestSbtestV5: Google's v5 Go client against sbtest WithJSON: the
// verdicts of the test URLs through urls.search, a full hash through
// hashes.search, a list through hashList.get, and Google's errors, read
// through apierror: API_KEY_INVALID for a wrong key, CREDENTIALS_MISSING
// for none, RATE_LIMIT_EXCEEDED for an injected 429.
func TestSbtestV5(t *testing.T) {
	t.Parallel()
	s := sbtest.NewServer(sbtest.WithJSON(), sbtest.WithTestURLs())
	defer s.Close()
	svc := newV5(t, s.URL, s.APIKey)

	res, err := searchURLs(t, svc)
	if err != nil {
		t.Fatal(err)
	}
	wantVerdicts(t, res)

	expr := sbtest.TestURLs[0].Expression // on mw-4b
	prefix, h := prefixOf(expr)
	hs, err := svc.Hashes.Search().HashPrefixes(prefix).Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(hs.FullHashes) != 1 || hs.FullHashes[0].FullHash != base64.StdEncoding.EncodeToString(h[:]) ||
		len(hs.FullHashes[0].FullHashDetails) != 1 || hs.FullHashes[0].FullHashDetails[0].ThreatType != "MALWARE" {
		t.Errorf("hashes.search %s: %+v", expr, hs)
	}

	list, err := svc.HashList.Get("se-4b").Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if list.Name != "se-4b" || list.AdditionsFourBytes == nil || list.Sha256Checksum == "" {
		t.Errorf("hashList.get se-4b: %+v", list)
	}

	_, err = searchURLs(t, newV5(t, s.URL, "AIza-not-"+s.APIKey))
	wantAPIError(t, err, 400, "API_KEY_INVALID")
	_, err = searchURLs(t, newV5(t, s.URL, ""))
	wantAPIError(t, err, 403, "CREDENTIALS_MISSING")

	s.Inject(sbtest.Fault{Endpoint: "urls:search", Status: 429})
	_, err = searchURLs(t, svc)
	wantAPIError(t, err, 429, "RATE_LIMIT_EXCEEDED")
	s.ClearFaults()
}

// TestSbtestProtoOnly: without WithJSON, sbtest answers as Google's v5
// does, so Google's v5 Go client, which asks for JSON, fails against it
// as it fails against Google (google-api-go-client #2534): a 400
// INVALID_ARGUMENT "Unsupported Output Format", with no reason.
func TestSbtestProtoOnly(t *testing.T) {
	t.Parallel()
	s := sbtest.NewServer(sbtest.WithTestURLs())
	defer s.Close()
	_, err := searchURLs(t, newV5(t, s.URL, s.APIKey))
	wantAPIError(t, err, 400, "")
	if err == nil || !strings.Contains(err.Error(), "Unsupported Output Format") {
		t.Errorf("error %v, want Google's \"Unsupported Output Format\"", err)
	}
}

// TestSbserverV5: Google's v5 Go client against sbserver -fake -mirror:
// urls.search gives the test URLs' verdicts, the mirror's hashes.search a
// full hash, and a refused client key the reason Google's APIs give it
// (API_KEY_INVALID, CREDENTIALS_MISSING), on sbserver's endpoint and the
// mirror's, with sbserver's statuses (403, 401).
func TestSbserverV5(t *testing.T) {
	t.Parallel()
	base := startSbserver(t)
	svc := newV5(t, base, clientKey)

	res, err := searchURLs(t, svc)
	if err != nil {
		t.Fatal(err)
	}
	wantVerdicts(t, res)

	expr := sbtest.TestURLs[1].Expression // on se-4b
	prefix, h := prefixOf(expr)
	hs, err := svc.Hashes.Search().HashPrefixes(prefix).Context(ctx(t)).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(hs.FullHashes) != 1 || hs.FullHashes[0].FullHash != base64.StdEncoding.EncodeToString(h[:]) ||
		len(hs.FullHashes[0].FullHashDetails) != 1 || hs.FullHashes[0].FullHashDetails[0].ThreatType != "SOCIAL_ENGINEERING" {
		t.Errorf("the mirror's hashes.search %s: %+v", expr, hs)
	}

	wrong := newV5(t, base, "not-"+clientKey)
	_, err = searchURLs(t, wrong)
	wantAPIError(t, err, 403, "API_KEY_INVALID")
	_, err = wrong.Hashes.Search().HashPrefixes(prefix).Context(ctx(t)).Do()
	wantAPIError(t, err, 403, "API_KEY_INVALID")
	_, err = searchURLs(t, newV5(t, base, ""))
	wantAPIError(t, err, 401, "CREDENTIALS_MISSING")
}
