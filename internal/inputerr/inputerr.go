// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package inputerr is the error type that ampcache, ampcache/cachetest and
// safebrowse share: a sentinel, the input it was found in, an optional
// detail and an optional cause, as net/netip's parseAddrError,
// strconv's NumError and net/url's Error hold theirs. Each package exports
// its own sentinels (whose messages begin with the package name); users
// test them, and the cause, with errors.Is and never see this type.
//
// A message is bounded whatever the input: it quotes at most the first
// [MaxQuoted] bytes of the input, then gives the input's length, and it is
// never longer than [MaxMessage] bytes.
package inputerr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	// MaxQuoted is how many bytes of the input a message quotes.
	MaxQuoted = 100
	// MaxMessage bounds the length of a message, in bytes.
	MaxMessage = 512
)

// Error is a sentinel found in an input, with an optional cause.
type Error struct {
	err    error
	field  string // the configuration field the input came from, or ""
	input  string // at most the first MaxQuoted bytes
	n      int    // the input's length
	detail string
	cause  error
}

// New returns an error wrapping the sentinel err for input, with an optional
// detail. It keeps at most the first [MaxQuoted] bytes of the input, cloned,
// and its length, so that a caller converting a []byte to a string pays no
// allocation unless an error is returned, and a huge input is not retained.
func New(err error, input, detail string) error {
	return &Error{err: err, input: clip(input), n: len(input), detail: detail}
}

// NewBytes is [New] for an input held as bytes: only the bytes it quotes
// are copied, however long the input.
func NewBytes(err error, input []byte, detail string) error {
	q := input[:min(len(input), MaxQuoted+1)] // one more, to cut at a rune
	return &Error{err: err, input: clip(string(q)), n: len(input), detail: detail}
}

// Wrap is like [New] with a cause, such as a transport error or
// context.Canceled: errors.Is finds both the sentinel and the cause, and the
// message ends with the cause's.
func Wrap(err error, input string, cause error) error {
	return &Error{err: err, input: clip(input), n: len(input), cause: cause}
}

// InField is like [Wrap] with a detail, for an input that came from a
// configuration field: the message names the field after the package,
// `ampcors: Config.Origins[2]: invalid origin "ftp://x": detail`. The cause
// may be nil.
func InField(err error, field, input, detail string, cause error) error {
	return &Error{err: err, field: field, input: clip(input), n: len(input), detail: detail, cause: cause}
}

// clip returns a clone of the first MaxQuoted bytes of s, cut back to the
// start of a UTF-8 sequence so that no rune is quoted in part.
func clip(s string) string {
	if len(s) <= MaxQuoted {
		return strings.Clone(s)
	}
	n := MaxQuoted
	for i := n; i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			n = i
			break
		}
	}
	return strings.Clone(s[:n])
}

// Clip returns the first [MaxQuoted] bytes of s, cut at a UTF-8 boundary,
// as a message quotes them: for a field documented to hold at most
// MaxQuoted bytes of an input, such as lookup.StatusError.Message, where
// [Quote]'s quotes and length do not belong.
func Clip(s string) string { return clip(s) }

// Quote returns s quoted as every message of the module quotes an input:
// at most its first [MaxQuoted] bytes, cut at a UTF-8 boundary, and, when
// s is longer, its length: `"aaaa…"... (10485760 bytes)`. Packages whose
// messages are not an [Error] (a list named in a hashlist error, a server's
// message in a lookup error) quote through it too.
func Quote(s string) string {
	return quoteClipped(clip(s), len(s))
}

// quoteClipped quotes c, the clipped form of an input of n bytes.
func quoteClipped(c string, n int) string {
	q := strconv.Quote(c)
	if n > len(c) {
		q += "... (" + strconv.Itoa(n) + " bytes)"
	}
	return q
}

// Error returns the sentinel's message, the quoted input, the detail and
// the cause's message: `ampcache: invalid punycode in "xn--99999a"`. A long
// input is quoted in part and its length given:
// `ampcache: input too long in "aaaa…"... (10485760 bytes)`. The message is
// cut to [MaxMessage] bytes.
func (e *Error) Error() string {
	var b strings.Builder
	if e.field != "" {
		pkg, rest, _ := strings.Cut(e.err.Error(), ": ")
		b.WriteString(pkg)
		b.WriteString(": ")
		b.WriteString(e.field)
		b.WriteString(": ")
		b.WriteString(rest)
		b.WriteString(" ")
	} else {
		b.WriteString(e.err.Error())
		b.WriteString(" in ")
	}
	b.WriteString(quoteClipped(e.input, e.n))
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	if e.cause != nil {
		b.WriteString(": ")
		b.WriteString(e.cause.Error())
	}
	return truncate(b.String())
}

// truncate cuts s to MaxMessage bytes at a UTF-8 boundary, ending it with
// "..." if it was cut.
func truncate(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	n := MaxMessage - len("...")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Unwrap returns the sentinel, and the cause if there is one, as
// [net/url.Error] keeps its cause.
func (e *Error) Unwrap() []error {
	if e.cause != nil {
		return []error{e.err, e.cause}
	}
	return []error{e.err}
}

// Field returns an error wrapping the sentinel err for a configuration
// option or field that has no input to quote: its message names the
// package, the option or field, and the reason, as
// "cachetest: WithRegistry: nil registry".
func Field(err error, pkg, field, reason string) error {
	return &fieldError{err: err, msg: pkg + ": " + field + ": " + reason}
}

type fieldError struct {
	err error
	msg string
}

func (e *fieldError) Error() string { return truncate(e.msg) }
func (e *fieldError) Unwrap() error { return e.err }
