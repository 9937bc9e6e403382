// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/mirror"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// A wrEnv is one sbtest upstream, a Web Risk source client of it, and a
// Web Risk mirror of the source on loopback.
type wrEnv struct {
	up  *sbtest.Server
	src *lookup.Client
	w   *mirror.WebRisk
	srv *httptest.Server
}

// newWREnv starts a Web Risk mirror of a new sbtest server, seeded by
// seed, and fetches the lists once.
func newWREnv(t testing.TB, cfg mirror.Config, seed func(*sbtest.Server), opts ...sbtest.Option) *wrEnv {
	t.Helper()
	up := sbtest.NewServer(opts...)
	t.Cleanup(up.Close)
	if seed != nil {
		seed(up)
	}
	return wrMirrorOf(t, up, cfg)
}

// wrMirrorOf starts a Web Risk mirror of up and fetches the lists once.
func wrMirrorOf(t testing.TB, up *sbtest.Server, cfg mirror.Config) *wrEnv {
	t.Helper()
	src, err := lookup.NewMirrorSource(lookup.Config{APIKey: up.APIKey, BaseURL: up.URL, API: lookup.WebRisk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	w, err := mirror.NewWebRisk(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := &wrEnv{up: up, src: src, w: w, srv: httptest.NewServer(w)}
	t.Cleanup(e.srv.Close)
	e.update(t)
	return e
}

// update fetches the source's lists once they are due: Web Risk's
// recommendedNextDiff is held a second ahead at least.
func (e *wrEnv) update(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, l := range e.src.Lists() {
		for time.Now().Before(l.Next) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := e.src.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// seedWR seeds each of Web Risk's lists: the test URLs of sbtest, extended
// coverage, an 8-byte entry on MALWARE and a 16-byte one on
// SOCIAL_ENGINEERING.
func seedWR(s *sbtest.Server) {
	for _, u := range sbtest.TestURLs {
		s.Add(u.List, u.Expression)
	}
	s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "ext.example/")
	s.AddPrefix("mw-4b", "long.example/", 8)
	s.AddPrefix("se-4b", "longer.example/", 16)
}

// wrClient is a Web Risk list as a client holds it, kept by hashlist,
// which checks each reply's checksum.
type wrClient struct {
	set   *hashlist.PrefixSet
	token string
}

func newWRClient(t testing.TB, name string) *wrClient {
	t.Helper()
	set, err := hashlist.NewPrefixSet(name)
	if err != nil {
		t.Fatal(err)
	}
	return &wrClient{set: set}
}

// diffOf returns the hashlist.Diff of a reply, field for field.
func diffOf(m *v4wire.ComputeThreatListDiffResponse) hashlist.Diff {
	d := hashlist.Diff{Reset: m.ResponseType == v4wire.FullUpdate, Version: m.NewVersionToken, Checksum: m.Checksum}
	if a := m.Additions; a != nil {
		for _, r := range a.RawHashes {
			d.Raw = append(d.Raw, hashlist.RawHashes(r))
		}
		d.Rice = (*hashlist.Rice)(a.RiceHashes)
	}
	if r := m.Removals; r != nil {
		if r.RawIndices != nil {
			d.RawRemovals = r.RawIndices.Indices
		}
		d.RiceRemovals = (*hashlist.Rice)(r.RiceIndices)
	}
	return d
}

// fetch asks the mirror for c's list from c's token with query, reads the
// reply in JSON or binary, applies it (its checksum checked) and returns
// it. A reply that is not a 200 fails the test.
func (c *wrClient) fetch(t testing.TB, e *wrEnv, query string, proto bool) v4wire.ComputeThreatListDiffResponse {
	t.Helper()
	q := "/v1/threatLists:computeDiff?threatType=" + c.set.Name() + query
	if c.token != "" {
		q += "&versionToken=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(c.token)))
	}
	if proto {
		q += "&alt=proto"
	}
	status, _, body := wrGet(t, e.srv.URL+q)
	if status != 200 {
		t.Fatalf("%s: %d %s", q, status, body)
	}
	var m v4wire.ComputeThreatListDiffResponse
	var err error
	if proto {
		m, err = v4wire.ParseComputeThreatListDiffResponse(body)
	} else {
		checkWebRiskJSON(t, body)
		m, err = v4wire.ParseComputeThreatListDiffResponseJSON(body)
	}
	if err != nil {
		t.Fatal(err)
	}
	d := diffOf(&m)
	if err := c.set.Apply(&d, 1<<24); err != nil {
		t.Fatalf("%s: applying %s: %v", c.set.Name(), m.ResponseType, err)
	}
	c.token = string(m.NewVersionToken)
	return m
}

// entries returns c's entries, each as a string.
func (c *wrClient) entries() []string {
	var out []string
	for e := range c.set.All() {
		out = append(out, string(e))
	}
	return out
}

// wrGet sends GET u and returns the status, the Content-Type and the
// body of the reply.
func wrGet(t testing.TB, u string) (int, string, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// checkWebRiskJSON fails the test unless body holds only the fields of
// webrisk.proto's ComputeThreatListDiffResponse, as google/webrisk reads
// it, refusing any other.
func checkWebRiskJSON(t testing.TB, body []byte) {
	t.Helper()
	type rice struct {
		FirstValue    string `json:"firstValue"`
		RiceParameter int    `json:"riceParameter"`
		EntryCount    int    `json:"entryCount"`
		EncodedData   string `json:"encodedData"`
	}
	var m struct {
		ResponseType string `json:"responseType"`
		Additions    *struct {
			RawHashes []struct {
				PrefixSize int    `json:"prefixSize"`
				RawHashes  string `json:"rawHashes"`
			} `json:"rawHashes"`
			RiceHashes *rice `json:"riceHashes"`
		} `json:"additions"`
		Removals *struct {
			RawIndices *struct {
				Indices []int `json:"indices"`
			} `json:"rawIndices"`
			RiceIndices *rice `json:"riceIndices"`
		} `json:"removals"`
		NewVersionToken string `json:"newVersionToken"`
		Checksum        *struct {
			Sha256 string `json:"sha256"`
		} `json:"checksum"`
		RecommendedNextDiff string `json:"recommendedNextDiff"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("not webrisk.proto's ComputeThreatListDiffResponse: %v: %.200s", err, body)
	}
	if _, err := time.Parse(time.RFC3339, m.RecommendedNextDiff); err != nil {
		t.Errorf("recommendedNextDiff %q: %v", m.RecommendedNextDiff, err)
	}
}

// entry returns the first n bytes of expr's hash.
func entry(expr string, n int) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:n])
}

// TestWebRiskLists: what a client gets from each token it may hold, in
// JSON and in binary, with RICE and with RAW, each reply applied by
// hashlist with its checksum checked: a RESET from none, an empty DIFF at
// the current version, a DIFF with removals and entries of 8 and 16
// bytes after a change, a RESET from a token the mirror does not know.
func TestWebRiskLists(t *testing.T) {
	t.Parallel()
	e := newWREnv(t, mirror.Config{}, seedWR, sbtest.WithRecommendedNextDiff(time.Nanosecond))
	for _, name := range []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"} {
		for _, tt := range []struct {
			compression string
			proto       bool
		}{{"RICE", false}, {"RAW", true}, {"RICE", true}, {"RAW", false}} {
			c := newWRClient(t, name)
			q := "&constraints.supportedCompressions=" + tt.compression
			if m := c.fetch(t, e, q, tt.proto); m.ResponseType != v4wire.FullUpdate || c.set.Len() == 0 {
				t.Errorf("%s %s: %s of %d entries, want a RESET", name, tt.compression, m.ResponseType, c.set.Len())
			}
			if m := c.fetch(t, e, q, tt.proto); m.ResponseType != v4wire.PartialUpdate || m.Additions != nil || m.Removals != nil {
				t.Errorf("%s %s again: %+v, want an empty DIFF", name, tt.compression, m)
			}
		}
	}
	want := []string{entry(sbtest.TestURLs[0].Expression, 4), entry("long.example/", 8)}
	slices.Sort(want)
	mw := newWRClient(t, "MALWARE")
	mw.fetch(t, e, "&constraints.supportedCompressions=RICE", false)
	if got := mw.entries(); !slices.Equal(got, want) {
		t.Errorf("MALWARE holds %x, want %x", got, want)
	}
	mwRaw := newWRClient(t, "MALWARE")
	mwRaw.fetch(t, e, "", true)

	// A change: an 8-byte entry and a 4-byte one out, a 16-byte one and
	// 4-byte ones in.
	e.up.Remove("mw-4b", "long.example/")
	e.up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
	e.up.AddPrefix("mw-4b", "newer.example/", 16)
	for i := range 20 {
		e.up.Add("mw-4b", "n"+strconv.Itoa(i)+".example/")
	}
	e.update(t)
	m := mw.fetch(t, e, "&constraints.supportedCompressions=RICE", false)
	if m.ResponseType != v4wire.PartialUpdate || m.Removals == nil || m.Removals.RiceIndices == nil ||
		m.Additions == nil || m.Additions.RiceHashes == nil || len(m.Additions.RawHashes) != 1 || m.Additions.RawHashes[0].PrefixSize != 16 {
		t.Errorf("DIFF after the change: %+v", m)
	}
	if m := mwRaw.fetch(t, e, "", true); m.ResponseType != v4wire.PartialUpdate || m.Removals == nil || m.Removals.RawIndices == nil || m.Additions.RiceHashes != nil {
		t.Errorf("RAW DIFF after the change: %+v", m)
	}
	if mw.set.Checksum() != mwRaw.set.Checksum() || mw.set.Len() != 21 {
		t.Errorf("the two clients hold %d and %d entries", mw.set.Len(), mwRaw.set.Len())
	}
	// A token the mirror never gave: a RESET.
	other := newWRClient(t, "MALWARE")
	other.token = "MALWARE:not-a-version"
	if m := other.fetch(t, e, "", false); m.ResponseType != v4wire.FullUpdate || other.set.Checksum() != mw.set.Checksum() {
		t.Errorf("a foreign token: %s", m.ResponseType)
	}
}

// TestWebRiskBadRequests: the requests the mirror refuses, in Google's
// error shape.
func TestWebRiskBadRequests(t *testing.T) {
	t.Parallel()
	e := newWREnv(t, mirror.Config{}, func(s *sbtest.Server) {
		for i := range 1100 {
			s.Add("se-4b", "x"+strconv.Itoa(i)+".example/")
		}
	})
	h := sha256.Sum256([]byte("x1.example/"))
	p4 := url.QueryEscape(base64.StdEncoding.EncodeToString(h[:4]))
	for _, tt := range []struct {
		name, path string
		status     int
		want       string
	}{
		// No threat type.
		{"no threatType", "/v1/threatLists:computeDiff", 400, "threatType is required"},
		// A threat type Web Risk does not have.
		{"bad threatType", "/v1/threatLists:computeDiff?threatType=PHISHING", 400, "PHISHING"},
		// A threat type given by both of its names.
		{"both names", "/v1/threatLists:computeDiff?threatType=MALWARE&threat_type=MALWARE", 400, "INVALID_ARGUMENT"},
		// maxDiffEntries below the least chunk.
		{"small diff", "/v1/threatLists:computeDiff?threatType=MALWARE&constraints.maxDiffEntries=1000", 400, "maxDiffEntries=1000"},
		// A list larger than the client's database: both sizes named.
		{"database", "/v1/threatLists:computeDiff?threatType=SOCIAL_ENGINEERING&constraints.maxDatabaseEntries=1024", 400, "holds 1100 entries"},
		// An unknown compression.
		{"compression", "/v1/threatLists:computeDiff?threatType=MALWARE&constraints.supportedCompressions=ZIP", 400, "supportedCompressions"},
		// An unknown parameter.
		{"unknown", "/v1/threatLists:computeDiff?threatType=MALWARE&names=se-4b", 400, "unknown parameter"},
		// An alt that is neither json nor proto.
		{"alt", "/v1/threatLists:computeDiff?threatType=MALWARE&alt=media", 400, "media"},
		// hashes:search without threatTypes, which Google requires.
		{"no threatTypes", "/v1/hashes:search?hashPrefix=" + p4, 400, "threatTypes is required"},
		// ... or without a prefix.
		{"no prefix", "/v1/hashes:search?threatTypes=MALWARE", 400, "hashPrefix is required"},
		// A prefix of 3 bytes.
		{"short prefix", "/v1/hashes:search?threatTypes=MALWARE&hashPrefix=AAAA", 400, "3 bytes"},
		// A prefix of 33 bytes.
		{"long prefix", "/v1/hashes:search?threatTypes=MALWARE&hashPrefix=" + url.QueryEscape(base64.StdEncoding.EncodeToString(make([]byte, 33))), 400, "33 bytes"},
		// v5's methods are not Web Risk's.
		{"v5", "/v5/hashes:search?hashPrefixes=" + p4, 404, "NOT_FOUND"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := wrGet(t, e.srv.URL+tt.path)
			if status != tt.status || !strings.Contains(string(body), tt.want) || !strings.Contains(string(body), `"error"`) {
				t.Errorf("%d %s, want %d and %q", status, body, tt.status, tt.want)
			}
		})
	}
}

// TestWebRiskChunks: constraints.maxDiffEntries chunks a RESET and a
// DIFF into replies of at most the chunk size at or below it, each but
// the last with a recommendedNextDiff of now, each applied with its
// checksum checked; and a client part way through when the list changes
// goes on to the new version.
func TestWebRiskChunks(t *testing.T) {
	t.Parallel()
	e := newWREnv(t, mirror.Config{}, func(s *sbtest.Server) {
		for i := range 3000 {
			s.Add("uws-4b", "u"+strconv.Itoa(i)+".example/")
		}
		for i := range 40 {
			s.AddPrefix("uwsa-4b", "l"+strconv.Itoa(i)+".example/", 8)
		}
	}, sbtest.WithRecommendedNextDiff(time.Nanosecond))
	follow := func(c *wrClient, query string) (replies int) {
		t.Helper()
		for range 20 {
			before := time.Now()
			m := c.fetch(t, e, query, replies%2 == 1)
			n := 0
			if m.Additions != nil {
				if m.Additions.RiceHashes != nil {
					n += 1 + int(m.Additions.RiceHashes.Count)
				}
				for _, r := range m.Additions.RawHashes {
					n += len(r.Hashes) / int(r.PrefixSize)
				}
			}
			if m.Removals != nil && m.Removals.RiceIndices != nil {
				n += 1 + int(m.Removals.RiceIndices.Count)
			}
			if n > 2048 {
				t.Fatalf("a reply of %d entries, over the chunk of 2048", n)
			}
			replies++
			if m.RecommendedNextDiff.After(before.Add(30 * time.Second)) {
				return replies // the last
			}
		}
		t.Fatal("no end to the chunks")
		return 0
	}
	// 3040 entries in chunks of 2048 (2500 served as 2048).
	c := newWRClient(t, "UNWANTED_SOFTWARE")
	if n := follow(c, "&constraints.maxDiffEntries=2500&constraints.supportedCompressions=RICE"); n != 2 || c.set.Len() != 3040 {
		t.Errorf("%d replies, %d entries; want 2 and 3040", n, c.set.Len())
	}
	// A change of 2500 entries, followed in chunks.
	for i := range 1000 {
		e.up.Remove("uws-4b", "u"+strconv.Itoa(i)+".example/")
	}
	for i := range 1500 {
		e.up.AddPrefix("uws-4b", "v"+strconv.Itoa(i)+".example/", 4+4*(i%2))
	}
	e.update(t)
	if n := follow(c, "&constraints.maxDiffEntries=2048&constraints.supportedCompressions=RICE"); n != 2 || c.set.Len() != 3540 {
		t.Errorf("%d replies, %d entries; want 2 and 3540", n, c.set.Len())
	}
	// A client part way through a RESET when the list changes.
	d := newWRClient(t, "UNWANTED_SOFTWARE")
	d.fetch(t, e, "&constraints.maxDiffEntries=1024", false)
	for i := range 300 {
		e.up.Remove("uws-4b", "v"+strconv.Itoa(i)+".example/")
	}
	e.update(t)
	follow(d, "&constraints.maxDiffEntries=1024")
	whole := newWRClient(t, "UNWANTED_SOFTWARE")
	whole.fetch(t, e, "", false)
	if d.set.Checksum() != whole.set.Checksum() || d.set.Len() != 3240 {
		t.Errorf("after an overtaken update: %d entries, want those of the list, %d", d.set.Len(), whole.set.Len())
	}
	if st := e.w.Stats(); st.ListCacheBytes <= 0 {
		t.Errorf("ListCacheBytes %d", st.ListCacheBytes)
	}
}

// TestWebRiskReplicas: two mirrors of one upstream, each with its own
// source, give each list the same version tokens, so that a client that
// moves between them gets a DIFF.
func TestWebRiskReplicas(t *testing.T) {
	t.Parallel()
	a := newWREnv(t, mirror.Config{}, seedWR, sbtest.WithRecommendedNextDiff(time.Nanosecond))
	b := wrMirrorOf(t, a.up, mirror.Config{})
	c := newWRClient(t, "SOCIAL_ENGINEERING")
	c.fetch(t, a, "", false)
	c2 := newWRClient(t, "SOCIAL_ENGINEERING")
	c2.fetch(t, b, "", false) // b serves the first version too
	if c2.token != c.token {
		t.Errorf("b gave %q, a %q", c2.token, c.token)
	}
	a.up.Add("se-4b", "new.example/")
	a.update(t)
	b.update(t)
	if m := c.fetch(t, b, "", false); m.ResponseType != v4wire.PartialUpdate || m.Additions == nil {
		t.Errorf("from a's token at b: %s", m.ResponseType)
	}
	d := newWRClient(t, "SOCIAL_ENGINEERING")
	d.fetch(t, a, "", false)
	if c.token != d.token {
		t.Errorf("b gave %q, a %q", c.token, d.token)
	}
}

// TestWebRiskClient: a lookup.Client of Web Risk pointed at the mirror
// gets its lists and the seeds' verdicts, extended coverage included,
// and its searches are answered by one upstream search a prefix.
func TestWebRiskClient(t *testing.T) {
	t.Parallel()
	e := newWREnv(t, mirror.Config{}, seedWR)
	c, err := lookup.New(lookup.Config{APIKey: "client", BaseURL: e.srv.URL, API: lookup.WebRisk,
		Lists: []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]lookup.ThreatType{
		"http://" + sbtest.TestURLs[0].Expression: lookup.Malware,
		"http://" + sbtest.TestURLs[1].Expression: lookup.SocialEngineering,
		"http://" + sbtest.TestURLs[2].Expression: lookup.UnwantedSoftware,
		"http://ext.example/":                     lookup.SocialEngineeringExtendedCoverage,
		"http://long.example/":                    lookup.Malware,
		"http://longer.example/":                  lookup.SocialEngineering,
		"http://clean.example/":                   0,
	}
	for u, typ := range want {
		v, err := c.Lookup(context.Background(), u)
		switch {
		case err != nil:
			t.Errorf("%s: %v", u, err)
		case typ == 0 && v.Unsafe():
			t.Errorf("%s: %+v, want safe", u, v)
		case typ != 0 && (!v.Unsafe() || v.Threats[0].Type != typ):
			t.Errorf("%s: %+v, want %v", u, v, typ)
		}
	}
	if n := e.up.Requests("v1/threatLists:computeDiff"); n != 4 {
		t.Errorf("%d upstream computeDiff, want the source's 4", n)
	}
	if n := e.up.Requests("v1/hashes:search"); n != 6 {
		t.Errorf("%d upstream hashes:search, want 6, one for each listed URL", n)
	}
}

// TestWebRiskSearch: hashes:search from the cache where fresh, one
// upstream search for concurrent requests of one prefix, the threat
// types asked only, and a 503 when the upstream fails.
func TestWebRiskSearch(t *testing.T) {
	t.Parallel()
	e := newWREnv(t, mirror.Config{}, func(s *sbtest.Server) {
		s.Add("se-4b", "phish.example/")
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "phish.example/")
		s.AddPrefix("mw-4b", "evil.example/", 8)
	})
	h := sha256.Sum256([]byte("phish.example/"))
	q := e.srv.URL + "/v1/hashes:search?hashPrefix=" + url.QueryEscape(base64.StdEncoding.EncodeToString(h[:4]))
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			status, _, body := wrGet(t, q+"&threatTypes=SOCIAL_ENGINEERING&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE")
			if status != 200 || !bytes.Contains(body, []byte(`"threatTypes":["SOCIAL_ENGINEERING","SOCIAL_ENGINEERING_EXTENDED_COVERAGE"]`)) {
				t.Errorf("%d %s", status, body)
			}
		})
	}
	wg.Wait()
	if n := e.up.Requests("v1/hashes:search"); n != 1 {
		t.Errorf("16 requests of one prefix: %d upstream searches, want 1", n)
	}
	// The threat types asked, and only them; in binary too.
	for _, tt := range []struct {
		query, want string
	}{
		// One of the two types.
		{"&threatTypes=SOCIAL_ENGINEERING", `"threatTypes":["SOCIAL_ENGINEERING"]`},
		// Neither: no threat, a negative answer.
		{"&threatTypes=MALWARE", `{"negativeExpireTime":`},
	} {
		status, _, body := wrGet(t, q+tt.query)
		if status != 200 || !bytes.Contains(body, []byte(tt.want)) {
			t.Errorf("%s: %d %s, want %s", tt.query, status, body, tt.want)
		}
	}
	status, ct, body := wrGet(t, q+"&alt=proto&threatTypes=SOCIAL_ENGINEERING")
	m, err := v4wire.ParseSearchHashesResponse(body)
	if status != 200 || ct != "application/x-protobuf" || err != nil || len(m.Threats) != 1 || m.Threats[0].Hash != h || len(m.Threats[0].ThreatTypes) != 1 {
		t.Errorf("alt=proto: %d %s %+v %v", status, ct, m, err)
	}
	if n := e.up.Requests("v1/hashes:search"); n != 1 {
		t.Errorf("%d upstream searches after cached answers, want 1", n)
	}
	// An 8-byte entry, searched whole.
	l := sha256.Sum256([]byte("evil.example/"))
	status, _, body = wrGet(t, e.srv.URL+"/v1/hashes:search?threatTypes=MALWARE&hashPrefix="+url.QueryEscape(base64.StdEncoding.EncodeToString(l[:8])))
	if status != 200 || !bytes.Contains(body, []byte(base64.StdEncoding.EncodeToString(l[:]))) {
		t.Errorf("an 8-byte prefix: %d %s", status, body)
	}
	// A failing upstream: a 503, never an empty reply.
	e.up.Inject(sbtest.Fault{Endpoint: "v1/hashes:search", Status: 500})
	other := sha256.Sum256([]byte("other.example/"))
	status, _, body = wrGet(t, e.srv.URL+"/v1/hashes:search?threatTypes=MALWARE&hashPrefix="+url.QueryEscape(base64.StdEncoding.EncodeToString(other[:4])))
	if status != 503 || !bytes.Contains(body, []byte(`"UNAVAILABLE"`)) {
		t.Errorf("upstream failing: %d %s", status, body)
	}
	st := e.w.Stats()
	if st.Requests["hashes:search"] != 21 || st.UpstreamSearches != 2 || st.CacheEntries != 2 || st.CacheBytes <= 0 {
		t.Errorf("Stats %+v", st)
	}
}
