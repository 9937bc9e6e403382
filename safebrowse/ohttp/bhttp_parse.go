// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import "strconv"

// ParseRequest decodes a Binary HTTP request (RFC 9292), known-length or
// indeterminate-length. As section 3.8 allows, the message may be
// truncated where a section or the content would begin, and the missing
// parts are empty; it may be followed by zero bytes of padding, but not
// by anything else. An invalid message is [ErrBinaryHTTP]; one over
// [MaxMessageSize] or [MaxFields] is [ErrTooLarge]. The Request does not
// retain b.
func ParseRequest(b []byte) (*Request, error) {
	d := decoder{b: b, what: "Binary HTTP request"}
	if len(b) > MaxMessageSize {
		return nil, d.tooLarge(strconv.Itoa(len(b)) + " bytes, over " + strconv.Itoa(MaxMessageSize))
	}
	framing, err := d.varint("framing indicator")
	if err != nil {
		return nil, err
	}
	if framing != knownRequest && framing != indeterminateRequest {
		return nil, d.invalid(0, "framing indicator "+strconv.FormatUint(framing, 10)+" is not a request")
	}
	d.indeterminate = framing == indeterminateRequest
	// Control data: four length-prefixed strings, read into one string.
	start := d.off
	var ends [4]int
	for i, name := range [...]string{"method", "scheme", "authority", "path"} {
		if _, err := d.prefixed(name); err != nil {
			return nil, err
		}
		ends[i] = d.off
	}
	control := string(b[start:d.off])
	var parts [4]string
	off := start
	for i, end := range ends {
		_, n := consumeVarint(b[off:])
		parts[i] = control[off+n-start : end-start]
		off = end
	}
	r := &Request{Method: parts[0], Scheme: parts[1], Authority: parts[2], Path: parts[3]}
	if reason := checkMethod(r.Method); reason != "" {
		return nil, d.invalid(start, reason)
	}
	for i, name := range [...]string{"scheme", "authority", "path"} {
		if reason := checkControl(name, parts[i+1]); reason != "" {
			return nil, d.invalid(start, reason)
		}
	}
	if r.Header, r.Content, r.Trailer, err = d.rest(); err != nil {
		return nil, err
	}
	return r, nil
}

// ParseResponse decodes a Binary HTTP response (RFC 9292), known-length or
// indeterminate-length, with its informational responses, truncation and
// padding as [ParseRequest] takes them. The final status must be 200 to
// 599, an informational one 100 to 199.
func ParseResponse(b []byte) (*Response, error) {
	d := decoder{b: b, what: "Binary HTTP response"}
	if len(b) > MaxMessageSize {
		return nil, d.tooLarge(strconv.Itoa(len(b)) + " bytes, over " + strconv.Itoa(MaxMessageSize))
	}
	framing, err := d.varint("framing indicator")
	if err != nil {
		return nil, err
	}
	if framing != knownResponse && framing != indeterminateRes {
		return nil, d.invalid(0, "framing indicator "+strconv.FormatUint(framing, 10)+" is not a response")
	}
	d.indeterminate = framing == indeterminateRes
	r := &Response{}
	for {
		off := d.off
		status, err := d.varint("status")
		if err != nil {
			return nil, err
		}
		if status >= 200 && status <= 599 {
			r.Status = int(status)
			break
		}
		if status < 100 || status > 199 {
			return nil, d.invalid(off, "status "+strconv.FormatUint(status, 10)+" out of 100 to 599")
		}
		if d.fields++; d.fields > MaxFields {
			return nil, d.tooLarge("over " + strconv.Itoa(MaxFields) + " fields")
		}
		if d.done() {
			return nil, d.invalid(d.off, "truncated after an informational response")
		}
		h, err := d.section("informational header section")
		if err != nil {
			return nil, err
		}
		r.Informational = append(r.Informational, Informational{Status: int(status), Header: h})
	}
	if r.Header, r.Content, r.Trailer, err = d.rest(); err != nil {
		return nil, err
	}
	return r, nil
}

// decoder reads a Binary HTTP message.
type decoder struct {
	b             []byte
	off           int
	what          string // "Binary HTTP request"
	indeterminate bool
	fields        int // field lines so far, and informational responses
}

func (d *decoder) invalid(off int, reason string) error {
	return messageError(ErrBinaryHTTP, d.what, reason+at(off))
}

func (d *decoder) tooLarge(reason string) error {
	return messageError(ErrTooLarge, d.what, reason)
}

func (d *decoder) done() bool { return d.off == len(d.b) }

// varint reads a variable-length integer.
func (d *decoder) varint(name string) (uint64, error) {
	v, n := consumeVarint(d.b[d.off:])
	if n < 0 {
		return 0, d.invalid(d.off, "truncated "+name)
	}
	d.off += n
	return v, nil
}

// prefixed reads a length-prefixed string of bytes.
func (d *decoder) prefixed(name string) ([]byte, error) {
	n, err := d.varint(name + " length")
	if err != nil {
		return nil, err
	}
	if n > uint64(len(d.b)-d.off) {
		return nil, d.invalid(d.off, "truncated "+name)
	}
	v := d.b[d.off : d.off+int(n)]
	d.off += int(n)
	return v, nil
}

// rest reads the header section, the content and the trailer section,
// any of which may be truncated away with what follows it, and then the
// padding.
func (d *decoder) rest() (header []Field, content []byte, trailer []Field, err error) {
	if d.done() {
		return nil, nil, nil, nil
	}
	if header, err = d.section("header section"); err != nil || d.done() {
		return header, nil, nil, err
	}
	if content, err = d.content(); err != nil || d.done() {
		return header, content, nil, err
	}
	if trailer, err = d.section("trailer section"); err != nil {
		return nil, nil, nil, err
	}
	for i := d.off; i < len(d.b); i++ {
		if d.b[i] != 0 {
			return nil, nil, nil, d.invalid(i, "non-zero padding")
		}
	}
	return header, content, trailer, nil
}

// section reads a field section: a length and field lines, or field
// lines and a zero, as the framing says.
func (d *decoder) section(name string) ([]Field, error) {
	if !d.indeterminate {
		lines, err := d.prefixed(name)
		if err != nil {
			return nil, err
		}
		return d.fieldLines(name, lines, d.off-len(lines))
	}
	// Find the terminator, a zero where a name length would be.
	start, end := d.off, d.off
	for {
		n, err := d.varint(name)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		if n > uint64(len(d.b)-d.off) {
			return nil, d.invalid(d.off, "truncated field name")
		}
		d.off += int(n)
		if _, err := d.prefixed("field value"); err != nil {
			return nil, err
		}
		end = d.off
	}
	return d.fieldLines(name, d.b[start:end], start)
}

// fieldLines checks and counts the field lines in b, which starts at off
// in the message, then returns them, their names and values cut from one
// string.
func (d *decoder) fieldLines(name string, b []byte, off int) ([]Field, error) {
	count := 0
	regular := false
	for i := 0; i < len(b); {
		nl, n := consumeVarint(b[i:])
		if n < 0 || nl > uint64(len(b)-i-n) {
			return nil, d.invalid(off+i, "field name overruns the "+name)
		}
		if nl == 0 {
			return nil, d.invalid(off+i, "empty field name")
		}
		ni := i + n
		i = ni + int(nl)
		vl, n := consumeVarint(b[i:])
		if n < 0 || vl > uint64(len(b)-i-n) {
			return nil, d.invalid(off+i, "field value overruns the "+name)
		}
		vi := i + n
		i = vi + int(vl)
		if reason := checkField(b[ni:ni+int(nl)], b[vi:i], false, &regular); reason != "" {
			return nil, d.invalid(off+ni, reason)
		}
		count++
		if d.fields+count > MaxFields {
			return nil, d.tooLarge("over " + strconv.Itoa(MaxFields) + " fields")
		}
	}
	d.fields += count
	if count == 0 {
		return nil, nil
	}
	s := string(b)
	fields := make([]Field, 0, count)
	for i := 0; i < len(s); {
		nl, n := consumeVarint(b[i:])
		name := s[i+n : i+n+int(nl)]
		i += n + int(nl)
		vl, n := consumeVarint(b[i:])
		fields = append(fields, Field{Name: name, Value: s[i+n : i+n+int(vl)]})
		i += n + int(vl)
	}
	return fields, nil
}

// content reads the content: a length and bytes, or chunks, each a
// non-zero length and bytes, and a zero, as the framing says. The result
// is a copy.
func (d *decoder) content() ([]byte, error) {
	if !d.indeterminate {
		c, err := d.prefixed("content")
		if err != nil || len(c) == 0 {
			return nil, err
		}
		return append([]byte(nil), c...), nil
	}
	var c []byte
	for {
		chunk, err := d.prefixed("content chunk")
		if err != nil {
			return nil, err
		}
		if len(chunk) == 0 {
			return c, nil
		}
		c = append(c, chunk...)
	}
}
