// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"strings"

	"github.com/urlspec/urlspec/internal/host"
)

// maxURLLen bounds the URLs that CacheURL and SourceURL read: Chromium's
// url::kMaxURLChars, 2 MiB. No browser navigates to a longer URL.
const maxURLLen = 2 << 20

// urlParts are the parts of an absolute http or https URL that the cache
// URL format moves around.
type urlParts struct {
	https   bool   // the scheme is https, else http
	host    string // the host, as it is in the URL
	port    int    // the port, if hasPort
	hasPort bool   // the URL has a non-empty port
	rest    string // the path, query and fragment, byte for byte
}

// splitURL splits rawURL, an absolute http or https URL with an authority,
// into its parts, scanning it as the WHATWG URL parser scans a special URL:
// the scheme is case-insensitive, "\" is read as "/" in "//" and at the end
// of the authority, and the port follows host.Port (ASCII digits, leading
// zeros allowed, at most 65535), with an empty port the same as none. It departs from a browser in rejecting what it would
// repair or hide, so that no URL is silently rewritten (see "Cache URLs" in
// the package documentation): any ASCII control character or DEL, fewer
// or more than two slashes after the scheme, userinfo, an IPv6 literal,
// and a port above 65535. It does not look at the host's bytes.
func splitURL(rawURL string) (urlParts, error) {
	var u urlParts
	switch {
	case rawURL == "":
		return u, newError(ErrEmpty, rawURL, "")
	case len(rawURL) > maxURLLen:
		return u, newError(ErrTooLong, rawURL, "longer than 2 MiB")
	}
	if i := indexControl(rawURL); i >= 0 {
		return u, newError(ErrInvalidURL, rawURL, "control character "+quoteByte(rawURL[i]))
	}
	var rest string
	switch {
	case host.HasPrefixFold(rawURL, "https:"):
		u.https, rest = true, rawURL[len("https:"):]
	case host.HasPrefixFold(rawURL, "http:"):
		rest = rawURL[len("http:"):]
	default:
		return u, newError(ErrInvalidURL, rawURL, "not an http or https URL")
	}
	if len(rest) < 2 || !isSlash(rest[0]) || !isSlash(rest[1]) || len(rest) > 2 && isSlash(rest[2]) {
		return u, newError(ErrInvalidURL, rawURL, `want "//" and a host after the scheme`)
	}
	rest = rest[2:]
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '\\' || c == '?' || c == '#' {
			end = i
			break
		}
	}
	auth := rest[:end]
	u.rest = rest[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return u, newError(ErrInvalidURL, rawURL, "userinfo is not allowed")
	}
	if strings.HasPrefix(auth, "[") {
		return u, newError(ErrInvalidHost, rawURL, "an IPv6 address, not a domain")
	}
	u.host = auth
	if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		u.host = auth[:i]
		if p := auth[i+1:]; p != "" {
			if u.port, u.hasPort = host.Port(p); !u.hasPort {
				return u, newError(ErrInvalidURL, rawURL, "invalid port")
			}
		}
	}
	if u.host == "" {
		return u, newError(ErrInvalidURL, rawURL, "no host")
	}
	return u, nil
}

// defaultPort reports whether u's port is the default port of its scheme:
// none, 80 for http, 443 for https.
func (u *urlParts) defaultPort() bool {
	return !u.hasPort || u.https && u.port == 443 || !u.https && u.port == 80
}

// indexControl returns the index of the first ASCII control character or
// DEL in s, or -1. It tests eight bytes at a time, with the exact word tests
// "has a byte less than n" and "has a zero byte" of Bit Twiddling Hacks.
func indexControl(s string) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		del := x ^ (ones * 0x7F)
		if (x-ones*' ')&^x&high != 0 || (del-ones)&^del&high != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7F {
			return i
		}
	}
	return -1
}

func isSlash(c byte) bool { return c == '/' || c == '\\' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
