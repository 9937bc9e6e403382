// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// API chooses the server's API: Google Safe Browsing v5, or Web Risk, its
// heir for commercial use (see the package doc, "Web Risk").
type API int

const (
	// SafeBrowsing is the Safe Browsing v5 API, the zero API
	// (safebrowsing.googleapis.com), which Google's terms keep to
	// non-commercial use.
	SafeBrowsing API = iota
	// WebRisk is the Web Risk API (webrisk.googleapis.com/v1), for
	// commercial use: lists from threatLists:computeDiff, searches by
	// hashes:search, each billed.
	WebRisk
)

// String returns the API's name, "SafeBrowsing" or "WebRisk".
func (a API) String() string {
	switch a {
	case SafeBrowsing:
		return "SafeBrowsing"
	case WebRisk:
		return "WebRisk"
	}
	return fmt.Sprintf("API(%d)", int(a))
}

// ParseAPI returns the API named s: "SafeBrowsing" or "WebRisk", in any
// case, with or without a '-' or '_' between words ("safebrowsing",
// "safe-browsing", "webrisk", "web_risk"), as [ParseMode] reads modes.
func ParseAPI(s string) (API, error) {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s)) {
	case "safebrowsing":
		return SafeBrowsing, nil
	case "webrisk":
		return WebRisk, nil
	}
	return 0, fmt.Errorf("lookup: unknown API %s (want SafeBrowsing or WebRisk)", inputerr.Quote(s))
}

// DefaultWebRiskBaseURL is the server of the Web Risk API, used when
// Config.API is WebRisk and Config.BaseURL is "".
const DefaultWebRiskBaseURL = "https://webrisk.googleapis.com"

// DefaultWebRiskLists are the threat lists a WebRisk Client keeps when
// Config.Lists is nil: malware, social engineering and unwanted software.
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, which has more false positives, is
// left out unless named. Do not modify it.
var DefaultWebRiskLists = []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE"}

// threatOfWebRisk returns the ThreatType of Web Risk's threat type t, and
// false for one the package does not know (its 0 included).
func threatOfWebRisk(t v4wire.WebRiskThreatType) (ThreatType, bool) {
	switch t {
	case v4wire.WebRiskMalware:
		return Malware, true
	case v4wire.WebRiskSocialEngineering:
		return SocialEngineering, true
	case v4wire.WebRiskUnwantedSoftware:
		return UnwantedSoftware, true
	case v4wire.WebRiskSocialEngineeringExtendedCoverage:
		return SocialEngineeringExtendedCoverage, true
	}
	return 0, false
}

// webRiskType returns Web Risk's threat type of the list named name, one
// that [listname.ValidWebRisk] accepts, and 0 for any other name.
func webRiskType(name string) v4wire.WebRiskThreatType {
	for i, n := range listname.WebRiskLists {
		if n == name {
			return v4wire.WebRiskThreatType(i + 1)
		}
	}
	return 0
}
