// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire_test

import (
	"fmt"
	"net/url"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// A Web Risk client reads a computeDiff reply.
func ExampleParseComputeThreatListDiffResponseJSON() {
	m, err := v4wire.ParseComputeThreatListDiffResponseJSON([]byte(`{
  "responseType": "DIFF",
  "additions": {"rawHashes": [{"prefixSize": 4, "rawHashes": "rnGLoQ=="}]},
  "removals": {"rawIndices": {"indices": [0, 2, 4]}},
  "newVersionToken": "ChAIBRADGAEiAzAwMSiAEDABEAFGpqhd",
  "checksum": {"sha256": "YSgoRtsRlgHDqDA3LAhM1gegEpEzs1TjzU33vqsR8iM="},
  "recommendedNextDiff": "2019-07-17T15:01:23.045123456Z"
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.ResponseType, m.Additions.RawHashes[0].PrefixSize, m.Additions.RawHashes[0].Hashes, m.Removals.RawIndices.Indices)
	fmt.Println(m.RecommendedNextDiff)
	// A key given twice is refused, as protobuf's parsers refuse it.
	_, err = v4wire.ParseComputeThreatListDiffResponseJSON([]byte(`{"responseType":"DIFF","response_type":"RESET"}`))
	fmt.Println(err)
	// Output:
	// PARTIAL_UPDATE 4 [174 113 139 161] [0 2 4]
	// 2019-07-17 15:01:23.045123456 +0000 UTC
	// field "responseType" given twice
}

// A Web Risk server writes a full update: webrisk.proto's fields only,
// firstValue as a string.
func ExampleAppendComputeThreatListDiffResponseJSON() {
	m := v4wire.ComputeThreatListDiffResponse{
		ResponseType:        v4wire.FullUpdate,
		Additions:           &v4wire.ThreatEntryAdditions{RiceHashes: &v4wire.Rice{First: 7, K: 3, Count: 1, Data: []byte{5}}},
		NewVersionToken:     []byte("v1"),
		Checksum:            []byte{0xab, 0xcd},
		RecommendedNextDiff: time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC),
	}
	fmt.Printf("%s\n", v4wire.AppendComputeThreatListDiffResponseJSON(nil, &m))
	// Output:
	// {"responseType":"RESET","additions":{"riceHashes":{"firstValue":"7","riceParameter":3,"entryCount":1,"encodedData":"BQ=="}},"newVersionToken":"djE=","checksum":{"sha256":"q80="},"recommendedNextDiff":"2026-03-31T12:00:00Z"}
}

// A server reads computeDiff's query as github.com/google/webrisk sends
// it: proto names, standard base64.
func ExampleParseComputeThreatListDiffRequestQuery() {
	q, _ := url.ParseQuery("threat_type=MALWARE&version_token=%2B%2F8%3D&constraints.max_diff_entries=1024&constraints.supported_compressions=RICE&key=K")
	m, err := v4wire.ParseComputeThreatListDiffRequestQuery(q)
	fmt.Println(m.ThreatType, m.VersionToken, m.Constraints.MaxDiffEntries, m.Constraints.SupportedCompressions, err)
	_, err = v4wire.ParseComputeThreatListDiffRequestQuery(url.Values{"threatType": {"MALWARE"}, "threat_type": {"MALWARE"}})
	fmt.Println(err)
	// Output:
	// MALWARE [251 255] 1024 [RICE] <nil>
	// threatType given as threat_type too
}

// A client builds computeDiff's query, as Google's documentation writes
// it.
func ExampleAppendComputeThreatListDiffRequestQuery() {
	m := v4wire.ComputeThreatListDiffRequest{
		ThreatType:   v4wire.WebRiskSocialEngineeringExtendedCoverage,
		VersionToken: []byte{0xfb, 0xff},
		Constraints:  v4wire.DiffConstraints{MaxDatabaseEntries: 1 << 20, SupportedCompressions: []v4wire.CompressionType{v4wire.CompressionRice}},
	}
	fmt.Printf("%s\n", v4wire.AppendComputeThreatListDiffRequestQuery(nil, &m))
	// Output:
	// threatType=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&versionToken=-_8%3D&constraints.maxDatabaseEntries=1048576&constraints.supportedCompressions=RICE
}

// A server reads hashes:search's query; a client builds it.
func ExampleParseSearchHashesRequestQuery() {
	q, _ := url.ParseQuery("threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&hashPrefix=WwuJdQ%3D%3D")
	m, err := v4wire.ParseSearchHashesRequestQuery(q)
	fmt.Printf("%x %v %v\n", m.HashPrefix, m.ThreatTypes, err)
	fmt.Printf("%s\n", v4wire.AppendSearchHashesRequestQuery(nil, &m))
	// Output:
	// 5b0b8975 [MALWARE SOCIAL_ENGINEERING] <nil>
	// hashPrefix=WwuJdQ%3D%3D&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING
}

// A server answers hashes:search and uris:search.
func ExampleAppendSearchHashesResponseJSON() {
	expire := time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)
	m := v4wire.SearchHashesResponse{
		Threats:            []v4wire.ThreatHash{{ThreatTypes: []v4wire.WebRiskThreatType{v4wire.WebRiskMalware}, ExpireTime: expire}},
		NegativeExpireTime: expire,
	}
	fmt.Printf("%s\n", v4wire.AppendSearchHashesResponseJSON(nil, &m))
	fmt.Printf("%s\n", v4wire.AppendSearchUrisResponseJSON(nil, &v4wire.SearchUrisResponse{}))
	// Output:
	// {"threats":[{"threatTypes":["MALWARE"],"hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","expireTime":"2026-01-01T00:05:00Z"}],"negativeExpireTime":"2026-01-01T00:05:00Z"}
	// {}
}

// A v4 server reads Chromium's GET form of threatListUpdates:fetch.
func ExampleParseReq() {
	q, _ := url.ParseQuery("$req=GgwIARACIgIgAigBGgA%3D&$ct=application/x-protobuf&key=K")
	b, err := v4wire.ParseReq(q)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := v4wire.ParseFetchThreatListUpdatesRequest(b)
	lr := m.ListUpdateRequests[0]
	fmt.Println(lr.ThreatType, lr.PlatformType, lr.ThreatEntryType, lr.Constraints.SupportedCompressions, err)
	// Output:
	// MALWARE LINUX URL [RICE] <nil>
}

// A v4 server writes an update, in binary for google/safebrowsing and
// Chromium, in JSON for Google's generated clients.
func ExampleAppendFetchThreatListUpdatesResponseJSON() {
	m := v4wire.FetchThreatListUpdatesResponse{
		ListUpdateResponses: []v4wire.ListUpdateResponse{{
			ThreatType: v4wire.Malware, ThreatEntryType: v4wire.URL, PlatformType: v4wire.AnyPlatform, ResponseType: v4wire.FullUpdate,
			Additions: []v4wire.ThreatEntrySet{{Compression: v4wire.CompressionRaw,
				RawHashes: &v4wire.RawHashes{PrefixSize: 4, Hashes: []byte{1, 2, 3, 4}}}},
			NewClientState: []byte("s"),
			Checksum:       []byte{0x9f, 0x64},
		}},
		MinimumWait: 30 * time.Minute,
	}
	fmt.Printf("%x\n", v4wire.AppendFetchThreatListUpdatesResponse(nil, &m))
	fmt.Printf("%s\n", v4wire.AppendFetchThreatListUpdatesResponseJSON(nil, &m))
	// Output:
	// 0a1f08011001180620022a0c0801120808041204010203043a017342040a029f64120308880e
	// {"listUpdateResponses":[{"threatType":"MALWARE","threatEntryType":"URL","platformType":"ANY_PLATFORM","responseType":"FULL_UPDATE","additions":[{"compressionType":"RAW","rawHashes":{"prefixSize":4,"rawHashes":"AQIDBA=="}}],"newClientState":"cw==","checksum":{"sha256":"n2Q="}}],"minimumWaitDuration":"1800s"}
}

// A v4 server reads a fullHashes:find request in JSON and answers it.
func ExampleParseFindFullHashesRequestJSON() {
	m, err := v4wire.ParseFindFullHashesRequestJSON([]byte(`{"client":{"clientId":"c"},"threatInfo":{"threatTypes":["MALWARE"],"platformTypes":["WINDOWS","LINUX"],"threatEntryTypes":["URL"],"threatEntries":[{"hash":"3q2+7w=="}]}}`))
	fmt.Printf("%v %v %x %v\n", m.ThreatInfo.ThreatTypes, m.ThreatInfo.PlatformTypes, m.ThreatInfo.ThreatEntries[0].Hash, err)
	reply := v4wire.FindFullHashesResponse{HasMinimumWait: true, NegativeCacheDuration: 5 * time.Minute}
	fmt.Printf("%s\n", v4wire.AppendFindFullHashesResponseJSON(nil, &reply))
	// Output:
	// [MALWARE] [WINDOWS LINUX] deadbeef <nil>
	// {"minimumWaitDuration":"0s","negativeCacheDuration":"300s"}
}

// A v4 server names its lists.
func ExampleAppendListThreatListsResponseJSON() {
	m := v4wire.ListThreatListsResponse{ThreatLists: []v4wire.ThreatListDescriptor{{ThreatType: v4wire.SocialEngineering, PlatformType: v4wire.Chrome, ThreatEntryType: v4wire.URL}}}
	fmt.Printf("%s\n", v4wire.AppendListThreatListsResponseJSON(nil, &m))
	// Output:
	// {"threatLists":[{"threatType":"SOCIAL_ENGINEERING","platformType":"CHROME","threatEntryType":"URL"}]}
}
