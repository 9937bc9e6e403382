// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"encoding/json"
	"strconv"
)

// Every enum of the package reads any int32 from the binary form, and a
// name or a number from JSON and from a query parameter; a name the
// package does not know is read as -1. Valid then tells whether a value is
// one the API names: a server refuses the others, a client ignores them.
// Each enum is written by name, or by number when it has none, as the JSON
// mapping writes an enum.

// ThreatType is the v4 ThreatType: the kind of threat of a list or a
// match. Its names and numbers are those of the v4 discovery document,
// which Chromium's safebrowsing.proto numbers alike.
type ThreatType int32

// The threat types that sbserver serves.
const (
	Malware                       ThreatType = 1 // MALWARE
	SocialEngineering             ThreatType = 2 // SOCIAL_ENGINEERING
	UnwantedSoftware              ThreatType = 3 // UNWANTED_SOFTWARE
	PotentiallyHarmfulApplication ThreatType = 4 // POTENTIALLY_HARMFUL_APPLICATION
)

var threatTypeNames = []string{
	"THREAT_TYPE_UNSPECIFIED",
	"MALWARE",
	"SOCIAL_ENGINEERING",
	"UNWANTED_SOFTWARE",
	"POTENTIALLY_HARMFUL_APPLICATION",
	"SOCIAL_ENGINEERING_INTERNAL",
	"API_ABUSE",
	"MALICIOUS_BINARY",
	"CSD_WHITELIST",
	"CSD_DOWNLOAD_WHITELIST",
	"CLIENT_INCIDENT",
	"CLIENT_INCIDENT_WHITELIST",
	"APK_MALWARE_OFFLINE",
	"SUBRESOURCE_FILTER",
	"SUSPICIOUS",
	"TRICK_TO_BILL",
	"HIGH_CONFIDENCE_ALLOWLIST",
	"ACCURACY_TIPS",
}

// String returns the API's name of t, such as "SOCIAL_ENGINEERING", or
// "ThreatType(n)" for a value without one.
func (t ThreatType) String() string { return enumString(threatTypeNames, "ThreatType", int32(t)) }

// Valid reports whether t is a threat type the API names, other than
// THREAT_TYPE_UNSPECIFIED.
func (t ThreatType) Valid() bool { return valid(threatTypeNames, int32(t)) }

// MarshalJSON writes t by name, or by number when it has none.
func (t ThreatType) MarshalJSON() ([]byte, error) { return marshalEnum(threatTypeNames, int32(t)), nil }

// UnmarshalJSON reads t by name or by number.
func (t *ThreatType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(threatTypeNames, data, (*int32)(t))
}

// PlatformType is the v4 PlatformType: the platform a list is for.
type PlatformType int32

// The platform types of v4.
const (
	Windows      PlatformType = 1 // WINDOWS
	Linux        PlatformType = 2 // LINUX
	Android      PlatformType = 3 // ANDROID
	OSX          PlatformType = 4 // OSX
	IOS          PlatformType = 5 // IOS
	AnyPlatform  PlatformType = 6 // ANY_PLATFORM
	AllPlatforms PlatformType = 7 // ALL_PLATFORMS
	Chrome       PlatformType = 8 // CHROME
)

var platformTypeNames = []string{
	"PLATFORM_TYPE_UNSPECIFIED", "WINDOWS", "LINUX", "ANDROID", "OSX", "IOS", "ANY_PLATFORM", "ALL_PLATFORMS", "CHROME",
}

// String returns the API's name of p, such as "ANY_PLATFORM", or
// "PlatformType(n)" for a value without one.
func (p PlatformType) String() string {
	return enumString(platformTypeNames, "PlatformType", int32(p))
}

// Valid reports whether p is one of the eight platform types.
func (p PlatformType) Valid() bool { return valid(platformTypeNames, int32(p)) }

// MarshalJSON writes p by name, or by number when it has none.
func (p PlatformType) MarshalJSON() ([]byte, error) {
	return marshalEnum(platformTypeNames, int32(p)), nil
}

// UnmarshalJSON reads p by name or by number.
func (p *PlatformType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(platformTypeNames, data, (*int32)(p))
}

// ThreatEntryType is the v4 ThreatEntryType: the kind of the entries of a
// list. sbserver serves URL lists only.
type ThreatEntryType int32

// The threat entry types of v4.
const (
	URL             ThreatEntryType = 1 // URL
	Executable      ThreatEntryType = 2 // EXECUTABLE
	IPRange         ThreatEntryType = 3 // IP_RANGE
	ChromeExtension ThreatEntryType = 4 // CHROME_EXTENSION
	Filename        ThreatEntryType = 5 // FILENAME
	Cert            ThreatEntryType = 6 // CERT
)

var threatEntryTypeNames = []string{
	"THREAT_ENTRY_TYPE_UNSPECIFIED", "URL", "EXECUTABLE", "IP_RANGE", "CHROME_EXTENSION", "FILENAME", "CERT",
}

// String returns the API's name of e, such as "URL", or
// "ThreatEntryType(n)" for a value without one.
func (e ThreatEntryType) String() string {
	return enumString(threatEntryTypeNames, "ThreatEntryType", int32(e))
}

// Valid reports whether e is one of the six threat entry types.
func (e ThreatEntryType) Valid() bool { return valid(threatEntryTypeNames, int32(e)) }

// MarshalJSON writes e by name, or by number when it has none.
func (e ThreatEntryType) MarshalJSON() ([]byte, error) {
	return marshalEnum(threatEntryTypeNames, int32(e)), nil
}

// UnmarshalJSON reads e by name or by number.
func (e *ThreatEntryType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(threatEntryTypeNames, data, (*int32)(e))
}

// CompressionType is the CompressionType of both APIs: how a set of
// entries is encoded.
type CompressionType int32

// The compression types of v4 and Web Risk.
const (
	CompressionRaw  CompressionType = 1 // RAW
	CompressionRice CompressionType = 2 // RICE
)

var compressionTypeNames = []string{"COMPRESSION_TYPE_UNSPECIFIED", "RAW", "RICE"}

// String returns the API's name of c, "RAW" or "RICE", or
// "CompressionType(n)" for a value without one.
func (c CompressionType) String() string {
	return enumString(compressionTypeNames, "CompressionType", int32(c))
}

// Valid reports whether c is RAW or RICE.
func (c CompressionType) Valid() bool { return valid(compressionTypeNames, int32(c)) }

// MarshalJSON writes c by name, or by number when it has none.
func (c CompressionType) MarshalJSON() ([]byte, error) {
	return marshalEnum(compressionTypeNames, int32(c)), nil
}

// UnmarshalJSON reads c by name or by number.
func (c *CompressionType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(compressionTypeNames, data, (*int32)(c))
}

// ResponseType is the type of an update, numbered alike in both APIs: v4
// names its values PARTIAL_UPDATE and FULL_UPDATE, Web Risk DIFF and
// RESET. Its methods use v4's names; Web Risk's messages write and read
// their own.
type ResponseType int32

// The response types of v4 and Web Risk.
const (
	PartialUpdate ResponseType = 1 // PARTIAL_UPDATE; DIFF in Web Risk
	FullUpdate    ResponseType = 2 // FULL_UPDATE; RESET in Web Risk
)

var (
	responseTypeNames     = []string{"RESPONSE_TYPE_UNSPECIFIED", "PARTIAL_UPDATE", "FULL_UPDATE"}
	diffResponseTypeNames = []string{"RESPONSE_TYPE_UNSPECIFIED", "DIFF", "RESET"}
)

// String returns v4's name of r, such as "FULL_UPDATE", or
// "ResponseType(n)" for a value without one.
func (r ResponseType) String() string {
	return enumString(responseTypeNames, "ResponseType", int32(r))
}

// Valid reports whether r is a partial or a full update.
func (r ResponseType) Valid() bool { return valid(responseTypeNames, int32(r)) }

// MarshalJSON writes r by v4's name, or by number when it has none.
func (r ResponseType) MarshalJSON() ([]byte, error) {
	return marshalEnum(responseTypeNames, int32(r)), nil
}

// UnmarshalJSON reads r by v4's name or by number.
func (r *ResponseType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(responseTypeNames, data, (*int32)(r))
}

// diffType is a ResponseType in Web Risk's JSON: DIFF or RESET.
type diffType ResponseType

func (r diffType) MarshalJSON() ([]byte, error) {
	return marshalEnum(diffResponseTypeNames, int32(r)), nil
}

func (r *diffType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(diffResponseTypeNames, data, (*int32)(r))
}

// WebRiskThreatType is Web Risk's ThreatType. Its value 4 is
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE, where v4's is
// POTENTIALLY_HARMFUL_APPLICATION: each wire has its own type.
type WebRiskThreatType int32

// The threat types of Web Risk.
const (
	WebRiskMalware                           WebRiskThreatType = 1 // MALWARE
	WebRiskSocialEngineering                 WebRiskThreatType = 2 // SOCIAL_ENGINEERING
	WebRiskUnwantedSoftware                  WebRiskThreatType = 3 // UNWANTED_SOFTWARE
	WebRiskSocialEngineeringExtendedCoverage WebRiskThreatType = 4 // SOCIAL_ENGINEERING_EXTENDED_COVERAGE
)

var webRiskThreatTypeNames = []string{
	"THREAT_TYPE_UNSPECIFIED", "MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE",
}

// String returns Web Risk's name of t, such as "MALWARE", or
// "WebRiskThreatType(n)" for a value without one.
func (t WebRiskThreatType) String() string {
	return enumString(webRiskThreatTypeNames, "WebRiskThreatType", int32(t))
}

// Valid reports whether t is one of Web Risk's four threat types.
func (t WebRiskThreatType) Valid() bool { return valid(webRiskThreatTypeNames, int32(t)) }

// MarshalJSON writes t by name, or by number when it has none.
func (t WebRiskThreatType) MarshalJSON() ([]byte, error) {
	return marshalEnum(webRiskThreatTypeNames, int32(t)), nil
}

// UnmarshalJSON reads t by name or by number.
func (t *WebRiskThreatType) UnmarshalJSON(data []byte) error {
	return unmarshalEnum(webRiskThreatTypeNames, data, (*int32)(t))
}

func valid(names []string, v int32) bool { return v > 0 && int(v) < len(names) }

func enumString(names []string, typ string, v int32) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// marshalEnum returns v in JSON: its name, quoted, or its number.
func marshalEnum(names []string, v int32) []byte {
	if v >= 0 && int(v) < len(names) {
		return strconv.AppendQuote(nil, names[v])
	}
	return strconv.AppendInt(nil, int64(v), 10)
}

// unmarshalEnum reads an enum in JSON into dst: a name, or a number. A
// name the package does not know is read as -1; null leaves dst as it is.
func unmarshalEnum(names []string, data []byte, dst *int32) error {
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*dst = enumValue(names, s)
		return nil
	}
	v, err := parseInt(data, 32)
	if err != nil {
		return err
	}
	*dst = int32(v)
	return nil
}

// enumValue returns the value named s, or -1 when s names none.
func enumValue(names []string, s string) int32 {
	for i, n := range names {
		if n == s {
			return int32(i)
		}
	}
	return -1
}

// parseEnum reads an enum in a query parameter: a name, or a number.
func parseEnum(names []string, s string) (int32, error) {
	if s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		v, err := parseInt([]byte(s), 32)
		return int32(v), err
	}
	return enumValue(names, s), nil
}
