// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

// This file tests the v4 Update API through the built binary: the
// requests of github.com/google/safebrowsing and of Chromium, two
// replicas, an upstream change, a failed search, the modes that serve
// it, and the access rules in front of it. The binary protobuf is read
// and written by the tests' own v4 client (v4proto_test.go).

// v4Send sends a v4 request, as the form f sends it, and returns its
// status, Content-Type and body.
type v4Send func(t *testing.T, base, method, key string, req []byte) (int, string, []byte)

// v4Post sends req as github.com/google/safebrowsing does (api.go,
// netAPI.doRequest): a POST of the binary request, Content-Type
// application/x-protobuf, with key and alt=proto in the query.
func v4Post(t *testing.T, base, method, key string, req []byte) (int, string, []byte) {
	t.Helper()
	return v4Do(t, "POST", base+"/v4/"+method+"?"+url.Values{"key": {key}, "alt": {"proto"}}.Encode(), req,
		"Content-Type", protobufType)
}

// v4Chromium sends req as Chromium does (v4_protocol_manager_util.cc):
// a GET whose $req is the binary request in base64url with padding, with
// $ct=application/x-protobuf, key= and X-HTTP-Method-Override: POST.
func v4Chromium(t *testing.T, base, method, key string, req []byte) (int, string, []byte) {
	t.Helper()
	q := "$req=" + base64.URLEncoding.EncodeToString(req) + "&$ct=" + url.QueryEscape(protobufType) + "&key=" + url.QueryEscape(key)
	return v4Do(t, "GET", base+"/v4/"+method+"?"+q, nil, "X-HTTP-Method-Override", "POST")
}

// v4Do sends a request with a header (name, value) and returns its
// status, Content-Type and body.
func v4Do(t *testing.T, method, u string, body []byte, header ...string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

// A v4Client is a v4 client with a local database of lists, that asks in
// one form with compressions.
type v4Client struct {
	name         string
	lists        []v4Desc
	local        []v4Local
	send         v4Send
	compressions []int
}

func newV4Client(name string, send v4Send, lists []v4Desc, compressions ...int) *v4Client {
	return &v4Client{name: name, lists: lists, local: make([]v4Local, len(lists)), send: send, compressions: compressions}
}

// update fetches the client's lists from base, from their states, checks
// that the binary reply echoes each list asked, in order, applies each
// update (its checksum verified), and returns the response types.
func (c *v4Client) update(t *testing.T, base string) []int {
	t.Helper()
	states := make([][]byte, len(c.lists))
	for i := range c.local {
		states[i] = c.local[i].state
	}
	status, ct, body := c.send(t, base, "threatListUpdates:fetch", clientKey, v4FetchRequest(c.lists, states, c.compressions...))
	if status != 200 || ct != protobufType {
		t.Fatalf("%s: fetch: %d %s %.300q", c.name, status, ct, body)
	}
	us, wait, err := parseV4Fetch(body)
	if err != nil || len(us) != len(c.lists) || !wait {
		t.Fatalf("%s: fetch: %d list updates for %d lists, minimum wait %v, %v", c.name, len(us), len(c.lists), wait, err)
	}
	var types []int
	for i, u := range us {
		if u.desc != c.lists[i] {
			t.Errorf("%s: list update %d is of %v, want %v", c.name, i, u.desc, c.lists[i])
		}
		for _, s := range slices.Concat(u.additions, u.removals) {
			long := s.compression == v4Raw && s.prefixSize > 4
			if !slices.Contains(c.compressions, s.compression) && !long {
				t.Errorf("%s: %v: a set of compression %d, asked %v", c.name, u.desc, s.compression, c.compressions)
			}
		}
		if err := c.local[i].apply(u); err != nil {
			t.Fatalf("%s: %v: %v", c.name, u.desc, err)
		}
		types = append(types, u.responseType)
	}
	return types
}

// states returns the client's states, as strings.
func (c *v4Client) states() []string {
	var s []string
	for _, l := range c.local {
		s = append(s, string(l.state))
	}
	return s
}

// prefix4 is the 4-byte hash prefix of an expression.
func prefix4(expr string) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:4])
}

// gsbLists are the lists github.com/google/safebrowsing fetches by
// default (DefaultThreatLists), and PHA; chromeLists lists as Chromium
// asks, on CHROME, and one that is not served (EXECUTABLE).
var (
	gsbLists = []v4Desc{{v4Malware, v4AnyPlatform, v4URL}, {v4SocialEng, v4AnyPlatform, v4URL},
		{v4Unwanted, v4AnyPlatform, v4URL}, {v4PHA, v4AnyPlatform, v4URL}}
	chromeLists = []v4Desc{{v4Malware, v4Chrome, v4URL}, {v4SocialEng, v4Chrome, v4URL},
		{v4Unwanted, v4Chrome, v4URL}, {v4Malware, v4Chrome, v4Executable}}
)

// TestBinaryV4: two replicas of the built binary on one upstream serve
// the v4 Update API. google/safebrowsing's binary POST (RAW and RICE) and
// Chromium's $req GET (RICE) each get a full update, then, after an
// upstream change and from the other replica, a partial one, each
// checksum verified; both replicas give the same states; fullHashes:find
// answers in both forms; and a failed upstream search is a 503.
func TestBinaryV4(t *testing.T) {
	t.Parallel()
	up := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithMinimumWait(200*time.Millisecond))
	t.Cleanup(up.Close)
	want := map[int][]string{} // threat type → prefixes
	for _, u := range sbtest.TestURLs {
		if typ, ok := map[string]int{"mw-4b": v4Malware, "se-4b": v4SocialEng, "uws-4b": v4Unwanted, "pha-4b": v4PHA}[u.List]; ok {
			want[typ] = append(want[typ], prefix4(u.Expression))
		}
	}
	for i := range 300 { // a Rice stream of some length
		expr := fmt.Sprintf("many%d.example/", i)
		up.Add("uwsa-4b", expr)
		want[v4Unwanted] = append(want[v4Unwanted], prefix4(expr))
	}
	keys := writeKeys(t, clientKey)
	var replicas [2]string
	for i := range replicas {
		p := startBinary(t, "-addr", "127.0.0.1:0", "-upstream", up.URL, "-key", up.APIKey, "-client-keys", keys)
		replicas[i] = "http://" + p.addr
	}
	for _, r := range replicas {
		waitReadyBinary(t, r)
	}
	check := func(what string, c *v4Client) {
		t.Helper()
		for i, l := range c.lists {
			w := slices.Clone(want[l.threat])
			if l.entry != v4URL {
				w = nil // not served: empty
			}
			slices.Sort(w)
			if got := c.local[i].entries; !slices.Equal(got, w) {
				t.Errorf("%s: %s: %v holds %d entries, want %d", what, c.name, l, len(got), len(w))
			}
		}
	}
	wantTypes := func(what string, c *v4Client, got []int, partial bool) {
		t.Helper()
		for i, typ := range got {
			w := v4Full
			if partial && c.lists[i].entry == v4URL {
				w = v4Partial
			}
			if typ != w {
				t.Errorf("%s: %s: %v is response type %d, want %d", what, c.name, c.lists[i], typ, w)
			}
		}
	}

	gsb := newV4Client("google/safebrowsing", v4Post, gsbLists, v4Raw, v4Rice)
	chrome := newV4Client("Chromium", v4Chromium, chromeLists, v4Rice)
	wantTypes("first", gsb, gsb.update(t, replicas[0]), false)
	wantTypes("first", chrome, chrome.update(t, replicas[1]), false)
	check("first", gsb)
	check("first", chrome)
	// The replicas agree: a list's state is the same on each, whatever
	// the platform asked.
	other := newV4Client("google/safebrowsing on the other replica", v4Post, gsbLists, v4Raw, v4Rice)
	other.update(t, replicas[1])
	if !slices.Equal(gsb.states(), other.states()) || !slices.Equal(gsb.states()[:3], chrome.states()[:3]) {
		t.Errorf("the replicas' states differ:\n%q\n%q\n%q", gsb.states(), other.states(), chrome.states())
	}

	// An upstream change reaches both replicas...
	up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
	up.Add("mw-4b", "new.example/")
	up.Add("mw-4b", "new2.example/")
	want[v4Malware] = []string{prefix4("new.example/"), prefix4("new2.example/")}
	for i := range 30 {
		expr := fmt.Sprintf("many%d.example/", 10*i)
		up.Remove("uwsa-4b", expr)
		want[v4Unwanted] = slices.DeleteFunc(want[v4Unwanted], func(p string) bool { return p == prefix4(expr) })
	}
	for _, r := range replicas {
		waitEntries(t, r, map[string]int{"mw-4b": 2, "uwsa-4b": 270})
	}
	// ... and each client, asking the other replica, gets a partial
	// update from the state the first gave.
	wantTypes("after the change", gsb, gsb.update(t, replicas[1]), true)
	wantTypes("after the change", chrome, chrome.update(t, replicas[0]), true)
	check("after the change", gsb)
	check("after the change", chrome)
	other.update(t, replicas[0])
	if !slices.Equal(gsb.states(), other.states()) {
		t.Errorf("the replicas' states differ after the change:\n%q\n%q", gsb.states(), other.states())
	}

	// fullHashes:find, in both forms: each full hash on its threat type,
	// on every platform asked.
	newHash := sha256.Sum256([]byte("new.example/"))
	seHash := sha256.Sum256([]byte(sbtest.TestURLs[1].Expression))
	find := v4FindRequest([]int{v4Malware, v4SocialEng}, []int{v4AnyPlatform, v4Windows}, newHash[:4], seHash[:4])
	for i, send := range []v4Send{v4Post, v4Chromium} {
		status, ct, body := send(t, replicas[i], "fullHashes:find", clientKey, find)
		if status != 200 || ct != protobufType {
			t.Fatalf("find %d: %d %s %.300q", i, status, ct, body)
		}
		ms, negative, err := parseV4Find(body)
		if err != nil || !negative {
			t.Fatalf("find %d: %v, negative cache duration %v", i, err, negative)
		}
		var got []string
		for _, m := range ms {
			if m.entry != v4URL || !m.cacheDuration {
				t.Errorf("find %d: match %+v", i, m)
			}
			got = append(got, fmt.Sprintf("%x %d/%d", m.hash, m.threat, m.platform))
		}
		slices.Sort(got)
		w := []string{
			fmt.Sprintf("%x %d/%d", newHash, v4Malware, v4AnyPlatform), fmt.Sprintf("%x %d/%d", newHash, v4Malware, v4Windows),
			fmt.Sprintf("%x %d/%d", seHash, v4SocialEng, v4AnyPlatform), fmt.Sprintf("%x %d/%d", seHash, v4SocialEng, v4Windows),
		}
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("find %d: %q, want %q", i, got, w)
		}
	}

	// A search that fails upstream is a 503, never an empty reply.
	up.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 500})
	defer up.ClearFaults()
	uncached := sha256.Sum256([]byte("uncached.example/"))
	status, _, body := v4Post(t, replicas[0], "fullHashes:find", clientKey, v4FindRequest([]int{v4Malware}, []int{v4AnyPlatform}, uncached[:4]))
	if status != 503 || !strings.Contains(string(body), `"status":"UNAVAILABLE"`) {
		t.Errorf("find with the upstream failing: %d %.300q, want a 503 UNAVAILABLE", status, body)
	}
}

// waitEntries waits until the lists of the binary at base hold entries
// (list name → count), by its /status.
func waitEntries(t *testing.T, base string, entries map[string]int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body, _ := request(t, "GET", base+"/status", "", "X-Goog-Api-Key: "+clientKey)
		var st statusReply
		json.Unmarshal([]byte(body), &st)
		n := 0
		for _, l := range st.Lists {
			if want, ok := entries[l.Name]; ok && l.Entries == want {
				n++
			}
		}
		if n == len(entries) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: lists not at %v after 20 s: %s", base, entries, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBinaryV4Access: the v4 Update API behind sbserver's access rules,
// on the built binary with -fake and -client-keys: a key is required, as
// key= or X-Goog-Api-Key, with Google's ErrorInfo when refused; the two
// methods that take a request take a protobuf POST, and no other
// endpoint does; a body a web page can send without a preflight, or a
// request marked cross-site, is refused; and /metrics counts them.
func TestBinaryV4Access(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "-fake", "-addr", "127.0.0.1:0", "-client-keys", writeKeys(t, clientKey))
	base := "http://" + p.addr
	waitReadyBinary(t, base)
	fetch := v4FetchRequest(gsbLists, make([][]byte, len(gsbLists)), v4Raw)
	h := sha256.Sum256([]byte(sbtest.TestURLs[0].Expression))
	find := v4FindRequest([]int{v4Malware}, []int{v4AnyPlatform}, h[:4])
	jsonFetch := `{"listUpdateRequests":[{"threatType":"MALWARE","platformType":"WINDOWS","threatEntryType":"URL"}]}`
	chromium := "?$req=" + base64.URLEncoding.EncodeToString(fetch) + "&$ct=application%2Fx-protobuf"
	const key = "&key=" + clientKey
	pb, js := "Content-Type", protobufType
	for _, tt := range []struct {
		name, method, path string
		body               []byte
		header             []string
		status             int
		want               string // in the body, or the Content-Type of a 200
	}{
		// google/safebrowsing's fetch and find.
		{"fetch", "POST", "/v4/threatListUpdates:fetch?alt=proto" + key, fetch, []string{pb, js}, 200, protobufType},
		{"find", "POST", "/v4/fullHashes:find?alt=proto" + key, find, []string{pb, js}, 200, protobufType},
		// The key as X-Goog-Api-Key, in JSON.
		{"fetch JSON", "POST", "/v4/threatListUpdates:fetch", []byte(jsonFetch), []string{"Content-Type", "application/json", "X-Goog-Api-Key", clientKey}, 200, "application/json"},
		// Chromium's GET, for both methods.
		{"fetch $req", "GET", "/v4/threatListUpdates:fetch" + chromium + key, nil, []string{"X-HTTP-Method-Override", "POST"}, 200, protobufType},
		{"find $req", "GET", "/v4/fullHashes:find?$req=" + base64.URLEncoding.EncodeToString(find) + key, nil, []string{"X-HTTP-Method-Override", "POST"}, 200, protobufType},
		// The lists served.
		{"threatLists", "GET", "/v4/threatLists?key=" + clientKey, nil, nil, 200, "application/json"},
		// No key: 401, with Google's ErrorInfo.
		{"no key", "POST", "/v4/threatListUpdates:fetch?alt=proto", fetch, []string{pb, js}, 401,
			`"reason":"CREDENTIALS_MISSING","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}`},
		{"no key $req", "GET", "/v4/threatListUpdates:fetch" + chromium, nil, []string{"X-HTTP-Method-Override", "POST"}, 401, `"status":"UNAUTHENTICATED"`},
		{"no key lists", "GET", "/v4/threatLists", nil, nil, 401, `CREDENTIALS_MISSING`},
		// A wrong key: 403.
		{"wrong key", "POST", "/v4/fullHashes:find?alt=proto&key=nope", find, []string{pb, js}, 403, `"reason":"API_KEY_INVALID"`},
		// The upstream's key is no client key.
		{"upstream key", "GET", "/v4/threatLists?key=sbtest-key", nil, nil, 403, `"status":"PERMISSION_DENIED"`},
		// A body a page can send without a preflight.
		{"text/plain", "POST", "/v4/threatListUpdates:fetch?alt=proto" + key, fetch, []string{"Content-Type", "text/plain"}, 415,
			"must be application/json or application/x-protobuf"},
		{"form", "POST", "/v4/fullHashes:find" + "?alt=proto" + key, find, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "INVALID_ARGUMENT"},
		{"no type", "POST", "/v4/fullHashes:find" + "?alt=proto" + key, find, nil, 415, "must be"},
		// No other endpoint takes protobuf.
		{"protobuf lookup", "POST", "/v5/urls:lookup?key=" + clientKey, []byte(`{"urls":[]}`), []string{pb, js}, 415, "must be application/json"},
		{"protobuf threatMatches", "POST", "/v4/threatMatches:find?key=" + clientKey, find, []string{pb, js}, 415, "must be application/json"},
		{"text/plain lookup", "POST", "/v5/urls:lookup?key=" + clientKey, []byte(`{"urls":[]}`), []string{"Content-Type", "text/plain"}, 415, "must be application/json"},
		// A cross-site request, even with a key and protobuf.
		{"cross-site", "POST", "/v4/threatListUpdates:fetch?alt=proto" + key, fetch, []string{pb, js, "Sec-Fetch-Site", "cross-site"}, 403, "cross-site request refused"},
		{"cross-site $req", "GET", "/v4/fullHashes:find?$req=" + base64.URLEncoding.EncodeToString(find) + key, nil, []string{"Sec-Fetch-Site", "same-site"}, 403, "cross-site request refused"},
		{"origin", "POST", "/v4/fullHashes:find?alt=proto" + key, find, []string{pb, js, "Origin", "https://attacker.example"}, 403, "cross-site request refused"},
		// A GET without $req, or overriding to another method.
		{"GET without $req", "GET", "/v4/threatListUpdates:fetch?key=" + clientKey, nil, nil, 400, "$req"},
		{"override", "GET", "/v4/threatListUpdates:fetch" + chromium + key, nil, []string{"X-HTTP-Method-Override", "DELETE"}, 400, "X-HTTP-Method-Override"},
		// Other methods.
		{"PUT", "PUT", "/v4/threatListUpdates:fetch?key=" + clientKey, fetch, []string{pb, js}, 405, "use POST, GET"},
		{"POST lists", "POST", "/v4/threatLists?key=" + clientKey, []byte("{}"), []string{"Content-Type", "application/json"}, 405, "use GET, HEAD"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, ct, body := v4Do(t, tt.method, base+tt.path, tt.body, tt.header...)
			got := string(body)
			if status == 200 {
				got = ct
			}
			if status != tt.status || !strings.Contains(got, tt.want) {
				t.Errorf("%d %s %.300q\nwant %d, %s", status, ct, body, tt.status, tt.want)
			}
		})
	}
	_, _, body := v4Do(t, "GET", base+"/v4/threatLists?key="+clientKey, nil)
	var lists struct{ ThreatLists []json.RawMessage }
	if err := json.Unmarshal(body, &lists); err != nil || len(lists.ThreatLists) != 32 {
		t.Errorf("threatLists: %d lists, want 32 (4 threat types on 8 platforms): %v", len(lists.ThreatLists), err)
	}

	// /metrics: the routes, and every field of v4update.Stats.
	status, _, body := v4Do(t, "GET", base+"/metrics", nil, "X-Goog-Api-Key", clientKey)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if status != 200 || err != nil {
		t.Fatalf("/metrics: %d, %v", status, err)
	}
	for _, tt := range []struct {
		name   string
		labels []string
		want   float64
	}{
		// The routes, by name.
		{"sbserver_requests_total", []string{"endpoint=threatListUpdates:fetch", "code=200"}, 3},
		{"sbserver_requests_total", []string{"endpoint=fullHashes:find", "code=415"}, 2},
		{"sbserver_requests_total", []string{"endpoint=threatLists", "code=401"}, 1},
		{"sbserver_request_duration_seconds", []string{"endpoint=fullHashes:find"}, 7},
		// The v4 server's own: the requests that reached it, whatever
		// their answer.
		{"sbserver_v4_requests_total", []string{"method=threatListUpdates:fetch"}, 5},
		{"sbserver_v4_requests_total", []string{"method=threatLists"}, 2},
		// Four lists in each of 3 fetches; none unserved.
		{"sbserver_v4_full_updates_total", nil, 9},
		{"sbserver_v4_unserved_total", nil, 0},
		{"sbserver_v4_searched_prefixes_total", nil, 2},
	} {
		if got, ok := value(mfs[tt.name], tt.labels...); !ok || got != tt.want {
			t.Errorf("%s%v = %v (found %v), want %v", tt.name, tt.labels, got, ok, tt.want)
		}
	}
	for _, gauge := range []string{"sbserver_v4_list_cache_bytes", "sbserver_v4_version_bytes"} {
		if got, ok := value(mfs[gauge]); !ok || got <= 0 || mfs[gauge].GetType().String() != "GAUGE" {
			t.Errorf("%s = %v (found %v), want a positive gauge", gauge, got, ok)
		}
	}
	st := reflect.TypeFor[v4update.Stats]()
	for i := range st.NumField() {
		f := st.Field(i).Name
		name := "sbserver_v4_" + snakeCase(f)
		if mfs[name] == nil && mfs[name+"_total"] == nil {
			t.Errorf("v4update.Stats.%s: no %s[_total] in /metrics", f, name)
		}
	}
}

// TestBinaryV4Modes: the v4 Update API is served whenever sbserver keeps
// lists, in every mode and API that does, with or without -mirror, and
// is a 404 under -mode NoStorage.
func TestBinaryV4Modes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		args  []string
		lists int // served by threatLists; 0: a 404
	}{
		// The Real-Time procedure keeps the lists too.
		{"RealTime", []string{"-mode", "RealTime"}, 32},
		// A v5 mirror.
		{"mirror", []string{"-mirror"}, 32},
		// Web Risk: no PHA.
		{"webrisk", []string{"-api", "webrisk"}, 24},
		// A Web Risk mirror, extended coverage kept but not served.
		{"webrisk mirror", []string{"-api", "webrisk", "-mirror"}, 24},
		// No lists, nothing to serve.
		{"NoStorage", []string{"-mode", "NoStorage"}, 0},
		{"webrisk NoStorage", []string{"-api", "webrisk", "-mode", "NoStorage"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := startBinary(t, append([]string{"-fake", "-addr", "127.0.0.1:0"}, tt.args...)...)
			base := "http://" + p.addr
			waitReadyBinary(t, base)
			status, _, body := v4Do(t, "GET", base+"/v4/threatLists", nil)
			if tt.lists == 0 {
				if status != 404 || strings.Contains(string(body), "threatListUpdates") {
					t.Errorf("threatLists: %d %.300q, want a 404 that names no v4 update endpoint", status, body)
				}
				for _, send := range []v4Send{v4Post, v4Chromium} {
					if status, _, body := send(t, base, "threatListUpdates:fetch", "", v4FetchRequest(gsbLists[:1], [][]byte{nil}, v4Rice)); status != 404 {
						t.Errorf("fetch: %d %.300q, want 404", status, body)
					}
				}
				return
			}
			var lists struct{ ThreatLists []json.RawMessage }
			if err := json.Unmarshal(body, &lists); status != 200 || err != nil || len(lists.ThreatLists) != tt.lists {
				t.Errorf("threatLists: %d, %d lists (%v), want %d", status, len(lists.ThreatLists), err, tt.lists)
			}
			c := newV4Client("google/safebrowsing", v4Post, gsbLists, v4Raw, v4Rice)
			c.update(t, base)
			if mw := c.local[0].entries; !slices.Equal(mw, []string{prefix4(sbtest.TestURLs[0].Expression)}) {
				t.Errorf("MALWARE: %x, want the test URL's prefix", mw)
			}
		})
	}
}
