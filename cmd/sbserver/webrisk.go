// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// This file is sbserver -api webrisk: Web Risk's uris:search, and with
// -mirror its list and search methods, behind sbserver's access rules.
// Package safebrowse/mirror writes their replies, as the one owner of
// Web Risk's wire may be imported there and not here.

import (
	"github.com/urlspec/urlspec/safebrowse/mirror"
)

// webRiskRoutes adds the Web Risk endpoints to s.routes, with errors in
// Google's shape naming the Web Risk service: GET /v1/uris:search under
// -api webrisk, and with -mirror GET /v1/threatLists:computeDiff and
// /v1/hashes:search.
func (s *server) webRiskRoutes() {
	if u := s.o.URIs; u != nil {
		s.routes[mirror.URISearchPath] = &route{name: "uris:search", methods: "GET, HEAD", shape: webRiskErrors, serve: u.ServeHTTP}
	}
	if w := s.o.WebRisk; w != nil {
		for _, name := range mirror.WebRiskMethods() {
			s.routes["/v1/"+name] = &route{name: name, methods: "GET, HEAD", shape: webRiskErrors, serve: w.ServeHTTP}
		}
	}
}
