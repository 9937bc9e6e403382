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

// findRequest is the v4 FindThreatMatchesRequest.
type findRequest struct {
	Client *struct {
		ClientID      string `json:"clientId"`
		ClientVersion string `json:"clientVersion"`
	} `json:"client"`
	ThreatInfo struct {
		ThreatTypes      []string `json:"threatTypes"`
		PlatformTypes    []string `json:"platformTypes"`
		ThreatEntryTypes []string `json:"threatEntryTypes"`
		ThreatEntries    []struct {
			URL    *jsonURL `json:"url"`
			Hash   string   `json:"hash"`
			Digest string   `json:"digest"`
		} `json:"threatEntries"`
	} `json:"threatInfo"`
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
	if err := checkParams(r.URL.Query(), ""); err != nil {
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
	cd := durationJSON(s.o.CacheDuration)
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
	ti := &req.ThreatInfo
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
			return nil, nil, "", fmt.Errorf("sbserver: threatInfo.threatEntries[%d]: %w", i, errNotUTF8)
		}
		urls[i] = e.URL.s
	}
	return urls, types, ti.PlatformTypes[0], nil
}
