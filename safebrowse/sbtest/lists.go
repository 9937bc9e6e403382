// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"net/url"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// ThreatAttribute is a Safe Browsing v5 ThreatAttribute, as the server sends
// it in a FullHashDetail: CANARY (do not enforce) or FRAME_ONLY (enforce
// only on frames). Any other value, such as 0 (unspecified) or one that
// Google may add later, is sent as it is, so that a test can check that its
// client ignores a detail it does not know. It is the type of
// safebrowse/lookup's ThreatAttribute: both are declared once, with the
// wire format.
type ThreatAttribute = v5wire.ThreatAttribute

// The threat attributes of the v5 API.
const (
	Canary    = v5wire.Canary    // CANARY
	FrameOnly = v5wire.FrameOnly // FRAME_ONLY
)

// listDef is one list the server serves: its name, the bytes per hash, and
// its metadata for ListHashLists.
type listDef struct {
	name        string
	width       int                   // 4 or 32
	threat      v5wire.ThreatType     // 0 for the Global Cache
	likelySafe  v5wire.LikelySafeType // 0 for a threat list
	description string
}

// listDefs are the lists of the v5 API, in the order of its documentation
// (the "Lists" section of https://developers.google.com/safe-browsing/reference/Local.Database).
var listDefs = []listDef{
	{name: "gc-32b", width: 32, likelySafe: v5wire.GeneralBrowsing, description: "Global Cache: expressions likely to be safe (sbtest)"},
	{name: "se-4b", width: 4, threat: v5wire.SocialEngineering, description: "Social engineering (sbtest)"},
	{name: "mw-4b", width: 4, threat: v5wire.Malware, description: "Malware, desktop (sbtest)"},
	{name: "uws-4b", width: 4, threat: v5wire.UnwantedSoftware, description: "Unwanted software, desktop (sbtest)"},
	{name: "uwsa-4b", width: 4, threat: v5wire.UnwantedSoftware, description: "Unwanted software, Android (sbtest)"},
	{name: "pha-4b", width: 4, threat: v5wire.PotentiallyHarmfulApplication, description: "Potentially harmful applications, Android (sbtest)"},
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

// findDef returns the list named name, or nil. The name may have the
// "hashLists/" prefix of the API's resource names.
func findDef(name string) *listDef {
	name = listname.Trim(name)
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
func (s *Server) listHashLists(p url.Values) (reply, *badRequest) {
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
			return nil, invalid("pageToken=%s is not one this server gave", inputerr.Quote(token))
		}
	}
	end := len(listDefs)
	if size > 0 && start+size < end {
		end = start + size
	}
	r := new(listsReply)
	for i := start; i < end; i++ {
		r.HashLists = append(r.HashLists, listDefs[i].info())
	}
	if end < len(listDefs) {
		r.NextPageToken = strconv.Itoa(end)
	}
	return r, nil
}

// info returns the HashList that ListHashLists sends for d: its name and
// its metadata (threat types, likely safe types, description, hash
// length).
func (d *listDef) info() v5wire.HashList {
	md := &v5wire.Metadata{Description: d.description, HashLength: v5wire.HashLengthOf(d.width)}
	if d.threat != 0 {
		md.ThreatTypes = []v5wire.ThreatType{d.threat}
	}
	if d.likelySafe != 0 {
		md.LikelySafeTypes = []v5wire.LikelySafeType{d.likelySafe}
	}
	return v5wire.HashList{Name: d.name, Metadata: md}
}
