// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// field returns a protobuf field of wire type 2 (bytes) or 0 (a varint
// below 128), written byte by byte from safebrowsing.proto's numbers.
func field(num byte, v any) []byte {
	switch v := v.(type) {
	case int:
		return []byte{num << 3, byte(v)}
	case []byte:
		return append([]byte{num<<3 | 2, byte(len(v))}, v...)
	}
	panic("field")
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// chromiumRequest returns a FetchThreatListUpdatesRequest as Chromium's
// proto2 code writes it (v4_update_protocol_manager.cc): for each list,
// ListUpdateRequest { 1 threat_type; 2 platform_type; 5
// threat_entry_type; 3 state, when it has one; 4 constraints { 4
// supported_compressions RICE, unpacked } }, then 4 chrome_client_info,
// a field the package does not know.
func chromiumRequest(lists [][3]int, states [][]byte) []byte {
	var b []byte
	for i, l := range lists {
		lr := cat(field(1, l[0]), field(2, l[1]), field(5, l[2]))
		if states[i] != nil {
			lr = append(lr, field(3, states[i])...)
		}
		lr = append(lr, field(4, field(4, 2))...)
		b = append(b, field(3, lr)...)
	}
	return append(b, field(4, field(1, 1))...)
}

// TestChromium: a request built by hand as Chromium sends it, a GET with
// $req (base64url with padding), $ct=application/x-protobuf and
// X-HTTP-Method-Override: POST, gets a binary full update, then, with the
// states it gave, a partial one; and its fullHashes:find, in the same
// form, a binary reply.
func TestChromium(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{}, sbtest.WithTestURLs())
	// MALWARE/WINDOWS/URL, SOCIAL_ENGINEERING/WINDOWS/URL, and
	// SUBRESOURCE_FILTER (13)/WINDOWS/URL, which is not served.
	lists := [][3]int{{1, 1, 1}, {2, 1, 1}, {13, 1, 1}}
	states := make([][]byte, len(lists))
	get := func(path string, msg []byte) []byte {
		t.Helper()
		r, err := http.NewRequest(http.MethodGet, h.url+path+"?$req="+base64.URLEncoding.EncodeToString(msg)+"&$ct=application/x-protobuf&key=K", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("X-HTTP-Method-Override", "POST")
		status, ct, body := do(t, r)
		if status != http.StatusOK || ct != "application/x-protobuf" {
			t.Fatalf("%s: %d %s %q", path, status, ct, body)
		}
		return body
	}
	c := &[3]clientList{}
	for round, want := range []v4wire.ResponseType{v4wire.FullUpdate, v4wire.PartialUpdate} {
		if round == 1 {
			h.up.Add("se-4b", "new.example/")
			h.update(t)
		}
		r, err := v4wire.ParseFetchThreatListUpdatesResponse(get("/v4/threatListUpdates:fetch", chromiumRequest(lists, states)))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ListUpdateResponses) != len(lists) {
			t.Fatalf("%d list updates", len(r.ListUpdateResponses))
		}
		for i, lr := range r.ListUpdateResponses {
			if got := [3]int{int(lr.ThreatType), int(lr.PlatformType), int(lr.ThreatEntryType)}; got != lists[i] {
				t.Errorf("list update %d of %v, want %v", i, got, lists[i])
			}
			if err := c[i].apply(&lr); err != nil {
				t.Fatalf("round %d, list %d: %v", round, i, err)
			}
			if i < 2 && lr.ResponseType != want {
				t.Errorf("round %d, list %d: %v, want %v", round, i, lr.ResponseType, want)
			}
			states[i] = c[i].state
		}
	}
	if n := len(c[1].entries); n != 2 {
		t.Errorf("SOCIAL_ENGINEERING holds %d entries, want 2", n)
	}
	// FindFullHashesRequest { 1 client; 3 threat_info { 1 threat_types;
	// 2 platform_types; 4 threat_entry_types; 3 threat_entries { 1 hash }
	// } }, each repeated enum unpacked.
	p := prefix(sbtest.TestURLs[1].Expression)
	find := field(3, cat(field(1, 2), field(2, 1), field(4, 1), field(3, field(1, []byte(p)))))
	fr, err := v4wire.ParseFindFullHashesResponse(get("/v4/fullHashes:find", cat(field(1, field(1, []byte("chromium"))), find)))
	if err != nil {
		t.Fatal(err)
	}
	if len(fr.Matches) != 1 || fr.Matches[0].ThreatType != v4wire.SocialEngineering || fr.Matches[0].PlatformType != v4wire.Windows {
		t.Errorf("find: %+v", fr.Matches)
	}
}
