// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"strconv"
	"strings"
)

// A BatchError is the error of [Client.LookupAll]: the URLs that could not
// be checked. Errs has one entry per URL given, in order: nil where the
// check completed, else the URL's error, as [Client.Lookup] would return
// it. So a caller pairs each URL with its error by position:
//
//	vs, err := c.LookupAll(ctx, urls)
//	var be *lookup.BatchError
//	if errors.As(err, &be) {
//		for i, err := range be.Errs { ... }
//	}
//
// errors.Is and errors.As look through every failed URL's error, so that
// errors.Is(err, lookup.ErrNotReady) holds when no URL was checked.
type BatchError struct {
	Errs []error
}

// Error returns the first failed URL's error, naming its index, and how
// many more failed: one line, however many URLs were given.
func (e *BatchError) Error() string {
	first, n := -1, 0
	for i, err := range e.Errs {
		if err != nil {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return "lookup: no URL failed"
	}
	s := "lookup: URL " + strconv.Itoa(first) + ": " + strings.TrimPrefix(e.Errs[first].Error(), "lookup: ")
	switch n {
	case 1:
		return s
	case 2:
		return s + " (and 1 more URL failed)"
	}
	return s + " (and " + strconv.Itoa(n-1) + " more URLs failed)"
}

// Unwrap returns the errors of the URLs that failed, in order.
func (e *BatchError) Unwrap() []error {
	var out []error
	for _, err := range e.Errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// batchError returns errs as a *BatchError, or nil if every entry is nil.
func batchError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return &BatchError{Errs: errs}
		}
	}
	return nil
}
