// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"net/url"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

// ThreatAttribute is a Safe Browsing v5 ThreatAttribute, as the server sends
// it in a FullHashDetail: CANARY (do not enforce) or FRAME_ONLY (enforce
// only on frames). Any other value, such as 0 (unspecified) or one that
// Google may add later, is sent as it is, so that a test can check that its
// client ignores a detail it does not know.
type ThreatAttribute int32

// The threat attributes of the v5 API.
const (
	Canary    ThreatAttribute = 1 // CANARY
	FrameOnly ThreatAttribute = 2 // FRAME_ONLY
)

// String returns the API's name of a, such as "CANARY", or a number.
func (a ThreatAttribute) String() string {
	switch a {
	case Canary:
		return "CANARY"
	case FrameOnly:
		return "FRAME_ONLY"
	}
	return "ThreatAttribute(" + strconv.Itoa(int(a)) + ")"
}

// The v5 enums the server sends, with their wire values.
const (
	threatMalware           = 1 // MALWARE
	threatSocialEngineering = 2 // SOCIAL_ENGINEERING
	threatUnwantedSoftware  = 3 // UNWANTED_SOFTWARE
	threatPHA               = 4 // POTENTIALLY_HARMFUL_APPLICATION

	likelySafeGeneralBrowsing = 1 // GENERAL_BROWSING

	hashLengthFourBytes      = 2 // FOUR_BYTES
	hashLengthThirtyTwoBytes = 5 // THIRTY_TWO_BYTES
)

// listDef is one list the server serves: its name, the bytes per hash, and
// its metadata for ListHashLists.
type listDef struct {
	name        string
	width       int   // 4 or 32
	threat      int32 // ThreatType; 0 for the Global Cache
	likelySafe  int32 // LikelySafeType; 0 for a threat list
	description string
}

// listDefs are the lists of the v5 API, in the order of its documentation
// (the "Lists" section of https://developers.google.com/safe-browsing/reference/Local.Database).
var listDefs = []listDef{
	{name: "gc-32b", width: 32, likelySafe: likelySafeGeneralBrowsing, description: "Global Cache: expressions likely to be safe (sbtest)"},
	{name: "se-4b", width: 4, threat: threatSocialEngineering, description: "Social engineering (sbtest)"},
	{name: "mw-4b", width: 4, threat: threatMalware, description: "Malware, desktop (sbtest)"},
	{name: "uws-4b", width: 4, threat: threatUnwantedSoftware, description: "Unwanted software, desktop (sbtest)"},
	{name: "uwsa-4b", width: 4, threat: threatUnwantedSoftware, description: "Unwanted software, Android (sbtest)"},
	{name: "pha-4b", width: 4, threat: threatPHA, description: "Potentially harmful applications, Android (sbtest)"},
}

// Lists returns the names of the lists the server serves, in the order
// ListHashLists gives them: gc-32b, se-4b, mw-4b, uws-4b, uwsa-4b, pha-4b.
// Names never change, as the v5 API promises.
func Lists() []string {
	names := make([]string, len(listDefs))
	for i := range listDefs {
		names[i] = listDefs[i].name
	}
	return names
}

// findDef returns the list named name, or nil.
func findDef(name string) *listDef {
	for i := range listDefs {
		if listDefs[i].name == name {
			return &listDefs[i]
		}
	}
	return nil
}

// listHashLists answers ListHashLists (GET /v5/hashLists): a
// ListHashListsResponse { 1 hash_lists; 2 next_page_token } whose lists
// carry their name and metadata only. pageSize 0 means every list; a
// next_page_token is the offset of the next page, in decimal.
func (s *Server) listHashLists(p url.Values) ([]byte, *badRequest) {
	size, err := int32Param(p, "pageSize")
	if err != nil {
		return nil, err
	}
	token, err := single(p, "pageToken")
	if err != nil {
		return nil, err
	}
	start := 0
	if token != "" {
		start = -1
		for i := 1; i < len(listDefs); i++ {
			if token == strconv.Itoa(i) {
				start = i
			}
		}
		if start < 0 {
			return nil, invalid("pageToken=%q is not one this server gave", clip(token))
		}
	}
	end := len(listDefs)
	if size > 0 && start+size < end {
		end = start + size
	}
	var b []byte
	for i := start; i < end; i++ {
		b = appendListInfo(b, 1, &listDefs[i])
	}
	if end < len(listDefs) {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, strconv.Itoa(end))
	}
	return b, nil
}
