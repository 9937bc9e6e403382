// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// webRisk sends GET s.URL+"/"+method with the server's key and the query
// pairs kv, and returns the status and the body, a line of JSON.
func webRisk(s *sbtest.Server, method string, kv ...string) (int, string) {
	q := url.Values{"key": {s.APIKey}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	res, err := s.Client().Get(s.URL + "/" + method + "?" + q.Encode())
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.TrimSpace(string(body))
}

// ExampleNewServer_webRisk asks the server's Web Risk API about Google's
// test pages: uris:search and hashes:search, in the JSON that Web Risk
// answers by default. With no cache duration, the replies carry no
// expiry times, so that the output is the same at every run.
func ExampleNewServer_webRisk() {
	s := sbtest.NewServer(sbtest.WithTestURLs(), sbtest.WithCacheDuration(0))
	defer s.Close()
	// A list that Web Risk serves and v5 does not.
	s.Add("SOCIAL_ENGINEERING_EXTENDED_COVERAGE", "ext.example/")

	for _, uri := range []string{
		"http://testsafebrowsing.appspot.com/s/phishing.html",
		"http://ext.example/login",
		"http://clean.example/",
	} {
		fmt.Println(webRisk(s, "v1/uris:search", "uri", uri,
			"threatTypes", "SOCIAL_ENGINEERING", "threatTypes", "SOCIAL_ENGINEERING_EXTENDED_COVERAGE"))
	}
	// One hash prefix a search, with the threat types to search.
	fmt.Println(webRisk(s, "v1/hashes:search", "hashPrefix", prefix("malware.testing.google.test/testing/malware/"),
		"threatTypes", "MALWARE"))
	fmt.Println(webRisk(s, "v1/hashes:search", "hashPrefix", "AQID", "threatTypes", "MALWARE"))
	fmt.Println(s.Requests("v1/uris:search"), s.Requests("v1/hashes:search"), s.Requests("hashes:search"))
	// Output:
	// 200 {"threat":{"threatTypes":["SOCIAL_ENGINEERING"]}}
	// 200 {"threat":{"threatTypes":["SOCIAL_ENGINEERING_EXTENDED_COVERAGE"]}}
	// 200 {}
	// 200 {"threats":[{"threatTypes":["MALWARE"],"hash":"UYZART+LKl8NQ7wiUVL0lTC+KkC/4rq2CqruemexCJA="}]}
	// 400 {"error":{"code":400,"message":"sbtest: hashPrefix is 3 bytes; want 4 to 32","status":"INVALID_ARGUMENT"}}
	// 3 2 0
}

// AddPrefix seeds a Web Risk entry longer than 4 bytes: computeDiff sends
// it raw, beside the 4-byte entries, Rice-coded when the client takes
// RICE. A DIFF from the token then removes and adds entries by their
// indices in byte order.
func ExampleServer_AddPrefix() {
	s := sbtest.NewServer(sbtest.WithRecommendedNextDiff(0))
	defer s.Close()
	s.Add("mw-4b", "a.example/")
	s.Add("mw-4b", "b.example/")
	if err := s.AddPrefix("mw-4b", "long.example/", 8); err != nil {
		fmt.Println(err)
		return
	}
	status, body := webRisk(s, "v1/threatLists:computeDiff", "threatType", "MALWARE",
		"constraints.supportedCompressions", "RICE")
	fmt.Println(status, body)

	// Take one 4-byte entry off, and make the other 16 bytes long.
	var reset struct{ NewVersionToken string }
	json.Unmarshal([]byte(body), &reset)
	s.Remove("mw-4b", "a.example/")
	s.AddPrefix("mw-4b", "b.example/", 16)
	fmt.Println(webRisk(s, "v1/threatLists:computeDiff", "threatType", "MALWARE", "versionToken", reset.NewVersionToken))

	fmt.Println(s.AddPrefix("mw-4b", "long.example/", 33))
	// Output:
	// 200 {"responseType":"RESET","additions":{"rawHashes":[{"prefixSize":8,"rawHashes":"cpBME20zxk4="}],"riceHashes":{"firstValue":"263114863","riceParameter":28,"entryCount":1,"encodedData":"/0uM9jU="}},"newVersionToken":"TUFMV0FSRTo4ZDBjODZmZTkyMzhlYzY2","checksum":{"sha256":"jQyG/pI47GYf5KLnjz3YTa1YmKqox15GIFHpLApf9uc="}}
	// 200 {"responseType":"DIFF","additions":{"rawHashes":[{"prefixSize":16,"rawHashes":"+KFtthHwLtbeFcg9vnAx+A=="}]},"removals":{"rawIndices":{"indices":[0,2]}},"newVersionToken":"TUFMV0FSRTo4YWY2MmFlOWZjZjQ5ZmJl","checksum":{"sha256":"ivYq6fz0n74R+LwLMIuORyE5k22wknmngDkgXqyWDeE="}}
	// sbtest: invalid prefix length in "33": want 4 to 32
}

// WithRecommendedNextDiff sets when computeDiff tells a client to update
// next; a negative duration gives a time in the past, to test how a
// client takes it.
func ExampleWithRecommendedNextDiff() {
	for _, d := range []time.Duration{time.Hour, -time.Hour} {
		s := sbtest.NewServer(sbtest.WithRecommendedNextDiff(d))
		defer s.Close()
		_, body := webRisk(s, "v1/threatLists:computeDiff", "threatType", "MALWARE")
		var reply struct{ RecommendedNextDiff time.Time }
		if err := json.Unmarshal([]byte(body), &reply); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(time.Until(reply.RecommendedNextDiff).Round(time.Minute))
	}
	// Output:
	// 1h0m0s
	// -1h0m0s
}
