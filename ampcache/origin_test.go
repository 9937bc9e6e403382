// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/internal/wpt"
	"golang.org/x/net/idna"
)

var publisherDomainTests = []struct {
	in      string
	want    string
	wantErr error
}{
	// spec: "AMP Cache Origin to Publisher Domain", first example Origin.
	{in: "https://www-example-com.cdn.ampproject.org", want: "www.example.com"},
	// spec: the second example Origin, whose prefix has no "-": a hash.
	{in: "https://v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq.cdn.ampproject.org", wantErr: ErrNotReversible},
	// spec: step 1, "xn---com-p33b41770a becomes ⚡😊-com"; step 4 encodes it.
	{in: "https://xn---com-p33b41770a.cdn.ampproject.org", want: "xn--57hw060o.com"},
	// An IDN publisher domain: bücher.de.
	{in: "https://xn--bcher-de-65a.cdn.ampproject.org", want: "xn--bcher-kva.de"},
	// spec: step 3, "a--b-example-com becomes a-b.example.com".
	{in: "https://a--b-example-com.cdn.ampproject.org", want: "a-b.example.com"},
	// spec: Basic Algorithm examples, reversed: example.com.
	{in: "https://example-com.cdn.ampproject.org", want: "example.com"},
	// spec: Basic Algorithm examples, reversed: foo.example.com.
	{in: "https://foo-example-com.cdn.ampproject.org", want: "foo.example.com"},
	// spec: Basic Algorithm examples, reversed: foo-example.com.
	{in: "https://foo--example-com.cdn.ampproject.org", want: "foo-example.com"},
	// spec: Basic Algorithm examples, reversed: en-us.example.com (step 2).
	{in: "https://0-en--us-example-com-0.cdn.ampproject.org", want: "en-us.example.com"},
	// spec: "URL Format", pub.com maps to pub-com.cdn.ampproject.org.
	{in: "https://pub-com.cdn.ampproject.org", want: "pub.com"},
	// The suffix may be from any cache in caches.json: Bing's.
	{in: "https://www-example-com.www.bing-amp.com", want: "www.example.com"},
	// Matching ignores ASCII case, in the scheme, prefix and cache domain.
	{in: "HTTPS://WWW-Example-COM.CDN.AmpProject.ORG", want: "www.example.com"},
	// An explicit default https port is allowed.
	{in: "https://www-example-com.cdn.ampproject.org:443", want: "www.example.com"},
	// A hash in upper case is still a hash.
	{in: "https://V2C4UCASGCSKFTBJT4C7PHPKBQEDCDCQO23TKAMLEAPOA5O6FYGQ.cdn.ampproject.org", wantErr: ErrNotReversible},
	// A hashed prefix on Bing.
	{in: "https://v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq.www.bing-amp.com", wantErr: ErrNotReversible},
	// The security check: 0-example-0 reads as "example", whose prefix is a hash.
	{in: "https://0-example-0.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// The security check: "-" at both ends reads as ".example.", not a domain.
	{in: "https://-example-.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// The security check: an uppercase Unicode letter is not what DomainPrefix gives.
	{in: "https://xn---com-lra.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// The security check: a prefix that needed the 0- -0 wrap but lacks it.
	{in: "https://en--us-example-com.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// Step 2 is ambiguous: the reading without it is the domain 0.a-0.
	{in: "https://0-a--0.cdn.ampproject.org", want: "0.a-0"},
	// Step 2 with "--" at positions 3 and 4 is the spec's reading, though
	// "0.ab-cd.0" has the same prefix (it is no host for a URL parser).
	{in: "https://0-ab--cd-0.cdn.ampproject.org", want: "ab-cd"},
	// An IPv4 address is not a publisher domain.
	{in: "https://1-2-3-4.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// Found by fuzzing: 0.0.1.0 is an IPv4 address; 0.1 has prefix 0-1.
	{in: "https://0-0-1-0.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// Invalid Punycode after "xn--".
	{in: "https://xn--99999999999-a.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// Another scheme.
	{in: "http://www-example-com.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// The opaque origin a sandboxed document sends.
	{in: "null", wantErr: ErrInvalidOrigin},
	// Another port.
	{in: "https://www-example-com.cdn.ampproject.org:8443", wantErr: ErrInvalidOrigin},
	// An empty port is not the https port either.
	{in: "https://www-example-com.cdn.ampproject.org:", wantErr: ErrInvalidOrigin},
	// An origin has no path, not even "/".
	{in: "https://www-example-com.cdn.ampproject.org/", wantErr: ErrInvalidOrigin},
	// A port then a path.
	{in: "https://www-example-com.cdn.ampproject.org:443/", wantErr: ErrInvalidOrigin},
	// An origin has no userinfo.
	{in: "https://user@www-example-com.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// A prefix with a dot is not one label.
	{in: "https://www.example-com.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// An empty prefix.
	{in: "https://.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// No prefix at all: the cache domain itself.
	{in: "https://cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// A host on no registered cache.
	{in: "https://www-example-com.example.org", wantErr: ErrUnknownCache},
	// A cache domain as a suffix of another word is not the cache domain.
	{in: "https://www-example-comcdn.ampproject.org", wantErr: ErrUnknownCache},
	// The thirdPartyFrameDomainSuffix is not a cache domain.
	{in: "https://www-example-com.ampproject.net", wantErr: ErrUnknownCache},
	// A non-ASCII host is not an origin as browsers serialise it.
	{in: "https://⚡😊-com.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// A prefix longer than a DNS label.
	{in: "https://" + strings.Repeat("a-", 32) + "a.cdn.ampproject.org", wantErr: ErrInvalidOrigin},
	// Empty input.
	{in: "", wantErr: ErrEmpty},
	// Longer than any origin.
	{in: "https://" + strings.Repeat("a", 400) + ".cdn.ampproject.org", wantErr: ErrTooLong},
}

func TestPublisherDomain(t *testing.T) {
	for _, tt := range publisherDomainTests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := PublisherDomain(tt.in)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("PublisherDomain(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			slow, slowErr := slowPublisherDomain(tt.in, builtinCaches)
			if slow != got || (slowErr == nil) != (err == nil) {
				t.Errorf("slowPublisherDomain(%q) = %q, %v; fast %q, %v", tt.in, slow, slowErr, got, err)
			}
		})
	}
}

// TestPublisherDomainRoundTrip checks the round trip: the
// PublisherDomain of a human-readable prefix's origin is the domain.
func TestPublisherDomainRoundTrip(t *testing.T) {
	domains := []string{
		"example.com", "www.example.com", "foo-example.com", "en-us.example.com",
		"xn--57hw060o.com", "a-b.example.com", "xn--bcher-kva.example", "1.2.3.com",
		"a--b.example", "0-0.example", "-0.example", "x-.example", "xn--c1yn36f.com",
		"0.a-0", "0.example.0", "0.0.1.0", "ab-cd", "0.en-us.example",
	}
	for _, d := range domains {
		t.Run(d, func(t *testing.T) {
			checkPublisherDomainRoundTrip(t, d)
		})
	}
}

func checkPublisherDomainRoundTrip(t *testing.T, d string) {
	if a, err := idna.Punycode.ToASCII(d); err != nil || ipv4Like.MatchString(a) {
		return // not a host in a URL, so not a publisher domain
	}
	for _, c := range builtinCaches {
		o, err := c.Origin(d)
		if err != nil {
			return
		}
		p := strings.TrimSuffix(strings.TrimPrefix(o, "https://"), "."+c.CacheDomain)
		got, err := PublisherDomain(o)
		switch {
		case !strings.Contains(p, "-"):
			if !errors.Is(err, ErrNotReversible) {
				t.Errorf("PublisherDomain(%q) = %q, %v; want ErrNotReversible", o, got, err)
			}
		case err != nil:
			t.Errorf("PublisherDomain(%q) = %v", o, err)
		default:
			// got is the domain in the form DomainPrefix reads it: check
			// that it has the same prefix and is in ASCII, lowercase form.
			if back, _ := c.Origin(got); back != o {
				t.Errorf("PublisherDomain(%q) = %q, whose origin is %q", o, got, back)
			}
			if ascii, err := idna.Lookup.ToASCII(strings.TrimSuffix(d, ".")); err == nil && ascii != got {
				t.Errorf("PublisherDomain(%q) = %q; want %q", o, got, ascii)
			}
		}
	}
}

// slowPublisherDomain follows the spec's "AMP Cache Origin to Publisher
// Domain" literally, with x/net/idna's Punycode for steps 1 and 4, then the
// security check. It reports only whether there is an error.
func slowPublisherDomain(origin string, caches []Cache) (string, error) {
	fail := errors.New("fail")
	o := strings.ToLower(origin)
	o = strings.TrimSuffix(o, ":443")
	// First, remove the protocol prefix and the AMP Cache domain suffix.
	rest, ok := strings.CutPrefix(o, "https://")
	if !ok {
		return "", fail
	}
	prefix := ""
	for _, c := range caches {
		if p, ok := strings.CutSuffix(rest, "."+c.CacheDomain); ok {
			prefix = p
			break
		}
	}
	if prefix == "" || len(prefix) > 63 || strings.Trim(prefix, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return "", fail
	}
	// Next, check to see if the prefix contains at least one "-".
	if !strings.Contains(prefix, "-") {
		return "", ErrNotReversible
	}
	d, ok := slowReverse(prefix, true)
	if !ok && strings.HasPrefix(prefix, "0-") && strings.HasSuffix(prefix, "-0") {
		// Decision: the reading without step 2.
		d, ok = slowReverse(prefix, false)
	}
	// Decision: an IPv4 address is not a publisher domain.
	if !ok || ipv4Like.MatchString(d) {
		return "", fail
	}
	return d, nil
}

// ipv4Like matches a domain that a URL parser reads as an IPv4 address:
// its last label, after one root dot, is a number.
var ipv4Like = regexp.MustCompile(`(^|\.)([0-9]+|0[xX][0-9a-fA-F]*)\.?$`)

// slowReverse runs steps 1 to 4, with or without step 2, and the security
// check.
func slowReverse(prefix string, step2 bool) (string, bool) {
	s := prefix
	// Step 1.
	if strings.HasPrefix(s, "xn--") {
		u, err := idna.Punycode.ToUnicode(s)
		if err != nil {
			return "", false
		}
		s = u
	}
	// Step 2.
	if step2 && len(s) >= 4 && strings.HasPrefix(s, "0-") && strings.HasSuffix(s, "-0") {
		s = s[2 : len(s)-2]
	}
	// Step 3.
	var b strings.Builder
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		if r[i] != '-' {
			b.WriteRune(r[i])
		} else if i+1 < len(r) && r[i+1] == '-' {
			b.WriteRune('-')
			i++
		} else {
			b.WriteRune('.')
		}
	}
	// Step 4.
	d, err := idna.Punycode.ToASCII(b.String())
	if err != nil {
		return "", false
	}
	if p, err := DomainPrefix(d); err != nil || p != prefix {
		return "", false
	}
	return d, true
}

func BenchmarkPublisherDomain(b *testing.B) {
	for _, bb := range []struct{ name, in string }{
		{"ascii", "https://www-example-com.cdn.ampproject.org"},
		{"idn", "https://xn---com-p33b41770a.cdn.ampproject.org"},
		{"hash", "https://v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq.cdn.ampproject.org"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PublisherDomain(bb.in)
			}
		})
	}
}

func TestPublisherDomainAllocs(t *testing.T) {
	n := testing.AllocsPerRun(1000, func() {
		PublisherDomain("https://www-example-com.cdn.ampproject.org")
	})
	if n > 1 {
		t.Errorf("PublisherDomain on a human-readable origin: %v allocs, want at most 1", n)
	}
}

// FuzzPublisherDomain checks that PublisherDomain never panics, that it
// agrees with the slow oracle, that a result's origin is the input, and,
// reading the input as a domain, that the round trip through Cache.Origin
// holds.
// TestPublisherDomainNoInternalName checks that no internal package's name
// leaks into a message: an "xn--" prefix that is not Punycode once gave
// "…: punycode: invalid digit".
func TestPublisherDomainNoInternalName(t *testing.T) {
	for _, in := range []string{"https://xn--a-!.cdn.ampproject.org", "https://xn--99999a-b.cdn.ampproject.org", "https://xn--ab-c-9.cdn.ampproject.org"} {
		_, err := PublisherDomain(in)
		if err == nil || strings.Contains(err.Error(), "punycode:") {
			t.Errorf("PublisherDomain(%q): %v; want an error naming no internal package", in, err)
		}
	}
}

func FuzzPublisherDomain(f *testing.F) {
	for _, tt := range publisherDomainTests {
		f.Add(tt.in)
	}
	for _, h := range wpt.Hosts(f) {
		f.Add(h)
		if o, err := builtinCaches[0].Origin(h); err == nil {
			f.Add(o)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := PublisherDomain(in)
		slow, slowErr := slowPublisherDomain(in, builtinCaches)
		if (err == nil) != (slowErr == nil) || slow != got {
			t.Fatalf("PublisherDomain(%q) = %q, %v; slow oracle %q, %v", in, got, err, slow, slowErr)
		}
		if err == nil {
			host := strings.TrimSuffix(strings.ToLower(in), ":443")
			found := false
			for _, c := range builtinCaches {
				if o, _ := c.Origin(got); o == host {
					found = true
				}
			}
			if !found {
				t.Fatalf("PublisherDomain(%q) = %q, whose origins are not the input", in, got)
			}
		} else if !strings.HasPrefix(err.Error(), "ampcache: ") || strings.Contains(err.Error(), "punycode:") {
			t.Fatalf("error %q lacks the package prefix, or names an internal package", err)
		}
		checkPublisherDomainRoundTrip(t, in)
	})
}
