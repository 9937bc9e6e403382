// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of the v5 messages (safebrowsing.proto).
const (
	// SearchHashesResponse.
	searchFullHashes    protowire.Number = 1
	searchCacheDuration protowire.Number = 2

	// FullHash and FullHash.FullHashDetail.
	fullHashHash      protowire.Number = 1
	fullHashDetails   protowire.Number = 2
	detailThreatType  protowire.Number = 1
	detailAttributes  protowire.Number = 2
	durationSeconds   protowire.Number = 1
	durationNanos     protowire.Number = 2
	statusCode        protowire.Number = 1
	statusMessage     protowire.Number = 2
	batchHashLists    protowire.Number = 1
	listHashLists     protowire.Number = 1
	listNextPageToken protowire.Number = 2
	urlsThreats       protowire.Number = 1
	urlsCacheDuration protowire.Number = 2
	threatURLURL      protowire.Number = 1
	threatURLTypes    protowire.Number = 2
	metaThreatTypes   protowire.Number = 1
	metaLikelySafe    protowire.Number = 2
	metaDescription   protowire.Number = 4
	metaHashLength    protowire.Number = 6
	hashListName      protowire.Number = 1
	hashListVersion   protowire.Number = 2
	hashListPartial   protowire.Number = 3
	hashListAdd4      protowire.Number = 4
	hashListRemovals  protowire.Number = 5
	hashListMinWait   protowire.Number = 6
	hashListChecksum  protowire.Number = 7
	hashListMetadata  protowire.Number = 8
	hashListAdd8      protowire.Number = 9
	hashListAdd16     protowire.Number = 10
	hashListAdd32     protowire.Number = 11
)

// addField returns the additions field of a list of width w bytes (4, 8,
// 16 or 32).
func addField(w int) protowire.Number {
	switch w {
	case 4:
		return hashListAdd4
	case 8:
		return hashListAdd8
	case 16:
		return hashListAdd16
	}
	return hashListAdd32
}

// addWidth returns the width of the additions field f, or 0 if f is not
// one.
func addWidth(f protowire.Number) int {
	switch f {
	case hashListAdd4:
		return 4
	case hashListAdd8:
		return 8
	case hashListAdd16:
		return 16
	case hashListAdd32:
		return 32
	}
	return 0
}
