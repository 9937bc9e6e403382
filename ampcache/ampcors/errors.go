// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors of [New]. Every error New returns wraps exactly one of
// them, so callers can test the kind of mistake with [errors.Is]. The
// message begins with "ampcors: ", names the field of [Config] at fault,
// such as "Config.Origins[2]", and quotes at most the first 100 bytes of
// the value.
var (
	// ErrEmpty reports a Config with no Origins.
	ErrEmpty = errors.New("ampcors: empty")
	// ErrInvalidOrigin reports an entry of Config.Origins that is not an
	// http or https origin, or whose host has no AMP Cache domain prefix.
	// When the prefix is the reason, the error also wraps ampcache's.
	ErrInvalidOrigin = errors.New("ampcors: invalid origin")
	// ErrTooLong reports an entry of Config.Origins longer than an origin
	// can be.
	ErrTooLong = errors.New("ampcors: too long")
	// ErrInvalidSender reports an entry of Config.EmailSenders that is not
	// an email address that fits in one header value.
	ErrInvalidSender = errors.New("ampcors: invalid email sender")
)

// Bounds on an error message: the input is quoted up to maxQuoted bytes,
// and the whole message is cut at maxMessage bytes.
const (
	maxQuoted  = 100
	maxMessage = 512
)

// configError is a mistake in one field of a Config.
type configError struct {
	field  string // "Config.Origins[2]"
	err    error  // the sentinel
	input  string // the value, already cut to maxQuoted bytes
	size   int    // the value's length, or -1 for none to quote
	detail string
	cause  error // an ampcache error, or nil
}

// newConfigError returns the error err in field for the value input, with
// an optional detail and cause. It keeps at most maxQuoted bytes of input.
func newConfigError(field string, err error, input string, detail string, cause error) error {
	e := &configError{field: field, err: err, size: len(input), detail: detail, cause: cause}
	if len(input) > maxQuoted {
		input = input[:maxQuoted]
	}
	e.input = strings.Clone(input)
	return e
}

// Error returns `ampcors: Config.Origins[2]: invalid origin "ftp://x": ...`.
// A value longer than 100 bytes is quoted up to its 100th byte, then
// followed by its length.
func (e *configError) Error() string {
	var b strings.Builder
	b.WriteString("ampcors: ")
	b.WriteString(e.field)
	b.WriteString(": ")
	b.WriteString(strings.TrimPrefix(e.err.Error(), "ampcors: "))
	if e.size >= 0 {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(e.input))
		if e.size > len(e.input) {
			b.WriteString("... (")
			b.WriteString(strconv.Itoa(e.size))
			b.WriteString(" bytes)")
		}
	}
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	if e.cause != nil {
		b.WriteString(": ")
		b.WriteString(e.cause.Error())
	}
	s := b.String()
	if len(s) > maxMessage {
		s = s[:maxMessage-len("...")] + "..."
	}
	return s
}

// Unwrap returns the sentinel and, if there is one, the cause.
func (e *configError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.err}
	}
	return []error{e.err, e.cause}
}
