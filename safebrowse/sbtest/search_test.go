// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"google.golang.org/protobuf/encoding/protowire"
)

// b64 is the standard padded base64 a client sends.
func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// prefixOf returns the 4-byte prefix of an expression's hash.
func prefixOf(expr string) []byte { h := hash(expr); return h[:4] }

// collide returns two full hashes that share their 4-byte prefix with
// "twin.example/".
func collide() (a, b [32]byte) {
	a = hash("twin.example/")
	b = a
	b[31] ^= 1
	return a, b
}

// seeded returns a server holding the lists the search tests use.
func seeded(t *testing.T, opts ...sbtest.Option) *sbtest.Server {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	a, b := collide()
	for _, err := range []error{
		s.Add("se-4b", "evil.example/"),
		s.Add("mw-4b", "evil.example/", sbtest.Canary),
		s.Add("uwsa-4b", "bad.example/app.apk", sbtest.FrameOnly, sbtest.Canary),
		s.Add("gc-32b", "good.example/"),
		s.AddHash("pha-4b", a),
		s.AddHash("pha-4b", b, 99),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// searchQuery returns the query of a search for prefixes.
func searchQuery(s *sbtest.Server, prefixes ...string) string {
	kv := make([]string, 0, 2*len(prefixes))
	for _, p := range prefixes {
		kv = append(kv, "hashPrefixes", p)
	}
	return query(s, kv...)
}

func TestSearch(t *testing.T) {
	s := seeded(t)
	evil := hash("evil.example/")
	twinA, twinB := collide() // twinB carries the attribute 99
	twins := sortHashes([]fullHash{{twinA, []detail{{4, nil}}}, {twinB, []detail{{4, []int32{99}}}}})
	many := make([]string, 1000)
	for i := range many {
		many[i] = b64(binary.BigEndian.AppendUint32(nil, uint32(i)))
	}
	many[999] = b64(prefixOf("evil.example/"))
	tests := []struct {
		name       string
		in         []string // hashPrefixes
		raw        string   // a query used instead of in
		want       []fullHash
		wantStatus int
	}{
		// A hash on two lists is one FullHash with a detail per list, in list order.
		{name: "two lists", in: []string{b64(prefixOf("evil.example/"))}, want: []fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}},
		// Attributes as given to Add, on a list whose threat type comes from its name.
		{name: "attributes", in: []string{b64(prefixOf("bad.example/app.apk"))}, want: []fullHash{{hash("bad.example/app.apk"), []detail{{3, []int32{2, 1}}}}}},
		// URL-safe base64 without padding is accepted, as Google's APIs accept it.
		{name: "url-safe unpadded", in: []string{base64.RawURLEncoding.EncodeToString(prefixOf("evil.example/"))}, want: []fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}},
		// "Not found" is a 200 with no full hashes.
		{name: "not found", in: []string{b64([]byte{0, 0, 0, 0})}},
		// gc-32b is never searched.
		{name: "global cache", in: []string{b64(prefixOf("good.example/"))}},
		// Two full hashes behind one prefix: both, sorted; an unknown attribute passes through.
		{name: "collision", in: []string{b64(twinA[:4])}, want: twins},
		// A prefix asked twice gives its hashes once.
		{name: "duplicate prefix", in: []string{b64(prefixOf("evil.example/")), b64(prefixOf("evil.example/"))}, want: []fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}},
		// Several prefixes: every match, sorted by hash.
		{name: "several", in: []string{b64(twinA[:4]), b64(prefixOf("evil.example/"))}, want: sortHashes(append([]fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}, twins...))},
		// 1000 prefixes, the API's most, are served.
		{name: "1000 prefixes", in: many, want: []fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}},
		// The snake_case name of the parameter is accepted.
		{name: "snake case", raw: query(s, "hash_prefixes", b64(prefixOf("evil.example/"))), want: []fullHash{{evil, []detail{{2, nil}, {1, []int32{1}}}}}},
		// 1001 prefixes are a 400.
		{name: "1001 prefixes", in: append(slices.Clone(many), b64([]byte{1, 2, 3, 4})), wantStatus: 400},
		// A 5-byte prefix is a 400: only 4-byte prefixes are searched.
		{name: "5-byte prefix", in: []string{b64([]byte{1, 2, 3, 4, 5})}, wantStatus: 400},
		// A 3-byte prefix is a 400.
		{name: "3-byte prefix", in: []string{b64([]byte{1, 2, 3})}, wantStatus: 400},
		// A full hash is a 400: the client must never reveal it.
		{name: "full hash", in: []string{b64(evil[:])}, wantStatus: 400},
		// A value that is not base64 is a 400.
		{name: "not base64", in: []string{"AAAA!"}, wantStatus: 400},
		// No prefix at all is a 400.
		{name: "no prefixes", in: nil, wantStatus: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.raw
			if q == "" {
				q = searchQuery(s, tt.in...)
			}
			r := get(t, s, "/v5/hashes:search"+q)
			if tt.wantStatus != 0 {
				if r.status != tt.wantStatus || !strings.HasPrefix(errorMessage(r), "sbtest: ") {
					t.Fatalf("status %d, message %q; want %d and an sbtest message", r.status, errorMessage(r), tt.wantStatus)
				}
				return
			}
			if !isOK(r) {
				t.Fatalf("status %d %s: %s", r.status, r.ctype, r.body)
			}
			got, err := decodeSearch(r.body)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmtHashes(got.hashes), fmtHashes(tt.want); g != w {
				t.Errorf("got\n%s\nwant\n%s", g, w)
			}
			if !got.hasCache || got.cache != sbtest.DefaultCacheDuration {
				t.Errorf("cache_duration = %v (present %v), want %v", got.cache, got.hasCache, sbtest.DefaultCacheDuration)
			}
		})
	}
}

func sortHashes(hs []fullHash) []fullHash {
	slices.SortFunc(hs, func(a, b fullHash) int { return bytes.Compare(a.hash[:], b.hash[:]) })
	return hs
}

func fmtHashes(hs []fullHash) string {
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "%x %v\n", h.hash[:6], h.details)
	}
	return b.String()
}

// WithCacheDuration sets cache_duration; zero leaves it out, and a
// negative or fractional one is sent as it is.
func TestSearchCacheDuration(t *testing.T) {
	tests := []struct {
		in      time.Duration
		present bool
	}{
		// An hour, in seconds.
		{in: time.Hour, present: true},
		// Seconds and nanos.
		{in: 1500 * time.Millisecond, present: true},
		// Zero: no cache_duration, which tells a client to cache nothing.
		{in: 0, present: false},
		// Negative, both parts negative, to test a client's guard.
		{in: -2500 * time.Millisecond, present: true},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			s := seeded(t, sbtest.WithCacheDuration(tt.in))
			r := get(t, s, "/v5/hashes:search"+searchQuery(s, b64([]byte{0, 0, 0, 0})))
			got, err := decodeSearch(r.body)
			if err != nil || !isOK(r) {
				t.Fatalf("%d %v", r.status, err)
			}
			if got.hasCache != tt.present || got.cache != tt.in {
				t.Errorf("cache_duration = %v (present %v), want %v (present %v)", got.cache, got.hasCache, tt.in, tt.present)
			}
		})
	}
}

// The bytes of a search reply, read by hand with protowire against the
// schema: SearchHashesResponse { 1 full_hashes; 2 cache_duration },
// FullHash { 1 full_hash; 2 full_hash_details }, FullHashDetail
// { 1 threat_type; 2 attributes (packed) }, Duration { 1 seconds }.
func TestSearchWire(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	if err := s.Add("mw-4b", "evil.example/", sbtest.Canary); err != nil {
		t.Fatal(err)
	}
	h := hash("evil.example/")
	r := get(t, s, "/v5/hashes:search"+searchQuery(s, b64(h[:4])))
	if !isOK(r) {
		t.Fatalf("%d %s", r.status, r.body)
	}

	// Written out from the schema: field 1 (tag 0x0a), 41 bytes: field 1
	// (0x0a) 32 bytes of hash, field 2 (0x12) 5 bytes: threat_type (0x08)
	// MALWARE (1), attributes (0x12) packed, 1 byte: CANARY (1); then
	// field 2 (0x12), 3 bytes: seconds (0x08) 300 (0xac 0x02).
	want := "0a29" + "0a20" + hex.EncodeToString(h[:]) + "1205" + "0801" + "120101" + "1203" + "08ac02"
	if got := hex.EncodeToString(r.body); got != want {
		t.Errorf("reply\n%s\nwant\n%s", got, want)
	}

	// The same, walked field by field.
	b := r.body
	num, typ, n := protowire.ConsumeTag(b)
	if num != 1 || typ != protowire.BytesType {
		t.Fatalf("first field %d/%d, want full_hashes", num, typ)
	}
	b = b[n:]
	fh, n := protowire.ConsumeBytes(b)
	if n < 0 {
		t.Fatal(protowire.ParseError(n))
	}
	b = b[n:]
	num, _, n = protowire.ConsumeTag(fh)
	v, m := protowire.ConsumeBytes(fh[n:])
	if num != 1 || !bytes.Equal(v, h[:]) {
		t.Fatalf("full_hash = %x, want %x", v, h)
	}
	fh = fh[n+m:]
	num, _, n = protowire.ConsumeTag(fh)
	d, m := protowire.ConsumeBytes(fh[n:])
	if num != 2 || m != len(fh)-n {
		t.Fatalf("full_hash_details: field %d, %d bytes of %d", num, m, len(fh)-n)
	}
	num, _, n = protowire.ConsumeTag(d)
	threat, m := protowire.ConsumeVarint(d[n:])
	if num != 1 || threat != 1 {
		t.Errorf("threat_type field %d = %d, want 1 (MALWARE)", num, threat)
	}
	d = d[n+m:]
	num, _, n = protowire.ConsumeTag(d)
	attrs, _ := protowire.ConsumeBytes(d[n:])
	if num != 2 || !bytes.Equal(attrs, []byte{1}) {
		t.Errorf("attributes field %d = %x, want packed CANARY", num, attrs)
	}
	num, _, n = protowire.ConsumeTag(b)
	dur, _ := protowire.ConsumeBytes(b[n:])
	sec, _ := protowire.ConsumeVarint(dur[1:])
	if num != 2 || dur[0] != 0x08 || sec != 300 {
		t.Errorf("cache_duration field %d = %x, want seconds 300", num, dur)
	}
}
