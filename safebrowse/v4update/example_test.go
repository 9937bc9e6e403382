// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"github.com/urlspec/urlspec/safebrowse/v4update"
)

// A v4 client asks for a list, as Google's generated clients post it in
// JSON; the server answers from a v5 client's lists (here fed by the fake
// upstream sbtest).
func Example() {
	up := sbtest.NewServer(sbtest.WithTestURLs())
	defer up.Close()
	src, err := lookup.New(lookup.Config{BaseURL: up.URL, APIKey: up.APIKey})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	if err := src.Update(context.Background()); err != nil { // as src.Run would
		log.Fatal(err)
	}
	v4, err := v4update.New(src, v4update.Config{})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(v4) // behind the server's own access rules
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/v4/threatListUpdates:fetch", "application/json", strings.NewReader(
		`{"listUpdateRequests":[{"threatType":"SOCIAL_ENGINEERING","platformType":"ANY_PLATFORM","threatEntryType":"URL",`+
			`"constraints":{"supportedCompressions":["RAW"]}}]}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	// The list, then the minimum wait: the source's next update, jittered.
	list, _, _ := strings.Cut(string(body), `,"minimumWaitDuration"`)
	for _, part := range strings.SplitAfter(list, `",`) {
		fmt.Println(part)
	}
	// Output:
	// 200 OK
	// {"listUpdateResponses":[{"threatType":"SOCIAL_ENGINEERING",
	// "threatEntryType":"URL",
	// "platformType":"ANY_PLATFORM",
	// "responseType":"FULL_UPDATE",
	// "additions":[{"compressionType":"RAW",
	// "rawHashes":{"prefixSize":4,"rawHashes":"771MOg=="}}],"newClientState":"U09DSUFMX0VOR0lORUVSSU5HOmY2ZjFkMzQxNDgyODQzMGVmNGY3MDdkMTU2OTZiYmU0",
	// "checksum":{"sha256":"9vHTQUgoQw709wfRVpa75J7vYcppWmQVvwy6nbNH7JI="}}]
}

// Handles names the paths a Server serves, so that a server mounts it on
// those alone.
func ExampleHandles() {
	for _, p := range []string{"/v4/threatListUpdates:fetch", "/v4/fullHashes:find", "/v4/threatLists", "/v4/threatMatches:find"} {
		fmt.Println(p, v4update.Handles(p))
	}
	// Output:
	// /v4/threatListUpdates:fetch true
	// /v4/fullHashes:find true
	// /v4/threatLists true
	// /v4/threatMatches:find false
}
