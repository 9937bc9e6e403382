// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"reflect"
	"slices"
	"testing"
)

// verdictClient returns a ready Local List client whose server lists
// evil.example/ (two details, one with an attribute) and canary.example/
// (a canary), with both prefixes cached once urls has been looked up.
func verdictClient(t testing.TB) (*Client, []string) {
	t.Helper()
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(SocialEngineering), detailMsg(Malware, FrameOnly))
	s.add("canary.example/", detailMsg(SocialEngineering, Canary))
	c, _ := readyClient(t, s, LocalList, map[string][]string{
		"se-4b": {"evil.example/", "canary.example/"},
	})
	urls := []string{
		"http://evil.example/",
		"http://good.example/page",
		"http://a.evil.example/x?q=1",
		"http://canary.example/",
		"http://evil.example/",
		"", // not a URL
	}
	if _, err := c.LookupAll(bg, urls); err == nil {
		t.Fatal("LookupAll: no error for the bad URL")
	}
	return c, urls
}

// shorts is short of each verdict.
func shorts(vs []Verdict) [][]string {
	out := make([][]string, len(vs))
	for i, v := range vs {
		out[i] = short(v)
	}
	return out
}

// TestLookupAllVerdictsOwnMemory: the verdicts of a LookupAll share no
// memory with each other, with those of another call, or with what a
// later call reuses: a caller may append to them or change them in place.
func TestLookupAllVerdictsOwnMemory(t *testing.T) {
	c, urls := verdictClient(t)
	first, _ := c.LookupAll(bg, urls)
	want := shorts(first)
	if len(want[0]) != 2 || !reflect.DeepEqual(want[0], want[4]) || len(want[1]) != 0 || len(want[3]) != 1 {
		t.Fatalf("verdicts %q", want)
	}
	second, _ := c.LookupAll(bg, urls) // reuses the first call's working memory
	// Scribble on the first URL's verdict of the second call.
	v := &second[0]
	for i := range v.Threats {
		v.Threats[i].Type, v.Threats[i].Expression = 99, "scribbled"
		for j := range v.Threats[i].Attributes {
			v.Threats[i].Attributes[j] = 99
		}
		v.Threats[i].Attributes = append(v.Threats[i].Attributes, 99, 99)
	}
	v.Threats = append(v.Threats, Threat{Type: 99}, Threat{Type: 99})
	for range 3 {
		c.LookupAll(bg, urls)
		c.Lookup(bg, urls[0])
	}
	if got := shorts(first); !reflect.DeepEqual(got, want) {
		t.Errorf("the first call's verdicts changed:\n got %q\nwant %q", got, want)
	}
	if got := shorts(second[1:]); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("scribbling on one verdict changed the others:\n got %q\nwant %q", got, want[1:])
	}
	// Each URL in another place gets its own verdict, not one left over.
	rev := slices.Clone(urls)
	slices.Reverse(rev)
	back, _ := c.LookupAll(bg, rev)
	slices.Reverse(back)
	if got := shorts(back); !reflect.DeepEqual(got, want) {
		t.Errorf("the URLs in reverse:\n got %q\nwant %q", got, want)
	}
}

// TestLookupAllAllocs: a LookupAll that the cache and the local lists
// answer allocates its verdicts and nothing else: one slice of Verdicts,
// and, when some URL is unsafe, one array of Threats, one of attributes,
// and the canonical URL of each unsafe URL, whose substrings are its
// threats' expressions (safebrowse.Parse, two allocations).
func TestLookupAllAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations differ under -race")
	}
	c, urls := verdictClient(t)
	safe := []string{"http://good.example/page", "http://a.b.example.org/1/2.html?param=1", "https://x.example/"}
	tests := []struct {
		name string
		in   []string
		want float64 // at most
	}{
		// No URL unsafe: the verdicts alone.
		{"safe", slices.Repeat(safe, 7), 1},
		// Four URLs with threats, from the cache.
		{"threats", append(slices.Repeat(safe, 5), urls[:5]...), 1 + 2 + 4*2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.LookupAll(bg, tt.in); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() { c.LookupAll(bg, tt.in) }); n > tt.want {
				t.Errorf("LookupAll of %d URLs: %v allocations, want at most %v", len(tt.in), n, tt.want)
			}
		})
	}
}

// BenchmarkLookupAll measures a LookupAll of 20 URLs that the cache and
// the local lists answer, four of them unsafe.
func BenchmarkLookupAll(b *testing.B) {
	c, urls := verdictClient(b)
	safe := []string{"http://good.example/page", "http://a.b.example.org/1/2.html?param=1", "https://x.example/"}
	in := append(slices.Repeat(safe, 6)[:16], urls[:4]...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.LookupAll(bg, in); err != nil {
			b.Fatal(err)
		}
	}
}
