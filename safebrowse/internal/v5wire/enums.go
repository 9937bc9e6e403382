// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import "strconv"

// ThreatType is the kind of threat a full hash or a list is for, as the v5
// API numbers them ("ThreatType" in the reference). A detail with any
// other value, including 0 (THREAT_TYPE_UNSPECIFIED), is to be ignored
// whole, as the spec asks, since new values may appear at any time.
type ThreatType int32

// The threat types of Safe Browsing v5.
const (
	Malware                       ThreatType = 1 // MALWARE
	SocialEngineering             ThreatType = 2 // SOCIAL_ENGINEERING
	UnwantedSoftware              ThreatType = 3 // UNWANTED_SOFTWARE
	PotentiallyHarmfulApplication ThreatType = 4 // POTENTIALLY_HARMFUL_APPLICATION
)

// SocialEngineeringExtendedCoverage is no v5 threat type: it is Web
// Risk's SOCIAL_ENGINEERING_EXTENDED_COVERAGE (4 on Web Risk's wire, where
// v5's 4 is POTENTIALLY_HARMFUL_APPLICATION), which a client of both APIs
// reports in this one type. Its number lies outside v5's, far enough that
// no value v5 may add is it: no v5 message carries it, and Valid is false
// for it, so that a v5 detail of that number is still ignored. String
// gives its name.
const SocialEngineeringExtendedCoverage ThreatType = 1004

var threatTypeNames = []string{
	"THREAT_TYPE_UNSPECIFIED",
	"MALWARE",
	"SOCIAL_ENGINEERING",
	"UNWANTED_SOFTWARE",
	"POTENTIALLY_HARMFUL_APPLICATION",
}

// String returns the API's name of t, such as "SOCIAL_ENGINEERING", or
// "ThreatType(n)" for a value the package does not know.
func (t ThreatType) String() string {
	if t.Valid() {
		return threatTypeNames[t]
	}
	if t == SocialEngineeringExtendedCoverage {
		return "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"
	}
	return "ThreatType(" + strconv.Itoa(int(t)) + ")"
}

// Valid reports whether t is one of the four threat types.
func (t ThreatType) Valid() bool { return t >= Malware && t <= PotentiallyHarmfulApplication }

// ThreatAttribute qualifies a threat ("ThreatAttribute" in the reference).
// A detail with any other value, including 0, is to be ignored whole.
type ThreatAttribute int32

// The threat attributes of Safe Browsing v5.
const (
	Canary    ThreatAttribute = 1 // CANARY: the threat is not to be enforced
	FrameOnly ThreatAttribute = 2 // FRAME_ONLY: enforce only on frames, not on top-level pages
)

var threatAttributeNames = []string{"THREAT_ATTRIBUTE_UNSPECIFIED", "CANARY", "FRAME_ONLY"}

// String returns the API's name of a, such as "CANARY", or
// "ThreatAttribute(n)" for a value the package does not know.
func (a ThreatAttribute) String() string {
	if a.Valid() {
		return threatAttributeNames[a]
	}
	return "ThreatAttribute(" + strconv.Itoa(int(a)) + ")"
}

// Valid reports whether a is CANARY or FRAME_ONLY.
func (a ThreatAttribute) Valid() bool { return a == Canary || a == FrameOnly }

// LikelySafeType is the kind of a list of likely safe expressions.
type LikelySafeType int32

// The likely safe types of Safe Browsing v5.
const (
	GeneralBrowsing LikelySafeType = 1 // GENERAL_BROWSING: the Global Cache
	CSD             LikelySafeType = 2 // CSD
	Download        LikelySafeType = 3 // DOWNLOAD
)

var likelySafeNames = []string{"LIKELY_SAFE_TYPE_UNSPECIFIED", "GENERAL_BROWSING", "CSD", "DOWNLOAD"}

// HashLength is the length of a list's hashes, in HashListMetadata.
type HashLength int32

// The hash lengths of Safe Browsing v5.
const (
	FourBytes      HashLength = 2 // FOUR_BYTES
	EightBytes     HashLength = 3 // EIGHT_BYTES
	SixteenBytes   HashLength = 4 // SIXTEEN_BYTES
	ThirtyTwoBytes HashLength = 5 // THIRTY_TWO_BYTES
)

var hashLengthNames = []string{"HASH_LENGTH_UNSPECIFIED", "", "FOUR_BYTES", "EIGHT_BYTES", "SIXTEEN_BYTES", "THIRTY_TWO_BYTES"}

// HashLengthOf returns the HashLength of w-byte hashes, or 0 for another
// width.
func HashLengthOf(w int) HashLength {
	switch w {
	case 4:
		return FourBytes
	case 8:
		return EightBytes
	case 16:
		return SixteenBytes
	case 32:
		return ThirtyTwoBytes
	}
	return 0
}

// enumName returns the JSON name of value v of an enum whose names are
// names (an empty name is no value), or its number as the proto3 JSON
// mapping writes a value it does not know.
func enumName(names []string, v int32) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return strconv.Itoa(int(v))
}

// enumValue reads a JSON enum value, by name or by number.
func enumValue(names []string, s string) (int32, bool) {
	for i, n := range names {
		if n != "" && n == s {
			return int32(i), true
		}
	}
	v, err := strconv.ParseInt(s, 10, 32)
	return int32(v), err == nil
}
