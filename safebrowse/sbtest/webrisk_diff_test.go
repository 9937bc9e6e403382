// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// diffJSON is a ComputeThreatListDiffResponse in JSON, with the fields of
// webrisk.proto and no others (decodeStrict).
type diffJSON struct {
	ResponseType string
	Additions    *struct {
		RawHashes []struct {
			PrefixSize int32
			RawHashes  []byte
		}
		RiceHashes *riceJSON
	}
	Removals *struct {
		RawIndices *struct {
			Indices []int32
		}
		RiceIndices *riceJSON
	}
	NewVersionToken     []byte
	Checksum            *struct{ Sha256 []byte }
	RecommendedNextDiff string
}

// riceJSON is a RiceDeltaEncoding: firstValue is an int64, a string in
// JSON.
type riceJSON struct {
	FirstValue    int64 `json:"firstValue,string"`
	RiceParameter int32
	EntryCount    int32
	EncodedData   []byte
}

func (r *riceJSON) rice() *hashlist.Rice {
	if r == nil {
		return nil
	}
	return &hashlist.Rice{First: r.FirstValue, K: r.RiceParameter, Count: r.EntryCount, Data: r.EncodedData}
}

// hashlistDiff returns the reply as hashlist's Diff, for a PrefixSet, the
// module's client of Web Risk's lists, to apply.
func (d *diffJSON) hashlistDiff() hashlist.Diff {
	hd := hashlist.Diff{Reset: d.ResponseType == "RESET", Version: d.NewVersionToken}
	if d.Checksum != nil {
		hd.Checksum = d.Checksum.Sha256
	}
	if a := d.Additions; a != nil {
		for _, r := range a.RawHashes {
			hd.Raw = append(hd.Raw, hashlist.RawHashes{PrefixSize: r.PrefixSize, Hashes: r.RawHashes})
		}
		hd.Rice = a.RiceHashes.rice()
	}
	if r := d.Removals; r != nil {
		if r.RawIndices != nil {
			hd.RawRemovals = r.RawIndices.Indices
		}
		hd.RiceRemovals = r.RiceIndices.rice()
	}
	return hd
}

// counts returns the number of removals and additions of the reply, the
// prefix sizes of its raw additions, and whether it has Rice streams.
func (d *diffJSON) counts() (removals, additions int, raw []int32, rice bool) {
	if a := d.Additions; a != nil {
		for _, r := range a.RawHashes {
			additions += len(r.RawHashes) / int(r.PrefixSize)
			raw = append(raw, r.PrefixSize)
		}
		if a.RiceHashes != nil {
			additions += int(a.RiceHashes.EntryCount) + 1
			rice = true
		}
	}
	if r := d.Removals; r != nil {
		if r.RawIndices != nil {
			removals += len(r.RawIndices.Indices)
		}
		if r.RiceIndices != nil {
			removals += int(r.RiceIndices.EntryCount) + 1
			rice = true
		}
	}
	return
}

// wrClient holds one Web Risk list as a client does: a PrefixSet, and the
// version token of its last update.
type wrClient struct {
	set   *hashlist.PrefixSet
	token []byte
}

func newWRClient(t testing.TB, threat string) *wrClient {
	t.Helper()
	set, err := hashlist.NewPrefixSet(threat)
	if err != nil {
		t.Fatal(err)
	}
	return &wrClient{set: set}
}

// fetch asks computeDiff for the client's list from its token, with the
// query pairs kv, and applies the reply, checksum included.
func (c *wrClient) fetch(t testing.TB, s *sbtest.Server, kv ...string) diffJSON {
	t.Helper()
	d, err := c.update(s, kv...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// update is fetch, returning an error rather than failing the test, for
// goroutines other than the test's.
func (c *wrClient) update(s *sbtest.Server, kv ...string) (diffJSON, error) {
	q := url.Values{"key": {s.APIKey}, "threatType": {c.set.Name()}}
	if c.token != nil {
		q.Set("versionToken", b64(c.token))
	}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	var d diffJSON
	res, err := s.Client().Get(s.URL + "/" + wrDiff + "?" + q.Encode())
	if err != nil {
		return d, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return d, err
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json; charset=UTF-8" {
		return d, fmt.Errorf("%d %q: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("%v: %s", err, body)
	}
	hd := d.hashlistDiff()
	if err := c.set.Apply(&hd, 0); err != nil {
		return d, fmt.Errorf("Apply: %v", err)
	}
	c.token = d.NewVersionToken
	return d, nil
}

// entries returns the client's entries in byte order.
func (c *wrClient) entries() []string {
	var out []string
	for e := range c.set.All() {
		out = append(out, string(e))
	}
	return out
}

// entry returns the first n bytes of an expression's hash.
func entry(expr string, n int) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:n])
}

// sorted returns entries in byte order.
func sorted(entries ...string) []string {
	return slices.Sorted(slices.Values(entries))
}

// seedMany puts n hashes on list, and returns their 4-byte entries.
func seedMany(t testing.TB, s *sbtest.Server, list string, from, n int) []string {
	t.Helper()
	var out []string
	for i := from; i < from+n; i++ {
		h := sha256.Sum256([]byte("many" + strconv.Itoa(i)))
		if err := s.AddHash(list, h); err != nil {
			t.Fatal(err)
		}
		out = append(out, string(h[:4]))
	}
	return out
}

// The update rules of computeDiff, from a first fetch to a second.
func TestComputeDiff(t *testing.T) {
	const ext = "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
	rice := []string{"constraints.supportedCompressions", "RICE"}
	add := func(list, expr string) func(*sbtest.Server) error {
		return func(s *sbtest.Server) error { return s.Add(list, expr) }
	}
	addN := func(list, expr string, n int) func(*sbtest.Server) error {
		return func(s *sbtest.Server) error { return s.AddPrefix(list, expr, n) }
	}
	remove := func(list, expr string) func(*sbtest.Server) error {
		return func(s *sbtest.Server) error { return s.Remove(list, expr) }
	}
	type want struct {
		typ                 string
		removals, additions int
		raw                 []int32 // prefix sizes of the raw additions
		rice                bool
	}
	tests := []struct {
		name        string
		threat      string
		seed        []func(*sbtest.Server) error
		first       []string // query pairs of the first fetch
		change      []func(*sbtest.Server) error
		second      []string // query pairs of a second fetch; nil for none
		token       string   // the token of the second fetch: "" the one issued
		want        want     // of the last reply
		wantEntries []string
	}{
		// A first fetch is a RESET, raw without RICE.
		{name: "reset raw", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("mw-4b", "b.example/")},
			want: want{typ: "RESET", additions: 2, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4), entry("b.example/", 4))},
		// With RICE, the 4-byte entries are Rice-coded.
		{name: "reset rice", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("mw-4b", "b.example/")}, first: rice,
			want: want{typ: "RESET", additions: 2, rice: true}, wantEntries: sorted(entry("a.example/", 4), entry("b.example/", 4))},
		// Longer entries are raw under RICE, one group a length.
		{name: "longer entries", threat: "SOCIAL_ENGINEERING", first: rice,
			seed:        []func(*sbtest.Server) error{add("se-4b", "a.example/"), addN("se-4b", "b.example/", 8), addN("se-4b", "c.example/", 32), addN("se-4b", "d.example/", 8)},
			want:        want{typ: "RESET", additions: 4, raw: []int32{8, 32}, rice: true},
			wantEntries: sorted(entry("a.example/", 4), entry("b.example/", 8), entry("c.example/", 32), entry("d.example/", 8))},
		// An empty list: a RESET with no additions, and the checksum of
		// nothing.
		{name: "empty", threat: "MALWARE", want: want{typ: "RESET"}},
		// From the token issued, a DIFF: the removal, then the addition.
		{name: "diff raw", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("mw-4b", "b.example/")},
			change: []func(*sbtest.Server) error{remove("mw-4b", "a.example/"), add("mw-4b", "c.example/")}, second: []string{},
			want: want{typ: "DIFF", removals: 1, additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("b.example/", 4), entry("c.example/", 4))},
		// The same with RICE: the removals Rice-coded too.
		{name: "diff rice", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("mw-4b", "b.example/")},
			change: []func(*sbtest.Server) error{remove("mw-4b", "a.example/"), add("mw-4b", "c.example/")}, second: rice,
			want: want{typ: "DIFF", removals: 1, additions: 1, rice: true}, wantEntries: sorted(entry("b.example/", 4), entry("c.example/", 4))},
		// Nothing changed: an empty DIFF, with its checksum.
		{name: "no change", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/")}, second: []string{},
			want: want{typ: "DIFF"}, wantEntries: sorted(entry("a.example/", 4))},
		// A token the server did not issue gets a RESET.
		{name: "made-up token", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/")}, second: []string{}, token: "MALWARE:0000",
			want: want{typ: "RESET", additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4))},
		// Another list's token too.
		{name: "other list's token", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("se-4b", "a.example/")}, second: []string{}, token: "SOCIAL_ENGINEERING",
			want: want{typ: "RESET", additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4))},
		// A hash's entry grows from 4 bytes to 8: the 4-byte entry is
		// removed, the 8-byte one added.
		{name: "longer entry", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("mw-4b", "a.example/"), add("mw-4b", "b.example/")},
			change: []func(*sbtest.Server) error{addN("mw-4b", "a.example/", 8)}, second: rice,
			want: want{typ: "DIFF", removals: 1, additions: 1, raw: []int32{8}, rice: true}, wantEntries: sorted(entry("a.example/", 8), entry("b.example/", 4))},
		// UNWANTED_SOFTWARE is uws-4b and uwsa-4b; a hash on both is one
		// entry.
		{name: "union", threat: "UNWANTED_SOFTWARE", seed: []func(*sbtest.Server) error{add("uws-4b", "a.example/"), add("uwsa-4b", "b.example/"), add("uwsa-4b", "a.example/")},
			want: want{typ: "RESET", additions: 2, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4), entry("b.example/", 4))},
		// A shorter entry covers a longer one it starts: the same hash,
		// 8 bytes on uws-4b and 4 on uwsa-4b, is one 4-byte entry.
		{name: "shorter covers longer", threat: "UNWANTED_SOFTWARE", seed: []func(*sbtest.Server) error{addN("uws-4b", "a.example/", 8), add("uwsa-4b", "a.example/")},
			want: want{typ: "RESET", additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4))},
		// SOCIAL_ENGINEERING_EXTENDED_COVERAGE holds what a test put on
		// it by that name.
		{name: "extended", threat: ext, seed: []func(*sbtest.Server) error{add(ext, "a.example/"), add("se-4b", "b.example/")},
			want: want{typ: "RESET", additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4))},
		// pha-4b and gc-32b feed no Web Risk list.
		{name: "not pha-4b", threat: "MALWARE", seed: []func(*sbtest.Server) error{add("pha-4b", "a.example/"), add("gc-32b", "b.example/")}, want: want{typ: "RESET"}},
		// A v5 attribute is nothing to Web Risk.
		{name: "canary", threat: "SOCIAL_ENGINEERING", seed: []func(*sbtest.Server) error{func(s *sbtest.Server) error { return s.Add("se-4b", "a.example/", sbtest.Canary) }},
			want: want{typ: "RESET", additions: 1, raw: []int32{4}}, wantEntries: sorted(entry("a.example/", 4))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer()
			defer s.Close()
			for _, f := range tt.seed {
				if err := f(s); err != nil {
					t.Fatal(err)
				}
			}
			c := newWRClient(t, tt.threat)
			d := c.fetch(t, s, tt.first...)
			if tt.second != nil {
				for _, f := range tt.change {
					if err := f(s); err != nil {
						t.Fatal(err)
					}
				}
				switch tt.token {
				case "":
				case "MALWARE:0000":
					c.token = []byte(tt.token)
				default:
					c.token = newWRClient(t, tt.token).fetch(t, s).NewVersionToken
				}
				d = c.fetch(t, s, tt.second...)
			}
			rem, adds, raw, rice := d.counts()
			got := want{d.ResponseType, rem, adds, raw, rice}
			if got.typ != tt.want.typ || got.removals != tt.want.removals || got.additions != tt.want.additions ||
				!slices.Equal(got.raw, tt.want.raw) || got.rice != tt.want.rice {
				t.Errorf("reply %+v, want %+v", got, tt.want)
			}
			if e := c.entries(); !slices.Equal(e, tt.wantEntries) {
				t.Errorf("entries %x, want %x", e, tt.wantEntries)
			}
			sum := sha256.Sum256([]byte(strings.Join(tt.wantEntries, "")))
			if d.Checksum == nil || !bytes.Equal(d.Checksum.Sha256, sum[:]) {
				t.Errorf("checksum %+v, want %x", d.Checksum, sum)
			}
			if !strings.HasPrefix(string(d.NewVersionToken), tt.threat+":") {
				t.Errorf("newVersionToken %q", d.NewVersionToken)
			}
		})
	}
}

// Version tokens change when the entries do, and only then; a token more
// than 32 versions old is forgotten, and gets a RESET.
func TestVersionTokens(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	fetch := func(token []byte) diffJSON {
		t.Helper()
		kv := []string{"threatType", "MALWARE"}
		if token != nil {
			kv = append(kv, "versionToken", b64(token))
		}
		var d diffJSON
		decodeStrict(t, wrGet(t, s, wrDiff, kv...), &d)
		return d
	}
	empty := fetch(nil).NewVersionToken
	s.Add("mw-4b", "a.example/")
	one := fetch(nil).NewVersionToken
	if bytes.Equal(one, empty) {
		t.Errorf("token %q unchanged by an addition", one)
	}
	s.Add("se-4b", "b.example/")
	s.Add("mw-4b", "a.example/", sbtest.Canary)
	if again := fetch(nil).NewVersionToken; !bytes.Equal(again, one) {
		t.Errorf("token %q, want %q: MALWARE's entries did not change", again, one)
	}
	s.AddPrefix("mw-4b", "a.example/", 8)
	if longer := fetch(nil).NewVersionToken; bytes.Equal(longer, one) {
		t.Errorf("token %q unchanged by a longer entry", longer)
	}
	// 33 versions later, the first is forgotten.
	first := fetch(nil).NewVersionToken
	for i := range 33 {
		s.Add("mw-4b", "n"+strconv.Itoa(i)+".example/")
		fetch(nil)
	}
	if d := fetch(first); d.ResponseType != "RESET" {
		t.Errorf("a forgotten token gets %s, want RESET", d.ResponseType)
	}
	if d := fetch(one); d.ResponseType != "RESET" {
		t.Errorf("a forgotten token gets %s, want RESET", d.ResponseType)
	}
}

// maxDatabaseEntries and maxDiffEntries, as Web Risk's update constraints
// say: a database cut to its size, and a reply never past maxDiffEntries,
// which leaves the client up to date on the list cut to it.
func TestComputeDiffLimits(t *testing.T) {
	tests := []struct {
		name         string
		seed, more   int      // hashes on mw-4b before the first fetch, and added before the second
		first        []string // query pairs of the first fetch
		second       []string // of the second; nil for none
		wantType     string   // of the last reply
		wantEntries  int      // the client holds the first wantEntries of the list in byte order
		wantMaxReply int      // entries in the last reply at most; 0 for no check
	}{
		// A list within maxDatabaseEntries is whole.
		{name: "within maxDatabaseEntries", seed: 1000, first: []string{"constraints.maxDatabaseEntries", "1024"}, wantType: "RESET", wantEntries: 1000},
		// A longer list is cut to its first 1024 entries.
		{name: "past maxDatabaseEntries", seed: 1100, first: []string{"constraints.maxDatabaseEntries", "1024"}, wantType: "RESET", wantEntries: 1024},
		// A RESET past maxDiffEntries is cut to it.
		{name: "reset past maxDiffEntries", seed: 1100, first: []string{"constraints.maxDiffEntries", "1024"}, wantType: "RESET", wantEntries: 1024, wantMaxReply: 1024},
		// A DIFF within maxDiffEntries is sent whole.
		{name: "diff within maxDiffEntries", seed: 100, more: 1000, second: []string{"constraints.maxDiffEntries", "1024"}, wantType: "DIFF", wantEntries: 1100, wantMaxReply: 1024},
		// A client far behind is brought to the list cut to
		// maxDiffEntries, by a DIFF when one fits.
		{name: "far behind", seed: 100, more: 2000, second: []string{"constraints.maxDiffEntries", "1024"}, wantType: "DIFF", wantEntries: 1024, wantMaxReply: 1024},
		// A client on the cut list gets the whole list back when the DIFF
		// to it fits.
		{name: "back to whole", seed: 1100, more: 5, first: []string{"constraints.maxDiffEntries", "1024"}, second: []string{"constraints.maxDiffEntries", "1024"}, wantType: "DIFF", wantEntries: 1105, wantMaxReply: 1024},
		// A client on the cut list stays on it while the DIFF to the whole
		// list does not fit.
		{name: "stays cut", seed: 2100, more: 5, first: []string{"constraints.maxDiffEntries", "1024"}, second: []string{"constraints.maxDiffEntries", "1024"}, wantType: "DIFF", wantEntries: 1024, wantMaxReply: 1024},
		// Both: the database cut to 2048, and a client too far behind for
		// one reply of 1024 reset to the list cut to 1024.
		{name: "both", seed: 100, more: 3000, second: []string{"constraints.maxDiffEntries", "1024", "constraints.maxDatabaseEntries", "2048"}, wantType: "RESET", wantEntries: 1024, wantMaxReply: 1024},
		// Both, the client on the cut list: a DIFF to the database cut to
		// 2048 when it fits.
		{name: "both within", seed: 1500, more: 10, first: []string{"constraints.maxDiffEntries", "1024", "constraints.maxDatabaseEntries", "2048"}, second: []string{"constraints.maxDiffEntries", "1024", "constraints.maxDatabaseEntries", "2048"}, wantType: "DIFF", wantEntries: 1510, wantMaxReply: 1024},
		// maxDatabaseEntries at or under maxDiffEntries: the database's
		// size rules.
		{name: "database under diff", seed: 3000, first: []string{"constraints.maxDiffEntries", "2048", "constraints.maxDatabaseEntries", "1024"}, wantType: "RESET", wantEntries: 1024, wantMaxReply: 1024},
		// Without limits, the whole list.
		{name: "no limits", seed: 3000, wantType: "RESET", wantEntries: 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := sbtest.NewServer()
			defer s.Close()
			all := seedMany(t, s, "mw-4b", 0, tt.seed)
			c := newWRClient(t, "MALWARE")
			d := c.fetch(t, s, tt.first...)
			if tt.second != nil {
				all = append(all, seedMany(t, s, "mw-4b", tt.seed, tt.more)...)
				d = c.fetch(t, s, tt.second...)
			}
			slices.Sort(all)
			all = slices.Compact(all)
			want := all[:min(tt.wantEntries, len(all))]
			rem, add, _, _ := d.counts()
			if d.ResponseType != tt.wantType {
				t.Errorf("%s, want %s", d.ResponseType, tt.wantType)
			}
			if tt.wantMaxReply > 0 && rem+add > tt.wantMaxReply {
				t.Errorf("%d entries in the reply, more than %d", rem+add, tt.wantMaxReply)
			}
			if got := c.entries(); !slices.Equal(got, want) {
				t.Errorf("the client holds %d entries, want the first %d", len(got), len(want))
			}
		})
	}
}

// The parameters of computeDiff that are refused, with a 400.
func TestComputeDiffErrors(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	tests := []struct {
		name    string
		in      []string
		wantMsg string
	}{
		// threatType is required.
		{name: "no threatType", in: []string{}, wantMsg: "threatType is required"},
		// THREAT_TYPE_UNSPECIFIED is none.
		{name: "unspecified", in: []string{"threatType", "THREAT_TYPE_UNSPECIFIED"}, wantMsg: "threatType is required"},
		// A name Web Risk does not have.
		{name: "unknown threatType", in: []string{"threatType", "POTENTIALLY_HARMFUL_APPLICATION"}, wantMsg: `threatType="POTENTIALLY_HARMFUL_APPLICATION" is not a Web Risk threat type`},
		// A number outside the enum.
		{name: "threatType 9", in: []string{"threatType", "9"}, wantMsg: `"9"`},
		// Two threat types.
		{name: "two threatTypes", in: []string{"threatType", "MALWARE", "threatType", "SOCIAL_ENGINEERING"}, wantMsg: "given more than once"},
		// maxDiffEntries must be 0 or a power of two from 2^10 to 2^20.
		{name: "maxDiffEntries 1000", in: []string{"threatType", "MALWARE", "constraints.maxDiffEntries", "1000"}, wantMsg: "constraints.maxDiffEntries=1000: must be 0 or a power of two"},
		{name: "maxDiffEntries 512", in: []string{"threatType", "MALWARE", "constraints.maxDiffEntries", "512"}, wantMsg: "constraints.maxDiffEntries=512"},
		{name: "maxDiffEntries 2^21", in: []string{"threatType", "MALWARE", "constraints.maxDiffEntries", "2097152"}, wantMsg: "constraints.maxDiffEntries=2097152"},
		{name: "maxDiffEntries 3072", in: []string{"threatType", "MALWARE", "constraints.max_diff_entries", "3072"}, wantMsg: "constraints.maxDiffEntries=3072"},
		{name: "maxDiffEntries -1024", in: []string{"threatType", "MALWARE", "constraints.maxDiffEntries", "-1024"}, wantMsg: "constraints.maxDiffEntries=-1024"},
		// And maxDatabaseEntries alike.
		{name: "maxDatabaseEntries 1025", in: []string{"threatType", "MALWARE", "constraints.maxDatabaseEntries", "1025"}, wantMsg: "constraints.maxDatabaseEntries=1025"},
		// Not a number.
		{name: "maxDatabaseEntries x", in: []string{"threatType", "MALWARE", "constraints.maxDatabaseEntries", "x"}, wantMsg: "constraints.maxDatabaseEntries"},
		// A compression that is neither RAW nor RICE.
		{name: "compression", in: []string{"threatType", "MALWARE", "constraints.supportedCompressions", "GZIP"}, wantMsg: `constraints.supportedCompressions[0]="GZIP" is not RAW or RICE`},
		// A version token that is not base64.
		{name: "token", in: []string{"threatType", "MALWARE", "versionToken", "!!"}, wantMsg: "versionToken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := wrGet(t, s, wrDiff, tt.in...)
			if r.status != 400 {
				t.Fatalf("status %d, want 400: %s", r.status, r.body)
			}
			if msg := errorMessage(r); !strings.HasPrefix(msg, "sbtest: ") || !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("message %q, want one holding %q", msg, tt.wantMsg)
			}
		})
	}
	// The powers of two from 2^10 to 2^20, 0, and the compressions, are
	// taken.
	for _, kv := range [][]string{
		{"constraints.maxDiffEntries", "1024", "constraints.maxDatabaseEntries", "1048576"},
		{"constraints.maxDiffEntries", "0", "constraints.maxDatabaseEntries", "65536"},
		{"constraints.supportedCompressions", "COMPRESSION_TYPE_UNSPECIFIED", "constraints.supportedCompressions", "RAW"},
		{"threatType", "1"},
	} {
		if kv[0] != "threatType" {
			kv = append(kv, "threatType", "MALWARE")
		}
		if r := wrGet(t, s, wrDiff, kv...); r.status != 200 {
			t.Errorf("%v: %d %s", kv, r.status, r.body)
		}
	}
}

// recommendedNextDiff lies WithRecommendedNextDiff after the reply: 30
// minutes by default, absent with 0, in the past when negative.
func TestRecommendedNextDiff(t *testing.T) {
	tests := []struct {
		name string
		opts []sbtest.Option
		want time.Duration // from now; 0 for absent
	}{
		// The default.
		{name: "default", want: sbtest.DefaultRecommendedNextDiff},
		// An hour.
		{name: "hour", opts: []sbtest.Option{sbtest.WithRecommendedNextDiff(time.Hour)}, want: time.Hour},
		// Zero leaves it out.
		{name: "zero", opts: []sbtest.Option{sbtest.WithRecommendedNextDiff(0)}},
		// A time in the past, to test a client's bound.
		{name: "past", opts: []sbtest.Option{sbtest.WithRecommendedNextDiff(-time.Hour)}, want: -time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer(tt.opts...)
			defer s.Close()
			before := time.Now()
			var d diffJSON
			decodeStrict(t, wrGet(t, s, wrDiff, "threatType", "MALWARE"), &d)
			after := time.Now()
			if tt.want == 0 {
				if d.RecommendedNextDiff != "" {
					t.Errorf("recommendedNextDiff %q, want none", d.RecommendedNextDiff)
				}
				return
			}
			got, err := time.Parse(time.RFC3339Nano, d.RecommendedNextDiff)
			if err != nil || !strings.HasSuffix(d.RecommendedNextDiff, "Z") {
				t.Fatalf("recommendedNextDiff %q: %v", d.RecommendedNextDiff, err)
			}
			if got.Before(before.Add(tt.want).Truncate(time.Second)) || got.After(after.Add(tt.want)) {
				t.Errorf("recommendedNextDiff %v, want %v from now", got, tt.want)
			}
		})
	}
}

// alt=proto is the same reply in binary protobuf.
func TestComputeDiffProto(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithRecommendedNextDiff(0))
	defer s.Close()
	s.Add("mw-4b", "a.example/")
	s.AddPrefix("mw-4b", "b.example/", 8)
	kv := []string{"threatType", "MALWARE", "constraints.supportedCompressions", "RICE"}
	var j diffJSON
	decodeStrict(t, wrGet(t, s, wrDiff, kv...), &j)
	r := wrGet(t, s, wrDiff, append(kv, "alt", "proto")...)
	if r.status != 200 || r.ctype != "application/x-protobuf" {
		t.Fatalf("%d %q", r.status, r.ctype)
	}
	p, err := v4wire.ParseComputeThreatListDiffResponse(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if p.ResponseType != v4wire.FullUpdate || !bytes.Equal(p.NewVersionToken, j.NewVersionToken) || !bytes.Equal(p.Checksum, j.Checksum.Sha256) ||
		p.Additions == nil || len(p.Additions.RawHashes) != 1 || !bytes.Equal(p.Additions.RawHashes[0].Hashes, j.Additions.RawHashes[0].RawHashes) ||
		p.Additions.RiceHashes == nil || p.Additions.RiceHashes.First != j.Additions.RiceHashes.FirstValue || p.Removals != nil {
		t.Errorf("proto %+v, JSON %+v", p, j)
	}
}

// BadChecksum alters computeDiff's checksum, which a client then refuses.
func TestComputeDiffBadChecksum(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("mw-4b", "a.example/")
	s.Inject(sbtest.Fault{Endpoint: wrDiff, BadChecksum: true, Times: 1})
	var d diffJSON
	decodeStrict(t, wrGet(t, s, wrDiff, "threatType", "MALWARE"), &d)
	hd := d.hashlistDiff()
	set, _ := hashlist.NewPrefixSet("MALWARE")
	if err := set.Apply(&hd, 0); err == nil {
		t.Errorf("a bad checksum applies; checksum %s", base64.StdEncoding.EncodeToString(d.Checksum.Sha256))
	}
	c := newWRClient(t, "MALWARE")
	c.fetch(t, s) // the fault is spent
}
