// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"strings"
	"testing"
	"time"
)

// TestNormalize: proto names become JSON names, keys given twice are
// refused, and data that needs no rewriting is returned as it is.
func TestNormalize(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr bool
	}{
		// Nothing to rewrite.
		{"camel", `{"threatType":"MALWARE","a":[{"b":1}]}`, `{"threatType":"MALWARE","a":[{"b":1}]}`, false},
		// Proto names, at every depth; values are left alone.
		{"snake", `{"list_update_requests":[{"threat_type":"MAL_WARE"}],"x":"a_b"}`, `{"listUpdateRequests":[{"threatType":"MAL_WARE"}],"x":"a_b"}`, false},
		// A key with an escape: unescaped, then rewritten.
		{"escaped", `{"threat\u005ftype":1}`, `{"threatType":1}`, false},
		// Quotes and braces inside strings are not structure.
		{"strings", `{"a":"}{\"","b_c":"]"}`, `{"a":"}{\"","bC":"]"}`, false},
		// The same key in sibling objects is no repeat.
		{"siblings", `[{"a":1},{"a":2}]`, `[{"a":1},{"a":2}]`, false},
		// A key given twice.
		{"twice", `{"a":1,"a":2}`, "", true},
		// By both names.
		{"both names", `{"threatType":1,"threat_type":2}`, "", true},
		// Differing in case only, which encoding/json matches alike.
		{"case", `{"threatType":1,"ThreatType":2}`, "", true},
		// Too deep.
		{"deep", strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1), "", true},
		// Too many keys.
		{"keys", "{" + manyKeys(maxJSONKeys+1) + "}", "", true},
		// Unbalanced.
		{"close", `}`, "", true},
		{"open", `{"a":[`, "", true},
		// An unterminated string.
		{"string", `{"a`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := normalize([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if _, err := normalize([]byte("{" + manyKeys(maxJSONKeys) + "}")); err != nil {
		t.Errorf("%d keys: %v", maxJSONKeys, err)
	}
}

// manyKeys returns n distinct members of an object.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i))
		b.WriteString(`":0`)
	}
	return b.String()
}

// TestJSONErrorBounded: an error quotes at most a bounded part of the
// input, however long.
func TestJSONErrorBounded(t *testing.T) {
	long := strings.Repeat("9", 10000)
	for _, in := range []string{
		`{"client":{"clientId":` + long + `}}`,                 // a number where a string is wanted
		`{"listUpdateRequests":[{"state":"` + long + `!"}]}`,   // bytes that are not base64
		`{"listUpdateRequests":[{"threatType":` + long + `}]}`, // an enum over int32
		`{"` + long + `":1,"` + long + `":2}`,                  // a key twice
	} {
		_, err := ParseFetchThreatListUpdatesRequestJSON([]byte(in))
		if err == nil {
			t.Errorf("%.50s…: no error", in)
		} else if len(err.Error()) > 300 {
			t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
		}
	}
}

// TestParseInt: decimal integers only, within range.
func TestParseInt(t *testing.T) {
	tests := []struct {
		in      string
		bits    int
		want    int64
		wantErr bool
	}{
		{"0", 32, 0, false},                           // zero
		{"-2147483648", 32, -2147483648, false},       // the least int32
		{"2147483647", 32, 2147483647, false},         // the greatest
		{"2147483648", 32, 0, true},                   // one more
		{"-9223372036854775808", 64, -1 << 63, false}, // the least int64
		{"9223372036854775808", 64, 0, true},          // over int64
		{"99999999999999999999", 64, 0, true},         // 20 digits
		{"", 32, 0, true},                             // empty
		{"-", 32, 0, true},                            // a sign alone
		{"+1", 32, 0, true},                           // a plus sign
		{"1e3", 32, 0, true},                          // an exponent
		{"1.0", 32, 0, true},                          // a fraction
		{"00012", 32, 12, false},                      // leading zeros
	}
	for _, tt := range tests {
		got, err := parseInt([]byte(tt.in), tt.bits)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseInt(%q, %d) = %d, %v; want %d, wantErr %v", tt.in, tt.bits, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestTimestampJSON: RFC 3339 in UTC, 0, 3, 6 or 9 digits, as the JSON
// mapping writes a Timestamp; offsets read.
func TestTimestampJSON(t *testing.T) {
	for tm, want := range map[time.Time]string{
		time.Date(2019, 7, 17, 15, 1, 23, 45123456, time.UTC):       "2019-07-17T15:01:23.045123456Z",
		time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC):                 "2020-01-01T00:00:00Z",
		time.Date(2020, 1, 1, 0, 0, 0, 5e8, time.UTC):               "2020-01-01T00:00:00.500Z",
		time.Date(2020, 1, 1, 0, 0, 0, 5e5, time.UTC):               "2020-01-01T00:00:00.000500Z",
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC):                    "0001-01-01T00:00:01Z",
		time.Date(2020, 1, 1, 1, 0, 0, 0, time.FixedZone("", 3600)): "2020-01-01T00:00:00Z",
	} {
		if got := FormatTimestamp(tm); got != want {
			t.Errorf("FormatTimestamp(%v) = %q; want %q", tm, got, want)
		}
		if back, err := ParseJSONTimestamp(want); err != nil || !back.Equal(tm) || back.Location() != time.UTC {
			t.Errorf("ParseJSONTimestamp(%q) = %v, %v", want, back, err)
		}
	}
	for _, bad := range []string{
		"2019-07-17T15:01:23",             // no zone
		"2019-07-17t15:01:23z",            // lower case
		"2019-07-17T15:01:23.Z",           // an empty fraction
		"2019-07-17T15:01:23.1234567890Z", // ten digits
		"2019-07-17T25:01:23Z",            // hour 25
		"0000-12-31T23:59:59Z",            // before year 1
		"0001-01-01T00:00:00+00:01",       // before year 1, by its offset
		"9999-12-31T23:59:59-00:01",       // after year 9999, by its offset
	} {
		if got, err := ParseJSONTimestamp(bad); err == nil {
			t.Errorf("ParseJSONTimestamp(%q) = %v; want an error", bad, got)
		}
	}
}

// TestEnums: names, numbers, and names the package does not know.
func TestEnums(t *testing.T) {
	if got := ThreatType(17).String(); got != "ACCURACY_TIPS" {
		t.Errorf("ThreatType(17) = %s", got)
	}
	if ThreatType(18).Valid() || ThreatType(0).Valid() || !PotentiallyHarmfulApplication.Valid() {
		t.Error("ThreatType.Valid")
	}
	if got := WebRiskThreatType(4).String(); got != "SOCIAL_ENGINEERING_EXTENDED_COVERAGE" {
		t.Errorf("WebRiskThreatType(4) = %s", got)
	}
	if got := ThreatType(4).String(); got != "POTENTIALLY_HARMFUL_APPLICATION" {
		t.Errorf("ThreatType(4) = %s", got)
	}
	if got := PlatformType(-1).String(); got != "PlatformType(-1)" {
		t.Errorf("PlatformType(-1) = %s", got)
	}
	for in, want := range map[string]ThreatType{`"MALWARE"`: Malware, `3`: UnwantedSoftware, `"NEW"`: -1, `-5`: -5, `"TRICK_TO_BILL"`: 15} {
		var v ThreatType
		if err := v.UnmarshalJSON([]byte(in)); err != nil || v != want {
			t.Errorf("UnmarshalJSON(%s) = %v, %v; want %v", in, v, err, want)
		}
	}
	for _, bad := range []string{`3.5`, `2147483648`, `"MALWARE`, `true`} {
		var v ThreatType
		if err := v.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("UnmarshalJSON(%s): no error", bad)
		}
	}
	if b, _ := ThreatType(99).MarshalJSON(); string(b) != "99" {
		t.Errorf("MarshalJSON(99) = %s", b)
	}
	if b, _ := FullUpdate.MarshalJSON(); string(b) != `"FULL_UPDATE"` {
		t.Errorf("MarshalJSON(FullUpdate) = %s", b)
	}
}

// TestReq: $req must be given once, in base64.
func TestReq(t *testing.T) {
	for _, q := range []map[string][]string{
		{},                           // absent
		{ReqParam: {"CgA=", "CgA="}}, // twice
		{ReqParam: {"C!"}},           // not base64
	} {
		if _, err := ParseReq(q); err == nil {
			t.Errorf("ParseReq(%v): no error", q)
		}
	}
	for _, s := range []string{"CgA=", "CgA"} { // padded or not
		if b, err := ParseReq(map[string][]string{ReqParam: {s}}); err != nil || string(b) != "\n\x00" {
			t.Errorf("ParseReq(%q) = %x, %v", s, b, err)
		}
	}
}
