// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/punycode"
	"github.com/urlspec/urlspec/internal/wpt"
	"golang.org/x/net/idna"
)

// prefixTests are the Basic Algorithm's table and the spec decisions of the
// package documentation, each as a row. Rows are named in the spec's words.
var prefixTests = []struct {
	name       string
	in         string
	want       string // "" with a fallback: the FallbackPrefix of fallbackOf
	fallbackOf string
	wantErr    error
}{
	// spec: Basic Algorithm examples, every row of the table.
	{name: "spec: Basic Algorithm: example.com", in: "example.com", want: "example-com"},
	{name: "spec: Basic Algorithm: foo.example.com", in: "foo.example.com", want: "foo-example-com"},
	{name: "spec: Basic Algorithm: foo-example.com", in: "foo-example.com", want: "foo--example-com"},
	{name: "spec: Basic Algorithm: xn--57hw060o.com (⚡😊.com)", in: "xn--57hw060o.com", want: "xn---com-p33b41770a"},
	{name: "spec: Basic Algorithm: en-us.example.com", in: "en-us.example.com", want: "0-en--us-example-com-0"},
	// spec: the URL Format introduction, "pub.com will map to pub-com.cdn.ampproject.org".
	{name: "spec: URL Format: pub.com", in: "pub.com", want: "pub-com"},
	// spec: "AMP Cache Origin to Publisher Domain": the first Origin example's domain.
	{name: "spec: Origin example: www.example.com", in: "www.example.com", want: "www-example-com"},
	// spec: reverse step 3's example, "a--b-example-com becomes a-b.example.com".
	{name: "spec: reverse step 3: a-b.example.com", in: "a-b.example.com", want: "a--b-example-com"},

	// Decision a: ASCII letters in any case are lowercased (UTS #46 mapping).
	{name: "decision a: uppercase", in: "WWW.Example.COM", want: "www-example-com"},
	// Decision a: one trailing root dot is dropped.
	{name: "decision a: trailing root dot", in: "example.com.", want: "example-com"},
	// Decision a: an ideographic full stop is a dot, also as the root dot.
	{name: "decision a: ideographic full stop", in: "example\u3002com\u3002", want: "example-com"},
	// Decision a: a U-label and its A-label give the same prefix.
	{name: "decision a: U-label", in: "bücher.de", want: "xn--bcher-de-65a"},
	{name: "decision a: A-label", in: "xn--bcher-kva.de", want: "xn--bcher-de-65a"},
	{name: "decision a: A-label in uppercase", in: "XN--BCHER-KVA.DE", want: "xn--bcher-de-65a"},
	// Decision a: Unicode uppercase is mapped to lowercase.
	{name: "decision a: Unicode uppercase", in: "BÜCHER.de", want: "xn--bcher-de-65a"},
	// Decision a: NFC: a decomposed ü is composed.
	{name: "decision a: NFC", in: "bu\u0308cher.de", want: "xn--bcher-de-65a"},
	// Decision a: non-transitional: ß is kept, not mapped to "ss".
	{name: "decision a: ß kept", in: "faß.de", want: "xn--fa-de-mqa"},
	// Decision a: a soft hyphen is mapped away, as in a browser.
	{name: "decision a: soft hyphen", in: "a\u00adb.com", want: "ab-com"},
	// Decision a: a CJK host.
	{name: "decision a: 點看.com", in: "點看.com", want: "xn---com-k47jg78q"},

	// Decision b: errors.
	{name: "decision b: empty", in: "", wantErr: ErrEmpty},
	{name: "decision b: empty label a..b", in: "a..b", wantErr: ErrEmptyLabel},
	{name: "decision b: leading dot", in: ".example.com", wantErr: ErrEmptyLabel},
	{name: "decision b: dots only", in: "...", wantErr: ErrEmptyLabel},
	{name: "decision b: root only", in: ".", wantErr: ErrEmptyLabel},
	{name: "decision b: two root dots", in: "example.com..", wantErr: ErrEmptyLabel},
	{name: "decision b: empty label by mapping", in: "a\u3002\u3002b", wantErr: ErrEmptyLabel},
	{name: "decision b: empty label in a Unicode domain", in: "ü..com", wantErr: ErrEmptyLabel},
	{name: "decision b: control character", in: "a\x01b.com", wantErr: ErrInvalidHost},
	{name: "decision b: NUL", in: "a\x00b.com", wantErr: ErrInvalidHost},
	{name: "decision b: tab", in: "a\tb.com", wantErr: ErrInvalidHost},
	{name: "decision b: space", in: "a b.com", wantErr: ErrInvalidHost},
	{name: "decision b: DEL", in: "a\x7fb.com", wantErr: ErrInvalidHost},
	{name: "decision b: #", in: "a#b.com", wantErr: ErrInvalidHost},
	{name: "decision b: %", in: "a%41.com", wantErr: ErrInvalidHost},
	{name: "decision b: /", in: "a/b.com", wantErr: ErrInvalidHost},
	{name: "decision b: :", in: "example.com:443", wantErr: ErrInvalidHost},
	{name: "decision b: <", in: "a<b.com", wantErr: ErrInvalidHost},
	{name: "decision b: >", in: "a>b.com", wantErr: ErrInvalidHost},
	{name: "decision b: ?", in: "a?b.com", wantErr: ErrInvalidHost},
	{name: "decision b: @", in: "user@example.com", wantErr: ErrInvalidHost},
	{name: "decision b: [", in: "[::1]", wantErr: ErrInvalidHost},
	{name: "decision b: backslash", in: "a\\b.com", wantErr: ErrInvalidHost},
	{name: "decision b: ]", in: "a]b.com", wantErr: ErrInvalidHost},
	{name: "decision b: ^", in: "a^b.com", wantErr: ErrInvalidHost},
	{name: "decision b: |", in: "a|b.com", wantErr: ErrInvalidHost},
	{name: "decision b: forbidden in a Unicode domain", in: "ü b.com", wantErr: ErrInvalidHost},
	{name: "decision b: invalid UTF-8", in: "a\xffb.com", wantErr: ErrInvalidHost},
	{name: "decision b: xn-- alone", in: "xn--", wantErr: ErrInvalidPunycode},
	{name: "decision b: xn---", in: "xn---", wantErr: ErrInvalidPunycode},
	{name: "decision b: xn--99999a", in: "xn--99999a", wantErr: ErrInvalidPunycode},
	{name: "decision b: invalid punycode in a later label", in: "www.xn--99999a.com", wantErr: ErrInvalidPunycode},
	{name: "decision b: 254 bytes", in: strings.Repeat("a.", 126) + "ab", wantErr: ErrTooLong},
	{name: "decision b: 254 bytes in ASCII form", in: strings.Repeat("ü.", 42) + "a", wantErr: ErrTooLong},
	{name: "decision b: 253 bytes is not too long", in: strings.Repeat("a.", 126) + "a", fallbackOf: strings.Repeat("a.", 126) + "a"},
	{name: "decision b: 253 bytes and a root dot", in: strings.Repeat("a.", 126) + "a.", fallbackOf: strings.Repeat("a.", 126) + "a"},

	// Decision a: A-labels whose dots or letters need mapping, or that carry a
	// code point mapped away, are still valid A-labels.
	{name: "decision a: A-label and ideographic full stop", in: "xn--bcher-kva\u3002de", want: "xn--bcher-de-65a"},
	{name: "decision a: A-label and fullwidth full stop", in: "xn--bcher-kva\uFF0Ede", want: "xn--bcher-de-65a"},
	{name: "decision a: A-label with a fullwidth letter", in: "xn--\uFF42cher-kva.de", want: "xn--bcher-de-65a"},
	{name: "decision a: A-label with a soft hyphen", in: "xn--bcher-kva\u00AD.de", want: "xn--bcher-de-65a"},
	// Decision b: a fullwidth "xn--" is mapped to one, and checked as one.
	{name: "decision b: fullwidth xn-- with invalid punycode", in: "\uFF58\uFF4E--99999a.com", wantErr: ErrInvalidPunycode},
	// Decision b: code points that a browser maps to forbidden ones.
	{name: "decision b: fullwidth solidus", in: "a\uFF0Fb.com", wantErr: ErrInvalidHost},
	{name: "decision b: fullwidth colon", in: "a\uFF1Ab.com", wantErr: ErrInvalidHost},
	{name: "decision b: no-break space", in: "a\u00A0b.com", wantErr: ErrInvalidHost},
	// Decision b: a label that mapping empties.
	{name: "decision b: soft hyphen label", in: "a.\u00AD.com", wantErr: ErrEmptyLabel},
	// Decision b: one order of errors on both paths: forbidden code points
	// before empty labels before length.
	{name: "decision b: forbidden before empty, ASCII", in: "a..b/c", wantErr: ErrInvalidHost},
	{name: "decision b: forbidden before empty, Unicode", in: "a..b/c.ü", wantErr: ErrInvalidHost},
	{name: "decision b: forbidden before length, ASCII", in: strings.Repeat("a.", 130) + "/", wantErr: ErrInvalidHost},
	{name: "decision b: empty before length, ASCII", in: strings.Repeat("a.", 130) + ".a", wantErr: ErrEmptyLabel},
	// Decision b: the ASCII form counts an invalid A-label as given, even
	// when x/net decodes it ("xn--a-" reads as "a").
	{name: "decision b: invalid A-labels count as given", in: "ü." + strings.Repeat("xn--a-.", 40) + "com", wantErr: ErrTooLong},
	// Decision b: the input bound counts the root dot.
	{name: "decision b: 1013 bytes with a root dot", in: strings.Repeat("\u00AD", 506) + "a.", wantErr: ErrTooLong},

	// Decision c: the prefix would exceed 63 characters.
	{name: "decision c: 64 characters", in: strings.Repeat("a", 60) + ".com", fallbackOf: strings.Repeat("a", 60) + ".com"},
	{name: "decision c: 63 characters", in: strings.Repeat("a", 59) + ".com", want: strings.Repeat("a", 59) + "-com"},
	{name: "decision c: 64 characters after the wrap", in: "ab-" + strings.Repeat("c", 52) + ".com", fallbackOf: "ab-" + strings.Repeat("c", 52) + ".com"},
	{name: "decision c: 63 characters after the wrap", in: "ab-" + strings.Repeat("c", 51) + ".com", want: "0-ab--" + strings.Repeat("c", 51) + "-com-0"},
	// Lengths after punycode checked with Python's punycode codec.
	{name: "decision c: 64 characters after punycode", in: strings.Repeat("ü", 13) + strings.Repeat("a", 40) + ".com", fallbackOf: strings.Repeat("ü", 13) + strings.Repeat("a", 40) + ".com"},
	{name: "decision c: 63 characters after punycode", in: strings.Repeat("ü", 12) + strings.Repeat("a", 40) + ".com", want: "xn--" + strings.Repeat("a", 40) + "-com-pte" + strings.Repeat("a", 11)},
	// Decision c: no "-" in the prefix.
	{name: "decision c: localhost", in: "localhost", fallbackOf: "localhost"},
	{name: "decision c: ab", in: "ab", fallbackOf: "ab"},
	// A dotless Unicode label's prefix, "xn--tda", has hyphens: it reverses.
	{name: "decision c: dotless U-label", in: "ü", want: "xn--tda"},
	// Decision c: the host fails UTS #46 validation.
	{name: "decision c: in--trouble.com", in: "in--trouble.com", fallbackOf: "in--trouble.com"},
	{name: "decision c: -foo.com", in: "-foo.com", fallbackOf: "-foo.com"},
	{name: "decision c: foo-.com", in: "foo-.com", fallbackOf: "foo-.com"},
	{name: "decision c: _dmarc.example.com", in: "_dmarc.example.com", fallbackOf: "_dmarc.example.com"},
	{name: "decision c: label starting with U+0314", in: "\u0314a.com", fallbackOf: "\u0314a.com"},
	{name: "decision c: xn-- label of ASCII", in: "xn--abc-.com", fallbackOf: "xn--abc-.com"},
	// Decision c: a code point that maps to a dot ("⒈" to "1."), which the
	// STD3 rules refuse, though a browser accepts it.
	{name: "decision c: a⒈b.com", in: "a\u2488b.com", fallbackOf: "a\u2488b.com"},
	// Decision c: "⒈" as the last label, which a browser refuses too.
	{name: "decision c: a.⒈", in: "a.\u2488", fallbackOf: "a.\u2488"},
	// Decision b: an A-label that decodes to an ASCII "xn--" label with
	// invalid Punycode.
	{name: "decision b: A-label of an invalid A-label", in: "xn--xn--99999a-.com", wantErr: ErrInvalidPunycode},
	// Decision c: an A-label that decodes to ASCII is invalid (UTS #46).
	{name: "decision c: A-label of ASCII with a Unicode label", in: "xn--abc-.ü", fallbackOf: "xn--abc-.ü"},
	// Decision c: U+2260 "≠", valid in a browser but not under the STD3
	// rules (disallowed_STD3_valid), as are U+226E and U+226F.
	{name: "decision c: not equal sign", in: "\u2260.com", fallbackOf: "\u2260.com"},
	{name: "decision c: not less-than", in: "a\u226E.com", fallbackOf: "a\u226E.com"},
	{name: "decision c: not greater-than", in: "xn--a-pgo.com", fallbackOf: "xn--a-pgo.com"},
	// Decision c: the prefix fails IDNA validation as one label (Bidi rule).
	{name: "decision c: hello. and an Arabic domain", in: "hello.\u0645\u062B\u0627\u0644", fallbackOf: "hello.\u0645\u062B\u0627\u0644"},
	{name: "decision c: xn--xgb49a.xn--xgb6g", in: "xn--xgb49a.xn--xgb6g", fallbackOf: "xn--xgb49a.xn--xgb6g"},
	// An all-RTL domain stays one RTL label: human-readable (checked
	// with Python's punycode codec).
	{name: "decision c: Arabic domain", in: "\u0645\u062B\u0627\u0644.\u0625\u062E\u062A\u0628\u0627\u0631", want: "xn----vmceceld1a4a7pi"},

	// Decision d: positions 3 and 4 are bytes of step 3's output, before
	// punycode: "ab--ü-com" is wrapped.
	{name: "decision d: ab-ü.com", in: "ab-ü.com", want: "xn--0-ab---com-0-ilb"},
	// Decision d: "ü-b.com" gives "ü--b-com", whose bytes 3 and 4 are "--".
	{name: "decision d: ü-b.com", in: "ü-b.com", want: "xn--0---b-com-0-uhb"},

	// Decision e: the fallback hashes the domain with ASCII letters
	// lowercased and the root dot removed.
	{name: "decision e: LOCALHOST.", in: "LOCALHOST.", fallbackOf: "localhost"},
	// Decision e: a Unicode domain is hashed as given, ASCII lowercased.
	{name: "decision e: Unicode domain", in: "Hello.\u0645\u062B\u0627\u0644", fallbackOf: "hello.\u0645\u062B\u0627\u0644"},
	// Decision e: an A-label is hashed as given, not decoded.
	{name: "decision e: A-label", in: "XN--XGB49A.xn--xgb6g", fallbackOf: "xn--xgb49a.xn--xgb6g"},

	// An IPv4 address is a valid host under UTS #46.
	{name: "IPv4 address", in: "192.0.2.1", want: "192-0-2-1"},
	// The security case of origin.go: "0.example.0" has the prefix that
	// reads back as "example".
	{name: "0.example.0", in: "0.example.0", want: "0-example-0"},
}

func TestDomainPrefix(t *testing.T) {
	for _, tt := range prefixTests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if tt.fallbackOf != "" {
				want = FallbackPrefix(tt.fallbackOf)
			}
			got, err := DomainPrefix(tt.in)
			if !errors.Is(err, tt.wantErr) || got != want {
				t.Fatalf("DomainPrefix(%q) = %q, %v; want %q, %v", tt.in, got, err, want, tt.wantErr)
			}
			// The slow oracle agrees, errors included.
			if slow, slowErr := slowDomainPrefix(tt.in); slow != got || !errors.Is(err, slowErr) || (err == nil) != (slowErr == nil) {
				t.Errorf("DomainPrefix(%q) = %q, %v; slow oracle gives %q, %v", tt.in, got, err, slow, slowErr)
			}
			if err != nil {
				// The message quotes the input, or its first 100 bytes and
				// its length.
				quoted := strconv.Quote(tt.in)
				if len(tt.in) > 100 {
					quoted = "... (" + strconv.Itoa(len(tt.in)) + " bytes)"
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "ampcache: ") || !strings.Contains(msg, quoted) || len(msg) > 512 {
					t.Errorf("error %q does not start with the package name and quote the input", msg)
				}
				return
			}
			if !validPrefix.MatchString(got) {
				t.Errorf("DomainPrefix(%q) = %q, not [a-z0-9-]{1,63}", tt.in, got)
			}
		})
	}
}

// TestDecisionCHostValid checks that the rows of decision c that fall back
// for their prefix hold a host that x/net/idna accepts, so that the prefix
// check, not the host check, is what they test.
func TestDecisionCHostValid(t *testing.T) {
	for _, d := range []string{"hello.\u0645\u062B\u0627\u0644", "xn--xgb49a.xn--xgb6g"} {
		if _, err := idna.Lookup.ToASCII(d); err != nil {
			t.Errorf("idna.Lookup.ToASCII(%q): %v; want a valid host", d, err)
		}
		for label := range strings.SplitSeq(d, ".") {
			if _, err := idna.Lookup.ToASCII(label); err != nil {
				t.Errorf("idna.Lookup.ToASCII(%q): %v; want a valid label", label, err)
			}
		}
	}
}

// spec: Fallback Algorithm, "a 52 character string such as the following
// with no - (hyphen)". The spec does not say which domain it hashes, so
// this row checks its shape: what FallbackPrefix returns for every domain.
func TestFallbackPrefixSpecExample(t *testing.T) {
	const example = "v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq"
	if len(example) != FallbackLen {
		t.Fatalf("spec example has %d characters; FallbackLen is %d", len(example), FallbackLen)
	}
	sum, err := fallbackEncoding.DecodeString(example)
	if err != nil || len(sum) != 32 {
		t.Fatalf("spec example is not unpadded lowercase base32 of 32 bytes: %v", err)
	}
	if got := fallbackEncoding.EncodeToString(sum); got != example {
		t.Fatalf("re-encoding the spec example gives %q", got)
	}
	for _, d := range []string{"example.com", "localhost", strings.Repeat("a", 300)} {
		if got := FallbackPrefix(d); !fallbackShape.MatchString(got) {
			t.Errorf("FallbackPrefix(%q) = %q: not the spec's shape", d, got)
		}
	}
}

func TestFallbackPrefix(t *testing.T) {
	tests := []struct{ in, want string }{
		// SHA-256("example.com") in lowercase base32, checked with Python's
		// hashlib and base64.b32encode.
		{"example.com", "un42n5xov642kxrxrqiyanhcoupgql5lt4wtbkyt2ijflbwodfdq"},
		// The exact bytes: no lowercasing, no root-dot removal (values from
		// Python's hashlib and base64.b32encode).
		{"Example.com.", "obmxbgip7xgfcxmzdora66ijedcxffm5dhnqmngqp7zz6nbu5c4a"},
		{"example.com.", "h27pgesqt54xyw5qcdnxdyr47vcmxqg3s36a354ftdpra53q7ohq"},
		// Longer than the stack copy of FallbackPrefix.
		{strings.Repeat("a", 300), "ta27u27u4ifjxhvicjiggaxjrgbhegtm7djmvzt26vystpzbv2ia"},
		// The empty string has a hash too.
		{"", "4oymiquy7qobjgx36tejs35zeqt24qpemsnzgtfeswmrw6csxbkq"},
	}
	for _, tt := range tests {
		if got := FallbackPrefix(tt.in); got != tt.want || !fallbackShape.MatchString(got) {
			t.Errorf("FallbackPrefix(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}

}

// spec: "AMP Cache Origin to Publisher Domain", both Origin examples: the
// domain prefix after removing "https://" and ".cdn.ampproject.org".
func TestSpecOriginExamples(t *testing.T) {
	tests := []struct {
		origin, prefix string
		hashed         bool
	}{
		{"https://www-example-com.cdn.ampproject.org", "www-example-com", false},
		{"https://v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq.cdn.ampproject.org", "v2c4ucasgcskftbjt4c7phpkbqedcdcqo23tkamleapoa5o6fygq", true},
	}
	for _, tt := range tests {
		p := strings.TrimSuffix(strings.TrimPrefix(tt.origin, "https://"), ".cdn.ampproject.org")
		if p != tt.prefix {
			t.Fatalf("prefix of %q = %q; want %q", tt.origin, p, tt.prefix)
		}
		if hashed := !strings.Contains(p, "-"); hashed != tt.hashed {
			t.Errorf("prefix %q hashed = %v; want %v", p, hashed, tt.hashed)
		}
		if tt.hashed {
			if !fallbackShape.MatchString(p) {
				t.Errorf("hashed prefix %q does not have the fallback's shape", p)
			}
			if _, err := PublisherDomain(tt.origin); !errors.Is(err, ErrNotReversible) {
				t.Errorf("PublisherDomain(%q): %v; want ErrNotReversible", tt.origin, err)
			}
			continue
		}
		d, err := PublisherDomain(tt.origin)
		if err != nil || d != "www.example.com" {
			t.Fatalf("PublisherDomain(%q) = %q, %v; want \"www.example.com\"", tt.origin, d, err)
		}
		if got, err := DomainPrefix(d); err != nil || got != p {
			t.Errorf("DomainPrefix(%q) = %q, %v; want %q", d, got, err, p)
		}
	}
}

var (
	validPrefix   = regexp.MustCompile(`^[a-z0-9-]{1,63}$`)
	fallbackShape = regexp.MustCompile(`^[a-z2-7]{52}$`)
)

// slowDomainPrefix follows the spec's five steps literally, with
// x/net/idna doing the mapping and the Punycode of steps 1 and 5, and the
// decisions of the package documentation written out with the strings
// package. It returns the prefix, or the sentinel of the error.
func slowDomainPrefix(domain string) (string, error) {
	if domain == "" {
		return "", ErrEmpty
	}
	if len(domain) > 1012 {
		return "", ErrTooLong
	}
	// Decision a: one root dot is ".", or a dot that UTS #46 maps to ".".
	d := domain
	for _, dot := range []string{".", "\u3002", "\uFF0E", "\uFF61"} {
		if strings.HasSuffix(d, dot) {
			d = strings.TrimSuffix(d, dot)
			break
		}
	}
	// Decision b: forbidden code points, as given and as a browser maps them.
	const forbiddenSet = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f #%/:<>?@[\\]^|\x7f"
	if !utf8.ValidString(d) || strings.ContainsAny(d, forbiddenSet) {
		return "", ErrInvalidHost
	}
	// Step 1: the browser's Unicode form (internal/host.Profile, checked
	// against the WHATWG URL standard in its own tests).
	u, _ := host.Profile.ToUnicode(d)
	if strings.ContainsAny(u, forbiddenSet) {
		return "", ErrInvalidHost
	}
	// Decision b: empty labels and invalid Punycode, as given and as mapped.
	given := strings.NewReplacer("\u3002", ".", "\uFF0E", ".", "\uFF61", ".").Replace(d)
	// Decision c: validation for lookup, with the STD3 rules and CheckHyphens.
	_, validationErr := idna.Lookup.ToUnicode(d)
	for _, labels := range []string{given, u} {
		for _, label := range strings.Split(labels, ".") {
			if label == "" {
				return "", ErrEmptyLabel
			}
			if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") && !hasNonASCII(label) {
				// internal/punycode is checked against RFC 3492 and x/net on its own.
				if dec, err := punycode.Decode(label[4:]); err != nil || dec == "" {
					return "", ErrInvalidPunycode
				}
			}
		}
	}
	// Decision b: the ASCII form, label by label as given.
	n := strings.Count(given, ".")
	for _, label := range strings.Split(given, ".") {
		if !hasNonASCII(label) {
			n += len(label)
			continue
		}
		a, _ := host.Profile.ToASCII(label)
		n += len(a)
	}
	if n > 253 {
		return "", ErrTooLong
	}
	// Decision e: the fallback hashes d with its ASCII letters lowercased.
	lowered := []byte(d)
	for i, c := range lowered {
		if 'A' <= c && c <= 'Z' {
			lowered[i] = c + 'a' - 'A'
		}
	}
	fallback := FallbackPrefix(string(lowered))
	// Decision c: a host that fails UTS #46 validation falls back.
	if validationErr != nil {
		return fallback, nil
	}
	// Step 2: replace any "-" with "--".
	s := strings.ReplaceAll(u, "-", "--")
	// Step 3: replace any "." with "-".
	s = strings.ReplaceAll(s, ".", "-")
	// Step 4: a "-" at both positions 3 and 4: add "0-" and "-0".
	if len(s) >= 4 && s[2] == '-' && s[3] == '-' {
		s = "0-" + s + "-0"
	}
	// Step 5: Punycode Encode, checked as one DNS label (decision c).
	p, err := idna.New(idna.MapForLookup(), idna.BidiRule(), idna.VerifyDNSLength(true), idna.Transitional(false)).ToASCII(s)
	if err != nil || len(p) > 63 || !strings.Contains(p, "-") {
		return fallback, nil
	}
	return p, nil
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

func TestNoAllocs(t *testing.T) {
	dst := make([]byte, 0, 64)
	for _, d := range []string{"www.example.com", "en-us.example.com", "localhost", strings.Repeat("a", 100) + ".com", "_dmarc.example.com", "EXAMPLE.COM."} {
		if n := testing.AllocsPerRun(1000, func() { AppendDomainPrefix(dst[:0], d) }); n != 0 {
			t.Errorf("AppendDomainPrefix(%q) makes %v allocations; want 0", d, n)
		}
	}
	for _, d := range []string{"www.example.com", strings.Repeat("a", 256)} {
		if n := testing.AllocsPerRun(1000, func() { FallbackPrefix(d) }); n != 1 {
			t.Errorf("FallbackPrefix(%q) makes %v allocations; want 1, for the result", d, n)
		}
	}
}

// FuzzDomainPrefix checks that nothing panics, that every prefix matches
// [a-z0-9-]{1,63}, that errors name the package, and that the fast code
// agrees with the slow oracle wherever the decisions do not apply.
func FuzzDomainPrefix(f *testing.F) {
	for _, tt := range prefixTests {
		f.Add(tt.in)
	}
	wpt.AddHosts(f)
	for _, s := range aLabelHosts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		got, err := DomainPrefix(d)
		if slow, slowErr := slowDomainPrefix(d); slow != got || !errors.Is(err, slowErr) || (err == nil) != (slowErr == nil) {
			t.Fatalf("DomainPrefix(%q) = %q, %v; slow oracle gives %q, %v", d, got, err, slow, slowErr)
		}
		if err != nil {
			if got != "" || !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Fatalf("DomainPrefix(%q) = %q, %v", d, got, err)
			}
			return
		}
		if !validPrefix.MatchString(got) {
			t.Fatalf("DomainPrefix(%q) = %q: not [a-z0-9-]{1,63}", d, got)
		}
		b, err := AppendDomainPrefix([]byte("x"), d)
		if err != nil || string(b) != "x"+got {
			t.Fatalf("AppendDomainPrefix(%q) = %q, %v; want %q", d, b, err, "x"+got)
		}
	})
}

// FuzzDomainPrefix's A-label mode decodes labels itself: a table of
// A-label hosts, checked against x/net's own decoding through the oracle.
var aLabelHosts = []string{
	"xn--bcher-kva.example", "xn--e1afmkfd.xn--p1ai", "www.xn--fsq.com", "XN--BCHER-KVA.DE",
	"xn--ab-m1t.com", "xn--example-tge.com", "xn--bcher-kva.xn--ab-m1t", "xn--tda", "xn--abc-",
}

var benchHosts = []struct{ name, host string }{
	{"ASCII", "www.example.com"},
	{"IDN", "xn--bcher-kva.example"},
	{"Wrapped", "en-us.example.com"},
	{"Fallback", "itsaverylongsubdomainthatcannotfitintoonednslabelonceprefixed.example.com"},
}

func BenchmarkAppendDomainPrefix(b *testing.B) {
	for _, h := range benchHosts {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			dst := make([]byte, 0, 64)
			for b.Loop() {
				dst, _ = AppendDomainPrefix(dst[:0], h.host)
			}
		})
	}
}

func BenchmarkDomainPrefix(b *testing.B) {
	for _, h := range benchHosts {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				DomainPrefix(h.host)
			}
		})
	}
}

// BenchmarkIDNALookupToASCII is the baseline of the issue: one
// idna.Lookup.ToASCII call on the same hosts, in the same run.
func BenchmarkIDNALookupToASCII(b *testing.B) {
	for _, h := range benchHosts {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idna.Lookup.ToASCII(h.host)
			}
		})
	}
}

func BenchmarkFallbackPrefix(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		FallbackPrefix("www.example.com")
	}
}

// TestDomainPrefixOfURL checks that a URL given for a domain gets an
// error that says it is a URL.
func TestDomainPrefixOfURL(t *testing.T) {
	for _, in := range []string{"https://example.com/", "http://example.com", "HTTPS://Example.com:443/a"} {
		_, err := DomainPrefix(in)
		if !errors.Is(err, ErrInvalidHost) || !strings.Contains(err.Error(), "a URL, not a domain") {
			t.Errorf("DomainPrefix(%q): %v; want ErrInvalidHost saying it is a URL", in, err)
		}
	}
}

// TestErrorsBounded checks that a huge input gives a small error: DomainPrefix of
// 10 MB once returned an error holding 10 MB, whose Error() allocated
// ~255 MB. Every
// entry point's message is at most 512 bytes, and quotes at most 100 bytes
// of the input.
func TestErrorsBounded(t *testing.T) {
	huge := strings.Repeat("\x00", 10<<20)
	hugeURL := "https://example.com/" + strings.Repeat("\x01", 10<<20)
	calls := map[string]func() error{
		"DomainPrefix":     func() error { _, err := DomainPrefix(huge); return err },
		"DomainPrefix 1KB": func() error { _, err := DomainPrefix(strings.Repeat("\"", 1000)); return err },
		"CacheURL":         func() error { _, err := CacheURL(google, hugeURL, Content); return err },
		"CacheURL cache":   func() error { _, err := CacheURL(huge, "https://example.com/", Content); return err },
		"CacheURL serving": func() error { _, err := CacheURL(google, "https://example.com/", Serving(huge)); return err },
		"PublisherDomain":  func() error { _, err := PublisherDomain(huge); return err },
		"SourceURL":        func() error { _, err := SourceURL(hugeURL); return err },
		"ParseCaches":      func() error { _, err := ParseCaches([]byte(huge)); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); len(msg) > 512 || !strings.HasPrefix(msg, "ampcache: ") {
				t.Errorf("message of %d bytes: %.200q", len(msg), msg)
			}
		})
	}
}

// TestPrefixCacheURLAgree checks that DomainPrefix and CacheURL never
// disagree. CacheURL may refuse a host that DomainPrefix computes; it
// never serves a host that DomainPrefix refuses; and when it succeeds, its
// subdomain is DomainPrefix of the ASCII host in its path. Each row is one
// of the asymmetries the package documentation lists.
func TestPrefixCacheURLAgree(t *testing.T) {
	tests := []struct {
		name, host string
		prefixErr  bool // DomainPrefix refuses the host
		cacheErr   bool // CacheURL refuses it
	}{
		// Both accept an ordinary host.
		{"ordinary", "www.example.com", false, false},
		// An IPv4 address has a prefix, but a cache serves domains.
		{"IPv4", "1.2.3.4", false, true},
		// A host without a dot has a (hashed) prefix; CacheURL refuses it.
		{"dotless", "localhost", false, true},
		// A bidi host that a browser rejects gets the fallback prefix; CacheURL refuses it.
		{"bidi", "0\u05d0.com", false, true},
		// U+FFFD: the fallback prefix, refused by CacheURL.
		{"U+FFFD", "a\ufffdb.com", false, true},
		// Invalid UTF-8 (percent-encoded in the URL): both refuse it.
		{"invalid UTF-8", "a%FFb.com", true, true},
		// A joiner out of context in an A-label: fallback, refused by CacheURL.
		{"joiner A-label", "xn--ab-m1t.com", false, true},
		// A Unicode host that needs the fallback: DomainPrefix hashes its
		// Unicode spelling, CacheURL the ASCII host in its path (decision e).
		{"Unicode fallback", strings.Repeat("ü", 20) + ".com", false, false},
		// An empty label: both refuse it.
		{"empty label", "a..com", true, true},
		// "_" and "--" at positions 3 and 4: a browser accepts them; the fallback.
		{"underscore", "_dmarc.example.com", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.host
			if d, err := url.PathUnescape(h); err == nil {
				h = d
			}
			_, perr := DomainPrefix(h)
			c, cerr := CacheURL(google, "https://"+tt.host+"/", Content)
			if (perr != nil) != tt.prefixErr || (cerr != nil) != tt.cacheErr {
				t.Fatalf("DomainPrefix: %v; CacheURL: %q, %v; want errors %v, %v", perr, c, cerr, tt.prefixErr, tt.cacheErr)
			}
			if cerr == nil {
				checkPrefixAgrees(t, "https://"+tt.host+"/", c, Content)
			}
		})
	}
}

// idnHosts are IDN hosts in several scripts, for BenchmarkIDNDomainPrefix
// and its floor, BenchmarkIDNToASCII; each is measured as Unicode and as
// A-labels (from idna.Lookup).
var idnHosts = []struct{ name, host string }{
	{"Latin", "bücher-café.de"},
	{"Cyrillic", "пример.рф"},
	{"Greek", "παράδειγμα.ελ"},
	{"CJK", "例子.中国"},
	{"Arabic", "مثال.إختبار"},
	{"Devanagari", "उदाहरण.भारत"},
	{"Hangul", "실례.테스트"},
}

// idnBenchHosts returns idnHosts as Unicode and as A-labels.
func idnBenchHosts(b *testing.B) []struct{ name, host string } {
	var out []struct{ name, host string }
	for _, h := range idnHosts {
		a, err := idna.Lookup.ToASCII(h.host)
		if err != nil {
			b.Fatalf("idna.Lookup.ToASCII(%q): %v", h.host, err)
		}
		out = append(out, struct{ name, host string }{h.name + "-U", h.host}, struct{ name, host string }{h.name + "-A", a})
	}
	return out
}

// BenchmarkIDNDomainPrefix measures DomainPrefix on idnHosts; its floor is
// BenchmarkIDNToASCII, one idna.Lookup.ToASCII of the same hosts in the
// same run.
func BenchmarkIDNDomainPrefix(b *testing.B) {
	for _, h := range idnBenchHosts(b) {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				DomainPrefix(h.host)
			}
		})
	}
}

func BenchmarkIDNToASCII(b *testing.B) {
	for _, h := range idnBenchHosts(b) {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idna.Lookup.ToASCII(h.host)
			}
		})
	}
}

// TestIDNAllocs checks the allocation bound of DomainPrefix on IDN hosts:
// at most 2, one for x/net/idna's single pass, when it is needed, and one
// for the result. The Bidi rule on a right-to-left prefix (Arabic here)
// takes no second pass.
func TestIDNAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, h := range idnHosts {
		a, _ := idna.Lookup.ToASCII(h.host)
		for _, in := range []string{h.host, a} {
			if n := testing.AllocsPerRun(200, func() { DomainPrefix(in) }); n > 2 {
				t.Errorf("DomainPrefix(%q): %v allocations; want at most 2", in, n)
			}
		}
	}
}
