// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"slices"
	"strconv"
)

// Field is one field line of a Binary HTTP header or trailer section (RFC
// 9292 section 3.6). Names are lowercase tokens; a pseudo-field (":" then
// a token) other than those the control data carries may come first.
// Values hold no NUL, CR or LF.
type Field struct {
	Name  string
	Value string
}

// Request is an HTTP request as Binary HTTP carries it (RFC 9292 section
// 3): the control data, a header section, content and a trailer section.
// The Safe Browsing gateway takes GET, "https", the API's host, and the
// path with its query, "/v5/hashes:search?hashPrefixes=…&key=…".
type Request struct {
	Method    string // a token: "GET"
	Scheme    string // "https"; may be empty
	Authority string // "safebrowsing.googleapis.com"; may be empty
	Path      string // the path and query; may be empty
	Header    []Field
	Content   []byte
	Trailer   []Field
}

// Informational is an informational (1xx) response that comes before the
// final one (RFC 9292 section 3.5.1).
type Informational struct {
	Status int // 100 to 199
	Header []Field
}

// Response is an HTTP response as Binary HTTP carries it (RFC 9292 section
// 3): informational responses, if any, the final status, a header section,
// content and a trailer section.
type Response struct {
	Informational []Informational
	Status        int // 200 to 599
	Header        []Field
	Content       []byte
	Trailer       []Field
}

// Framing indicators (RFC 9292 section 3.3).
const (
	knownRequest         = 0
	knownResponse        = 1
	indeterminateRequest = 2
	indeterminateRes     = 3
)

// AppendRequest appends r as a known-length Binary HTTP request (RFC 9292
// section 3.1), in full: its empty sections are written, not truncated.
// Field names are written lowercase, as section 3.6 requires of an
// encoder. An invalid method, control data, field name or value is
// [ErrBinaryHTTP]; a message over [MaxMessageSize] or [MaxFields] is
// [ErrTooLarge]. Nothing is appended on error.
func AppendRequest(dst []byte, r *Request) ([]byte, error) {
	const what = "Binary HTTP request"
	if reason := checkMethod(r.Method); reason != "" {
		return dst, messageError(ErrBinaryHTTP, what, reason)
	}
	for _, p := range [...]struct{ name, v string }{{"scheme", r.Scheme}, {"authority", r.Authority}, {"path", r.Path}} {
		if reason := checkControl(p.name, p.v); reason != "" {
			return dst, messageError(ErrBinaryHTTP, what, reason)
		}
	}
	var e encoder
	if err := e.sections(what, r.Header, r.Trailer, len(r.Content)); err != nil {
		return dst, err
	}
	n := 1 + e.n
	for _, s := range [...]string{r.Method, r.Scheme, r.Authority, r.Path} {
		n += varintLen(uint64(len(s))) + len(s)
	}
	if err := checkSize(what, n, e.fields); err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, n)
	dst = append(dst, knownRequest)
	for _, s := range [...]string{r.Method, r.Scheme, r.Authority, r.Path} {
		dst = appendVarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return e.append(dst, r.Header, r.Content, r.Trailer), nil
}

// AppendResponse appends r as a known-length Binary HTTP response (RFC
// 9292 section 3.1), in full, as [AppendRequest] does. A status out of
// range is [ErrBinaryHTTP]: 200 to 599 for the final one, 100 to 199 for
// an informational one.
func AppendResponse(dst []byte, r *Response) ([]byte, error) {
	const what = "Binary HTTP response"
	if r.Status < 200 || r.Status > 599 {
		return dst, messageError(ErrBinaryHTTP, what, "final status "+strconv.Itoa(r.Status)+" out of 200 to 599")
	}
	var e encoder
	if err := e.sections(what, r.Header, r.Trailer, len(r.Content)); err != nil {
		return dst, err
	}
	n := 1 + varintLen(uint64(r.Status)) + e.n
	fields := e.fields + len(r.Informational)
	info := make([]int, len(r.Informational)) // section lengths
	for i, inf := range r.Informational {
		if inf.Status < 100 || inf.Status > 199 {
			return dst, messageError(ErrBinaryHTTP, what, "informational status "+strconv.Itoa(inf.Status)+" out of 100 to 199")
		}
		sec, count, err := sectionLen(what, inf.Header)
		if err != nil {
			return dst, err
		}
		info[i] = sec
		fields += count
		n += varintLen(uint64(inf.Status)) + varintLen(uint64(sec)) + sec
	}
	if err := checkSize(what, n, fields); err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, n)
	dst = append(dst, knownResponse)
	for i, inf := range r.Informational {
		dst = appendVarint(dst, uint64(inf.Status))
		dst = appendVarint(dst, uint64(info[i]))
		dst = appendFields(dst, inf.Header)
	}
	dst = appendVarint(dst, uint64(r.Status))
	return e.append(dst, r.Header, r.Content, r.Trailer), nil
}

// checkSize checks an encoded message's length and field count.
func checkSize(what string, n, fields int) error {
	if n > MaxMessageSize {
		return messageError(ErrTooLarge, what, strconv.Itoa(n)+" bytes, over "+strconv.Itoa(MaxMessageSize))
	}
	if fields > MaxFields {
		return messageError(ErrTooLarge, what, strconv.Itoa(fields)+" fields, over "+strconv.Itoa(MaxFields))
	}
	return nil
}

// encoder holds the lengths of a message's header section, content and
// trailer section.
type encoder struct {
	header, trailer int // section lengths
	n               int // their encoded length, with their length prefixes
	fields          int
}

func (e *encoder) sections(what string, header, trailer []Field, content int) error {
	var err error
	var hc, tc int
	if e.header, hc, err = sectionLen(what, header); err != nil {
		return err
	}
	if e.trailer, tc, err = sectionLen(what, trailer); err != nil {
		return err
	}
	e.fields = hc + tc
	e.n = varintLen(uint64(e.header)) + e.header +
		varintLen(uint64(content)) + content +
		varintLen(uint64(e.trailer)) + e.trailer
	return nil
}

func (e *encoder) append(dst []byte, header []Field, content []byte, trailer []Field) []byte {
	dst = appendVarint(dst, uint64(e.header))
	dst = appendFields(dst, header)
	dst = appendVarint(dst, uint64(len(content)))
	dst = append(dst, content...)
	dst = appendVarint(dst, uint64(e.trailer))
	return appendFields(dst, trailer)
}

// sectionLen checks the fields of a section for encoding and returns the
// length of their field lines and their count.
func sectionLen(what string, fields []Field) (int, int, error) {
	n := 0
	regular := false
	for _, f := range fields {
		if reason := checkField(f.Name, f.Value, true, &regular); reason != "" {
			return 0, 0, messageError(ErrBinaryHTTP, what, reason)
		}
		n += varintLen(uint64(len(f.Name))) + len(f.Name) + varintLen(uint64(len(f.Value))) + len(f.Value)
		if n > MaxMessageSize {
			return 0, 0, messageError(ErrTooLarge, what, "field section over "+strconv.Itoa(MaxMessageSize)+" bytes")
		}
	}
	return n, len(fields), nil
}

// appendFields appends field lines, names lowercased.
func appendFields(dst []byte, fields []Field) []byte {
	for _, f := range fields {
		dst = appendVarint(dst, uint64(len(f.Name)))
		for i := 0; i < len(f.Name); i++ {
			c := f.Name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
		}
		dst = appendVarint(dst, uint64(len(f.Value)))
		dst = append(dst, f.Value...)
	}
	return dst
}

// isTchar reports the token characters of RFC 9110 section 5.6.2.
var isTchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

// checkMethod returns why a method is invalid, or "": it must be a token.
func checkMethod(m string) string {
	if m == "" {
		return "empty method"
	}
	for i := 0; i < len(m); i++ {
		if !isTchar[m[i]] {
			return "byte 0x" + strconv.FormatUint(uint64(m[i]), 16) + " in the method"
		}
	}
	return ""
}

// checkControl returns why a scheme, authority or path is invalid, or "":
// it may hold no control byte, space or DEL, which no URI holds.
func checkControl(name, v string) string {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c == 0x7f {
			return "byte 0x" + strconv.FormatUint(uint64(c), 16) + " in the " + name
		}
	}
	return ""
}

// checkField returns why a field line is invalid, or "" (RFC 9292 section
// 3.6). A name is a token, lowercase when decoding (an encoder lowercases
// it), or ":" and a token for a pseudo-field, which comes before the
// section's other fields and is not one of those the control data holds.
// A value holds no NUL, CR or LF (RFC 9110 section 5.5). *regular records
// whether the section has had a regular field.
func checkField[T ~string | ~[]byte](name, value T, encoding bool, regular *bool) string {
	if len(name) == 0 {
		return "empty field name"
	}
	token := name
	pseudo := name[0] == ':'
	if pseudo {
		token = name[1:]
		if len(token) == 0 {
			return "empty pseudo-field name"
		}
	}
	for i := 0; i < len(token); i++ {
		c := token[i]
		if !isTchar[c] {
			return "byte 0x" + strconv.FormatUint(uint64(c), 16) + " in a field name"
		}
		if !encoding && 'A' <= c && c <= 'Z' {
			return "uppercase field name"
		}
	}
	if pseudo {
		if *regular {
			return "pseudo-field after a regular field"
		}
		switch len(token) {
		case 4, 6, 9:
			for _, p := range [...]string{"method", "scheme", "authority", "path", "status"} {
				if equalFoldASCII(token, p) {
					return "pseudo-field :" + p + " in a field section"
				}
			}
		}
	} else {
		*regular = true
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c == 0 || c == '\r' || c == '\n' {
			return "byte 0x" + strconv.FormatUint(uint64(c), 16) + " in a field value"
		}
	}
	return ""
}

// equalFoldASCII reports whether s, of ASCII letters, equals the lowercase
// word w, ignoring case.
func equalFoldASCII[T ~string | ~[]byte](s T, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}
