// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"google.golang.org/protobuf/encoding/protowire"
)

// call sends GET s.URL+path with the server's key, alt=proto and the
// query pairs kv, and returns the status and body.
func call(s *sbtest.Server, path string, kv ...string) (int, []byte) {
	q := url.Values{"key": {s.APIKey}, "alt": {"proto"}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	res, err := s.Client().Get(s.URL + path + "?" + q.Encode())
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}

// prefix returns the standard base64 of the 4-byte prefix of an
// expression's SHA-256 hash, as a client sends it to hashes:search.
func prefix(expr string) string {
	h := sha256.Sum256([]byte(expr))
	return base64.StdEncoding.EncodeToString(h[:4])
}

// printSearch prints a SearchHashesResponse, read with protowire: each
// FullHash's first bytes and its FullHashDetails, then cache_duration.
func printSearch(b []byte) {
	for len(b) > 0 {
		num, _, n := protowire.ConsumeTag(b)
		v, m := protowire.ConsumeBytes(b[n:])
		if n < 0 || m < 0 {
			fmt.Println("corrupt")
			return
		}
		b = b[n+m:]
		switch num {
		case 1: // FullHash { 1 full_hash; 2 full_hash_details }
			for len(v) > 0 {
				num, _, n := protowire.ConsumeTag(v)
				f, m := protowire.ConsumeBytes(v[n:])
				v = v[n+m:]
				if num == 1 {
					fmt.Printf("full hash %x…", f[:4])
					continue
				}
				// FullHashDetail { 1 threat_type; 2 attributes (packed) }
				_, _, n = protowire.ConsumeTag(f)
				threat, m := protowire.ConsumeVarint(f[n:])
				fmt.Printf(" threat %d", threat)
				if f = f[n+m:]; len(f) > 0 {
					_, _, n = protowire.ConsumeTag(f)
					attrs, _ := protowire.ConsumeBytes(f[n:])
					fmt.Printf(" attributes %v", attrs)
				}
			}
			fmt.Println()
		case 2: // Duration { 1 seconds }
			_, _, n := protowire.ConsumeTag(v)
			sec, _ := protowire.ConsumeVarint(v[n:])
			fmt.Printf("cache_duration %ds\n", sec)
		}
	}
}

func ExampleNewServer() {
	s := sbtest.NewServer()
	defer s.Close()
	if err := s.Add("se-4b", "evil.example/"); err != nil {
		fmt.Println(err)
		return
	}
	// A client is pointed at it with BaseURL: s.URL, APIKey: s.APIKey.
	// Here, by hand: fetch se-4b whole and apply it to a local list.
	status, body := call(s, "/v5/hashList/se-4b")
	list, _ := hashlist.New("se-4b")
	err := list.Apply(body)
	h := sha256.Sum256([]byte("evil.example/"))
	fmt.Println(status, err, list.Len(), string(list.Version()), list.Contains(h[:]))

	// A wrong key is a 400 with Google's message, which does not echo it,
	// and the reason Google's client libraries read.
	res, err := http.Get(s.URL + "/v5/hashList/se-4b?key=AIzaWrong&alt=proto")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(res.Body)
	fmt.Printf("%d %s", res.StatusCode, msg)
	// Output:
	// 200 <nil> 1 se-4b:1 true
	// 400 {"error":{"code":400,"message":"sbtest: API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"safebrowsing.googleapis.com"}}]}}
}

// ExampleWithJSON serves Google's JSON mapping, for a test of a client
// that reads JSON; without it, alt=json gets Google's v5 answer.
func ExampleWithJSON() {
	for _, s := range []*sbtest.Server{sbtest.NewServer(), sbtest.NewServer(sbtest.WithJSON())} {
		defer s.Close()
		res, err := s.Client().Get(s.URL + "/v5/urls:search?alt=json&urls=http://good.example/&key=" + s.APIKey)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Printf("%d %s", res.StatusCode, body)
	}
	// Output:
	// 400 {"error":{"code":400,"message":"Unsupported Output Format","status":"INVALID_ARGUMENT"}}
	// 200 {"cacheDuration":"300s"}
}

// Add puts an expression's hash on a list; a search for its 4-byte prefix
// then returns the full hash, with the list's threat type and the
// attributes given.
func ExampleServer_Add() {
	s := sbtest.NewServer(sbtest.WithCacheDuration(5 * time.Minute))
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	s.Add("mw-4b", "evil.example/", sbtest.Canary)

	_, body := call(s, "/v5/hashes:search", "hashPrefixes", prefix("evil.example/"))
	printSearch(body)

	// Expressions are as safebrowse yields them: a host alone is not one.
	fmt.Println(s.Add("se-4b", "evil.example"))
	// Output:
	// full hash f001957c… threat 2 threat 1 attributes [1]
	// cache_duration 300s
	// sbtest: invalid expression in "evil.example": not canonical; want "evil.example/"
}

// Inject makes the server fail: here one 503, then a wrong checksum,
// which a client's hashlist.List refuses, keeping its list.
func ExampleServer_Inject() {
	s := sbtest.NewServer()
	defer s.Close()
	s.Add("se-4b", "evil.example/")

	s.Inject(sbtest.Fault{Endpoint: "hashList", Status: 503, Times: 1})
	status, body := call(s, "/v5/hashList/se-4b")
	fmt.Printf("%d %s", status, body)

	s.Inject(sbtest.Fault{BadChecksum: true, Times: 1})
	list, _ := hashlist.New("se-4b")
	_, body = call(s, "/v5/hashList/se-4b")
	err := list.Apply(body)
	fmt.Println(errors.Is(err, hashlist.ErrChecksum), list.Len())

	_, body = call(s, "/v5/hashList/se-4b")
	fmt.Println(list.Apply(body), list.Len())
	// Output:
	// 503 {"error":{"code":503,"message":"sbtest: injected fault: 503 Service Unavailable","status":"UNAVAILABLE"}}
	// true 0
	// <nil> 1
}

// Requests counts each endpoint's requests, and SearchedPrefixes shows
// what a client revealed to hashes:search.
func ExampleServer_Requests() {
	s := sbtest.NewServer()
	defer s.Close()
	call(s, "/v5/hashLists:batchGet", "names", "se-4b", "names", "mw-4b")
	call(s, "/v5/hashes:search", "hashPrefixes", prefix("evil.example/"), "hashPrefixes", prefix("example/"))
	status, _ := call(s, "/v5/hashes:search", "hashPrefixes", "AQIDBAU=") // 5 bytes
	fmt.Println(status)

	for _, e := range []string{"hashLists:batchGet", "hashList", "hashes:search", ""} {
		fmt.Printf("%q: %d\n", e, s.Requests(e))
	}
	fmt.Printf("%x\n", s.SearchedPrefixes())
	// Output:
	// 400
	// "hashLists:batchGet": 1
	// "hashList": 0
	// "hashes:search": 2
	// "": 3
	// [f001957c 5c5466f8 0102030405]
}

// ExampleWithTestURLs starts a server that already holds Google's test
// pages, and asks it about the malware page's hash prefix.
func ExampleWithTestURLs() {
	s := sbtest.NewServer(sbtest.WithTestURLs())
	defer s.Close()

	h := sha256.Sum256([]byte("malware.testing.google.test/testing/malware/"))
	q := url.Values{"key": {s.APIKey}, "alt": {"proto"}, "hashPrefixes": {base64.StdEncoding.EncodeToString(h[:4])}}
	res, err := s.Client().Get(s.URL + "/v5/hashes:search?" + q.Encode())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	// The reply holds the page's full hash, behind the prefix asked.
	fmt.Println(res.StatusCode, bytes.Contains(body, h[:]), len(sbtest.TestURLs))
	// Output: 200 true 5
}
