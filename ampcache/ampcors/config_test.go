// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/ampcache"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		in      []string
		want    []string // origins that must be allowed
		notWant []string // origins that must not be
		wantErr error
	}{
		// Two publisher origins: each is allowed, and so is its origin on
		// every built-in cache.
		{name: "two origins", in: []string{"https://example.com", "https://www.example.com"},
			want:    []string{"https://example.com", "https://www.example.com", "https://example-com.cdn.ampproject.org", "https://www-example-com.cdn.ampproject.org", "https://www-example-com.www.bing-amp.com"},
			notWant: []string{"http://example.com", "https://m.example.com", "https://m-example-com.cdn.ampproject.org"}},
		// Letters in any case, a default port: serialized as a browser does.
		{name: "normalised", in: []string{"HTTPS://WWW.Example.COM:443"},
			want: []string{"https://www.example.com", "https://www-example-com.cdn.ampproject.org"}},
		// A Unicode host is converted to its ASCII form, as browsers send it.
		{name: "Unicode host", in: []string{"https://bücher.example"},
			want: []string{"https://xn--bcher-kva.example", "https://xn--bcher-example-wob.cdn.ampproject.org"}},
		// The URL standard's profile: non-transitional, so "ß" is kept.
		{name: "sharp s", in: []string{"https://faß.de"},
			want: []string{"https://xn--fa-hia.de"}, notWant: []string{"https://fass.de"}},
		// No STD3 rules, as in a browser: "_" is valid in a host.
		{name: "underscore", in: []string{"https://_dmarc.example.com"}, want: []string{"https://_dmarc.example.com"}},
		// No CheckHyphens, as in a browser.
		{name: "hyphens 3 and 4", in: []string{"https://in--trouble.com"}, want: []string{"https://in--trouble.com"}},
		// A non-default port is part of the origin; the cache origin has none.
		{name: "port", in: []string{"http://localhost:8080"},
			want: []string{"http://localhost:8080", "https://" + ampcache.FallbackPrefix("localhost") + ".cdn.ampproject.org"}, notWant: []string{"http://localhost"}},
		// Leading zeros in the port are dropped, as a URL parser does.
		{name: "port 08080", in: []string{"http://localhost:08080"}, want: []string{"http://localhost:8080"}},
		// The one port rule: an empty port is no port, as in a URL parser.
		{name: "empty port", in: []string{"https://example.com:"}, want: []string{"https://example.com"}},
		// The one port rule: port 0 is a port.
		{name: "port 0", in: []string{"https://example.com:0"}, want: []string{"https://example.com:0"}, notWant: []string{"https://example.com"}},
		// A default port written with leading zeros is still the default.
		{name: "port 0443", in: []string{"https://example.com:0443"}, want: []string{"https://example.com"}},
		// An IP address has no cache origins.
		{name: "IPv4", in: []string{"http://127.0.0.1:8080"}, want: []string{"http://127.0.0.1:8080"}},
		// IPv6, serialized in brackets.
		{name: "IPv6", in: []string{"https://[::1]"}, want: []string{"https://[::1]"}},
		// IPv6, compressed as the URL standard's serializer does.
		{name: "IPv6 long form", in: []string{"https://[2001:DB8:0:0:0:0:0:1]:8443"}, want: []string{"https://[2001:db8::1]:8443"}},
		// An IPv4-mapped address in the browser's hexadecimal form.
		{name: "IPv4-mapped", in: []string{"https://[::ffff:1.2.3.4]"}, want: []string{"https://[::ffff:102:304]"}, notWant: []string{"https://[::ffff:1.2.3.4]"}},
		// The hash prefix of a long host: compared with the precomputed origin.
		{name: "hash prefix", in: []string{"https://" + longHost}, want: []string{hashOrigin}},

		// No origins is a configuration error.
		{name: "empty", in: nil, wantErr: ErrEmpty},
		// An origin has no path, not even "/".
		{name: "path", in: []string{"https://example.com/"}, wantErr: ErrInvalidOrigin},
		// An origin has no query.
		{name: "query", in: []string{"https://example.com?a"}, wantErr: ErrInvalidOrigin},
		// An origin has no fragment.
		{name: "fragment", in: []string{"https://example.com#a"}, wantErr: ErrInvalidOrigin},
		// An origin has no userinfo.
		{name: "userinfo", in: []string{"https://u@example.com"}, wantErr: ErrInvalidOrigin},
		// Only web origins.
		{name: "ftp", in: []string{"ftp://example.com"}, wantErr: ErrInvalidOrigin},
		// A bare host is not an origin.
		{name: "bare host", in: []string{"example.com"}, wantErr: ErrInvalidOrigin},
		// "null" is not a publisher origin.
		{name: "null", in: []string{"null"}, wantErr: ErrInvalidOrigin},
		// A port out of range.
		{name: "port 65536", in: []string{"https://example.com:65536"}, wantErr: ErrInvalidOrigin},
		// A port that is not digits.
		{name: "port +1", in: []string{"https://example.com:+1"}, wantErr: ErrInvalidOrigin},
		// A forbidden code point in the host.
		{name: "space in host", in: []string{"https://exa mple.com"}, wantErr: ErrInvalidOrigin},
		// A percent-escape in the host: refused, not decoded.
		{name: "percent in host", in: []string{"https://ex%61mple.com"}, wantErr: ErrInvalidOrigin},
		// Invalid UTF-8 in the host (found by FuzzNew): x/net/idna would
		// encode it as U+FFFD, an A-label that does not parse again.
		{name: "invalid UTF-8", in: []string{"http://0\xbc0"}, wantErr: ErrInvalidOrigin},
		// A joiner out of context (UTS #46 CheckJoiners), as a browser refuses it.
		{name: "joiner A-label", in: []string{"https://xn--ab-m1t.com"}, wantErr: ErrInvalidOrigin},
		// An IPv4 address in a form a browser would serialize otherwise.
		{name: "IPv4 hex", in: []string{"http://0x7f.1"}, wantErr: ErrInvalidOrigin},
		// An IPv4 address out of range.
		{name: "IPv4 out of range", in: []string{"http://1.2.3.256"}, wantErr: ErrInvalidOrigin},
		// An IPv6 address with a zone.
		{name: "IPv6 zone", in: []string{"http://[fe80::1%25eth0]"}, wantErr: ErrInvalidOrigin},
		// An IPv4 address in brackets.
		{name: "IPv4 in brackets", in: []string{"http://[1.2.3.4]"}, wantErr: ErrInvalidOrigin},
		// A colon in a host that is not IPv6.
		{name: "two colons", in: []string{"http://a:1:2"}, wantErr: ErrInvalidOrigin},
		// A host with an empty label, which a browser accepts but which
		// has no AMP Cache domain prefix.
		{name: "empty label", in: []string{"https://a..example"}, wantErr: ErrInvalidOrigin},
		// Overlong input.
		{name: "too long", in: []string{"https://" + strings.Repeat("a.", 700) + "com"}, wantErr: ErrTooLong},
		// Long, but within the parse bound: the ASCII origin is too long.
		{name: "origin too long", in: []string{"https://" + strings.Repeat("a.", 170) + "com"}, wantErr: ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(Config{Origins: tt.in})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.HasPrefix(err.Error(), "ampcors: Config.Origins") {
					t.Fatalf("New(%q) error = %v, want %v", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tt.in, err)
			}
			for _, o := range tt.want {
				if !p.Allowed(o) {
					t.Errorf("Allowed(%q) = false, want true", o)
				}
			}
			for _, o := range tt.notWant {
				if p.Allowed(o) {
					t.Errorf("Allowed(%q) = true, want false", o)
				}
			}
		})
	}
}

// TestNewErrorMessages checks that each configuration error names its
// field and quotes at most 100 bytes of the value.
func TestNewErrorMessages(t *testing.T) {
	long := "https://" + strings.Repeat("a", 10<<20)
	tests := []struct {
		name string
		in   Config
		want string
	}{
		// No origins: the field, and no made-up input.
		{"empty", Config{}, `ampcors: Config.Origins: empty`},
		// The index of the bad origin.
		{"index", Config{Origins: []string{"https://a.example", "https://b.example", "ftp://c.example"}},
			`ampcors: Config.Origins[2]: invalid origin "ftp://c.example": scheme is not "https" or "http"`},
		// A path.
		{"path", Config{Origins: []string{"https://example.com/"}},
			`ampcors: Config.Origins[0]: invalid origin "https://example.com/": want scheme://host[:port] and nothing else`},
		// 10 MB of input: 100 bytes quoted, then the length.
		{"10 MB", Config{Origins: []string{long}},
			`ampcors: Config.Origins[0]: too long "https://` + strings.Repeat("a", 92) + `"... (10485768 bytes)`},
		// A sender.
		{"sender", Config{Origins: []string{"https://example.com"}, EmailSenders: []string{"news@example.com", "no-at-sign"}},
			`ampcors: Config.EmailSenders[1]: invalid email sender "no-at-sign": want an address of visible ASCII, with an @, no comma, at most 254 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.in)
			if err == nil {
				t.Fatal("New: no error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error = %q\nwant    %q", got, tt.want)
			}
			if len(err.Error()) > maxMessage {
				t.Errorf("error is %d bytes, over %d", len(err.Error()), maxMessage)
			}
		})
	}
}

// TestNewErrorCause checks that a host without a domain prefix gives an
// error wrapping ampcache's, and that control bytes keep a message short.
func TestNewErrorCause(t *testing.T) {
	_, err := New(Config{Origins: []string{"https://a..example"}})
	if !errors.Is(err, ErrInvalidOrigin) || !errors.Is(err, ampcache.ErrEmptyLabel) {
		t.Errorf("error = %v, want ErrInvalidOrigin and ampcache.ErrEmptyLabel", err)
	}
	_, err = New(Config{Origins: []string{"https://example.com"}, EmailSenders: []string{strings.Repeat("\x00", 1000)}})
	if !errors.Is(err, ErrInvalidSender) || len(err.Error()) > maxMessage {
		t.Errorf("error = %q (%d bytes), want ErrInvalidSender in at most %d bytes", err, len(err.Error()), maxMessage)
	}
}

func TestNewEmailSenders(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr bool
	}{
		// An address.
		{"address", "news@example.com", false},
		// Empty.
		{"empty", "", true},
		// No @.
		{"no at sign", "no-at-sign", true},
		// A space.
		{"space", "a b@example.com", true},
		// A comma would join two header values.
		{"comma", "a@example.com,b@example.com", true},
		// Longer than an address can be.
		{"too long", strings.Repeat("a", 400) + "@example.com", true},
		// Non-ASCII.
		{"non-ASCII", "bü@example.com", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Config{Origins: testOrigins, EmailSenders: []string{tt.in}})
			if tt.wantErr != errors.Is(err, ErrInvalidSender) || !tt.wantErr && err != nil {
				t.Errorf("New with sender %q: error = %v, want error %v", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestNewRegistry(t *testing.T) {
	// A registry of one cache of the caller's: only its origins are
	// cache origins.
	reg, err := ampcache.NewRegistry([]ampcache.Cache{{ID: "test", Name: "Test Cache", Docs: "https://cache.test/", CacheDomain: "amp.cache.test", UpdateCacheAPIDomainSuffix: "amp.cache.test", ThirdPartyFrameDomainSuffix: "frame.test"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{Origins: []string{"https://example.com"}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Allowed("https://example-com.amp.cache.test") {
		t.Error("the registry's cache origin is not allowed")
	}
	if p.Allowed("https://example-com.cdn.ampproject.org") {
		t.Error("a built-in cache origin is allowed with a registry that lacks it")
	}
	// A registry with no caches allows only the publisher's origins.
	p, err = New(Config{Origins: []string{"https://example.com"}, Registry: &ampcache.Registry{}})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Allowed("https://example.com") || p.Allowed("https://example-com.cdn.ampproject.org") {
		t.Error("an empty registry: want only the publisher origin allowed")
	}
}

// TestSerializeIPv6 checks the URL standard's IPv6 serializer against
// netip's, which agrees except for IPv4-mapped and -compatible forms.
func TestSerializeIPv6(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		// URL standard, "IPv6 serializer": the first longest run is compressed.
		{"1:0:0:2:0:0:0:3", "1:0:0:2::3"},
		// A single zero piece is not compressed.
		{"1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"},
		// Two runs of the same length: the first.
		{"1:0:0:2:3:0:0:4", "1::2:3:0:0:4"},
		// All zeros.
		{"::", "::"},
		// Loopback.
		{"::1", "::1"},
		// A run at the end.
		{"1::", "1::"},
		// IPv4-mapped, in hexadecimal.
		{"::ffff:1.2.3.4", "::ffff:102:304"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := serializeIPv6(netip.MustParseAddr(tt.in)); got != tt.want {
				t.Errorf("serializeIPv6(%s) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzNew reads hostile entries of Config.Origins: nothing panics, an
// error names the field and stays short, and an accepted origin is a
// fixed point: its serialization parses to itself and is allowed.
func FuzzNew(f *testing.F) {
	for _, s := range []string{
		// Accepted forms.
		"https://example.com", "HTTPS://WWW.Example.COM:443", "https://bücher.example", "http://localhost:08080",
		"https://[::ffff:1.2.3.4]", "http://127.0.0.1:8080", "https://example.com:", "https://_dmarc.example.com",
		// Refused ones.
		"https://example.com/", "ftp://example.com", "https://u@example.com", "http://0x7f.1", "https://xn--ab-m1t.com",
		"https://exa mple.com", "http://[fe80::1%25eth0]", "https://a..example", "null", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		origin, domain, err := parseOrigin("Config.Origins[0]", s)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "ampcors: Config.Origins[0]: ") || len(msg) > maxMessage {
				t.Fatalf("parseOrigin(%q): error %q (%d bytes)", s, msg, len(msg))
			}
			if !errors.Is(err, ErrInvalidOrigin) && !errors.Is(err, ErrTooLong) {
				t.Fatalf("parseOrigin(%q): error %v wraps no sentinel", s, err)
			}
			return
		}
		again, _, err := parseOrigin("Config.Origins[0]", origin)
		if err != nil || again != origin {
			t.Fatalf("parseOrigin(%q) = %q, which parses to %q, %v", s, origin, again, err)
		}
		p, err := New(Config{Origins: []string{s}, Registry: &ampcache.Registry{}})
		if err != nil {
			// A host that a browser accepts may have no domain prefix.
			if domain != "" && errors.Is(err, ErrInvalidOrigin) && strings.Contains(err.Error(), "host has no AMP Cache domain prefix: ampcache: ") {
				return
			}
			t.Fatalf("New(%q): %v, but parseOrigin accepts it", s, err)
		}
		if !p.Allowed(origin) {
			t.Fatalf("New(%q) does not allow %q", s, origin)
		}
	})
}
