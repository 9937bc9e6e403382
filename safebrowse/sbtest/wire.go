// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// A reply is a v5 message the server sends, in either of Google's
// encodings; v5wire writes both.
type reply interface {
	appendProto(b []byte) []byte
	MarshalJSON() ([]byte, error)
}

type searchReply struct{ v5wire.SearchHashesResponse }

func (r *searchReply) appendProto(b []byte) []byte {
	return v5wire.AppendSearchHashesResponse(b, &r.SearchHashesResponse)
}

type listReply struct{ v5wire.HashList }

func (r *listReply) appendProto(b []byte) []byte { return v5wire.AppendHashList(b, &r.HashList) }

type batchReply struct{ lists []v5wire.HashList }

func (r *batchReply) appendProto(b []byte) []byte {
	for i := range r.lists {
		b = v5wire.AppendBatchList(b, v5wire.AppendHashList(nil, &r.lists[i]))
	}
	return b
}

func (r *batchReply) MarshalJSON() ([]byte, error) { return v5wire.MarshalBatchJSON(r.lists) }

type listsReply struct{ v5wire.ListHashListsResponse }

func (r *listsReply) appendProto(b []byte) []byte {
	return v5wire.AppendListHashListsResponse(b, &r.ListHashListsResponse)
}

type urlsReply struct{ v5wire.SearchUrlsResponse }

func (r *urlsReply) appendProto(b []byte) []byte {
	return v5wire.AppendSearchUrlsResponse(b, &r.SearchUrlsResponse)
}
