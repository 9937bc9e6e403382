// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"google.golang.org/protobuf/encoding/protowire"
)

// fetch gets list from GetHashList with the client's version and the
// extra query pairs, checks that it is a 200, and returns the message
// both decoded and in bytes.
func fetch(t *testing.T, s *sbtest.Server, name string, version []byte, kv ...string) (*hashlist.Message, []byte) {
	t.Helper()
	if version != nil {
		kv = append(kv, "version", b64(version))
	}
	r := get(t, s, "/v5/hashList/"+name+query(s, kv...))
	if !isOK(r) {
		t.Fatalf("GET hashList/%s: %d %s", name, r.status, r.body)
	}
	var m hashlist.Message
	if err := m.UnmarshalBinary(r.body); err != nil {
		t.Fatalf("hashList/%s: %v", name, err)
	}
	return &m, r.body
}

// contents returns the sorted, concatenated hashes of l.
func contents(l *hashlist.List) []byte {
	var b []byte
	for h := range l.All() {
		b = append(b, h...)
	}
	return b
}

// prefixes returns the sorted, concatenated 4-byte prefixes of exprs.
func prefixes(exprs ...string) []byte {
	var ps [][]byte
	for _, e := range exprs {
		ps = append(ps, prefixOf(e))
	}
	slices.SortFunc(ps, bytes.Compare)
	ps = slices.CompactFunc(ps, bytes.Equal)
	return bytes.Join(ps, nil)
}

// Full then partial updates, applied by hashlist.List.Apply, bring a
// client to the server's contents, checksum verified. The rows run in
// order against one server and one client list.
func TestUpdates(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	client, _ := hashlist.New("se-4b")
	add := func(e ...string) func() {
		return func() {
			for _, x := range e {
				if err := s.Add("se-4b", x); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	remove := func(e ...string) func() {
		return func() {
			for _, x := range e {
				if err := s.Remove("se-4b", x); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	a, b, c, d := "a.example/", "b.example/", "c.example/", "d.example/"
	tests := []struct {
		name        string
		change      func()
		version     []byte   // sent instead of the client's version; nil sends the client's
		holds       []string // what version held, when the server served it
		noVersion   bool     // send none
		wantPartial bool
		wantAdds    int
		wantRems    []string // the expressions whose removal the update carries
		wantVersion string
		wantSum     bool // a sha256_checksum is present
		want        []string
	}{
		// First fetch, no version: a full update of the empty list, with its checksum.
		{name: "first fetch", noVersion: true, wantVersion: "se-4b:0", wantSum: true},
		// Two additions: a partial update with both, and a version per change.
		{name: "additions", change: add(a, b), wantPartial: true, wantAdds: 2, wantVersion: "se-4b:2", wantSum: true, want: []string{a, b}},
		// Nothing changed: a partial update with nothing, and no checksum.
		{name: "no change", wantPartial: true, wantVersion: "se-4b:2", want: []string{a, b}},
		// Remove produces a removal, an index into the old sorted list.
		{name: "removal", change: remove(a), wantPartial: true, wantRems: []string{a}, wantVersion: "se-4b:3", wantSum: true, want: []string{b}},
		// Removals, then additions, in one update.
		{name: "removal and additions", change: func() { add(c, d)(); remove(b)() }, wantPartial: true, wantAdds: 2, wantRems: []string{b}, wantVersion: "se-4b:6", wantSum: true, want: []string{c, d}},
		// An expression put back after its removal.
		{name: "put back", change: add(a), wantPartial: true, wantAdds: 1, wantVersion: "se-4b:7", wantSum: true, want: []string{a, c, d}},
		// A version the server never served: a full update.
		{name: "unknown version", version: []byte("se-4b:99"), wantAdds: 3, wantVersion: "se-4b:7", wantSum: true, want: []string{a, c, d}},
		// Another list's version: a full update.
		{name: "foreign version", version: []byte("mw-4b:7"), wantAdds: 3, wantVersion: "se-4b:7", wantSum: true, want: []string{a, c, d}},
		// A version of another server: a full update.
		{name: "other server's version", version: []byte{0x08, 0x96, 0x01}, wantAdds: 3, wantVersion: "se-4b:7", wantSum: true, want: []string{a, c, d}},
		// An old version the server served: a partial update from it.
		{name: "old version", version: []byte("se-4b:3"), holds: []string{b}, wantPartial: true, wantAdds: 3, wantRems: []string{b}, wantVersion: "se-4b:7", wantSum: true, want: []string{a, c, d}},
		// Everything removed: the empty list's checksum, SHA-256 of "".
		{name: "emptied", change: remove(a, c, d), wantPartial: true, wantRems: []string{a, c, d}, wantVersion: "se-4b:10", wantSum: true},
	}
	var held []string // what the client holds
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.change != nil {
				tt.change()
			}
			version := client.Version()
			switch {
			case tt.noVersion:
				version = nil
			case tt.version != nil:
				version = tt.version
			}
			m, body := fetch(t, s, "se-4b", version)
			var rems []uint32
			old := prefixes(held...)
			if tt.holds != nil {
				old = prefixes(tt.holds...)
			}
			for _, e := range tt.wantRems {
				i, _ := slices.BinarySearchFunc(splitHashes(old, 4), prefixOf(e), bytes.Compare)
				rems = append(rems, uint32(i))
			}
			slices.Sort(rems)
			if m.Name != "se-4b" || m.Partial != tt.wantPartial || len(m.Additions)/4 != tt.wantAdds ||
				!slices.Equal(m.Removals, rems) || string(m.Version) != tt.wantVersion || (m.Checksum != nil) != tt.wantSum {
				t.Fatalf("got name %q partial %v, %d additions, removals %v, version %q, checksum %x\nwant partial %v, %d additions, removals %v, version %q, checksum %v",
					m.Name, m.Partial, len(m.Additions)/4, m.Removals, m.Version, m.Checksum,
					tt.wantPartial, tt.wantAdds, rems, tt.wantVersion, tt.wantSum)
			}
			if m.MinimumWait != sbtest.DefaultMinimumWait {
				t.Errorf("minimum wait %v, want %v", m.MinimumWait, sbtest.DefaultMinimumWait)
			}
			if tt.holds != nil {
				// Bring the client to that old version first.
				restore(t, client, old, tt.version)
			}
			if err := client.Apply(body); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := prefixes(tt.want...)
			if got := contents(client); !bytes.Equal(got, want) {
				t.Fatalf("client holds %x, want %x", got, want)
			}
			if sum := sha256.Sum256(want); m.Checksum != nil && !bytes.Equal(m.Checksum, sum[:]) {
				t.Errorf("checksum %x, want %x", m.Checksum, sum)
			}
			held = tt.want
		})
	}
}

// restore makes l hold exactly hashes at version, as a client that kept
// that version would, through a full update built with hashlist.Message.
func restore(t *testing.T, l *hashlist.List, hashes, version []byte) {
	t.Helper()
	sum := hashlist.Checksum(hashes, l.Width())
	b, err := (&hashlist.Message{Name: l.Name(), Version: version, Additions: hashes, Checksum: sum[:]}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Apply(b); err != nil {
		t.Fatal(err)
	}
}

func splitHashes(b []byte, w int) [][]byte {
	var out [][]byte
	for i := 0; i < len(b); i += w {
		out = append(out, b[i:i+w])
	}
	return out
}

// Changes that leave a list's hashes as they are make no new version.
func TestVersions(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	h := hash("twin.example/")
	twin := h
	twin[31] ^= 1
	tests := []struct {
		name   string
		list   string
		change func() error
		want   string
	}{
		// An empty list is at version 0; the bytes name the list.
		{name: "empty", list: "mw-4b", change: func() error { return nil }, want: "mw-4b:0"},
		// One addition: version 1.
		{name: "add", list: "mw-4b", change: func() error { return s.AddHash("mw-4b", h) }, want: "mw-4b:1"},
		// New attributes on the same hash: the list is unchanged.
		{name: "attributes", list: "mw-4b", change: func() error { return s.AddHash("mw-4b", h, sbtest.Canary) }, want: "mw-4b:1"},
		// Another full hash behind the same 4-byte prefix: unchanged.
		{name: "same prefix", list: "mw-4b", change: func() error { return s.AddHash("mw-4b", twin) }, want: "mw-4b:1"},
		// Removing one of the two: the prefix stays.
		{name: "remove one of two", list: "mw-4b", change: func() error { return s.RemoveHash("mw-4b", twin) }, want: "mw-4b:1"},
		// Removing the last: version 2.
		{name: "remove last", list: "mw-4b", change: func() error { return s.RemoveHash("mw-4b", h) }, want: "mw-4b:2"},
		// gc-32b holds full hashes: another full hash is a change.
		{name: "gc-32b", list: "gc-32b", change: func() error { s.AddHash("gc-32b", h); return s.AddHash("gc-32b", twin) }, want: "gc-32b:2"},
		// Each list has its own versions.
		{name: "own versions", list: "se-4b", change: func() error { return nil }, want: "se-4b:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.change(); err != nil {
				t.Fatal(err)
			}
			m, _ := fetch(t, s, tt.list, nil)
			if string(m.Version) != tt.want {
				t.Errorf("version %q, want %q", m.Version, tt.want)
			}
		})
	}
}

// gc-32b serves full hashes.
func TestGlobalCacheList(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	for _, e := range []string{"good.example/", "fine.example/a"} {
		if err := s.Add("gc-32b", e); err != nil {
			t.Fatal(err)
		}
	}
	l, _ := hashlist.New("gc-32b")
	_, body := fetch(t, s, "gc-32b", nil)
	if err := l.Apply(body); err != nil {
		t.Fatal(err)
	}
	h := hash("good.example/")
	if l.Len() != 2 || !l.Contains(h[:]) {
		t.Errorf("gc-32b holds %d hashes, Contains(good.example/) = %v", l.Len(), l.Contains(h[:]))
	}
}

// sizeConstraints.maxUpdateEntries cuts an update into chunks: each
// without a minimum wait while more remains, each with its own version and
// checksum, until the client holds the list.
func TestMaxUpdateEntries(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	var all [][32]byte
	for i := range 3000 {
		h := sha256.Sum256([]byte("h" + strconv.Itoa(i)))
		all = append(all, h)
		if err := s.AddHash("uws-4b", h); err != nil {
			t.Fatal(err)
		}
	}
	client, _ := hashlist.New("uws-4b")
	type step struct {
		partial    bool
		adds, rems int
		version    string
		wait       time.Duration
	}
	// run fetches until the client has the list, and returns each reply.
	run := func(max string) []step {
		var steps []step
		for range 10 {
			m, body := fetch(t, s, "uws-4b", client.Version(), "sizeConstraints.maxUpdateEntries", max)
			if err := client.Apply(body); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			steps = append(steps, step{m.Partial, len(m.Additions) / 4, len(m.Removals), string(m.Version), m.MinimumWait})
			if m.MinimumWait != 0 {
				return steps
			}
		}
		t.Fatal("no end")
		return nil
	}
	check := func(got, want []step) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("replies\n%v\nwant\n%v", got, want)
		}
		m, _ := fetch(t, s, "uws-4b", nil)
		if !bytes.Equal(contents(client), m.Additions) {
			t.Errorf("the client holds %d hashes, the server %d", client.Len(), len(m.Additions)/4)
		}
	}
	wait := sbtest.DefaultMinimumWait

	// A full update in three chunks, the first a full update.
	check(run("1024"), []step{
		{false, 1024, 0, "uws-4b:3000.1", 0},
		{true, 1024, 0, "uws-4b:3000.2", 0},
		{true, 952, 0, "uws-4b:3000", wait},
	})

	// 1500 removals and 100 additions: the removals first.
	for _, h := range all[:1500] {
		s.RemoveHash("uws-4b", h)
	}
	for i := range 100 {
		s.AddHash("uws-4b", sha256.Sum256([]byte("new"+strconv.Itoa(i))))
	}
	check(run("1024"), []step{
		{true, 0, 1024, "uws-4b:4600.3", 0},
		{true, 100, 476, "uws-4b:4600", wait},
	})

	// The snake_case name, and room for everything: one reply.
	s.RemoveHash("uws-4b", all[2000])
	m, body := fetch(t, s, "uws-4b", client.Version(), "size_constraints.max_update_entries", "5000")
	if !m.Partial || len(m.Removals) != 1 || string(m.Version) != "uws-4b:4601" || client.Apply(body) != nil {
		t.Errorf("one removal: %v %v %q", m.Partial, m.Removals, m.Version)
	}

	// 0 is no limit.
	m, _ = fetch(t, s, "uws-4b", nil, "sizeConstraints.maxUpdateEntries", "0")
	if len(m.Additions)/4 != 1599 || m.MinimumWait != wait {
		t.Errorf("no limit: %d additions, wait %v", len(m.Additions)/4, m.MinimumWait)
	}

	// Values the API refuses.
	for _, tt := range []struct{ in string }{
		// Under 1024.
		{in: "1023"},
		// Negative.
		{in: "-1"},
		// Not a number.
		{in: "many"},
		// Over int32.
		{in: "4294967296"},
	} {
		r := get(t, s, "/v5/hashList/uws-4b"+query(s, "sizeConstraints.maxUpdateEntries", tt.in))
		if r.status != 400 || !strings.Contains(errorMessage(r), "maxUpdateEntries") {
			t.Errorf("maxUpdateEntries=%s: %d %q", tt.in, r.status, errorMessage(r))
		}
	}
}

// BatchGetHashLists gives the lists in the order of names, each updated
// from its own version, whatever the order of the versions.
func TestBatchGet(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	s.Add("pha-4b", "app.example/x.apk")
	s.Add("gc-32b", "good.example/")
	v := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	type list struct {
		name, version string
		partial       bool
	}
	tests := []struct {
		name       string
		in         []string // query pairs
		want       []list
		wantStatus int
		wantMsg    string
	}{
		// The lists in the order of names.
		{name: "order", in: []string{"names", "pha-4b", "names", "se-4b", "names", "gc-32b"}, want: []list{{"pha-4b", "pha-4b:1", false}, {"se-4b", "se-4b:1", false}, {"gc-32b", "gc-32b:1", false}}},
		// Versions in another order than names: each goes to its list.
		{name: "versions any order", in: []string{"names", "se-4b", "names", "pha-4b", "version", v("pha-4b:1"), "version", v("se-4b:1")}, want: []list{{"se-4b", "se-4b:1", true}, {"pha-4b", "pha-4b:1", true}}},
		// A version for one list only: the other gets a full update.
		{name: "one version", in: []string{"names", "se-4b", "names", "pha-4b", "version", v("pha-4b:1")}, want: []list{{"se-4b", "se-4b:1", false}, {"pha-4b", "pha-4b:1", true}}},
		// A version of a list not asked for is foreign, and ignored.
		{name: "foreign version", in: []string{"names", "se-4b", "version", v("mw-4b:0")}, want: []list{{"se-4b", "se-4b:1", false}}},
		// URL-safe base64 versions.
		{name: "url-safe version", in: []string{"names", "se-4b", "version", base64.RawURLEncoding.EncodeToString([]byte("se-4b:1"))}, want: []list{{"se-4b", "se-4b:1", true}}},
		// Duplicate names are a 400.
		{name: "duplicate names", in: []string{"names", "se-4b", "names", "mw-4b", "names", "se-4b"}, wantStatus: 400, wantMsg: `"se-4b" twice`},
		// Two versions for one list are a 400.
		{name: "two versions", in: []string{"names", "se-4b", "version", v("se-4b:1"), "version", v("se-4b:0")}, wantStatus: 400, wantMsg: "two versions"},
		// An unknown list is a 404.
		{name: "unknown list", in: []string{"names", "se-4b", "names", "xx-4b"}, wantStatus: 404, wantMsg: `"xx-4b"`},
		// No names is a 400.
		{name: "no names", in: nil, wantStatus: 400, wantMsg: "names is required"},
		// A version that is not base64 is a 400.
		{name: "bad version", in: []string{"names", "se-4b", "version", "!!"}, wantStatus: 400, wantMsg: "not base64"},
		// maxUpdateEntries under 1024 is a 400 here too.
		{name: "bad constraint", in: []string{"names", "se-4b", "sizeConstraints.maxUpdateEntries", "10"}, wantStatus: 400, wantMsg: "maxUpdateEntries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, "/v5/hashLists:batchGet"+query(s, tt.in...))
			if tt.wantStatus != 0 {
				if r.status != tt.wantStatus || !strings.Contains(errorMessage(r), tt.wantMsg) {
					t.Fatalf("%d %q, want %d holding %q", r.status, errorMessage(r), tt.wantStatus, tt.wantMsg)
				}
				return
			}
			if !isOK(r) {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var got []list
			err := fields(r.body, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
				if num != 1 || typ != protowire.BytesType {
					return errWire
				}
				var m hashlist.Message
				if err := m.UnmarshalBinary(v); err != nil {
					return err
				}
				l, err := hashlist.New(m.Name)
				if err != nil {
					return err
				}
				if !m.Partial {
					if err := l.Apply(v); err != nil { // a full update applies to an empty list
						return err
					}
				}
				got = append(got, list{m.Name, string(m.Version), m.Partial})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// GetHashList's own errors.
func TestHashListErrors(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	tests := []struct {
		name       string
		in         string
		wantStatus int
		wantMsg    string
	}{
		// A list the server does not serve.
		{name: "unknown list", in: "/v5/hashList/xx-4b" + query(s), wantStatus: 404, wantMsg: `"xx-4b"`},
		// No list name.
		{name: "no name", in: "/v5/hashList/" + query(s), wantStatus: 404, wantMsg: `""`},
		// A path below a list.
		{name: "below a list", in: "/v5/hashList/se-4b/x" + query(s), wantStatus: 404},
		// Two versions.
		{name: "two versions", in: "/v5/hashList/se-4b" + query(s, "version", "AA==", "version", "AA=="), wantStatus: 400, wantMsg: "version given 2 times"},
		// A version that is not base64.
		{name: "bad version", in: "/v5/hashList/se-4b" + query(s, "version", "%%%"), wantStatus: 400, wantMsg: "not base64"},
		// names belongs to batchGet.
		{name: "names", in: "/v5/hashList/se-4b" + query(s, "names", "se-4b"), wantStatus: 400, wantMsg: `"names"`},
		// maxDatabaseEntries must be a number.
		{name: "bad maxDatabaseEntries", in: "/v5/hashList/se-4b" + query(s, "sizeConstraints.maxDatabaseEntries", "x"), wantStatus: 400, wantMsg: "maxDatabaseEntries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, tt.in)
			if r.status != tt.wantStatus || !strings.HasPrefix(errorMessage(r), "sbtest: ") || !strings.Contains(errorMessage(r), tt.wantMsg) {
				t.Errorf("%d %q, want %d holding %q", r.status, errorMessage(r), tt.wantStatus, tt.wantMsg)
			}
		})
	}
}

// WithMinimumWait sets minimum_wait_duration; zero leaves it out, and a
// negative one is sent as it is.
func TestMinimumWait(t *testing.T) {
	tests := []struct {
		in time.Duration
	}{
		// Ten minutes.
		{in: 10 * time.Minute},
		// Zero: absent, fetch again at once.
		{in: 0},
		// Fractional seconds.
		{in: 1500 * time.Millisecond},
		// Negative, to test a client's guard.
		{in: -time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			s := sbtest.NewServer(sbtest.WithMinimumWait(tt.in))
			defer s.Close()
			r := get(t, s, "/v5/hashList/se-4b"+query(s)) // hashlist refuses a negative wait: read it here
			got, present := time.Duration(0), false
			fields(r.body, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
				if num == 6 {
					present = true
					got, _ = decodeDuration(v)
				}
				return nil
			})
			if got != tt.in || present != (tt.in != 0) {
				t.Errorf("minimum_wait_duration %v (present %v), want %v", got, present, tt.in)
			}
		})
	}
}

// A BadChecksum fault makes every list reply's checksum wrong, so that a
// client's Apply fails with hashlist.ErrChecksum and keeps its list.
func TestFaultBadChecksum(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	client, _ := hashlist.New("se-4b")
	_, body := fetch(t, s, "se-4b", nil)
	if err := client.Apply(body); err != nil {
		t.Fatal(err)
	}
	s.Inject(sbtest.Fault{BadChecksum: true, Times: 3})
	tests := []struct {
		name   string
		change func()
		in     string
	}{
		// A reply with changes.
		{name: "changes", change: func() { s.Add("se-4b", "other.example/") }, in: "/v5/hashList/se-4b"},
		// A reply without changes gets a wrong checksum too.
		{name: "no change", change: func() {}, in: "/v5/hashList/se-4b"},
		// Every list of a batch.
		{name: "batch", change: func() {}, in: "/v5/hashLists:batchGet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.change()
			q := query(s, "version", b64(client.Version()))
			if tt.in == "/v5/hashLists:batchGet" {
				q = query(s, "names", "se-4b", "version", b64(client.Version()))
			}
			r := get(t, s, tt.in+q)
			if tt.in == "/v5/hashLists:batchGet" {
				_, _, n := protowire.ConsumeTag(r.body)
				r.body, _ = protowire.ConsumeBytes(r.body[n:])
			}
			before := contents(client)
			if err := client.Apply(r.body); !errors.Is(err, hashlist.ErrChecksum) {
				t.Fatalf("Apply: %v, want ErrChecksum", err)
			}
			if !bytes.Equal(contents(client), before) {
				t.Error("the client's list changed")
			}
		})
	}
	// The fault is spent: the next reply applies.
	_, body = fetch(t, s, "se-4b", client.Version())
	if err := client.Apply(body); err != nil || client.Len() != 2 {
		t.Errorf("after the fault: %v, %d hashes", err, client.Len())
	}
}
