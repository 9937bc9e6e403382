// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"testing"
)

// TestThreatLists reads a ListThreatListsResponse written by hand, writes
// it back, and checks its JSON against text written from the discovery
// document.
func TestThreatLists(t *testing.T) {
	// MALWARE/WINDOWS/URL and SOCIAL_ENGINEERING/ANY_PLATFORM/URL.
	in := cat(msg(0x0a, []byte{0x08, 0x01, 0x10, 0x01, 0x18, 0x01}), msg(0x0a, []byte{0x08, 0x02, 0x10, 0x06, 0x18, 0x01}))
	want := ListThreatListsResponse{ThreatLists: []ThreatListDescriptor{{Malware, Windows, URL}, {SocialEngineering, AnyPlatform, URL}}}
	got, err := ParseListThreatListsResponse(in)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read", want, got)
	if b := AppendListThreatListsResponse(nil, &got); !bytes.Equal(b, in) {
		t.Errorf("written back %x\nwant %x", b, in)
	}
	const js = `{"threatLists":[{"threatType":"MALWARE","platformType":"WINDOWS","threatEntryType":"URL"},{"threatType":"SOCIAL_ENGINEERING","platformType":"ANY_PLATFORM","threatEntryType":"URL"}]}`
	if b := AppendListThreatListsResponseJSON(nil, &want); string(b) != js {
		t.Errorf("JSON %s\nwant %s", b, js)
	}
	back, err := ParseListThreatListsResponseJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "JSON read", want, back)
	for _, bad := range [][]byte{
		msg(0x0a, []byte{0x0a, 0x00}), // threat_type length-delimited
		{0x0a, 0x03, 0x08},            // truncated
	} {
		if _, err := ParseListThreatListsResponse(bad); err == nil {
			t.Errorf("%x: no error", bad)
		}
	}
}
