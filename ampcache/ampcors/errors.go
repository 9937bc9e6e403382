// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcors

import (
	"errors"

	"github.com/urlspec/urlspec/internal/inputerr"
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

// Bounds on an error message, those of every error in the module: the input
// is quoted up to maxQuoted bytes, and the whole message is cut at
// maxMessage bytes.
const (
	maxQuoted  = inputerr.MaxQuoted
	maxMessage = inputerr.MaxMessage
)
