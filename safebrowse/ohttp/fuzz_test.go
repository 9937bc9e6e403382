// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// isSentinel reports whether err wraps one of the package's sentinels.
func isSentinel(err error) bool {
	for _, s := range []error{ErrKeyConfig, ErrUnsupported, ErrUnknownKey, ErrMalformed, ErrDecrypt, ErrTooLarge, ErrBinaryHTTP} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzParseKeyConfigs checks that what ParseKeyConfigs accepts encodes
// back, as a list and one by one, to configurations that parse the same,
// and that NewClient takes any of it without panicking.
func FuzzParseKeyConfigs(f *testing.F) {
	rfc := rfc9458.keyConfig
	for _, seed := range []string{
		rfc,                         // RFC 9458 Appendix A, bare
		"002d" + rfc,                // the same as application/ohttp-keys
		"002d" + rfc + "002d" + rfc, // a list of two
		rfc + rfc,                   // two bare
		"0009" + "03abcd" + "0000" + "00040001" + "002d" + rfc, // an unknown KEM skipped
		rfc + "03abcd00", // bare, stopping at an unknown KEM
		"002e" + rfc,     // a list length that overruns
		"01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e79815500060001000100", // odd symmetric length
		"", // nothing
	} {
		f.Add(unhex(f, seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := ParseKeyConfigs(b)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if len(cs) == 0 {
			t.Fatal("no configurations and no error")
		}
		NewClient(cs)
		list, err := AppendKeyConfigs(nil, cs)
		if err != nil {
			// A bare configuration may be too long for a list's length.
			if !errors.Is(err, ErrKeyConfig) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("AppendKeyConfigs: %v", err)
			}
			return
		}
		back, err := ParseKeyConfigs(list)
		if err != nil || !equalConfigs(back, cs) {
			t.Fatalf("ParseKeyConfigs(AppendKeyConfigs(%+v)) = %+v, %v", cs, back, err)
		}
		for _, c := range cs {
			one, err := AppendKeyConfig(nil, c)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := ParseKeyConfig(one); err != nil || !equalConfigs([]KeyConfig{back}, []KeyConfig{c}) {
				t.Fatalf("ParseKeyConfig(AppendKeyConfig(%+v)) = %+v, %v", c, back, err)
			}
		}
	})
}

// bhttpSeeds are the Binary HTTP messages of RFC 9292 and RFC 9458, with
// some damaged ones.
var bhttpSeeds = []string{
	rfc9292Fig8,  // RFC 9292 Figure 8: known-length request
	rfc9292Fig9,  // RFC 9292 Figure 9: indeterminate-length request, padded
	rfc9292Fig11, // RFC 9292 Figure 11: indeterminate response, informational
	rfc9292Fig13, // RFC 9292 Figure 13: known-length response, trailer
	"00034745540568747470730b6578616d706c652e636f6d012f", // RFC 9458 Appendix A request
	"0140c8",                             // RFC 9458 Appendix A response
	"02034745540000000002626f0264790000", // indeterminate content in chunks
	"014064040161017841f4",               // a known-length informational response
	"0003474554000000ffffffffffffffff",   // a huge section length
	"0140c800000001",                     // non-zero padding
}

// FuzzParseRequest checks that what ParseRequest accepts encodes to a
// known-length request that parses the same and encodes to itself.
func FuzzParseRequest(f *testing.F) {
	for _, s := range bhttpSeeds {
		f.Add(unhex(f, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRequest(b)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		enc, err := AppendRequest(nil, r)
		if err != nil {
			t.Fatalf("AppendRequest(ParseRequest(%x)): %v", b, err)
		}
		back, err := ParseRequest(enc)
		if err != nil || !equalRequest(back, r) {
			t.Fatalf("ParseRequest(AppendRequest(%+v)) = %+v, %v", r, back, err)
		}
		if again, _ := AppendRequest(nil, back); !bytes.Equal(again, enc) {
			t.Fatalf("encoding is not stable: %x then %x", enc, again)
		}
	})
}

// FuzzParseResponse is FuzzParseRequest for responses.
func FuzzParseResponse(f *testing.F) {
	for _, s := range bhttpSeeds {
		f.Add(unhex(f, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseResponse(b)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		enc, err := AppendResponse(nil, r)
		if err != nil {
			t.Fatalf("AppendResponse(ParseResponse(%x)): %v", b, err)
		}
		back, err := ParseResponse(enc)
		if err != nil || !equalResponse(back, r) {
			t.Fatalf("ParseResponse(AppendResponse(%+v)) = %+v, %v", r, back, err)
		}
		if again, _ := AppendResponse(nil, back); !bytes.Equal(again, enc) {
			t.Fatalf("encoding is not stable: %x then %x", enc, again)
		}
	})
}

// FuzzPadding checks the padding of RFC 9292 section 3.8 on every
// message ParseRequest or ParseResponse accepts: n zero bytes after it,
// truncated or not, change nothing, and a non-zero byte x after a full
// message and k zero bytes is an error at its offset, however far.
func FuzzPadding(f *testing.F) {
	for i, s := range bhttpSeeds {
		f.Add(unhex(f, s), uint16(i*97), uint16(i*13), byte(i+1))
	}
	f.Fuzz(func(t *testing.T, b []byte, n, k uint16, x byte) {
		if x == 0 {
			x = 1
		}
		zeros := make([]byte, int(n)%4096)
		check := func(what string, parse func([]byte) (any, error), encode func(any) ([]byte, error), equal func(a, b any) bool) {
			r, err := parse(b)
			if err != nil {
				return
			}
			if got, err := parse(append(bytes.Clone(b), zeros...)); err != nil || !equal(got, r) {
				t.Fatalf("%s %x with %d zero bytes = %+v, %v; want %+v", what, b, len(zeros), got, err, r)
			}
			full, err := encode(r)
			if err != nil {
				t.Fatalf("%s %x: encoding %+v: %v", what, b, r, err)
			}
			if got, err := parse(append(bytes.Clone(full), zeros...)); err != nil || !equal(got, r) {
				t.Fatalf("%s %x, full, with %d zero bytes = %+v, %v", what, full, len(zeros), got, err)
			}
			bad := append(append(bytes.Clone(full), make([]byte, int(k)%4096)...), x)
			want := "non-zero padding at byte " + strconv.Itoa(len(bad)-1)
			if _, err := parse(bad); !errors.Is(err, ErrBinaryHTTP) || !strings.Contains(err.Error(), want) {
				t.Fatalf("%s %x then %d zero bytes and %#x: %v; want %q", what, full, int(k)%4096, x, err, want)
			}
		}
		check("request",
			func(b []byte) (any, error) { return ParseRequest(b) },
			func(r any) ([]byte, error) { return AppendRequest(nil, r.(*Request)) },
			func(a, b any) bool { return equalRequest(a.(*Request), b.(*Request)) })
		check("response",
			func(b []byte) (any, error) { return ParseResponse(b) },
			func(r any) ([]byte, error) { return AppendResponse(nil, r.(*Response)) },
			func(a, b any) bool { return equalResponse(a.(*Response), b.(*Response)) })
	})
}

// FuzzGatewayOpen feeds encapsulated requests to the RFC 9458 example's
// gateway: nothing panics, every error has its sentinel, and only the
// example's request opens.
func FuzzGatewayOpen(f *testing.F) {
	good := unhex(f, rfc9458.encRequest)
	f.Add(good)                           // RFC 9458 Appendix A
	f.Add(good[:7])                       // the header alone
	f.Add(append([]byte{2}, good[1:]...)) // an unknown key ID
	f.Add([]byte{})                       // nothing
	g := rfcGateway(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		req, r, err := g.Open(b)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if !bytes.Equal(b, good) || !bytes.Equal(req, unhex(t, rfc9458.request)) {
			t.Fatalf("Open(%x) = %x", b, req)
		}
		if _, err := r.Seal(req); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzSenderOpen feeds encapsulated responses to the client of the RFC
// 9458 example's exchange: only the example's response opens.
func FuzzSenderOpen(f *testing.F) {
	good := unhex(f, rfc9458.encResponse)
	f.Add(good)      // RFC 9458 Appendix A
	f.Add(good[:32]) // a nonce and a tag's length, no more
	f.Add([]byte{})  // nothing
	s := &Sender{suite: Suite{1, 0x20, 1, 1}, enc: unhex(f, rfc9458.enc), secret: unhex(f, rfc9458.secret)}
	f.Fuzz(func(t *testing.T, b []byte) {
		pt, err := s.Open(b)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if !bytes.Equal(b, good) || !slices.Equal(pt, unhex(t, rfc9458.response)) {
			t.Fatalf("Open(%x) = %x", b, pt)
		}
	})
}
