// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import "google.golang.org/protobuf/encoding/protowire"

// ParseBatch reads a BatchGetHashListsResponse { 1 hash_lists } and
// returns each HashList message undecoded, aliasing b, in the order sent.
func ParseBatch(b []byte) ([][]byte, error) {
	var lists [][]byte
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num == batchHashLists {
			if err := f.want(protowire.BytesType); err != nil {
				return nil, err
			}
			lists = append(lists, f.b)
		}
	}
	return lists, r.err
}

// AppendBatchList appends msg, a binary HashList, as one hash_lists entry
// of a BatchGetHashListsResponse.
func AppendBatchList(b, msg []byte) []byte {
	b = protowire.AppendTag(b, batchHashLists, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

// ListHashListsResponse is the reply of ListHashLists: the lists, each
// with its name and metadata, and the token of the next page.
type ListHashListsResponse struct {
	HashLists     []HashList
	NextPageToken string
}

// ParseListHashListsResponse reads a binary ListHashListsResponse
// { 1 hash_lists; 2 next_page_token }.
func ParseListHashListsResponse(b []byte) (ListHashListsResponse, error) {
	var m ListHashListsResponse
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case listHashLists:
			if err := f.want(protowire.BytesType); err != nil {
				return m, err
			}
			l, err := ParseHashList(f.b)
			if err != nil {
				return m, err
			}
			m.HashLists = append(m.HashLists, l)
		case listNextPageToken:
			if err := f.want(protowire.BytesType); err != nil {
				return m, err
			}
			m.NextPageToken = string(f.b)
		}
	}
	return m, r.err
}

// AppendListHashListsResponse appends m as a binary
// ListHashListsResponse.
func AppendListHashListsResponse(b []byte, m *ListHashListsResponse) []byte {
	for i := range m.HashLists {
		b = protowire.AppendTag(b, listHashLists, protowire.BytesType)
		b = protowire.AppendBytes(b, AppendHashList(nil, &m.HashLists[i]))
	}
	if m.NextPageToken != "" {
		b = protowire.AppendTag(b, listNextPageToken, protowire.BytesType)
		b = protowire.AppendString(b, m.NextPageToken)
	}
	return b
}

// ParseStatusMessage returns the message of a google.rpc.Status
// { 1 code; 2 message; 3 details }, the body of an error reply with
// alt=proto, or "" when b is not one.
func ParseStatusMessage(b []byte) string {
	msg := ""
	r := reader{b: b}
	var f field
	for r.next(&f) {
		if f.num == statusMessage && f.typ == protowire.BytesType {
			msg = string(f.b)
		}
	}
	if r.err != nil {
		return ""
	}
	return msg
}
