// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The examples of RFC 9292 section 5,
// https://www.rfc-editor.org/rfc/rfc9292.html#section-5. Figures 8 and 13
// are re-derived by this package's encoder byte for byte; Figures 9 and
// 11 are decoded.
const (
	// Figure 8: the request of Figure 7, known-length.
	rfc9292Fig8 = "0003474554056874747073000a2f68656c6c6f2e747874406c0a757365722d6167656e74346375726c2f372e31362e33206c69626375726c2f372e31362e33204f70656e53534c2f302e392e376c207a6c69622f312e322e3304686f73740f7777772e6578616d706c652e636f6d0f6163636570742d6c616e677561676506656e2c206d690000"
	// Figure 9: the same request, indeterminate-length, with 10 bytes of
	// padding.
	rfc9292Fig9 = "0203474554056874747073000a2f68656c6c6f2e7478740a757365722d6167656e74346375726c2f372e31362e33206c69626375726c2f372e31362e33204f70656e53534c2f302e392e376c207a6c69622f312e322e3304686f73740f7777772e6578616d706c652e636f6d0f6163636570742d6c616e677561676506656e2c206d6900000000000000000000000000"
	// Figure 11: the response of Figure 10, indeterminate-length, with
	// informational responses 102 and 103.
	rfc9292Fig11 = "0340660772756e6e696e670a22736c65657020313522004067046c696e6b233c2f7374796c652e6373733e3b2072656c3d7072656c6f61643b2061733d7374796c65046c696e6b243c2f7363726970742e6a733e3b2072656c3d7072656c6f61643b2061733d7363726970740040c804646174651d4d6f6e2c203237204a756c20323030392031323a32383a353320474d5406736572766572064170616368650d6c6173742d6d6f6469666965641d5765642c203232204a756c20323030392031393a31353a353620474d5404657461671422333461613338372d642d3135363865623030220d6163636570742d72616e6765730562797465730e636f6e74656e742d6c656e67746802353104766172790f4163636570742d456e636f64696e670c636f6e74656e742d747970650a746578742f706c61696e003348656c6c6f20576f726c6421204d7920636f6e74656e7420696e636c75646573206120747261696c696e672043524c462e0d0a0000"
	// Figure 13: the response of Figure 12, known-length, with a trailer.
	rfc9292Fig13 = "0140c8001d5468697320636f6e74656e7420636f6e7461696e732043524c462e0d0a0d07747261696c65720474657874"
)

// rfc9292Request is the request of RFC 9292 Figure 7.
var rfc9292Request = &Request{
	Method: "GET", Scheme: "https", Path: "/hello.txt",
	Header: []Field{
		{"user-agent", "curl/7.16.3 libcurl/7.16.3 OpenSSL/0.9.7l zlib/1.2.3"},
		{"host", "www.example.com"},
		{"accept-language", "en, mi"},
	},
}

// rfc9292Response is the response of RFC 9292 Figure 10.
var rfc9292Response = &Response{
	Informational: []Informational{
		{Status: 102, Header: []Field{{"running", `"sleep 15"`}}},
		{Status: 103, Header: []Field{
			{"link", "</style.css>; rel=preload; as=style"},
			{"link", "</script.js>; rel=preload; as=script"},
		}},
	},
	Status: 200,
	Header: []Field{
		{"date", "Mon, 27 Jul 2009 12:28:53 GMT"},
		{"server", "Apache"},
		{"last-modified", "Wed, 22 Jul 2009 19:15:56 GMT"},
		{"etag", `"34aa387-d-1568eb00"`},
		{"accept-ranges", "bytes"},
		{"content-length", "51"},
		{"vary", "Accept-Encoding"},
		{"content-type", "text/plain"},
	},
	Content: []byte("Hello World! My content includes a trailing CRLF.\r\n"),
}

func TestParseRequest(t *testing.T) {
	tests := []struct {
		name    string
		in      string // hex
		want    *Request
		wantErr error
		msg     string // in the error's message
	}{
		// RFC 9292 Figure 8.
		{name: "fig8", in: rfc9292Fig8, want: rfc9292Request},
		// RFC 9292 Figure 9: indeterminate-length, padded.
		{name: "fig9", in: rfc9292Fig9, want: rfc9292Request},
		// Figure 8 without its empty trailer section: truncation.
		{name: "fig8-notrailer", in: rfc9292Fig8[:len(rfc9292Fig8)-2], want: rfc9292Request},
		// Figure 8 without its empty content and trailers.
		{name: "fig8-nocontent", in: rfc9292Fig8[:len(rfc9292Fig8)-4], want: rfc9292Request},
		// Figure 9 without its padding and last terminator.
		{name: "fig9-truncated", in: rfc9292Fig9[:len(rfc9292Fig9)-22], want: rfc9292Request},
		// Figure 8 padded with 400 zero bytes (RFC 9292 section 3.8).
		{name: "fig8-padded", in: rfc9292Fig8 + strings.Repeat("00", 400), want: rfc9292Request},
		// Figure 8 truncated after its header section, then padded: the
		// zeros are the empty content and trailers, then padding.
		{name: "fig8-truncated-padded", in: rfc9292Fig8[:len(rfc9292Fig8)-4] + strings.Repeat("00", 10), want: rfc9292Request},
		// RFC 9458 Appendix A's request, control data only, then padded.
		{name: "rfc9458-padded", in: "00034745540568747470730b6578616d706c652e636f6d012f" + strings.Repeat("00", 5), want: &Request{Method: "GET", Scheme: "https", Authority: "example.com", Path: "/"}},
		// RFC 9458 Appendix A: control data only.
		{name: "rfc9458", in: "00034745540568747470730b6578616d706c652e636f6d012f", want: &Request{Method: "GET", Scheme: "https", Authority: "example.com", Path: "/"}},
		// A two-byte framing indicator (RFC 9000 allows non-minimal).
		{name: "nonminimal", in: "4000034745540568747470730b6578616d706c652e636f6d012f", want: &Request{Method: "GET", Scheme: "https", Authority: "example.com", Path: "/"}},
		// Content and trailer, known-length.
		{name: "content", in: "0004504f5354000001780004626f6479050274650101", want: &Request{Method: "POST", Path: "x", Content: []byte("body"), Trailer: []Field{{"te", "\x01"}}}},
		// Indeterminate content in two chunks.
		{name: "chunks", in: "02034745540000000002626f0264790000", want: &Request{Method: "GET", Content: []byte("body")}},
		// A pseudo-field from an extension, before the regular fields.
		{name: "pseudo", in: "00034745540000000c093a70726f746f636f6c0178", want: &Request{Method: "GET", Header: []Field{{":protocol", "x"}}}},
		// An empty value.
		{name: "emptyvalue", in: "00034745540000000402617800", want: &Request{Method: "GET", Header: []Field{{"ax", ""}}}},

		// Nothing.
		{name: "empty", in: "", wantErr: ErrBinaryHTTP},
		// A response's framing indicator.
		{name: "response", in: rfc9292Fig13, wantErr: ErrBinaryHTTP},
		// An unknown framing indicator.
		{name: "framing4", in: "04", wantErr: ErrBinaryHTTP},
		// Truncated within the control data.
		{name: "control", in: "0003474554056874", wantErr: ErrBinaryHTTP},
		// Truncated within the header section.
		{name: "header", in: rfc9292Fig8[:80], wantErr: ErrBinaryHTTP},
		// Indeterminate, truncated within the header section.
		{name: "indeterminate-header", in: rfc9292Fig9[:80], wantErr: ErrBinaryHTTP},
		// Indeterminate, truncated within the content.
		{name: "indeterminate-content", in: "02034745540000000000026279", wantErr: ErrBinaryHTTP},
		// Non-zero padding.
		{name: "padding", in: rfc9292Fig8 + "0001", wantErr: ErrBinaryHTTP, msg: "non-zero padding"},
		// Non-zero padding at the end of a long run of zeros, at its offset.
		{name: "padding-late", in: rfc9292Fig8 + strings.Repeat("00", 400) + "80", wantErr: ErrBinaryHTTP, msg: "non-zero padding at byte 535"},
		// Zero padding can stand for no part of the control data: an empty
		// method.
		{name: "padding-control", in: "00" + strings.Repeat("00", 16), wantErr: ErrBinaryHTTP, msg: "empty method"},
		// An empty method.
		{name: "nomethod", in: "0000000000", wantErr: ErrBinaryHTTP},
		// A space in the method.
		{name: "method", in: "000447204554000000", wantErr: ErrBinaryHTTP, msg: "byte 0x20 in the method"},
		// A space in the path.
		{name: "path", in: "0003474554000002612062", wantErr: ErrBinaryHTTP, msg: "byte 0x20 in the path"},
		// An uppercase field name, which RFC 9292 section 3.6 makes invalid.
		{name: "uppercase", in: "0003474554000000050241780178", wantErr: ErrBinaryHTTP, msg: "uppercase field name"},
		// A field name that is not a token.
		{name: "nametoken", in: "000347455400000006036120620178", wantErr: ErrBinaryHTTP, msg: "byte 0x20 in a field name"},
		// An empty field name in a known-length section.
		{name: "emptyname", in: "000347455400000003000178", wantErr: ErrBinaryHTTP, msg: "empty field name"},
		// CR LF in a field value (RFC 9110 section 5.5).
		{name: "crlf", in: "000347455400000007016104610d0a62", wantErr: ErrBinaryHTTP, msg: "byte 0xd in a field value"},
		// :path as a field (RFC 9292 section 3.6).
		{name: "path-field", in: "000347455400000008053a70617468012f", wantErr: ErrBinaryHTTP, msg: "pseudo-field :path"},
		// A pseudo-field after a regular field.
		{name: "pseudo-late", in: "00034745540000000a0161017803 3a7878 0178", wantErr: ErrBinaryHTTP, msg: "pseudo-field after"},
		// A field section whose lines overrun it.
		{name: "overrun", in: "00034745540000000401610278", wantErr: ErrBinaryHTTP, msg: "field value overruns"},
		// A content length past the end.
		{name: "contentlength", in: "0003474554000000003fffffff", wantErr: ErrBinaryHTTP},
		// A header section length of 2^62-1.
		{name: "hugesection", in: "0003474554000000ffffffffffffffff", wantErr: ErrBinaryHTTP},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRequest(unhex(t, strings.ReplaceAll(tt.in, " ", "")))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("ParseRequest = %+v, %v; want %v with %q", got, err, tt.wantErr, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalRequest(got, tt.want) {
				t.Errorf("ParseRequest = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseResponse(t *testing.T) {
	tests := []struct {
		name    string
		in      string // hex
		want    *Response
		wantErr error
		msg     string // in the error's message
	}{
		// RFC 9292 Figure 11: informational responses, indeterminate.
		{name: "fig11", in: rfc9292Fig11, want: rfc9292Response},
		// RFC 9292 Figure 13: a trailer.
		{name: "fig13", in: rfc9292Fig13, want: &Response{Status: 200, Content: []byte("This content contains CRLF.\r\n"), Trailer: []Field{{"trailer", "text"}}}},
		// RFC 9458 Appendix A: 200 and nothing else, truncated.
		{name: "rfc9458", in: "0140c8", want: &Response{Status: 200}},
		// The same, in full and padded.
		{name: "full", in: "0140c8000000000000", want: &Response{Status: 200}},
		// A known-length informational response.
		{name: "informational", in: "014064040161017841f4", want: &Response{Informational: []Informational{{Status: 100, Header: []Field{{"a", "x"}}}}, Status: 500}},

		// A request's framing indicator.
		{name: "request", in: "00", wantErr: ErrBinaryHTTP},
		// A final status of 600.
		{name: "600", in: "014258", wantErr: ErrBinaryHTTP},
		// A status of 99.
		{name: "99", in: "014063", wantErr: ErrBinaryHTTP},
		// Truncated after an informational status.
		{name: "informational-truncated", in: "014064", wantErr: ErrBinaryHTTP},
		// No final status.
		{name: "nostatus", in: "01406400", wantErr: ErrBinaryHTTP},
		// Truncated within the status.
		{name: "status", in: "0140", wantErr: ErrBinaryHTTP},
		// :status as a field.
		{name: "status-field", in: "0140c80a073a737461747573013200", wantErr: ErrBinaryHTTP, msg: "pseudo-field :status"},
		// Non-zero padding after a full message.
		{name: "padding", in: "0140c800000001", wantErr: ErrBinaryHTTP, msg: "non-zero padding"},
		// Figure 13 padded, then a non-zero byte.
		{name: "padding-late", in: rfc9292Fig13 + strings.Repeat("00", 100) + "01", wantErr: ErrBinaryHTTP, msg: "non-zero padding at byte 148"},
		// Figure 13 padded with 500 zero bytes.
		{name: "fig13-padded", in: rfc9292Fig13 + strings.Repeat("00", 500), want: &Response{Status: 200, Content: []byte("This content contains CRLF.\r\n"), Trailer: []Field{{"trailer", "text"}}}},
		// Figure 11, indeterminate with informational responses, padded.
		{name: "fig11-padded", in: rfc9292Fig11 + strings.Repeat("00", 64), want: rfc9292Response},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResponse(unhex(t, tt.in))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("ParseResponse = %+v, %v; want %v with %q", got, err, tt.wantErr, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalResponse(got, tt.want) {
				t.Errorf("ParseResponse = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestAppendRFC9292 encodes the examples of RFC 9292 that are
// known-length, and RFC 9458's response in full.
func TestAppendRFC9292(t *testing.T) {
	got, err := AppendRequest(nil, rfc9292Request)
	if err != nil || !bytes.Equal(got, unhex(t, rfc9292Fig8)) {
		t.Errorf("AppendRequest(Figure 7) = %x, %v; want %s", got, err, rfc9292Fig8)
	}
	r13 := &Response{Status: 200, Content: []byte("This content contains CRLF.\r\n"), Trailer: []Field{{"trailer", "text"}}}
	got, err = AppendResponse(nil, r13)
	if err != nil || !bytes.Equal(got, unhex(t, rfc9292Fig13)) {
		t.Errorf("AppendResponse(Figure 12) = %x, %v; want %s", got, err, rfc9292Fig13)
	}
	got, err = AppendResponse(nil, &Response{Status: 200})
	if want := "0140c8000000"; err != nil || !bytes.Equal(got, unhex(t, want)) {
		t.Errorf("AppendResponse(200) = %x, %v; want %s", got, err, want)
	}
	// Figure 10 in known-length form reads back the same.
	got, err = AppendResponse(nil, rfc9292Response)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ParseResponse(got); err != nil || !equalResponse(back, rfc9292Response) {
		t.Errorf("ParseResponse(AppendResponse(Figure 10)) = %+v, %v", back, err)
	}
}

func TestAppendRequestErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      Request
		want    string // hex, when wantErr is nil
		wantErr error
	}{
		// Field names are lowercased, as RFC 9292 section 3.6 requires.
		{name: "lowercase", in: Request{Method: "GET", Header: []Field{{"Accept", "x"}}}, want: "0003474554000000090661636365707401780000"},
		// An empty method.
		{name: "nomethod", in: Request{}, wantErr: ErrBinaryHTTP},
		// A method that is not a token.
		{name: "method", in: Request{Method: "G T"}, wantErr: ErrBinaryHTTP},
		// A newline in the path.
		{name: "path", in: Request{Method: "GET", Path: "/\n"}, wantErr: ErrBinaryHTTP},
		// A space in the authority.
		{name: "authority", in: Request{Method: "GET", Authority: "a b"}, wantErr: ErrBinaryHTTP},
		// An empty field name.
		{name: "emptyname", in: Request{Method: "GET", Header: []Field{{"", "x"}}}, wantErr: ErrBinaryHTTP},
		// A field name with a colon inside.
		{name: "colon", in: Request{Method: "GET", Header: []Field{{"a:b", "x"}}}, wantErr: ErrBinaryHTTP},
		// A value with a NUL.
		{name: "nul", in: Request{Method: "GET", Trailer: []Field{{"a", "\x00"}}}, wantErr: ErrBinaryHTTP},
		// :Method as a field, in any case.
		{name: "pseudo", in: Request{Method: "GET", Header: []Field{{":Method", "GET"}}}, wantErr: ErrBinaryHTTP},
		// Content over MaxMessageSize.
		{name: "large", in: Request{Method: "GET", Content: make([]byte, MaxMessageSize)}, wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []byte("x")
			got, err := AppendRequest(dst, &tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || string(got) != "x" {
					t.Fatalf("AppendRequest = %x, %v; want %v and dst unchanged", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !bytes.Equal(got[1:], unhex(t, tt.want)) {
				t.Errorf("AppendRequest = %x, %v; want %s", got[1:], err, tt.want)
			}
		})
	}
}

// TestMaxFields checks that a message of MaxFields fields is read and one
// more is ErrTooLarge, both ways.
func TestMaxFields(t *testing.T) {
	r := &Request{Method: "GET", Header: make([]Field, MaxFields)}
	for i := range r.Header {
		r.Header[i] = Field{"a", "b"}
	}
	b, err := AppendRequest(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseRequest(b); err != nil || len(got.Header) != MaxFields {
		t.Fatalf("ParseRequest of %d fields: %v", MaxFields, err)
	}
	r.Trailer = []Field{{"a", "b"}}
	if _, err := AppendRequest(nil, r); !errors.Is(err, ErrTooLarge) {
		t.Errorf("AppendRequest of %d fields: %v, want ErrTooLarge", MaxFields+1, err)
	}
	b = append(b[:len(b)-1], 3, 1, 'a', 0) // the trailer: one more field
	if _, err := ParseRequest(b); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseRequest of %d fields: %v, want ErrTooLarge", MaxFields+1, err)
	}
	if _, err := ParseRequest(make([]byte, MaxMessageSize+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseRequest of MaxMessageSize+1 bytes: %v, want ErrTooLarge", err)
	}
}

// equalRequest compares requests, nil and empty slices alike.
func equalRequest(a, b *Request) bool {
	return a.Method == b.Method && a.Scheme == b.Scheme && a.Authority == b.Authority && a.Path == b.Path &&
		equalFields(a.Header, b.Header) && bytes.Equal(a.Content, b.Content) && equalFields(a.Trailer, b.Trailer)
}

func equalResponse(a, b *Response) bool {
	if len(a.Informational) != len(b.Informational) {
		return false
	}
	for i := range a.Informational {
		if a.Informational[i].Status != b.Informational[i].Status || !equalFields(a.Informational[i].Header, b.Informational[i].Header) {
			return false
		}
	}
	return a.Status == b.Status && equalFields(a.Header, b.Header) && bytes.Equal(a.Content, b.Content) && equalFields(a.Trailer, b.Trailer)
}

func equalFields(a, b []Field) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
