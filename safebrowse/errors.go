package safebrowse

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. Every error returned by this package wraps one of them,
// for use with [errors.Is]. Messages begin with "safebrowse: " and quote the
// input.
var (
	// ErrEmpty reports an empty URL (after trimming).
	ErrEmpty = errors.New("safebrowse: empty URL")
	// ErrNoHost reports a URL without a host: "http:///path", "/path", "?q".
	ErrNoHost = errors.New("safebrowse: URL has no host")
	// ErrScheme reports a non-hierarchical scheme: "mailto:", "javascript:", "data:".
	ErrScheme = errors.New("safebrowse: unsupported scheme")
	// ErrTooLong reports a URL longer than 2 MiB, the bound Chromium sets.
	ErrTooLong = errors.New("safebrowse: URL too long")
	// ErrInvalidHost reports a host in brackets that is not an IPv6 address.
	ErrInvalidHost = errors.New("safebrowse: invalid host")
	// ErrInvalidURL reports any other malformed URL.
	ErrInvalidURL = errors.New("safebrowse: invalid URL")
)

// inputError is the one error type of this package: a sentinel, the input
// it was found in, and an optional detail.
type inputError struct {
	err    error
	input  string
	detail string
}

// newError returns an error wrapping the sentinel err for input. The input
// is cloned, so that a caller converting a []byte to a string pays no
// allocation unless an error is returned.
func newError(err error, input, detail string) error {
	return &inputError{err: err, input: strings.Clone(input), detail: detail}
}

func (e *inputError) Error() string {
	s := e.err.Error() + " in " + strconv.Quote(e.input)
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

func (e *inputError) Unwrap() error { return e.err }
