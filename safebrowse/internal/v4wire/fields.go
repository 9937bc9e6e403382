// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of the v4 messages, from safebrowsing.proto (Chromium's
// components/safe_browsing/core/browser/db/safebrowsing.proto and
// github.com/google/safebrowsing's internal/safebrowsing_proto, which
// agree on every field below).
const (
	// FetchThreatListUpdatesRequest.
	fetchClient   protowire.Number = 1
	fetchRequests protowire.Number = 3

	// FetchThreatListUpdatesRequest.ListUpdateRequest.
	lurThreatType      protowire.Number = 1
	lurPlatformType    protowire.Number = 2
	lurState           protowire.Number = 3
	lurConstraints     protowire.Number = 4
	lurThreatEntryType protowire.Number = 5

	// ListUpdateRequest.Constraints.
	conMaxUpdateEntries   protowire.Number = 1
	conMaxDatabaseEntries protowire.Number = 2
	conRegion             protowire.Number = 3
	conCompressions       protowire.Number = 4

	// FetchThreatListUpdatesResponse.
	fetchResponses protowire.Number = 1
	fetchMinWait   protowire.Number = 2

	// FetchThreatListUpdatesResponse.ListUpdateResponse: the enums are
	// numbered otherwise than in the request.
	lupThreatType      protowire.Number = 1
	lupThreatEntryType protowire.Number = 2
	lupPlatformType    protowire.Number = 3
	lupResponseType    protowire.Number = 4
	lupAdditions       protowire.Number = 5
	lupRemovals        protowire.Number = 6
	lupNewClientState  protowire.Number = 7
	lupChecksum        protowire.Number = 8

	// ThreatEntrySet.
	setCompression protowire.Number = 1
	setRawHashes   protowire.Number = 2
	setRawIndices  protowire.Number = 3
	setRiceHashes  protowire.Number = 4
	setRiceIndices protowire.Number = 5

	// RawHashes, RawIndices, RiceDeltaEncoding and Checksum, in both APIs.
	rawPrefixSize   protowire.Number = 1
	rawHashes       protowire.Number = 2
	rawIndices      protowire.Number = 1
	riceFirstValue  protowire.Number = 1
	riceParameter   protowire.Number = 2
	riceCount       protowire.Number = 3
	riceEncodedData protowire.Number = 4
	checksumSHA256  protowire.Number = 1

	// FindFullHashesRequest.
	findClient       protowire.Number = 1
	findClientStates protowire.Number = 2
	findThreatInfo   protowire.Number = 3

	// ThreatInfo.
	infoThreatTypes      protowire.Number = 1
	infoPlatformTypes    protowire.Number = 2
	infoThreatEntries    protowire.Number = 3
	infoThreatEntryTypes protowire.Number = 4

	// ThreatEntry and ClientInfo.
	entryHash     protowire.Number = 1
	entryURL      protowire.Number = 2
	clientID      protowire.Number = 1
	clientVersion protowire.Number = 2

	// FindFullHashesResponse.
	fullMatches       protowire.Number = 1
	fullMinWait       protowire.Number = 2
	fullNegativeCache protowire.Number = 3

	// ThreatMatch.
	matchThreatType      protowire.Number = 1
	matchPlatformType    protowire.Number = 2
	matchThreat          protowire.Number = 3
	matchMetadata        protowire.Number = 4
	matchCacheDuration   protowire.Number = 5
	matchThreatEntryType protowire.Number = 6

	// ThreatEntryMetadata and its MetadataEntry.
	metaEntries protowire.Number = 1
	metaKey     protowire.Number = 1
	metaValue   protowire.Number = 2

	// ListThreatListsResponse and ThreatListDescriptor.
	listsThreatLists    protowire.Number = 1
	descThreatType      protowire.Number = 1
	descPlatformType    protowire.Number = 2
	descThreatEntryType protowire.Number = 3
)

// Field numbers of the Web Risk messages, from
// google/cloud/webrisk/v1/webrisk.proto (googleapis).
const (
	// ComputeThreatListDiffResponse.
	diffRecommendedNext protowire.Number = 2
	diffResponseType    protowire.Number = 4
	diffAdditions       protowire.Number = 5
	diffRemovals        protowire.Number = 6
	diffNewVersionToken protowire.Number = 7
	diffChecksum        protowire.Number = 8

	// ThreatEntryAdditions and ThreatEntryRemovals.
	addRawHashes   protowire.Number = 1
	addRiceHashes  protowire.Number = 2
	remRawIndices  protowire.Number = 1
	remRiceIndices protowire.Number = 2

	// SearchHashesResponse and its ThreatHash.
	hashesThreats         protowire.Number = 1
	hashesNegativeExpire  protowire.Number = 2
	threatHashThreatTypes protowire.Number = 1
	threatHashHash        protowire.Number = 2
	threatHashExpireTime  protowire.Number = 3
	urisThreat            protowire.Number = 1
	threatURIThreatTypes  protowire.Number = 1
	threatURIExpireTime   protowire.Number = 2
	timestampSeconds      protowire.Number = 1
	timestampNanos        protowire.Number = 2
)
