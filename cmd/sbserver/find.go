// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// v4ThreatTypes are the ThreatType names of the v4 Lookup API.
var v4ThreatTypes = []string{"THREAT_TYPE_UNSPECIFIED", "MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"}

// v4PlatformTypes are the PlatformType names of the v4 Lookup API. v5 lists
// carry no platform, so each covers every threat type.
var v4PlatformTypes = []string{"PLATFORM_TYPE_UNSPECIFIED", "WINDOWS", "LINUX", "ANDROID", "OSX", "IOS", "ANY_PLATFORM", "ALL_PLATFORMS", "CHROME"}

// findRequest is the v4 FindThreatMatchesRequest. Each field of more than
// one word is taken by its JSON name (threatInfo) or its proto field name
// (threat_info), as proto3 JSON parsers take them; a field given by both
// is an error, as it is in protobuf's parsers. Any other field is an
// error.
type findRequest struct {
	Client *struct {
		ClientID           string `json:"clientId"`
		ClientIDProto      string `json:"client_id"`
		ClientVersion      string `json:"clientVersion"`
		ClientVersionProto string `json:"client_version"`
	} `json:"client"`
	ThreatInfo      *findThreatInfo `json:"threatInfo"`
	ThreatInfoProto *findThreatInfo `json:"threat_info"`
}

// findThreatInfo is the v4 ThreatInfo, by both names of each field.
type findThreatInfo struct {
	ThreatTypes           *[]string       `json:"threatTypes"`
	ThreatTypesProto      *[]string       `json:"threat_types"`
	PlatformTypes         *[]string       `json:"platformTypes"`
	PlatformTypesProto    *[]string       `json:"platform_types"`
	ThreatEntryTypes      *[]string       `json:"threatEntryTypes"`
	ThreatEntryTypesProto *[]string       `json:"threat_entry_types"`
	ThreatEntries         *[]threatEntry4 `json:"threatEntries"`
	ThreatEntriesProto    *[]threatEntry4 `json:"threat_entries"`
}

// threatEntry4 is the v4 ThreatEntry; only url is served.
type threatEntry4 struct {
	URL    *jsonURL `json:"url"`
	Hash   string   `json:"hash"`
	Digest string   `json:"digest"`
}

// either returns the field name given by its JSON name (j) or its proto
// field name (p): the zero value if neither, an error if both.
func either[T any](name string, j, p *T) (T, error) {
	var zero T
	switch {
	case j != nil && p != nil:
		return zero, fmt.Errorf("sbserver: %s given twice, by its JSON name and its proto field name", name)
	case p != nil:
		return *p, nil
	case j != nil:
		return *j, nil
	}
	return zero, nil
}

// findReply is the v4 FindThreatMatchesResponse: {} when nothing matches.
type findReply struct {
	Matches []threatMatch `json:"matches,omitempty"`
}

type threatMatch struct {
	ThreatType      string      `json:"threatType"`
	PlatformType    string      `json:"platformType"`
	ThreatEntryType string      `json:"threatEntryType"`
	Threat          threatEntry `json:"threat"`
	CacheDuration   string      `json:"cacheDuration"`
}

type threatEntry struct {
	URL string `json:"url"`
}

// find answers POST /v4/threatMatches:find, the v4 Lookup API, from v5
// lists. Only the threat types asked match. A match comes once per URL and
// threat type, with the first platform type asked as its platformType:
// v5 lists carry no platform, so every platform type covers every threat
// type, a superset of v4's answers that errs on the safe side.
func (s *server) find(w http.ResponseWriter, r *http.Request) {
	if _, err := readQuery(r.URL.RawQuery, ""); err != nil {
		s.fail(w, googleErrors, http.StatusBadRequest, err)
		return
	}
	var req findRequest
	if status, err := decodeBody(r, &req, "a FindThreatMatchesRequest"); err != nil {
		s.fail(w, googleErrors, status, err)
		return
	}
	urls, types, platform, err := req.check()
	if err != nil {
		s.fail(w, googleErrors, http.StatusBadRequest, err)
		return
	}
	vs, ok := s.checkAll(w, r, urls, "threatInfo.threatEntries")
	if !ok {
		return
	}
	var reply findReply
	cd := s.cacheDuration
	type key struct{ url, threatType string }
	seen := make(map[key]bool)
	for i, v := range vs {
		found := threatTypes(v)
		for _, t := range types {
			if k := (key{urls[i], t}); slices.Contains(found, t) && !seen[k] {
				seen[k] = true
				reply.Matches = append(reply.Matches, threatMatch{
					ThreatType: t, PlatformType: platform, ThreatEntryType: "URL",
					Threat: threatEntry{URL: urls[i]}, CacheDuration: cd,
				})
			}
		}
	}
	writeJSON(w, http.StatusOK, reply)
}

// check validates the request and returns its URLs, its threat types (each
// once, in order) and the platform type of its matches.
func (req *findRequest) check() (urls, types []string, platform string, err error) {
	var info findThreatInfo
	switch {
	case req.ThreatInfo != nil && req.ThreatInfoProto != nil:
		return nil, nil, "", errors.New("sbserver: threatInfo given twice, by its JSON name and its proto field name")
	case req.ThreatInfo != nil:
		info = *req.ThreatInfo
	case req.ThreatInfoProto != nil:
		info = *req.ThreatInfoProto
	}
	var ti struct {
		ThreatTypes, PlatformTypes, ThreatEntryTypes []string
		ThreatEntries                                []threatEntry4
	}
	for _, f := range []struct {
		name string
		dst  *[]string
		j, p *[]string
	}{
		{"threatInfo.threatTypes", &ti.ThreatTypes, info.ThreatTypes, info.ThreatTypesProto},
		{"threatInfo.platformTypes", &ti.PlatformTypes, info.PlatformTypes, info.PlatformTypesProto},
		{"threatInfo.threatEntryTypes", &ti.ThreatEntryTypes, info.ThreatEntryTypes, info.ThreatEntryTypesProto},
	} {
		if *f.dst, err = either(f.name, f.j, f.p); err != nil {
			return nil, nil, "", err
		}
	}
	if ti.ThreatEntries, err = either("threatInfo.threatEntries", info.ThreatEntries, info.ThreatEntriesProto); err != nil {
		return nil, nil, "", err
	}
	if len(ti.ThreatTypes) == 0 {
		return nil, nil, "", errors.New("sbserver: threatInfo.threatTypes is required")
	}
	for i, t := range ti.ThreatTypes {
		if !slices.Contains(v4ThreatTypes, t) {
			return nil, nil, "", fmt.Errorf("sbserver: threatInfo.threatTypes[%d]: unknown threat type %s", i, inputerr.Quote(t))
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	if len(ti.PlatformTypes) == 0 {
		return nil, nil, "", errors.New("sbserver: threatInfo.platformTypes is required")
	}
	for i, p := range ti.PlatformTypes {
		if !slices.Contains(v4PlatformTypes, p) {
			return nil, nil, "", fmt.Errorf("sbserver: threatInfo.platformTypes[%d]: unknown platform type %s", i, inputerr.Quote(p))
		}
	}
	for i, t := range ti.ThreatEntryTypes {
		if t != "URL" {
			return nil, nil, "", fmt.Errorf("sbserver: threatInfo.threatEntryTypes[%d]: %s: only URL is served", i, inputerr.Quote(t))
		}
	}
	if len(ti.ThreatEntries) > maxEntries {
		return nil, nil, "", fmt.Errorf("sbserver: %d threatInfo.threatEntries in one request, at most %d", len(ti.ThreatEntries), maxEntries)
	}
	urls = make([]string, len(ti.ThreatEntries))
	for i, e := range ti.ThreatEntries {
		switch {
		case e.URL == nil:
			return nil, nil, "", fmt.Errorf("sbserver: threatInfo.threatEntries[%d]: no url: only URL entries are served", i)
		case !e.URL.valid:
			return nil, nil, "", inField(fmt.Sprintf("threatInfo.threatEntries[%d]", i), errNotUTF8)
		}
		urls[i] = e.URL.s
	}
	return urls, types, ti.PlatformTypes[0], nil
}
