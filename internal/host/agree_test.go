// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package host_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/ampcache/ampcors"
	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/safebrowse"
)

// TestFamiliesAgree runs the same hosts through every entry point, in both
// spec families, that reads a host as a browser does, and checks that each
// one reaches the host that the WHATWG "domain to ASCII" gives (Profile,
// then no Forbidden code point in its result), or refuses the host when
// that does:
//   - safebrowse.Canonicalize and safebrowse.Parse (the canonical host);
//   - ampcache.CacheURL (the host in the cache URL's path), and
//     ampcache.DomainPrefix, which must give the same prefix for the host
//     and for that ASCII form unless the prefix is the hashed fallback
//     (ampcache decision e: a Unicode host hashes its Unicode spelling);
//   - ampcors.New with the host as a publisher origin, and
//     Policy.Allowed of the origin as a browser serialises it.
//
// Where a host is refused, safebrowse keeps its bytes, escaped, and does
// not convert it, as its decision f says; the others return an error.
func TestFamiliesAgree(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // the ASCII host; "" if a browser refuses it
	}{
		// ASCII, lowercased.
		{"ascii", "Www.Example.COM", "www.example.com"},
		// No STD3 rules: "_" is a host character.
		{"underscore", "_dmarc.example.com", "_dmarc.example.com"},
		// No CheckHyphens: "--" at positions 3 and 4.
		{"hyphens34", "in--trouble.example", "in--trouble.example"},
		// A U-label, in upper case too (UTS #46 maps Ü to ü).
		{"uLabel", "bücher.de", "xn--bcher-kva.de"},
		{"uLabelUpper", "BÜCHER.DE", "xn--bcher-kva.de"},
		// The same host as an A-label.
		{"aLabel", "xn--bcher-kva.de", "xn--bcher-kva.de"},
		// Non-transitional: ß stays ß.
		{"sharpS", "faß.de", "xn--fa-hia.de"},
		// Fullwidth letters and an ideographic full stop are mapped.
		{"fullwidth", "ＥＸＡＭＰＬＥ。com", "example.com"},
		// Scripts other than Latin.
		{"cyrillic", "пример.рф", "xn--e1afmkfd.xn--p1ai"},
		{"cjk", "例子.中国", "xn--fsqu00a.xn--fiqs8s"},
		{"arabic", "مثال.إختبار", "xn--mgbh0fb.xn--kgbechtv"},
		// A joiner out of context: CheckJoiners refuses it.
		{"joiner", "a\u200db.com", ""},
		// A right-to-left label starting with a digit: CheckBidi refuses it.
		{"bidi", "0\u05d0.com", ""},
		// U+FF0F FULLWIDTH SOLIDUS maps to "/", a forbidden code point.
		{"forbidden", "a\uff0fb.com", ""},
	}
	policyFor := func(t *testing.T, origin string) (*ampcors.Policy, error) {
		t.Helper()
		return ampcors.New(ampcors.Config{Origins: []string{origin}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := host.Profile.ToASCII(tt.in)
			if i := strings.IndexFunc(got, func(r rune) bool { return r < 0x80 && host.Forbidden(byte(r)) }); err == nil && i >= 0 {
				err = errors.New("forbidden domain code point")
			}
			if tt.want == "" {
				if err == nil {
					t.Fatalf("domain to ASCII of %q = %q; want an error", tt.in, got)
				}
			} else if err != nil || got != tt.want {
				t.Fatalf("domain to ASCII of %q = %q, %v; want %q", tt.in, got, err, tt.want)
			}

			// safebrowse: the canonical host.
			raw := "http://" + tt.in + "/"
			canon, err := safebrowse.Canonicalize(raw)
			if err != nil {
				t.Fatalf("safebrowse.Canonicalize(%q): %v", raw, err)
			}
			u, err := safebrowse.Parse(raw)
			if err != nil || u.String() != canon {
				t.Fatalf("safebrowse.Parse(%q) = %q, %v; Canonicalize gave %q", raw, u, err, canon)
			}
			if tt.want != "" {
				if u.Host() != tt.want {
					t.Errorf("safebrowse.Parse(%q).Host() = %q; want %q", raw, u.Host(), tt.want)
				}
			} else if !strings.Contains(u.Host(), "%") {
				t.Errorf("safebrowse.Parse(%q).Host() = %q; want the bytes kept, escaped", raw, u.Host())
			}

			// ampcache: the host in the cache URL's path, and its prefix.
			pub := "https://" + tt.in + "/p"
			cu, cerr := ampcache.CacheURL("cdn.ampproject.org", pub, ampcache.Content)
			if tt.want == "" {
				if !errors.Is(cerr, ampcache.ErrInvalidHost) {
					t.Errorf("ampcache.CacheURL(%q) = %q, %v; want ErrInvalidHost", pub, cu, cerr)
				}
			} else {
				p, err := ampcache.DomainPrefix(tt.want)
				if err != nil {
					t.Fatalf("ampcache.DomainPrefix(%q): %v", tt.want, err)
				}
				want := "https://" + p + ".cdn.ampproject.org/c/s/" + tt.want + "/p"
				if cerr != nil || cu != want {
					t.Errorf("ampcache.CacheURL(%q) = %q, %v; want %q", pub, cu, cerr, want)
				}
				if q, err := ampcache.DomainPrefix(tt.in); err != nil || q != p && q != ampcache.FallbackPrefix(tt.in) {
					t.Errorf("ampcache.DomainPrefix(%q) = %q, %v; want %q as for %q", tt.in, q, err, p, tt.want)
				}
			}

			// ampcors: the host as a publisher origin.
			origin := "https://" + tt.in
			policy, err := policyFor(t, origin)
			if tt.want == "" {
				if err == nil {
					t.Errorf("ampcors.New(%q): no error; want one", origin)
				}
				return
			}
			if err != nil {
				t.Fatalf("ampcors.New(%q): %v", origin, err)
			}
			if !policy.Allowed("https://" + tt.want) {
				t.Errorf("ampcors: Allowed(%q) = false for the origin %q", "https://"+tt.want, origin)
			}
		})
	}
}
