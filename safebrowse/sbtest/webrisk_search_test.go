// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// hashesJSON is a SearchHashesResponse in JSON, with webrisk.proto's
// fields only.
type hashesJSON struct {
	Threats []struct {
		ThreatTypes []string
		Hash        []byte
		ExpireTime  string
	}
	NegativeExpireTime string
}

// urisJSON is a SearchUrisResponse in JSON.
type urisJSON struct {
	Threat *struct {
		ThreatTypes []string
		ExpireTime  string
	}
}

// wrSeeded returns a server holding the lists the Web Risk search tests
// use.
func wrSeeded(t *testing.T, opts ...sbtest.Option) *sbtest.Server {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	a, b := collide()
	for _, err := range []error{
		s.Add("mw-4b", "evil.example/"),
		s.Add("se-4b", "evil.example/", sbtest.Canary),
		s.AddPrefix("uws-4b", "long.example/", 8),
		s.Add("uwsa-4b", "long.example/"),
		s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "ext.example/"),
		s.Add("pha-4b", "pha.example/"),
		s.Add("gc-32b", "good.example/"),
		s.AddHash("mw-4b", a),
		s.AddHash("mw-4b", b),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// fmtThreats formats a search reply's threats: the first 4 bytes of each
// hash in hex, and its threat types.
func fmtThreats(r hashesJSON) string {
	var out []string
	for _, th := range r.Threats {
		out = append(out, hex.EncodeToString(th.Hash[:4])+" "+strings.Join(th.ThreatTypes, ","))
	}
	return strings.Join(out, "; ")
}

// hashHex returns the first 4 bytes of an expression's hash in hex.
func hashHex(expr string) string { h := hash(expr); return hex.EncodeToString(h[:4]) }

func TestSearchWRHashes(t *testing.T) {
	s := wrSeeded(t)
	evil, long := hash("evil.example/"), hash("long.example/")
	twinA, _ := collide()
	twins := hex.EncodeToString(twinA[:4]) + " MALWARE; " + hex.EncodeToString(twinA[:4]) + " MALWARE"
	all := []string{"threatTypes", "MALWARE", "threatTypes", "SOCIAL_ENGINEERING", "threatTypes", "UNWANTED_SOFTWARE", "threatTypes", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}
	tests := []struct {
		name    string
		in      []string // query pairs
		want    string   // fmtThreats
		wantErr string   // in a 400's message
	}{
		// A hash on two lists asked: one threat, both types.
		{name: "two lists", in: []string{"hashPrefix", b64(evil[:4]), "threatTypes", "MALWARE", "threatTypes", "SOCIAL_ENGINEERING"}, want: hashHex("evil.example/") + " MALWARE,SOCIAL_ENGINEERING"},
		// Only the types asked, in the enum's order, once each.
		{name: "types asked", in: []string{"hashPrefix", b64(evil[:4]), "threatTypes", "SOCIAL_ENGINEERING", "threatTypes", "SOCIAL_ENGINEERING"}, want: hashHex("evil.example/") + " SOCIAL_ENGINEERING"},
		{name: "enum order", in: []string{"hashPrefix", b64(evil[:4]), "threat_types", "SOCIAL_ENGINEERING", "threat_types", "MALWARE"}, want: hashHex("evil.example/") + " MALWARE,SOCIAL_ENGINEERING"},
		// A list not asked: nothing.
		{name: "other list", in: []string{"hashPrefix", b64(evil[:4]), "threatTypes", "UNWANTED_SOFTWARE"}, want: ""},
		// An 8-byte entry searched whole; on uws-4b and uwsa-4b, one type.
		{name: "8 bytes", in: []string{"hashPrefix", b64(long[:8]), "threatTypes", "UNWANTED_SOFTWARE"}, want: hashHex("long.example/") + " UNWANTED_SOFTWARE"},
		// Its first 4 bytes find it too: a prefix matches the full hashes
		// it starts.
		{name: "4 of 8 bytes", in: []string{"hashPrefix", b64(long[:4]), "threatTypes", "UNWANTED_SOFTWARE"}, want: hashHex("long.example/") + " UNWANTED_SOFTWARE"},
		// The full hash, 32 bytes.
		{name: "32 bytes", in: append([]string{"hashPrefix", b64(long[:])}, all...), want: hashHex("long.example/") + " UNWANTED_SOFTWARE"},
		// 8 bytes that share only the first 4 with a hash find nothing.
		{name: "8 bytes off", in: []string{"hashPrefix", b64(append(long[:7:7], long[7]^1)), "threatTypes", "UNWANTED_SOFTWARE"}, want: ""},
		// Two full hashes sharing a prefix, sorted by hash.
		{name: "twins", in: []string{"hashPrefix", b64(twinA[:4]), "threatTypes", "MALWARE"}, want: twins},
		// The extended coverage list.
		{name: "extended", in: append([]string{"hashPrefix", b64(prefixOf("ext.example/"))}, all...), want: hashHex("ext.example/") + " SOCIAL_ENGINEERING_EXTENDED_COVERAGE"},
		// pha-4b and gc-32b are no Web Risk list.
		{name: "pha-4b", in: append([]string{"hashPrefix", b64(prefixOf("pha.example/"))}, all...), want: ""},
		{name: "gc-32b", in: append([]string{"hashPrefix", b64(prefixOf("good.example/"))}, all...), want: ""},
		// URL-safe base64 without padding is taken.
		{name: "URL-safe", in: []string{"hashPrefix", base64.RawURLEncoding.EncodeToString(evil[:4]), "threatTypes", "MALWARE"}, want: hashHex("evil.example/") + " MALWARE"},
		// hashPrefix is required, of 4 to 32 bytes, in base64.
		{name: "no prefix", in: []string{"threatTypes", "MALWARE"}, wantErr: "hashPrefix is required"},
		{name: "3 bytes", in: []string{"hashPrefix", b64(evil[:3]), "threatTypes", "MALWARE"}, wantErr: "hashPrefix is 3 bytes; want 4 to 32"},
		{name: "33 bytes", in: []string{"hashPrefix", b64(append(evil[:], 0)), "threatTypes", "MALWARE"}, wantErr: "hashPrefix is 33 bytes"},
		{name: "not base64", in: []string{"hashPrefix", "!!!!", "threatTypes", "MALWARE"}, wantErr: "not base64"},
		// One prefix a request.
		{name: "two prefixes", in: []string{"hashPrefix", b64(evil[:4]), "hashPrefix", b64(long[:4]), "threatTypes", "MALWARE"}, wantErr: "more than once"},
		{name: "both names", in: []string{"hashPrefix", b64(evil[:4]), "hash_prefix", b64(long[:4]), "threatTypes", "MALWARE"}, wantErr: "hashPrefix given as hash_prefix too"},
		// threatTypes is required, each a Web Risk threat type.
		{name: "no types", in: []string{"hashPrefix", b64(evil[:4])}, wantErr: "threatTypes is required"},
		{name: "unknown type", in: []string{"hashPrefix", b64(evil[:4]), "threatTypes", "MALWARE", "threatTypes", "POTENTIALLY_HARMFUL_APPLICATION"}, wantErr: `threatTypes[1]="POTENTIALLY_HARMFUL_APPLICATION" is not a Web Risk threat type`},
		{name: "unspecified", in: []string{"hashPrefix", b64(evil[:4]), "threatTypes", "THREAT_TYPE_UNSPECIFIED"}, wantErr: "not a Web Risk threat type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := wrGet(t, s, wrHashes, tt.in...)
			if tt.wantErr != "" {
				if msg := errorMessage(r); r.status != 400 || !strings.Contains(msg, tt.wantErr) {
					t.Errorf("%d %q, want 400 holding %q", r.status, msg, tt.wantErr)
				}
				return
			}
			var h hashesJSON
			decodeStrict(t, r, &h)
			if got := fmtThreats(h); got != tt.want {
				t.Errorf("threats %q, want %q", got, tt.want)
			}
			for _, th := range h.Threats {
				if len(th.Hash) != 32 || th.ExpireTime == "" {
					t.Errorf("threat %+v", th)
				}
			}
			if h.NegativeExpireTime == "" {
				t.Error("no negativeExpireTime")
			}
		})
	}
}

func TestSearchURIs(t *testing.T) {
	s := wrSeeded(t)
	all := []string{"threatTypes", "MALWARE", "threatTypes", "SOCIAL_ENGINEERING", "threatTypes", "UNWANTED_SOFTWARE", "threatTypes", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}
	tests := []struct {
		name    string
		uri     string
		types   []string // query pairs; all when nil
		want    string   // the threat types, comma-separated; "" for {}
		wantErr string
	}{
		// A listed URL, with every list asked.
		{name: "listed", uri: "http://evil.example/", want: "MALWARE,SOCIAL_ENGINEERING"},
		// An expression of the URL is listed.
		{name: "expression", uri: "https://evil.example/a/b?c=d", want: "MALWARE,SOCIAL_ENGINEERING"},
		// Only the types asked.
		{name: "types asked", uri: "http://evil.example/", types: []string{"threat_types", "SOCIAL_ENGINEERING"}, want: "SOCIAL_ENGINEERING"},
		// Listed, but not on a list asked: {}.
		{name: "not asked", uri: "http://evil.example/", types: []string{"threatTypes", "UNWANTED_SOFTWARE"}, want: ""},
		// An 8-byte entry's hash is matched whole.
		{name: "8 bytes", uri: "http://long.example/", want: "UNWANTED_SOFTWARE"},
		// The extended coverage list.
		{name: "extended", uri: "http://ext.example/", want: "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"},
		// Clean, and pha-4b's and gc-32b's: {}.
		{name: "clean", uri: "http://clean.example/", want: ""},
		{name: "pha-4b", uri: "http://pha.example/", want: ""},
		{name: "gc-32b", uri: "http://good.example/", want: ""},
		// A URI Web Risk cannot check is a 400.
		{name: "no host", uri: "http://", wantErr: `uri="http://" is not a URL Web Risk checks`},
		{name: "mailto", uri: "mailto:a@evil.example", wantErr: "is not a URL"},
		// uri is required, and threatTypes.
		{name: "no uri", uri: "", wantErr: "uri is required"},
		// One uri a request.
		{name: "two uris", uri: "http://evil.example/", types: []string{"uri", "http://b.example/", "threatTypes", "MALWARE"}, wantErr: "uri given more than once"},
		{name: "no types", uri: "http://evil.example/", types: []string{}, wantErr: "threatTypes is required"},
		{name: "unknown type", uri: "http://evil.example/", types: []string{"threatTypes", "PHISHING"}, wantErr: `threatTypes[0]="PHISHING"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kv := tt.types
			if kv == nil {
				kv = all
			}
			if tt.uri != "" {
				kv = append([]string{"uri", tt.uri}, kv...)
			}
			r := wrGet(t, s, wrURIs, kv...)
			if tt.wantErr != "" {
				if msg := errorMessage(r); r.status != 400 || !strings.Contains(msg, tt.wantErr) {
					t.Errorf("%d %q, want 400 holding %q", r.status, msg, tt.wantErr)
				}
				return
			}
			var u urisJSON
			decodeStrict(t, r, &u)
			got := ""
			if u.Threat != nil {
				got = strings.Join(u.Threat.ThreatTypes, ",")
				if u.Threat.ExpireTime == "" {
					t.Error("no expireTime")
				}
			}
			if got != tt.want {
				t.Errorf("threat types %q, want %q", got, tt.want)
			}
			if tt.want == "" && strings.TrimSpace(string(r.body)) != "{}" {
				t.Errorf("reply %s, want {}", r.body)
			}
		})
	}
}

// The expiry times of the searches are the time of the reply plus the
// cache duration; zero leaves them out.
func TestWebRiskExpireTime(t *testing.T) {
	tests := []struct {
		name string
		d    time.Duration
	}{
		// The default, 5 minutes.
		{name: "default", d: sbtest.DefaultCacheDuration},
		// An hour.
		{name: "hour", d: time.Hour},
		// None.
		{name: "zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wrSeeded(t, sbtest.WithCacheDuration(tt.d))
			before := time.Now()
			var h hashesJSON
			decodeStrict(t, wrGet(t, s, wrHashes, "hashPrefix", b64(prefixOf("evil.example/")), "threatTypes", "MALWARE"), &h)
			var u urisJSON
			decodeStrict(t, wrGet(t, s, wrURIs, "uri", "http://evil.example/", "threatTypes", "MALWARE"), &u)
			after := time.Now()
			if len(h.Threats) != 1 || u.Threat == nil {
				t.Fatalf("%+v %+v", h, u)
			}
			for _, v := range []string{h.Threats[0].ExpireTime, h.NegativeExpireTime, u.Threat.ExpireTime} {
				if tt.d == 0 {
					if v != "" {
						t.Errorf("expiry %q, want none", v)
					}
					continue
				}
				got, err := time.Parse(time.RFC3339Nano, v)
				if err != nil || got.Before(before.Add(tt.d).Truncate(time.Second)) || got.After(after.Add(tt.d)) {
					t.Errorf("expiry %q (%v), want %v from now", v, err, tt.d)
				}
			}
		})
	}
}
