// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
)

// findBody is a v4 request for urls with threat and platform types.
func findBody(types, platforms string, urls ...string) string {
	var entries []string
	for _, u := range urls {
		b, _ := json.Marshal(u)
		entries = append(entries, `{"url":`+string(b)+`}`)
	}
	return `{"client":{"clientId":"test","clientVersion":"1.0"},"threatInfo":{"threatTypes":[` + types +
		`],"platformTypes":[` + platforms + `],"threatEntryTypes":["URL"],"threatEntries":[` + strings.Join(entries, ",") + `]}}`
}

func TestFind(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	const all = `"MALWARE","SOCIAL_ENGINEERING","UNWANTED_SOFTWARE","POTENTIALLY_HARMFUL_APPLICATION"`
	match := func(typ, platform, u string) string {
		return `{"threatType":"` + typ + `","platformType":"` + platform + `","threatEntryType":"URL","threat":{"url":"` + u + `"},"cacheDuration":"300s"}`
	}
	for _, tt := range []struct {
		name       string
		body       string
		wantStatus int
		want       string // the whole body, or for errors a part of it
	}{
		// A match, with the first platform type asked.
		{"match", findBody(all, `"WINDOWS","ANY_PLATFORM"`, safe, evil), 200, `{"matches":[` + match("MALWARE", "WINDOWS", evil) + `]}` + "\n"},
		// Every platform type covers every threat type.
		{"IOS", findBody(all, `"IOS"`, evil), 200, `{"matches":[` + match("MALWARE", "IOS", evil) + `]}` + "\n"},
		// Only the requested threat types match.
		{"other type", findBody(`"SOCIAL_ENGINEERING"`, `"ANY_PLATFORM"`, evil), 200, "{}\n"},
		// Nothing matches: {}.
		{"safe", findBody(all, `"ALL_PLATFORMS"`, safe), 200, "{}\n"},
		// A CANARY threat is not reported.
		{"canary", findBody(all, `"ANY_PLATFORM"`, canary), 200, "{}\n"},
		// A threat type asked twice matches once.
		{"twice", findBody(`"MALWARE","MALWARE"`, `"CHROME"`, evil), 200, `{"matches":[` + match("MALWARE", "CHROME", evil) + `]}` + "\n"},
		// A URL given twice matches once per threat type.
		{"URL twice", findBody(all, `"ANY_PLATFORM"`, evil, safe, evil), 200, `{"matches":[` + match("MALWARE", "ANY_PLATFORM", evil) + `]}` + "\n"},
		// The proto field names, as proto3 JSON parsers accept them.
		{"proto names", `{"client":{"client_id":"t","client_version":"1"},"threat_info":{"threat_types":["MALWARE"],"platform_types":["ANY_PLATFORM"],"threat_entry_types":["URL"],"threat_entries":[{"url":"` + evil + `"}]}}`,
			200, `{"matches":[` + match("MALWARE", "ANY_PLATFORM", evil) + `]}` + "\n"},
		// The two names mixed, one per field.
		{"mixed names", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil), `"threatEntries"`, `"threat_entries"`, 1), 200, `{"matches":[` + match("MALWARE", "ANY_PLATFORM", evil) + `]}` + "\n"},
		// A field given by both names is a 400, as in protobuf's parsers.
		{"both names", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil), `"threatTypes"`, `"threat_types":["MALWARE"],"threatTypes"`, 1), 400, `threatInfo.threatTypes given twice`},
		// A snake_case name that is no field is still unknown.
		{"unknown snake field", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil), `"threatTypes"`, `"threat_kinds":[],"threatTypes"`, 1), 400, `unknown field \"threat_kinds\"`},
		// An unknown threat type.
		{"unknown threat type", findBody(`"EVIL"`, `"ANY_PLATFORM"`, evil), 400, `threatTypes[0]: unknown threat type \"EVIL\"`},
		// An unknown platform type.
		{"unknown platform", findBody(all, `"AMIGA"`, evil), 400, `platformTypes[0]: unknown platform type \"AMIGA\"`},
		// No threat type would match nothing: a 400, not a silent safe.
		{"no threat types", findBody(``, `"ANY_PLATFORM"`, evil), 400, `threatTypes is required`},
		// No platform type.
		{"no platform types", findBody(all, ``, evil), 400, `platformTypes is required`},
		// Another threat entry type.
		{"executable", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil), `"threatEntryTypes":["URL"]`, `"threatEntryTypes":["EXECUTABLE"]`, 1), 400, `only URL is served`},
		// A field that v4's ThreatEntry does not have.
		{"hash entry", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil), `{"url":`, `{"hash":"AAAA","x":`, 1), 400, `unknown field \"x\"`},
		// An entry without url.
		{"no url", strings.Replace(findBody(all, `"ANY_PLATFORM"`, evil, safe), `{"url":"`+evil+`"}`, `{"hash":"AAAA"}`, 1), 400, `threatEntries[0]: no url`},
		// A bad URL names its index.
		{"bad URL", findBody(all, `"ANY_PLATFORM"`, safe, "mailto:a@b"), 400, `threatInfo.threatEntries[1]: lookup: safebrowse:`},
		// 501 entries is over v4's limit.
		{"too many", findBody(all, `"ANY_PLATFORM"`, make([]string, 501)...), 400, `501 threatInfo.threatEntries in one request, at most 500`},
		// An unknown field is quoted within 100 bytes.
		{"long field", `{"` + strings.Repeat("x", 5000) + `":1}`, 400, `... (5000 bytes)`},
		// Not JSON.
		{"not JSON", `threatInfo`, 400, `"status":"INVALID_ARGUMENT"`},
		// Over 1 MiB.
		{"too large", findBody(all, `"ANY_PLATFORM"`, strings.Repeat("a", maxBody)), 413, `over 1048576 bytes`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, _ := do(t, "POST", p.URL+"/v4/threatMatches:find", tt.body)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d: %.300s", status, tt.wantStatus, body)
			}
			if status == 200 && body != tt.want || status != 200 && !strings.Contains(body, tt.want) {
				t.Errorf("body %.300s\nwant %s", body, tt.want)
			}
			if len(body) > 600 {
				t.Errorf("reply of %d bytes: errors quote at most 100 bytes", len(body))
			}
		})
	}
}

// TestFind500: 500 entries are answered.
func TestFind500(t *testing.T) {
	_, _, p := newProxy(t, lookup.LocalList, true)
	urls := make([]string, maxEntries)
	for i := range urls {
		urls[i] = safe
	}
	urls[499] = evil
	status, body, _ := do(t, "POST", p.URL+"/v4/threatMatches:find", findBody(`"MALWARE"`, `"ANY_PLATFORM"`, urls...))
	if status != 200 || strings.Count(body, `"threatType"`) != 1 {
		t.Errorf("status %d, body %.300s; want one match", status, body)
	}
}
