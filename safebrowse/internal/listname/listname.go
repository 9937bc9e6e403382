// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package listname holds the one rule that maps a Safe Browsing v5 hash
// list's name to the width of its hashes, and the one reading of a name
// given in the API's resource form ("hashLists/se-4b"). safebrowse,
// hashlist, lookup and sbtest all use it. It imports nothing but the
// standard library, so that safebrowse, which exports the rule as
// ListPrefixLen, compiles in no protobuf code.
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
