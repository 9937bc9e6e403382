// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"strings"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/internal/host"
)

// served reports whether the cache serves the serving type s, read from a
// cache URL by [ampcache.Registry.ParseCacheURL], and whether it serves an
// AMP document. The spec's "URL Path" lists them:
//
//   - c (Content) and v (Viewer) serve AMP documents;
//   - i (Image), ii/w<N> (Image with a maximum width of N pixels, as
//     [ampcache.ImageMaxWidth] makes it, validated by ampcache), and r
//     (Resource, for fonts and other subresources) serve subresources.
//
// Every other serving type, including wp and cert, reports ok == false.
func served(s ampcache.Serving) (document, ok bool) {
	switch {
	case s == ampcache.Content, s == ampcache.Viewer:
		return true, true
	case s == ampcache.Image, s == ampcache.Resource, strings.HasPrefix(string(s), "ii/w"):
		return false, true
	}
	return false, false
}

// splitHost splits the Host of a request into its host name and port. The
// host name is one or more ASCII bytes other than the forbidden domain code
// points of the WHATWG URL standard (so no userinfo, path or second port);
// the port, if there is one, is host.Port's (digits, at most 65535), and an
// empty port is no port. Anything else reports ok == false, so that only a
// validated host name and a port the cache writes itself reach a Location.
func splitHost(hostport string) (name string, port int, hasPort, ok bool) {
	name = hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		name = hostport[:i]
		if p := hostport[i+1:]; p != "" {
			if port, hasPort = host.Port(p); !hasPort {
				return "", 0, false, false
			}
		}
	}
	if name == "" {
		return "", 0, false, false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 0x80 || host.Forbidden(c) {
			return "", 0, false, false
		}
	}
	return name, port, hasPort, true
}
