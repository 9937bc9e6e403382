// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// entry returns the first n bytes of an expression's hash, as a string.
func entry(expr string, n int) string {
	h := sha256.Sum256([]byte(expr))
	return string(h[:n])
}

// TestWebRisk: from a Web Risk source, MALWARE, SOCIAL_ENGINEERING and
// UNWANTED_SOFTWARE are served from Web Risk's lists, prefixes of every
// length, those longer than 4 bytes raw, one set a length, with RICE as
// with RAW; PHA, which Web Risk lacks, is not; an upstream change reaches
// the client as a partial update; fullHashes:find searches each prefix
// whole, as Web Risk's hashes:search takes it.
func TestWebRisk(t *testing.T) {
	t.Parallel()
	h := newWebRiskHarness(t, Config{}, func(up *sbtest.Server) {
		up.AddPrefix("mw-4b", "long.example/", 8)
		up.AddPrefix("mw-4b", "longer.example/", 16)
		up.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "ext.example/")
		for i := range 100 {
			up.Add("uwsa-4b", "many"+strconv.Itoa(i)+".example/")
		}
	}, sbtest.WithTestURLs())
	want := map[v4wire.ThreatType][]string{
		v4wire.Malware:           {entry(sbtest.TestURLs[0].Expression, 4), entry("long.example/", 8), entry("longer.example/", 16)},
		v4wire.SocialEngineering: {entry(sbtest.TestURLs[1].Expression, 4)},
		v4wire.UnwantedSoftware:  {entry(sbtest.TestURLs[2].Expression, 4)},
	}
	for i := range 100 {
		want[v4wire.UnwantedSoftware] = append(want[v4wire.UnwantedSoftware], entry("many"+strconv.Itoa(i)+".example/", 4))
	}
	for form := range formNames {
		for _, cons := range []v4wire.Constraints{riceOnly, rawOnly} {
			rice := slices.Contains(cons.SupportedCompressions, v4wire.CompressionRice)
			c := client{}
			r := h.fetch(t, form, c.request(goLists, cons))
			if err := c.apply(goLists, &r); err != nil {
				t.Fatalf("%s: %v", formNames[form], err)
			}
			for i, d := range goLists {
				w := want[d.ThreatType]
				slices.Sort(w)
				if got := c[d].entries; !slices.Equal(got, w) {
					t.Errorf("%s: %v: %x, want %x", formNames[form], d.ThreatType, got, w)
				}
				checkCompression(t, &r.ListUpdateResponses[i], rice)
			}
			if mw := r.ListUpdateResponses[0]; len(mw.Additions) != 3 {
				t.Errorf("%s: MALWARE in %d sets, want 3 (4, 8 and 16 bytes)", formNames[form], len(mw.Additions))
			}
		}
	}

	// An upstream change: an 8-byte entry and a 4-byte one removed, a
	// 12-byte one added.
	c := client{}
	r := h.fetch(t, formProto, c.request(goLists, riceOnly))
	if err := c.apply(goLists, &r); err != nil {
		t.Fatal(err)
	}
	h.up.Remove("mw-4b", "long.example/")
	h.up.Remove("mw-4b", sbtest.TestURLs[0].Expression)
	h.up.AddPrefix("mw-4b", "twelve.example/", 12)
	h.updateChanged(t, "MALWARE")
	r = h.fetch(t, formProto, c.request(goLists, riceOnly))
	if err := c.apply(goLists, &r); err != nil {
		t.Fatal(err)
	}
	if lr := r.ListUpdateResponses[0]; lr.ResponseType != v4wire.PartialUpdate || len(lr.Removals) != 1 {
		t.Errorf("MALWARE after the change: %+v, want a PARTIAL_UPDATE with removals", lr)
	}
	w := []string{entry("longer.example/", 16), entry("twelve.example/", 12)}
	slices.Sort(w)
	if got := c[goLists[0]].entries; !slices.Equal(got, w) {
		t.Errorf("MALWARE after the change: %x, want %x", got, w)
	}

	// threatLists: three threat types.
	req, _ := http.NewRequest(http.MethodGet, h.url+"/v4/threatLists?alt=proto", nil)
	_, _, body := do(t, req)
	if m, err := v4wire.ParseListThreatListsResponse(body); err != nil || len(m.ThreatLists) != 3*8 {
		t.Errorf("threatLists: %d lists, %v; want 24", len(m.ThreatLists), err)
	}

	// fullHashes:find with a 16-byte prefix and a 4-byte one: each
	// searched whole.
	longer := sha256.Sum256([]byte("longer.example/"))
	se := sha256.Sum256([]byte(sbtest.TestURLs[1].Expression))
	ext := sha256.Sum256([]byte("ext.example/"))
	m := findRequest(allTypes, []v4wire.PlatformType{v4wire.Linux}, 4, se, ext)
	m.ThreatInfo.ThreatEntries = append(m.ThreatInfo.ThreatEntries, v4wire.ThreatEntry{Hash: longer[:16]})
	status, fr, body := h.find(t, formJSON, m)
	if status != http.StatusOK {
		t.Fatalf("find: %d %s", status, body)
	}
	got := map[v4wire.ThreatType][]byte{}
	for _, x := range fr.Matches {
		got[x.ThreatType] = x.Threat.Hash
	}
	// Extended coverage, which v4 lacks, is dropped.
	if len(fr.Matches) != 2 || !bytes.Equal(got[v4wire.Malware], longer[:]) || !bytes.Equal(got[v4wire.SocialEngineering], se[:]) {
		t.Errorf("find: %+v", fr.Matches)
	}
	var sent []string
	for _, p := range h.up.SearchedPrefixes() {
		sent = append(sent, string(p))
	}
	for _, p := range []string{string(longer[:16]), string(se[:4])} {
		if !slices.Contains(sent, p) {
			t.Errorf("the prefix %x was not searched whole: %x", p, sent)
		}
	}
}
