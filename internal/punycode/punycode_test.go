// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package punycode

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// rfcSamples are the sample strings of RFC 3492 section 7.1, copied exactly:
// the code points as a Go string, and the Punycode as printed (the ACE prefix
// is not shown there either).
var rfcSamples = []struct {
	name, decoded, encoded string
}{
	// RFC 3492 section 7.1 (A).
	{"(A) Arabic (Egyptian)", "\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F", "egbpdaj6bu4bxfgehfvwxn"},
	// RFC 3492 section 7.1 (B).
	{"(B) Chinese (simplified)", "\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587", "ihqwcrb4cv8a8dqg056pqjye"},
	// RFC 3492 section 7.1 (C).
	{"(C) Chinese (traditional)", "\u4ED6\u5011\u7232\u4EC0\u9EBD\u4E0D\u8AAA\u4E2D\u6587", "ihqwctvzc91f659drss3x8bo0yb"},
	// RFC 3492 section 7.1 (D).
	{"(D) Czech: Pro<ccaron>prost<ecaron>nemluv<iacute><ccaron>esky", "Pro\u010Dprost\u011Bnemluv\u00ED\u010Desky", "Proprostnemluvesky-uyb24dma41a"},
	// RFC 3492 section 7.1 (E).
	{"(E) Hebrew", "\u05DC\u05DE\u05D4\u05D4\u05DD\u05E4\u05E9\u05D5\u05D8\u05DC\u05D0\u05DE\u05D3\u05D1\u05E8\u05D9\u05DD\u05E2\u05D1\u05E8\u05D9\u05EA", "4dbcagdahymbxekheh6e0a7fei0b"},
	// RFC 3492 section 7.1 (F).
	{"(F) Hindi (Devanagari)", "\u092F\u0939\u0932\u094B\u0917\u0939\u093F\u0928\u094D\u0926\u0940\u0915\u094D\u092F\u094B\u0902\u0928\u0939\u0940\u0902\u092C\u094B\u0932\u0938\u0915\u0924\u0947\u0939\u0948\u0902", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
	// RFC 3492 section 7.1 (G).
	{"(G) Japanese (kanji and hiragana)", "\u306A\u305C\u307F\u3093\u306A\u65E5\u672C\u8A9E\u3092\u8A71\u3057\u3066\u304F\u308C\u306A\u3044\u306E\u304B", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
	// RFC 3492 section 7.1 (H).
	{"(H) Korean (Hangul syllables)", "\uC138\uACC4\uC758\uBAA8\uB4E0\uC0AC\uB78C\uB4E4\uC774\uD55C\uAD6D\uC5B4\uB97C\uC774\uD574\uD55C\uB2E4\uBA74\uC5BC\uB9C8\uB098\uC88B\uC744\uAE4C", "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"},
	// RFC 3492 section 7.1 (I).
	{"(I) Russian (Cyrillic)", "\u043F\u043E\u0447\u0435\u043C\u0443\u0436\u0435\u043E\u043D\u0438\u043D\u0435\u0433\u043E\u0432\u043E\u0440\u044F\u0442\u043F\u043E\u0440\u0443\u0441\u0441\u043A\u0438", "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
	// RFC 3492 section 7.1 (J).
	{"(J) Spanish: Porqu<eacute>nopuedensimplementehablarenEspa<ntilde>ol", "Porqu\u00E9nopuedensimplementehablarenEspa\u00F1ol", "PorqunopuedensimplementehablarenEspaol-fmd56a"},
	// RFC 3492 section 7.1 (K).
	{"(K) Vietnamese", "T\u1EA1isaoh\u1ECDkh\u00F4ngth\u1EC3ch\u1EC9n\u00F3iti\u1EBFngVi\u1EC7t", "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
	// RFC 3492 section 7.1 (L).
	{"(L) 3<nen>B<gumi><kinpachi><sensei>", "3\u5E74B\u7D44\u91D1\u516B\u5148\u751F", "3B-ww4c5e180e575a65lsy2b"},
	// RFC 3492 section 7.1 (M).
	{"(M) <amuro><namie>-with-SUPER-MONKEYS", "\u5B89\u5BA4\u5948\u7F8E\u6075-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
	// RFC 3492 section 7.1 (N).
	{"(N) Hello-Another-Way-<sorezore><no><basho>", "Hello-Another-Way-\u305D\u308C\u305E\u308C\u306E\u5834\u6240", "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
	// RFC 3492 section 7.1 (O).
	{"(O) <hitotsu><yane><no><shita>2", "\u3072\u3068\u3064\u5C4B\u6839\u306E\u4E0B2", "2-u9tlzr9756bt3uc0v"},
	// RFC 3492 section 7.1 (P).
	{"(P) Maji<de>Koi<suru>5<byou><mae>", "Maji\u3067Koi\u3059\u308B5\u79D2\u524D", "MajiKoi5-783gue6qz075azm5e"},
	// RFC 3492 section 7.1 (Q).
	{"(Q) <pafii>de<runba>", "\u30D1\u30D5\u30A3\u30FCde\u30EB\u30F3\u30D0", "de-jg4avhby1noc0d"},
	// RFC 3492 section 7.1 (R).
	{"(R) <sono><supiido><de>", "\u305D\u306E\u30B9\u30D4\u30FC\u30C9\u3067", "d9juau41awczczp"},
	// RFC 3492 section 7.1 (S).
	{"(S) -> $1.00 <-", "-> $1.00 <-", "-> $1.00 <--"},
}

// encodedLower returns the RFC's Punycode with its digits (the part after
// the last delimiter) in lowercase: the RFC's sample (I) carries a mixed-case
// annotation (section 3.4, "D"), which Encode does not produce.
func encodedLower(s string) string {
	i := strings.LastIndexByte(s, '-') + 1
	return s[:i] + strings.ToLower(s[i:])
}

func TestDecodeRFCSamples(t *testing.T) {
	for _, tt := range rfcSamples {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.encoded)
			if err != nil || got != tt.decoded {
				t.Errorf("Decode(%q) = %+q, %v; want %+q", tt.encoded, got, err, tt.decoded)
			}
		})
	}
}

func TestEncodeRFCSamples(t *testing.T) {
	for _, tt := range rfcSamples {
		t.Run(tt.name, func(t *testing.T) {
			want := encodedLower(tt.encoded)
			got, err := Encode(tt.decoded)
			if err != nil || got != want {
				t.Errorf("Encode(%+q) = %q, %v; want %q", tt.decoded, got, err, want)
			}
		})
	}
}

// codingTest is a row of TestDecode or TestEncode.
type codingTest struct {
	in      string
	want    string
	wantErr error
}

// runCodingTests runs each row through f, called fname in failures. A
// subtest is named after the first 40 bytes of its input.
func runCodingTests(t *testing.T, fname string, f func(string) (string, error), tests []codingTest) {
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		t.Run(name, func(t *testing.T) {
			got, err := f(tt.in)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("%s(%q) = %+q, %v; want %+q, %v", fname, tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	runCodingTests(t, "Decode", Decode, []codingTest{
		// The empty string encodes the empty string.
		{"", "", nil},
		// Only basic code points: everything before the last delimiter.
		{"abc-", "abc", nil},
		// Basic code points keep their case (no case folding here).
		{"ABC-", "ABC", nil},
		// Digits are case-insensitive (section 5): "ca" and "CA" both mean ü after "bcher-".
		{"bcher-kva", "bücher", nil},
		{"bcher-KVA", "bücher", nil},
		// A leading delimiter with nothing before it is not skipped, so it
		// is read as a digit (section 6.2) and rejected.
		{"-", "", ErrBadDigit},
		{"-abc", "", ErrBadDigit},
		// A byte that is not a base-36 digit in the encoded part.
		{"abc-d!", "", ErrBadDigit},
		{"abc-*", "", ErrBadDigit},
		// The encoded part ends inside a variable-length integer.
		{"abc-9", "", ErrBadDigit},
		// A non-basic code point before the last delimiter.
		{"ü-kva", "", ErrNonBasic},
		// A non-basic code point in the encoded part is a bad digit.
		{"abc-ü", "", ErrBadDigit},
		// The example of invalid punycode: it decodes past U+10FFFF.
		{"99999a", "", ErrBadCodePoint},
		// The integer i overflows maxint (section 6.4), here in i += digit*w.
		{"999999999a", "", ErrOverflow},
		// The same after a basic part.
		{"a-9999999999a", "", ErrOverflow},
		// A decoded value above U+10FFFF.
		{"zf0c", "", ErrBadCodePoint},
		// A decoded surrogate (U+D800, encoded by Python's punycode codec,
		// which allows lone surrogates) is not a Unicode scalar value.
		{"ib9b", "", ErrBadCodePoint},
		// U+DFFF after a basic code point.
		{"a-qo7g", "", ErrBadCodePoint},
		// Input longer than MaxLen is rejected before any work.
		{strings.Repeat("a", MaxLen+1), "", ErrTooLong},
		// MaxLen itself is accepted.
		{strings.Repeat("a", MaxLen-1) + "-", strings.Repeat("a", MaxLen-1), nil},
	})
}

// TestDecodeNeverBasic covers the section 6.2 rule "if n is a basic code
// point then fail". With Punycode's parameters n starts at initial_n = 0x80
// and never decreases, so the check can only fire if overflow detection were
// wrong; this test decodes every encoded part of up to four digits, after a
// basic part, and requires that the basic part is the only ASCII in the
// output.
func TestDecodeNeverBasic(t *testing.T) {
	const digits = "abcdefghijklmnopqrstuvwxyz0123456789"
	var buf [64]byte
	in := []byte("x-....")
	for _, a := range digits {
		for _, b := range digits {
			for _, c := range digits {
				for _, d := range digits {
					in[2], in[3], in[4], in[5] = byte(a), byte(b), byte(c), byte(d)
					got, err := AppendDecode(buf[:0], string(in))
					if err != nil {
						continue
					}
					ascii := 0
					for _, r := range string(got) {
						if r < 0x80 {
							ascii++
						}
					}
					if ascii != 1 {
						t.Fatalf("Decode(%q) = %+q: decoded a basic code point", in, got)
					}
				}
			}
		}
	}
}

func TestEncode(t *testing.T) {
	runCodingTests(t, "Encode", Encode, []codingTest{
		// The empty string encodes as the empty string.
		{"", "", nil},
		// Only basic code points: copied, then a delimiter.
		{"abc", "abc-", nil},
		// Case is kept.
		{"Bücher", "Bcher-kva", nil},
		// Only non-basic code points: no delimiter.
		{"ü", "tda", nil},
		// The AMP spec's example label, ⚡😊-com (amp-cache-url-format.md).
		{"⚡😊-com", "-com-p33b41770a", nil},
		// Invalid UTF-8 cannot be encoded.
		{"a\xffb", "", ErrInvalidUTF8},
		// Input of more than MaxLen code points.
		{strings.Repeat("ü", MaxLen+1), "", ErrTooLong},
		// MaxLen/2+1 code points of 2 bytes: more than MaxLen bytes, and
		// what Decode reads back from fewer than MaxLen bytes.
		{strings.Repeat("ü", MaxLen/2+1), "tda" + strings.Repeat("a", MaxLen/2), nil},
		// Output longer than MaxLen bytes: Decode could not read it back.
		{strings.Repeat("a", MaxLen), "", ErrTooLong},
		// Output of exactly MaxLen bytes.
		{strings.Repeat("a", MaxLen-1), strings.Repeat("a", MaxLen-1) + "-", nil},
		// Too long and invalid UTF-8: the length is reported first, since
		// an invalid byte counts as one code point.
		{strings.Repeat("ü", MaxLen) + "\xff", "", ErrTooLong},
		// MaxLen code points with an invalid byte among them.
		{strings.Repeat("ü", MaxLen-1) + "\xff", "", ErrInvalidUTF8},
		// 64 bytes, the most that the short code point buffer holds
		// (digits as x/net/idna's Punycode profile writes them).
		{strings.Repeat("a", 62) + "ü", strings.Repeat("a", 62) + "-8og", nil},
		// 65 bytes, the fewest that take the MaxLen buffer.
		{strings.Repeat("a", 63) + "ü", strings.Repeat("a", 63) + "-tsg", nil},
	})
}

func TestAppendKeepsDstOnError(t *testing.T) {
	dst := []byte("prefix:")
	if got, err := AppendDecode(dst, "99999a"); err == nil || string(got) != "prefix:" {
		t.Errorf("AppendDecode on error = %q, %v; want dst unchanged and an error", got, err)
	}
	if got, err := AppendEncode(dst, "ab\xff"); err == nil || string(got) != "prefix:" {
		t.Errorf("AppendEncode on error = %q, %v; want dst unchanged and an error", got, err)
	}
	if got, err := AppendEncode(dst, "abü\xff"); err == nil || string(got) != "prefix:" {
		t.Errorf("AppendEncode on late error = %q, %v; want dst unchanged and an error", got, err)
	}
}

func TestNoAllocs(t *testing.T) {
	dst := make([]byte, 0, 4*MaxLen)
	for _, tt := range rfcSamples {
		if n := testing.AllocsPerRun(100, func() { AppendDecode(dst[:0], tt.encoded) }); n != 0 {
			t.Errorf("AppendDecode(%q) allocates %v times; want 0", tt.encoded, n)
		}
		if n := testing.AllocsPerRun(100, func() { AppendEncode(dst[:0], tt.decoded) }); n != 0 {
			t.Errorf("AppendEncode(%+q) allocates %v times; want 0", tt.decoded, n)
		}
	}
}

// TestBoundedTime checks that the worst inputs at MaxLen stay cheap: the
// insertion in Decode and the rescans in Encode are quadratic in the length
// of the input, which MaxLen bounds. A round takes about 1ms here, with or
// without -race; the bound leaves room for a loaded machine (20ms flaked at
// a load average of 10), and still fails if the work were unbounded.
func TestBoundedTime(t *testing.T) {
	var b strings.Builder
	for r := rune(0x4E00); b.Len()+utf8.RuneLen(r) <= MaxLen; r += 7 {
		b.WriteRune(r)
	}
	worstEncode := b.String()
	worstDecode, err := Encode(strings.Repeat("\u4E00\u9FFF", MaxLen/3/2/2*2))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for range 10 {
		Encode(worstEncode)
		Decode(worstDecode)
		Decode(strings.Repeat("a", MaxLen))
	}
	if d := time.Since(start) / 10; d > 250*time.Millisecond {
		t.Errorf("worst case at MaxLen took %v per round; want well under 250ms", d)
	}
}

// FuzzDecode checks that Decode never panics, and that whatever it accepts
// is valid UTF-8 that Encode writes back to the same string, up to the case
// of the digits.
func FuzzDecode(f *testing.F) {
	for _, tt := range rfcSamples {
		f.Add(tt.encoded)
	}
	// Seeds from the error table: bad digits, overflow, surrogates.
	for _, s := range []string{"", "-", "-abc", "abc-", "99999a", "zf0c", "9999b", "abc-ü", "ü-kva"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Decode(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Decode(%q) = %+q: invalid UTF-8", s, got)
		}
		back, err := Encode(got)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)) failed: %v", s, err)
		}
		if back2, err := Decode(back); err != nil || back2 != got {
			t.Fatalf("Decode(Encode(%+q)) = %+q, %v", got, back2, err)
		}
	})
}

// FuzzEncode checks that Decode(Encode(s)) == s for valid UTF-8, and that
// Encode agrees with golang.org/x/net/idna's Punycode profile, which runs
// the same RFC 3492 algorithm with no IDNA mapping.
func FuzzEncode(f *testing.F) {
	for _, tt := range rfcSamples {
		f.Add(tt.decoded)
	}
	for _, s := range []string{"", "abc", "ü", "⚡😊-com", "a\xffb", "\U0010FFFF", strings.Repeat("a", MaxLen), strings.Repeat("a", MaxLen-1) + "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, err := Encode(s)
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxLen {
			if err == nil {
				t.Fatalf("Encode(%q) = %q; want an error", s, enc)
			}
			return
		}
		if errors.Is(err, ErrTooLong) {
			// Only when the output would be over MaxLen: x/net has no bound.
			if want, err := idna.Punycode.ToASCII(s); err == nil && !strings.ContainsAny(s, ".\u3002\uFF0E\uFF61") && hasNonASCII(s) && len(want)-len("xn--") <= MaxLen {
				t.Fatalf("Encode(%+q): ErrTooLong, but its encoding %q is %d bytes", s, want, len(want)-4)
			}
			return
		}
		if err != nil {
			t.Fatalf("Encode(%+q): %v", s, err)
		}
		for i := 0; i < len(enc); i++ {
			if enc[i] >= 0x80 {
				t.Fatalf("Encode(%+q) = %q: not ASCII", s, enc)
			}
		}
		dec, err := Decode(enc)
		if err != nil || dec != s {
			t.Fatalf("Decode(Encode(%+q)) = Decode(%q) = %+q, %v", s, enc, dec, err)
		}
		// x/net/idna works on dot-separated labels and leaves all-ASCII
		// labels alone; compare where it sees one label with non-ASCII.
		if strings.ContainsAny(s, ".\u3002\uFF0E\uFF61") || !hasNonASCII(s) {
			return
		}
		if want, err := idna.Punycode.ToASCII(s); err == nil && want != "xn--"+enc {
			t.Fatalf("Encode(%+q) = %q; x/net/idna gives %q", s, enc, want)
		}
	})
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	dst := make([]byte, 0, 256)
	for i := 0; i < b.N; i++ {
		dst, _ = AppendDecode(dst[:0], "ihqwcrb4cv8a8dqg056pqjye")
	}
}

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	dst := make([]byte, 0, 256)
	for i := 0; i < b.N; i++ {
		dst, _ = AppendEncode(dst[:0], "\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587")
	}
}
