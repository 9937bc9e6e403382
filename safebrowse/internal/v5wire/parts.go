// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file lets a server encode a HashList once and send it many times
// with a minimum_wait_duration of each request's own.

// AppendHashListParts appends m as [AppendHashList] writes it, in two
// parts either side of minimum_wait_duration, which is left out: head
// gets the fields numbered below 6, tail those above. head, then
// [AppendMinimumWait] of d, then tail, is AppendHashList of m with
// MinimumWait d, byte for byte.
func AppendHashListParts(head, tail []byte, m *HashList) ([]byte, []byte) {
	h := HashList{Name: m.Name, Version: m.Version, Partial: m.Partial, HasRemovals: m.HasRemovals, Removals: m.Removals}
	t := HashList{Checksum: m.Checksum, Metadata: m.Metadata}
	if m.AddWidth == 4 {
		h.AddWidth, h.Additions = 4, m.Additions
	} else {
		t.AddWidth, t.Additions = m.AddWidth, m.Additions
	}
	return AppendHashList(head, &h), AppendHashList(tail, &t)
}

// AppendMinimumWait appends HashList.minimum_wait_duration d, nothing
// when d is zero.
func AppendMinimumWait(b []byte, d time.Duration) []byte {
	return appendDurationField(b, hashListMinWait, d)
}

// AppendBatchListHeader appends the tag and length of one hash_lists
// entry of n bytes in a BatchGetHashListsResponse: the entry's bytes
// follow. [AppendBatchList] is the same with the bytes in hand.
func AppendBatchListHeader(b []byte, n int) []byte {
	b = protowire.AppendTag(b, batchHashLists, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(n))
}
