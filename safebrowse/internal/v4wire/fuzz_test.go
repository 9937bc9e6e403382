// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"errors"
	"net/url"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// Every reader of the package has a fuzz target here, seeded from
// messages written by hand from the schemas (those of the table tests,
// and the replies of Google's documentation), not by the package's
// writers. Besides that nothing panics, each checks the round trip that
// the format promises: what the reader accepts, the writer writes, and the
// reader reads back equal (empty and absent being one value, as in
// proto3); and the message survives the other encoding, once the fields
// that only JSON carries are cleared, and where its strings are valid
// UTF-8, which is all JSON can carry.

// dense reports whether err refuses a message for its density alone. A
// message at the limit, padded with unknown fields, is written back
// without them, denser: its reader may refuse what it wrote.
func dense(err error) bool { return errors.Is(err, errDense) || errors.Is(err, errJSONDense) }

// codec is the four functions of one message.
type codec[T any] struct {
	parse      func([]byte) (T, error)
	append     func([]byte, *T) []byte
	parseJSON  func([]byte) (T, error)
	appendJSON func([]byte, *T) []byte
	// binaryForm returns a copy of m without the fields that only JSON
	// carries; nil when there are none.
	binaryForm func(m T) T
	// utf8 reports whether m's strings are valid UTF-8; nil when it has
	// none.
	utf8 func(m *T) bool
}

// fromBinary checks a binary message read from b.
func (c codec[T]) fromBinary(t *testing.T, b []byte) {
	m, err := c.parse(b)
	if err != nil {
		return
	}
	back, err := c.parse(c.append(nil, &m))
	if dense(err) {
		return
	}
	if err != nil {
		t.Fatalf("reading its own message of %x: %v", b, err)
	}
	mustEqual(t, "binary round trip", m, back)
	if c.utf8 != nil && !c.utf8(&m) {
		return
	}
	j := c.appendJSON(nil, &m)
	back, err = c.parseJSON(j)
	if dense(err) {
		return
	}
	if err != nil {
		t.Fatalf("reading its own JSON %s: %v", j, err)
	}
	mustEqual(t, "binary to JSON", m, back)
}

// fromJSON checks a JSON message read from data.
func (c codec[T]) fromJSON(t *testing.T, data []byte) {
	m, err := c.parseJSON(data)
	if err != nil {
		return
	}
	j := c.appendJSON(nil, &m)
	back, err := c.parseJSON(j)
	if dense(err) {
		return
	}
	if err != nil {
		t.Fatalf("reading its own JSON %s (from %s): %v", j, data, err)
	}
	mustEqual(t, "JSON round trip", m, back)
	want := m
	if c.binaryForm != nil {
		want = c.binaryForm(m)
	}
	back, err = c.parse(c.append(nil, &m))
	if dense(err) {
		return
	}
	if err != nil {
		t.Fatalf("reading the binary form of JSON %s: %v", data, err)
	}
	mustEqual(t, "JSON to binary", want, back)
}

var (
	fetchRequestCodec = codec[FetchThreatListUpdatesRequest]{
		ParseFetchThreatListUpdatesRequest, AppendFetchThreatListUpdatesRequest,
		ParseFetchThreatListUpdatesRequestJSON, AppendFetchThreatListUpdatesRequestJSON,
		func(m FetchThreatListUpdatesRequest) FetchThreatListUpdatesRequest {
			m.ListUpdateRequests = slices.Clone(m.ListUpdateRequests)
			for i := range m.ListUpdateRequests {
				c := &m.ListUpdateRequests[i].Constraints
				c.Language, c.DeviceLocation = "", ""
			}
			return m
		},
		func(m *FetchThreatListUpdatesRequest) bool {
			ok := utf8.ValidString(m.Client.ClientID) && utf8.ValidString(m.Client.ClientVersion)
			for _, lr := range m.ListUpdateRequests {
				ok = ok && utf8.ValidString(lr.Constraints.Region)
			}
			return ok
		},
	}
	fetchResponseCodec = codec[FetchThreatListUpdatesResponse]{
		ParseFetchThreatListUpdatesResponse, AppendFetchThreatListUpdatesResponse,
		ParseFetchThreatListUpdatesResponseJSON, AppendFetchThreatListUpdatesResponseJSON, nil, nil,
	}
	findRequestCodec = codec[FindFullHashesRequest]{
		ParseFindFullHashesRequest, AppendFindFullHashesRequest,
		ParseFindFullHashesRequestJSON, AppendFindFullHashesRequestJSON,
		func(m FindFullHashesRequest) FindFullHashesRequest {
			m.APIClient = ClientInfo{}
			m.ThreatInfo.ThreatEntries = slices.Clone(m.ThreatInfo.ThreatEntries)
			for i := range m.ThreatInfo.ThreatEntries {
				m.ThreatInfo.ThreatEntries[i].Digest = nil
			}
			return m
		},
		func(m *FindFullHashesRequest) bool {
			ok := utf8.ValidString(m.Client.ClientID) && utf8.ValidString(m.Client.ClientVersion)
			for _, e := range m.ThreatInfo.ThreatEntries {
				ok = ok && utf8.ValidString(e.URL)
			}
			return ok
		},
	}
	findResponseCodec = codec[FindFullHashesResponse]{
		ParseFindFullHashesResponse, AppendFindFullHashesResponse,
		ParseFindFullHashesResponseJSON, AppendFindFullHashesResponseJSON,
		func(m FindFullHashesResponse) FindFullHashesResponse {
			m.Matches = slices.Clone(m.Matches)
			for i := range m.Matches {
				m.Matches[i].Threat.Digest = nil
			}
			return m
		},
		func(m *FindFullHashesResponse) bool {
			for _, tm := range m.Matches {
				if !utf8.ValidString(tm.Threat.URL) {
					return false
				}
			}
			return true
		},
	}
	threatListsCodec = codec[ListThreatListsResponse]{
		ParseListThreatListsResponse, AppendListThreatListsResponse,
		ParseListThreatListsResponseJSON, AppendListThreatListsResponseJSON, nil, nil,
	}
	diffCodec = codec[ComputeThreatListDiffResponse]{
		ParseComputeThreatListDiffResponse, AppendComputeThreatListDiffResponse,
		ParseComputeThreatListDiffResponseJSON, AppendComputeThreatListDiffResponseJSON, nil, nil,
	}
	searchHashesCodec = codec[SearchHashesResponse]{
		ParseSearchHashesResponse, AppendSearchHashesResponse,
		ParseSearchHashesResponseJSON, AppendSearchHashesResponseJSON, nil, nil,
	}
	searchUrisCodec = codec[SearchUrisResponse]{
		ParseSearchUrisResponse, AppendSearchUrisResponse,
		ParseSearchUrisResponseJSON, AppendSearchUrisResponseJSON, nil, nil,
	}
)

// corruptSeeds are binary seeds that every reader refuses or skips.
var corruptSeeds = [][]byte{
	{0x00},                   // field number 0
	{0x0a, 0x40, 0x01},       // a truncated length
	{0x08},                   // a truncated varint
	{0xa3, 0x01, 0xa4, 0x01}, // an unknown group, start and end
	{0x0b},                   // a group never ended
	{0x0c},                   // a group end alone
	{0x0d, 1, 2, 3, 4},       // an unknown fixed32
}

func addSeeds(f *testing.F, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	for _, s := range corruptSeeds {
		f.Add(s)
	}
}

func FuzzParseFetchThreatListUpdatesRequest(f *testing.F) {
	addSeeds(f, nil, cat(goClient, goListRequest), cat(chromeListRequest, chromeClientInfo),
		msg(0x1a, []byte{0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), // a negative enum
		msg(0x1a, []byte{0x22, 0x00, 0x22, 0x00}),                                           // constraints twice
		msg(0x0a, msg(0x0a, []byte{0xff, 0xfe})))                                            // a client_id not UTF-8
	f.Fuzz(fetchRequestCodec.fromBinary)
}

func FuzzParseFetchThreatListUpdatesResponse(f *testing.F) {
	addSeeds(f, nil, cat(fullUpdate, partialUpdate, wait300), []byte{0x12, 0x00},
		msg(0x0a, msg(0x32, msg(0x1a, []byte{0x08, 0x03, 0x08, 0x01})), msg(0x32, msg(0x1a))), // unpacked, empty indices
		msg(0x0a, msg(0x2a, msg(0x22), msg(0x22))),                                            // rice twice
		[]byte{0x12, 0x0a, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40})        // a wait of 2^62 s, capped
	f.Fuzz(fetchResponseCodec.fromBinary)
}

func FuzzParseFindFullHashesRequest(f *testing.F) {
	addSeeds(f, nil, cat(goClient, clientStates, goThreatInfo), chromeThreatInfo,
		msg(0x1a, msg(0x1a, msg(0x12, []byte("http://x/")))), // a URL entry
		msg(0x12),                          // an empty client state
		msg(0x1a, msg(0x0a, []byte{0x80}))) // a packed enum cut short
	f.Fuzz(findRequestCodec.fromBinary)
}

func FuzzParseFindFullHashesResponse(f *testing.F) {
	addSeeds(f, nil, cat(msg(0x0a, matchBody), []byte{0x12, 0x00}, []byte{0x1a, 0x03, 0x08, 0xac, 0x02}),
		msg(0x0a, msg(0x22)),            // empty metadata
		msg(0x0a, msg(0x1a), msg(0x1a)), // threat twice
		msg(0x0a, msg(0x1a, msg(0x0a)))) // an empty hash
	f.Fuzz(findResponseCodec.fromBinary)
}

func FuzzParseListThreatListsResponse(f *testing.F) {
	addSeeds(f, nil, cat(msg(0x0a, []byte{0x08, 0x01, 0x10, 0x01, 0x18, 0x01}), msg(0x0a, []byte{0x08, 0x02, 0x10, 0x06, 0x18, 0x01})),
		msg(0x0a), msg(0x0a, []byte{0x0a, 0x00}))
	f.Fuzz(threatListsCodec.fromBinary)
}

func FuzzParseComputeThreatListDiffResponse(f *testing.F) {
	next := msg(0x12, []byte{0x08, 0xf9, 0xe0, 0xd8, 0xf0, 0x05, 0x10, 0x92, 0xb4, 0x9f, 0xd0, 0x01})
	addSeeds(f, nil, next,
		cat([]byte{0x20, 0x01}, msg(0x2a, msg(0x0a, []byte{0x08, 0x08}, msg(0x12, []byte{1, 2, 3, 4, 5, 6, 7, 8})), msg(0x12, riceBody)),
			msg(0x32, msg(0x12, []byte{0x08, 0x02})), msg(0x3a, []byte("v")), msg(0x42, msg(0x0a, rep(1, 32)))),
		cat(msg(0x2a), msg(0x32, msg(0x0a, msg(0x0a, []byte{0, 2, 4})))),
		msg(0x12, []byte{0x08, 0xff, 0x82, 0xd1, 0xff, 0xaf, 0x07}), // the last second of year 9999
		msg(0x12, []byte{0x08, 0x80, 0x83, 0xd1, 0xff, 0xaf, 0x07})) // a second later
	f.Fuzz(diffCodec.fromBinary)
}

func FuzzParseSearchHashesResponse(f *testing.F) {
	expire := []byte{0x08, 0xc3, 0xf0, 0xbc, 0xe9, 0x05, 0x10, 0x80, 0x8f, 0xc2, 0x15}
	addSeeds(f, nil, cat(msg(0x0a, []byte{0x0a, 0x02, 0x01, 0x04}, msg(0x12, rep(0xab, 32)), msg(0x1a, expire)), msg(0x12, expire)),
		msg(0x0a, msg(0x12, rep(1, 31))), // a short hash
		msg(0x0a, []byte{0x08, 0x01}))    // no hash
	f.Fuzz(searchHashesCodec.fromBinary)
}

func FuzzParseSearchUrisResponse(f *testing.F) {
	addSeeds(f, nil, msg(0x0a, []byte{0x0a, 0x01, 0x04}, msg(0x12, []byte{0x08, 0x01})), msg(0x0a), cat(msg(0x0a), msg(0x0a)))
	f.Fuzz(searchUrisCodec.fromBinary)
}

// FuzzParseRice: a Rice message read is written and read back equal.
func FuzzParseRice(f *testing.F) {
	addSeeds(f, nil, riceBody,
		[]byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // first_value -1
		[]byte{0x10, 0x80, 0x80, 0x80, 0x80, 0x08})                               // k over int32
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseRice(b)
		if err != nil {
			return
		}
		back, err := ParseRice(AppendRice(nil, &s))
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "round trip", s, back)
	})
}

// FuzzParseTimestamp: a Timestamp read is written and read back equal,
// in binary and in JSON.
func FuzzParseTimestamp(f *testing.F) {
	addSeeds(f, nil,
		[]byte{0x08, 0xf9, 0xe0, 0xd8, 0xf0, 0x05, 0x10, 0x92, 0xb4, 0x9f, 0xd0, 0x01},       // 2020-01-08T19:41:45.436722194Z
		[]byte{0x08, 0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff, 0xff, 0x01},             // the first second of year 1
		[]byte{0x08, 0xff, 0x82, 0xd1, 0xff, 0xaf, 0x07, 0x10, 0xff, 0x93, 0xeb, 0xdc, 0x03}, // the last nanosecond of year 9999
		[]byte{0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03})                                           // nanos of 1e9
	f.Fuzz(func(t *testing.T, b []byte) {
		tm, err := ParseTimestamp(b)
		if err != nil {
			return
		}
		if back, err := ParseTimestamp(AppendTimestamp(nil, tm)); err != nil || back != tm {
			t.Fatalf("binary round trip of %v: %v, %v", tm, back, err)
		}
		if back, err := ParseJSONTimestamp(FormatTimestamp(tm)); err != nil || back != tm {
			t.Fatalf("JSON round trip of %v: %v, %v", tm, back, err)
		}
	})
}

func addJSONSeeds(f *testing.F, seeds ...string) {
	for _, s := range append(seeds,
		`{}`, `null`, `[]`, `{} {}`, `{"a":1,"a":2}`, `{"a":{"b_c":1,"bC":2}}`, `{"\u0061":1}`, `{"x":[[[[]]]]}`) {
		f.Add([]byte(s))
	}
}

func FuzzParseFetchThreatListUpdatesRequestJSON(f *testing.F) {
	addJSONSeeds(f,
		`{"client":{"clientId":"gapi","clientVersion":"1"},"listUpdateRequests":[{"threatType":"SOCIAL_ENGINEERING","platformType":"WINDOWS","state":"+/8=","constraints":{"maxUpdateEntries":2048,"maxDatabaseEntries":4096,"region":"US","supportedCompressions":["RAW","RICE"],"language":"en","deviceLocation":"US"},"threatEntryType":"URL"}]}`,
		`{"list_update_requests":[{"threat_type":2,"state":"-_8","constraints":{"max_update_entries":"2048","supported_compressions":[1,"RICE"]}}]}`,
		`{"listUpdateRequests":[{"threatType":"NEW_TYPE","futureField":{"a":[1]}},null]}`)
	f.Fuzz(fetchRequestCodec.fromJSON)
}

func FuzzParseFetchThreatListUpdatesResponseJSON(f *testing.F) {
	addJSONSeeds(f,
		`{"listUpdateResponses":[{"threatType":"MALWARE","threatEntryType":"URL","platformType":"ANY_PLATFORM","responseType":"FULL_UPDATE","additions":[{"compressionType":"RICE","riceHashes":{"firstValue":"7","riceParameter":3,"numEntries":1,"encodedData":"BQ=="}}],"newClientState":"djE=","checksum":{"sha256":"qqqq"}}],"minimumWaitDuration":"1.500s"}`,
		`{"listUpdateResponses":[{"responseType":"PARTIAL_UPDATE","additions":[{"compressionType":"RAW","rawHashes":{"prefixSize":4,"rawHashes":"AQIDBAUGBwg="}}],"removals":[{"rawIndices":{"indices":[0,"2",4]}}]}],"minimumWaitDuration":"0s"}`,
		`{"minimumWaitDuration":"315576000000s"}`, `{"minimumWaitDuration":"-1s"}`)
	f.Fuzz(fetchResponseCodec.fromJSON)
}

func FuzzParseFindFullHashesRequestJSON(f *testing.F) {
	addJSONSeeds(f,
		`{"client":{"clientId":"GoSafeBrowser","clientVersion":"1.0.0"},"clientStates":["czE=","czI="],"threatInfo":{"threatTypes":["MALWARE","SOCIAL_ENGINEERING"],"platformTypes":["ANY_PLATFORM"],"threatEntries":[{"hash":"3q2+7w=="},{"digest":"AQ=="}],"threatEntryTypes":["URL"]},"apiClient":{"clientId":"api"}}`,
		`{"threat_info":{"threat_entries":[{"url":"http://x/"}]},"client_states":[""]}`)
	f.Fuzz(findRequestCodec.fromJSON)
}

func FuzzParseFindFullHashesResponseJSON(f *testing.F) {
	addJSONSeeds(f,
		`{"matches":[{"threatType":"MALWARE","platformType":"ANY_PLATFORM","threat":{"hash":"q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s="},"threatEntryMetadata":{"entries":[{"key":"a2V5","value":"dg=="}]},"cacheDuration":"300s","threatEntryType":"URL"}],"minimumWaitDuration":"0s","negativeCacheDuration":"300s"}`,
		`{"matches":[{"threatEntryMetadata":{}}]}`)
	f.Fuzz(findResponseCodec.fromJSON)
}

func FuzzParseListThreatListsResponseJSON(f *testing.F) {
	addJSONSeeds(f, `{"threatLists":[{"threatType":"MALWARE","platformType":"WINDOWS","threatEntryType":"URL"},{"threat_type":4,"platform_type":"CHROME"}]}`)
	f.Fuzz(threatListsCodec.fromJSON)
}

func FuzzParseComputeThreatListDiffResponseJSON(f *testing.F) {
	addJSONSeeds(f, docsReset, docsDiff, docsDiffVerbatim,
		`{"responseType":"DIFF","additions":{"riceHashes":{"firstValue":"7","riceParameter":3,"entryCount":1,"encodedData":"BQ=="}},"removals":{"riceIndices":{"firstValue":"2"}},"recommendedNextDiff":"2026-03-31T00:00:00.500Z"}`)
	f.Fuzz(diffCodec.fromJSON)
}

func FuzzParseSearchHashesResponseJSON(f *testing.F) {
	addJSONSeeds(f, docsSearchHashes, `{"threats":[{"hash":"AAAA"}]}`, `{"negativeExpireTime":"2019-07-17T17:01:23+02:00"}`)
	f.Fuzz(searchHashesCodec.fromJSON)
}

func FuzzParseSearchUrisResponseJSON(f *testing.F) {
	addJSONSeeds(f, `{"threat":{"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE"],"expireTime":"2019-07-17T15:01:23.045123456Z"}}`, `{"threat":{}}`)
	f.Fuzz(searchUrisCodec.fromJSON)
}

// FuzzParseJSONTimestamp: a JSON Timestamp read is written and read back
// equal, in JSON and in binary.
func FuzzParseJSONTimestamp(f *testing.F) {
	for _, s := range []string{
		"2019-07-17T15:01:23.045123456Z", "2020-01-01T00:00:00Z", "2019-07-17T17:01:23+02:00",
		"0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "10000-01-01T00:00:00Z", "2019-07-17T15:01:23.Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseJSONTimestamp(s)
		if err != nil {
			return
		}
		if back, err := ParseJSONTimestamp(FormatTimestamp(tm)); err != nil || back != tm {
			t.Fatalf("JSON round trip of %q: %v, %v", s, back, err)
		}
		if back, err := ParseTimestamp(AppendTimestamp(nil, tm)); err != nil || back != tm {
			t.Fatalf("binary round trip of %q: %v, %v", s, back, err)
		}
	})
}

// queryTrip checks a query reader: what it reads, the writer writes, and
// it reads back equal.
func queryTrip[T any](t *testing.T, raw string, parse func(map[string][]string) (T, error), write func([]byte, *T) []byte) {
	q, _ := url.ParseQuery(raw)
	m, err := parse(q)
	if err != nil {
		return
	}
	out := write(nil, &m)
	q2, err := url.ParseQuery(string(out))
	if err != nil {
		t.Fatalf("its own query %q: %v", out, err)
	}
	back, err := parse(q2)
	if err != nil {
		t.Fatalf("reading its own query %q: %v", out, err)
	}
	mustEqual(t, "query round trip", m, back)
}

func FuzzParseComputeThreatListDiffRequestQuery(f *testing.F) {
	for _, s := range []string{
		"threatType=MALWARE&versionToken=Gg4IBBADIgYQgBAiAQEoAQ%3D%3D&constraints.maxDiffEntries=2048&constraints.maxDatabaseEntries=4096&constraints.supportedCompressions=RAW&key=API_KEY",
		"constraints.max_database_entries=1024&constraints.supported_compressions=RAW&constraints.supported_compressions=RICE&threat_type=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&version_token=%2B%2F%2B%2F",
		"threatType=9&threatType=1", "threatType=X&threat_type=Y", "constraints.maxDiffEntries=-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		queryTrip(t, raw, ParseComputeThreatListDiffRequestQuery, AppendComputeThreatListDiffRequestQuery)
	})
}

func FuzzParseSearchHashesRequestQuery(f *testing.F) {
	for _, s := range []string{
		"key=YOUR_API_KEY&threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&hashPrefix=WwuJdQ%3D%3D",
		"hash_prefix=%2B%2F%2B%2F%2F8A%3D&threat_types=SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "hashPrefix=-_-_&threatTypes=-7",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		queryTrip(t, raw, ParseSearchHashesRequestQuery, AppendSearchHashesRequestQuery)
	})
}

func FuzzParseSearchUrisRequestQuery(f *testing.F) {
	for _, s := range []string{
		"threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE&uri=http%3A%2F%2Ftestsafebrowsing.appspot.com%2Fs%2Fsocial_engineering_extended_coverage.html&key=API_KEY",
		"uri=%FF%FE&threat_types=1", "uri=a&uri=b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		queryTrip(t, raw, ParseSearchUrisRequestQuery, AppendSearchUrisRequestQuery)
	})
}

// FuzzParseReq: a $req read is what EncodeReq's value reads back; and the
// JSON readers' base64 decoder agrees with v5wire.DecodeBytes.
func FuzzParseReq(f *testing.F) {
	for _, s := range []string{"CgA=", "CgA", "-_8=", "+/8", "+_8", "A", "AQ=A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := v5wire.DecodeBytes(s)
		if got, err := decodeBase64([]byte(s)); (err == nil) != (werr == nil) || err == nil && !bytes.Equal(got, want) {
			t.Fatalf("decodeBase64(%q) = %x, %v; DecodeBytes: %x, %v", s, got, err, want, werr)
		}
		b, err := ParseReq(map[string][]string{ReqParam: {s}})
		if err != nil {
			return
		}
		if len(b) > len(s) {
			t.Fatalf("%q decoded to %d bytes", s, len(b))
		}
		back, err := ParseReq(map[string][]string{ReqParam: {EncodeReq(b)}})
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("EncodeReq round trip of %x: %x, %v", b, back, err)
		}
	})
}
