// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/host"
)

// ipv4 is the address parseIPv4 reads in h, dotted-decimal, or "" if h is
// not IPv4.
func ipv4(h string) string {
	a, ok := parseIPv4([]byte(h))
	if !ok {
		return ""
	}
	return string(appendIPv4(nil, a))
}

// ipv6 is the address parseIPv6 reads in h, as net/netip writes it, or ""
// if h is not IPv6.
func ipv6(h string) string {
	a, ok := parseIPv6([]byte(h))
	if !ok {
		return ""
	}
	return netip.AddrFrom16(a).String()
}

func TestParseIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when h is not IPv4
	}{
		// The official list's one-part decimal.
		{"3279880203", "195.127.0.11"},
		// Four decimal parts.
		{"1.2.3.4", "1.2.3.4"},
		// Three parts: the last fills two bytes.
		{"1.2.772", "1.2.3.4"},
		// Two parts: the last fills three bytes.
		{"1.131844", "1.2.3.4"},
		// Hex, any case.
		{"0x7F.0X0.0x.0x1", "127.0.0.1"},
		// Octal.
		{"0177.0.0.01", "127.0.0.1"},
		// Octal zero.
		{"00.00.00.00", "0.0.0.0"},
		// Mixed bases.
		{"0x7f.1.0377.1", "127.1.255.1"},
		// Hex with leading zeros.
		{"0x0000007f.1", "127.0.0.1"},
		// Largest last part for three parts.
		{"1.2.65535", "1.2.255.255"},
		// Too large for three parts.
		{"1.2.65536", ""},
		// Largest last part for two parts.
		{"1.16777215", "1.255.255.255"},
		// Too large for two parts.
		{"1.16777216", ""},
		// A part above 255 before the last.
		{"1.256.1.1", ""},
		// 2^32.
		{"4294967296", ""},
		// A huge number does not overflow.
		{"99999999999999999999999999", ""},
		// A huge hex number does not overflow.
		{"0xffffffffffffffffffffffff", ""},
		// Five parts.
		{"1.2.3.4.5", ""},
		// Octal with 8 or 9.
		{"09", ""},
		// A letter.
		{"1.2.3.a", ""},
		// A sign.
		{"+1", ""},
		// A name.
		{"example.com", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ipv4(tt.in); got != tt.want {
				t.Errorf("parseIPv4(%q) = %q; want %q", tt.in, got, tt.want)
			}
			if slow, _ := parseIPv4Slow(tt.in); slow != tt.want {
				t.Errorf("parseIPv4Slow(%q) = %q; want %q", tt.in, slow, tt.want)
			}
		})
	}
}

func TestParseIPv6(t *testing.T) {
	tests := []struct {
		in   string
		want string // the RFC 5952 form, or "" when invalid
	}{
		// The spec's example.
		{"2001:0db8:0000::1", "2001:db8::1"},
		// Loopback.
		{"::1", "::1"},
		// All zeros.
		{"::", "::"},
		// A trailing "::".
		{"1::", "1::"},
		// Eight pieces.
		{"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
		// "::" standing for one piece.
		{"1:2:3:4:5:6::8", "1:2:3:4:5:6:0:8"},
		// An IPv4 tail.
		{"::ffff:192.168.0.1", "::ffff:192.168.0.1"},
		// An IPv4 tail after six pieces.
		{"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"},
		// Nine pieces.
		{"1:2:3:4:5:6:7:8:9", ""},
		// Seven pieces without "::".
		{"1:2:3:4:5:6:7", ""},
		// Two "::".
		{"1::2::3", ""},
		// ":::".
		{":::", ""},
		// A single leading colon.
		{":1::", ""},
		// A trailing single colon.
		{"1:2:3:4:5:6:7:", ""},
		// Five hex digits.
		{"12345::", ""},
		// An IPv4 tail too early.
		{"1.2.3.4::", ""},
		// An IPv4 tail after seven pieces.
		{"1:2:3:4:5:6:7:1.2.3.4", ""},
		// An IPv4 tail with three parts.
		{"::1.2.3", ""},
		// An IPv4 tail with five parts.
		{"::1.2.3.4.5", ""},
		// An IPv4 part with a leading zero.
		{"::1.2.3.04", ""},
		// An IPv4 part above 255.
		{"::1.2.3.256", ""},
		// A zone.
		{"fe80::1%eth0", ""},
		// Empty.
		{"", ""},
		// A letter.
		{"g::", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ipv6(tt.in); got != tt.want {
				t.Errorf("parseIPv6(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzParseIPv6 checks the WHATWG IPv6 parser against net/netip, which
// accepts the same addresses but for zones.
func FuzzParseIPv6(f *testing.F) {
	for _, s := range []string{"::", "::1", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "1::2:3.4.5.6", "64:ff9b::1.2.3.4", "fe80::1%1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := parseIPv6([]byte(s))
		b, err := netip.ParseAddr(s)
		want := err == nil && b.Is6() && b.Zone() == "" && !strings.Contains(s, "%")
		if ok != want {
			t.Fatalf("parseIPv6(%q) = %v; netip.ParseAddr: %v, %v", s, ok, b, err)
		}
		if ok && netip.AddrFrom16(a) != b {
			t.Fatalf("parseIPv6(%q) = %v; netip.ParseAddr = %v", s, netip.AddrFrom16(a), b)
		}
	})
}

// FuzzParseIPv4 checks the IPv4 parser against the slow one.
// FuzzAppendIPv6 checks appendIPv6 against net/netip's RFC 5952 form,
// and the IPv4 address in the last 32 bits of a mapped or NAT64 address.
func FuzzAppendIPv6(f *testing.F) {
	for _, s := range []string{"::", "::1", "1::", "2001:db8::1:0:0:1", "2001:0:0:1:0:0:1:1", "1:0:1:0:1:0:1:0",
		"::ffff:1.2.3.4", "64:ff9b::1.2.3.4", "64:ff9b:1::1.2.3.4", "fe80::1:0:0:0:1", "1:2:3:4:5:6:7:8", "0:0:1::"} {
		f.Add(netip.MustParseAddr(s).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 16 {
			return
		}
		a := [16]byte(b)
		want := "[" + netip.AddrFrom16(a).String() + "]"
		if v4 := netip.AddrFrom16(a); v4.Is4In6() || netip.MustParsePrefix("64:ff9b::/96").Contains(v4) {
			want = netip.AddrFrom4([4]byte(a[12:])).String()
		}
		if got := string(appendIPv6([]byte("x"), a)); got != "x"+want {
			t.Fatalf("appendIPv6(%v) = %q; want %q", netip.AddrFrom16(a), got, "x"+want)
		}
	})
}

func FuzzParseIPv4(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "3279880203", "0x12.0x43.0x44.0x01", "012.034.01.055", "1.2", "0x", "08", "1.2.3.4.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "..") || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") {
			return // host steps 1 and 2 remove empty parts first
		}
		if want, _ := parseIPv4Slow(s); ipv4(s) != want {
			t.Fatalf("parseIPv4(%q) = %q; parseIPv4Slow = %q", s, ipv4(s), want)
		}
	})
}

func TestTrimDots(t *testing.T) {
	tests := []struct{ in, want string }{
		// Host step 1: leading and trailing.
		{"..a.b..", "a.b"},
		// Host step 2: runs.
		{"a...b....c", "a.b.c"},
		// Only dots.
		{"....", ""},
		// Step 5 at the same time.
		{"A.B", "a.b"},
		// Non-ASCII bytes are not lowercased.
		{"\xc3\x9c.A", "\xc3\x9c.a"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			b := []byte(tt.in)
			n, _ := trimDots(b, true)
			if got := string(b[:n]); got != tt.want {
				t.Errorf("trimDots(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestAppendSimpleIDN checks appendSimpleIDN against x/net/idna
// (host.Profile) on hosts of common letters and on hosts it must leave to
// x/net. Each code point of the rule it applies is checked in
// internal/host (TestSimpleIDN).
func TestAppendSimpleIDN(t *testing.T) {
	check := func(h string, wantOK bool) {
		t.Helper()
		var buf [maxSimpleIDN]byte
		got, ok := appendSimpleIDN(buf[:0], []byte(h))
		if ok != wantOK {
			t.Fatalf("appendSimpleIDN(%q) ok = %v; want %v", h, ok, wantOK)
		}
		if !ok {
			return
		}
		want, err := host.Profile.ToASCII(h)
		if err != nil || string(got) != want {
			t.Fatalf("appendSimpleIDN(%q) = %q; x/net/idna gives %q, %v", h, got, want, err)
		}
	}
	for _, tt := range []struct {
		in     string
		wantOK bool
	}{
		// The corpus's IDN labels, with ASCII labels around them.
		{"bücher.de", true},
		{"login.münchen.co.uk", true},
		{"пример.com.au", true},
		{"例え.jp", true},
		{"faß.de", true},
		{"news.español.org", true},
		{"δοκιμή.io", true},
		{"日本語.com", true},
		{"한국어.net", true},
		{"ñandú.fr", true},
		// Mixed scripts in one label, and digits and hyphens.
		{"a-1ü.b2-日本", true},
		// Upper case is mapped by UTS #46: left to x/net.
		{"BÜCHER.de", false},
		{"bÜcher.de", false},
		// An "xn--" label is checked by x/net.
		{"xn--bcher-kva.bücher.de", false},
		// Right-to-left scripts make a Bidi domain name: left to x/net.
		{"مثال.com", false},
		// A combining mark: NFC is x/net's business.
		{"bu\u0308cher.de", false},
		// A joiner.
		{"a\u200db.de", false},
		// Full-width letters and dots are mapped.
		{"ｅｘ．ü", false},
		// An ASCII byte outside letters, digits and '-'.
		{"a_ü.de", false},
		// Invalid UTF-8.
		{"\xc3\x28.de", false},
	} {
		check(tt.in, tt.wantOK)
	}
}

// TestSimpleIDNAllocs checks that canonicalising a host of common letters
// allocates nothing.
func TestSimpleIDNAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations; run without -race")
	}
	dst := make([]byte, 0, 1024)
	for _, in := range []string{"http://bücher.example.com/a", "https://login.пример.co.uk/", "http://日本語.jp/?q", "http://b%C3%BCcher.de/"} {
		if n := testing.AllocsPerRun(100, func() { AppendCanonical(dst, in) }); n != 0 {
			t.Errorf("AppendCanonical(dst, %q): %v allocs; want 0", in, n)
		}
	}
}

// FuzzTrimDots checks trimDots, whose fast test skips the rewriting loop,
// against host steps 1, 2 and 5 done with the strings package.
func FuzzTrimDots(f *testing.F) {
	for _, s := range []string{"a.b.com", ".a..b.", "WWW.Example.COM", "", ".", "1.2.3.4", "bü.de", "a..", "0X1.0xA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lowerCase := range []bool{true, false} {
			want := strings.Trim(s, ".")
			for strings.Contains(want, "..") {
				want = strings.ReplaceAll(want, "..", ".")
			}
			if lowerCase {
				b := []byte(want)
				for i, c := range b {
					b[i] = host.Lower(c)
				}
				want = string(b)
			}
			var wantKind hostKind
			for i := 0; i < len(want); i++ {
				wantKind |= hostKinds[want[i]] & (nonASCII | notIPv4)
			}
			h := []byte(s)
			n, kind := trimDots(h, lowerCase)
			if string(h[:n]) != want || kind != wantKind {
				t.Fatalf("trimDots(%q, %v) = %q, %b; want %q, %b", s, lowerCase, h[:n], kind, want, wantKind)
			}
		}
	})
}
