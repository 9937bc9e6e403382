// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/net/idna"
)

// idnCorpus are IDN hosts of several scripts, each given once in Unicode and
// once as A-labels (from idna.Lookup): the idnHosts, and a host or two of
// each script that IDN registries serve, with more labels, longer or
// shorter ones, upper case, and scripts with combining marks, so that a
// pass over the corpus, looped, does not repeat one host's branches.
var idnCorpus = func() []string {
	hosts := []string{
		// Latin: Latin-1, Latin Extended-A (Polish, Czech, Turkish),
		// Vietnamese (Latin Extended Additional), upper case.
		"www.bücher-café.de", "münchen.de", "MÜNCHEN.DE", "łódź.pl", "čeština.cz", "ığdır.com.tr", "tiếngviệt.vn",
		// Greek, Cyrillic (upper case too), Armenian, Georgian.
		"ελληνικά.gr", "sub.παράδειγμα.δοκιμή", "москва.рф", "новости.яндекс.рф", "МОСКВА.РФ", "հայաստան.հայ", "საქართველო.გე",
		// CJK, kana, Hangul.
		"日本語.jp", "ドメイン名例.jp", "正體中文.台灣", "한국어.한국",
		// Right to left: Arabic, Hebrew.
		"موقع.وزارة-الاتصالات.مصر", "السعودية.السعودية", "עברית.co.il",
		// Combining marks: Thai, Devanagari, Tamil.
		"ไทย.ไทย", "เว็บไซต์.ไทย", "हिन्दी.भारत", "தமிழ்.இந்தியா",
	}
	for _, h := range idnHosts {
		hosts = append(hosts, h.host)
	}
	var out []string
	for _, h := range hosts {
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			panic("idnCorpus: " + h + ": " + err.Error())
		}
		out = append(out, h, a)
	}
	return out
}()

// BenchmarkIDNPrefixRatio measures DomainPrefix and AppendDomainPrefix over
// idnCorpus, looped, against the floor: one idna.Lookup.ToASCII of
// each host, timed in the same iterations. Each iteration times one pass of
// each, alternating which goes first, on the thread's CPU clock where there
// is one, so that a busy machine slows both alike. It reports ns/host for
// each, and ratio (DomainPrefix / ToASCII) and append-ratio
// (AppendDomainPrefix / ToASCII): the figures of the README's IDN row.
func BenchmarkIDNPrefixRatio(b *testing.B) {
	hosts := idnCorpus
	var sink int
	prefix := func() {
		for _, h := range hosts {
			p, _ := DomainPrefix(h)
			sink += len(p)
		}
	}
	var dst [maxLabel]byte
	appendPrefix := func() {
		for _, h := range hosts {
			p, _ := AppendDomainPrefix(dst[:0], h)
			sink += len(p)
		}
	}
	floor := func() {
		for _, h := range hosts {
			a, _ := idna.Lookup.ToASCII(h)
			sink += len(a)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock := func() time.Duration {
		if d, ok := prefixThreadCPU(); ok {
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	fs := []func(){prefix, appendPrefix, floor}
	var t [3]time.Duration
	i := 0
	for b.Loop() {
		// Rotate the order, so that none always runs first.
		for k := range fs {
			j := (i + k) % len(fs)
			t0 := clock()
			fs[j]()
			t[j] += clock() - t0
		}
		i++
	}
	n := float64(b.N) * float64(len(hosts))
	b.ReportMetric(float64(t[0].Nanoseconds())/n, "prefix-ns/host")
	b.ReportMetric(float64(t[1].Nanoseconds())/n, "append-ns/host")
	b.ReportMetric(float64(t[2].Nanoseconds())/n, "toascii-ns/host")
	b.ReportMetric(float64(t[0])/float64(t[2]), "ratio")
	b.ReportMetric(float64(t[1])/float64(t[2]), "append-ratio")
	b.ReportMetric(0, "ns/op")
	_ = sink
}
