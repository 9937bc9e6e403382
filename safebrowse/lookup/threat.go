// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"slices"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// ThreatType is the kind of threat a full hash is listed for, as the v5 API
// numbers them ("ThreatType" in the reference). A detail with any other value,
// including 0 (THREAT_TYPE_UNSPECIFIED), is ignored whole, as the spec asks,
// since new values may appear at any time. Under Web Risk, each of its
// threat types is the v5 type of its name, and
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE is
// [SocialEngineeringExtendedCoverage], outside v5's numbers. Its String method gives the
// API's name, such as "SOCIAL_ENGINEERING", or "ThreatType(n)" for a value
// the package does not know.
type ThreatType = v5wire.ThreatType

// The threat types of Safe Browsing v5.
const (
	Malware                       = v5wire.Malware                       // MALWARE
	SocialEngineering             = v5wire.SocialEngineering             // SOCIAL_ENGINEERING
	UnwantedSoftware              = v5wire.UnwantedSoftware              // UNWANTED_SOFTWARE
	PotentiallyHarmfulApplication = v5wire.PotentiallyHarmfulApplication // POTENTIALLY_HARMFUL_APPLICATION
)

// SocialEngineeringExtendedCoverage is Web Risk's
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, a threat type that v5 lacks: a
// broader list of social engineering, with more false positives. Its
// value lies outside v5's numbers (Web Risk's wire gives it 4, where v5's
// 4 is [PotentiallyHarmfulApplication]): each API's replies are mapped
// from their own numbers, so that a v5 detail of an unknown number is
// still ignored, and Valid is false for it, as for any value v5 lacks.
// Its String is "SOCIAL_ENGINEERING_EXTENDED_COVERAGE".
const SocialEngineeringExtendedCoverage = v5wire.SocialEngineeringExtendedCoverage

// ThreatAttribute qualifies a threat ("ThreatAttribute" in the reference). A
// detail with any other value, including 0, is ignored whole. Its String
// method gives the API's name, such as "CANARY", or "ThreatAttribute(n)".
type ThreatAttribute = v5wire.ThreatAttribute

// The threat attributes of Safe Browsing v5.
const (
	Canary    = v5wire.Canary    // CANARY: the threat is not to be enforced
	FrameOnly = v5wire.FrameOnly // FRAME_ONLY: enforce only on frames, not on top-level pages
)

// A Threat is one expression of a URL whose full hash the server lists, with
// one of the details the server gave for that hash.
type Threat struct {
	Type       ThreatType
	Attributes []ThreatAttribute // in the server's order; nil when none
	Expression string            // the expression whose full hash matched, e.g. "evil.example/"
}

// Has reports whether t carries the attribute a.
func (t Threat) Has(a ThreatAttribute) bool { return slices.Contains(t.Attributes, a) }

// A Verdict is the answer for one URL: the threats found, one per matching
// expression and valid detail, in the order of the URL's expressions (see
// [safebrowse.Expressions]). The zero Verdict, with no threats, is safe.
type Verdict struct {
	Threats []Threat
}

// Unsafe reports whether some threat lacks the [Canary] attribute: a canary
// threat is reported but, as the API asks, not to be enforced.
func (v Verdict) Unsafe() bool {
	for _, t := range v.Threats {
		if !t.Has(Canary) {
			return true
		}
	}
	return false
}
