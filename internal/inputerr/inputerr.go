// Package inputerr is the error type that ampcache, ampcache/cachetest and
// safebrowse share: a sentinel, the input it was found in, and an optional
// detail, as net/netip's parseAddrError and strconv's NumError hold theirs.
// Each package exports its own sentinels (whose messages begin with the
// package name); users test them with errors.Is and never see this type.
package inputerr

import (
	"strconv"
	"strings"
)

// Error is a sentinel found in an input.
type Error struct {
	err    error
	input  string
	detail string
}

// New returns an error wrapping the sentinel err for input, with an optional
// detail. The input is cloned, so that a caller converting a []byte to a
// string pays no allocation unless an error is returned.
func New(err error, input, detail string) error {
	return &Error{err: err, input: strings.Clone(input), detail: detail}
}

// Error returns the sentinel's message, the quoted input and the detail:
// `ampcache: invalid punycode in "xn--99999a"`.
func (e *Error) Error() string {
	s := e.err.Error() + " in " + strconv.Quote(e.input)
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.err }
