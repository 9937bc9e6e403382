// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"net/url"
	"strings"
)

// The API key is masked where each error is made: an error that comes
// from elsewhere (the transport, the hashlist package) and may hold text
// the server chose goes through scrub before the package wraps it, and a
// server's message is masked before it is clipped. So no error in a
// chain shows the key, at any Unwrap depth, in any format.

// masked replaces the API key in error texts and log lines.
const masked = "REDACTED"

// mask replaces in s every occurrence of key, raw or escaped, in any
// ASCII case: a server that echoes the key lower-cased (in a list name,
// whose rule is lower case) or with its escapes in lower-case hex shows
// it as surely as one that echoes it whole.
func mask(s, key string) string {
	if key == "" {
		return s
	}
	s = replaceFold(s, key)
	if q := url.QueryEscape(key); q != key {
		s = replaceFold(s, q)
	}
	if p := url.PathEscape(key); p != key {
		s = replaceFold(s, p)
	}
	return s
}

// replaceFold returns s with every occurrence of old, matched in any
// ASCII case, replaced by masked, left to right as strings.ReplaceAll
// does. old is not empty.
func replaceFold(s, old string) string {
	ls, lo := lowerASCII(s), lowerASCII(old)
	i := strings.Index(ls, lo)
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		b.WriteString(masked)
		s, ls = s[i+len(old):], ls[i+len(old):]
		i = strings.Index(ls, lo)
	}
	b.WriteString(s)
	return b.String()
}

// lowerASCII returns s with A-Z lowered and every other byte kept, so
// that its offsets are those of s (strings.ToLower may change lengths).
func lowerASCII(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return s
	}
	b := []byte(s)
	for j := i; j < len(b); j++ {
		if 'A' <= b[j] && b[j] <= 'Z' {
			b[j] += 'a' - 'A'
		}
	}
	return string(b)
}

// shows reports whether s shows the key, raw or escaped, in any ASCII
// case.
func shows(s, key string) bool { return mask(s, key) != s }

// scrub returns err with the key masked at every depth. The URL of each
// *url.Error in the chain is masked in place, so that errors.As still
// finds it; any other error that shows the key, in its text or its Go
// syntax (%#v), or that wraps one that does, is replaced by a
// *maskedError of its text masked, wrapping its errors scrubbed in turn,
// so that errors.Is still finds context.Canceled and the sentinels.
func scrub(err error, key string) error {
	if key == "" {
		return err
	}
	return scrubDepth(err, key, 0)
}

func scrubDepth(err error, key string, depth int) error {
	if err == nil {
		return nil
	}
	if ue, ok := err.(*url.Error); ok && depth <= maxDepth {
		ue.URL = mask(ue.URL, key)
		ue.Err = scrubDepth(ue.Err, key, depth+1)
	}
	if !chainShows(err, key, depth) {
		return err
	}
	var errs []error
	if depth < maxDepth {
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			if e := u.Unwrap(); e != nil {
				errs = []error{scrubDepth(e, key, depth+1)}
			}
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				errs = append(errs, scrubDepth(e, key, depth+1))
			}
		}
	}
	return &maskedError{msg: mask(err.Error(), key), errs: errs}
}

// maxDepth bounds the walk of an error chain: what lies deeper is masked
// as text, its errors dropped.
const maxDepth = 32

// chainShows reports whether err, or an error it wraps, shows the key.
func chainShows(err error, key string, depth int) bool {
	if depth >= maxDepth {
		return true
	}
	for _, verb := range []string{"%v", "%+v", "%#v"} {
		if shows(fmt.Sprintf(verb, err), key) {
			return true
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if e := u.Unwrap(); e != nil {
			return chainShows(e, key, depth+1)
		}
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if e != nil && chainShows(e, key, depth+1) {
				return true
			}
		}
	}
	return false
}

// A maskedError stands for an error that showed the API key: its text
// with the key masked, and the errors it wrapped, scrubbed.
type maskedError struct {
	msg  string
	errs []error
}

func (e *maskedError) Error() string   { return e.msg }
func (e *maskedError) Unwrap() []error { return e.errs }

// scrub masks the client's API key in err: see [scrub].
func (c *Client) scrub(err error) error { return scrub(err, c.key) }
