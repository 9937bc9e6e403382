// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"net/http"
	"net/url"
)

// The list endpoints wait for hashlist.Message, the HashList encoder:
// until it is merged they answer 501.

func (s *Server) hashList(name string, p url.Values, badChecksum bool) ([]byte, *badRequest) {
	return nil, &badRequest{http.StatusNotImplemented, "sbtest: hashList is not served yet"}
}

func (s *Server) batchGet(p url.Values, badChecksum bool) ([]byte, *badRequest) {
	return nil, &badRequest{http.StatusNotImplemented, "sbtest: hashLists:batchGet is not served yet"}
}
