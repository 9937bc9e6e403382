// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package listname holds the rules of Safe Browsing v5 hash list names:
// which names the module keeps ([Valid]), the width of a list's hashes
// ([Width]), and the one reading of a name given in the API's resource
// form ("hashLists/se-4b", [Trim]). safebrowse, hashlist, lookup, mirror
// and sbtest all use them, so that a name one of them accepts, the others
// accept too. Web Risk's lists are named by their threat types, such as
// MALWARE, under a rule of their own ([ValidWebRisk]): no name is valid
// under both, so that the lists of both APIs share a directory, a log and
// a metric's labels without meeting.
// It imports nothing but the standard library, so that safebrowse, which
// exports the width rule as ListPrefixLen, compiles in no protobuf code.
package listname

import "strings"

// Collection is the resource collection of the v5 API's HashList
// messages: safebrowsing.proto gives a list's resource name as
// "hashLists/{hash_list}".
const Collection = "hashLists/"

// Trim returns name without the "hashLists/" prefix of the resource
// form, if it has one: "hashLists/se-4b" and "se-4b" are one list
// (decision 4 of safebrowse/lookup: the names are accepted in either
// form, wherever they are read).
func Trim(name string) string {
	return strings.TrimPrefix(name, Collection)
}

// MaxLen is the length in bytes of the longest name [Valid] accepts.
const MaxLen = 64

// Valid reports whether name is the name of a v5 hash list that the
// module keeps: 1 to [MaxLen] bytes of a-z, 0-9 and '-', ending in a
// suffix that gives its width (see [Width]), such as "se-4b" or
// "gc-32b". Every list the v5 reference names is so; a name outside the
// rule (upper case, '_', '/', too long) is no list the module keeps, so
// that a name it keeps is safe as a file name in a list directory, a
// metric label and a log field.
//
// Valid takes the bare name: a name read from the API, which may have
// the "hashLists/" prefix of the resource form, is given to [Trim] once,
// and the result to Valid. So "hashLists/se-4b" is se-4b, and
// "hashLists/hashLists/se-4b" is no list, as its trimmed name holds a
// '/'.
func Valid(name string) bool {
	if name == "" || len(name) > MaxLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return Width(name) != 0
}

// Width returns the width in bytes of the hashes of the list named name,
// which the suffix of the name gives ("Available Lists" in the v5
// reference): "-4b" 4, "-8b" 8, "-16b" 16, "-32b" 32. The part before the
// dash must not be empty; the name may have the "hashLists/" prefix. It
// returns 0 for a name with no such suffix.
func Width(name string) int {
	name = Trim(name)
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return 0
	}
	switch name[i+1:] {
	case "4b":
		return 4
	case "8b":
		return 8
	case "16b":
		return 16
	case "32b":
		return 32
	}
	return 0
}

// WebRiskLists are the names of Web Risk's threat lists: the threat types
// of webrisk.proto, other than THREAT_TYPE_UNSPECIFIED, in the order of
// their numbers. Do not modify it.
var WebRiskLists = []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"}

// ValidWebRisk reports whether name is the name of a Web Risk threat list
// (webrisk.googleapis.com/v1, threatLists:computeDiff's threatType): one of
// [WebRiskLists], exactly, in upper case. A list is named by the enum
// value the requests carry, so a name outside the enum is no list the
// server serves, and no hashes:search reply would name its threat type.
// No name is valid both here and under [Valid], which takes lower case
// only, so that no Web Risk list is a v5 list, even on a file system that
// ignores case.
func ValidWebRisk(name string) bool {
	switch name {
	case "MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE":
		return true
	}
	return false
}
