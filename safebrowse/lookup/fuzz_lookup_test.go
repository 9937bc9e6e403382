// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"net/http"
	"sync"
	"testing"

	"github.com/urlspec/urlspec/safebrowse"
)

// FuzzLookupReply runs a whole Lookup against a server whose
// hashes:search reply is the fuzzer's bytes: nothing panics, a failed
// search yields no threat, and every threat names an expression of the URL
// whose full hash the reply held.
func FuzzLookupReply(f *testing.F) {
	const u = "http://a.evil.example/x"
	h := hashOf("evil.example/")
	f.Add(cat([]byte{0x0a, 0x26}, fullHashMsg(h, detailMsg(Malware)), []byte{0x12, 0x03, 0x08, 0xac, 0x02}))
	f.Add(cat([]byte{0x0a, 0x2a}, fullHashMsg(h, detailMsg(SocialEngineering, Canary, FrameOnly))))
	f.Add([]byte{0x12, 0x00})
	f.Add([]byte{0xff})

	var mu sync.Mutex
	var body []byte
	s := newTestServer(f)
	s.handle = func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(body)
	}
	c, _ := newTestClient(f, Config{BaseURL: s.URL, Mode: NoStorage})
	exprs, _ := safebrowse.Expressions(u)
	f.Fuzz(func(t *testing.T, b []byte) {
		mu.Lock()
		body = b
		mu.Unlock()
		c.cache = newCache(CacheSize, DefaultCacheBytes)
		c.searches.reset()
		v, err := c.Lookup(bg, u)
		if err != nil {
			if len(v.Threats) != 0 {
				t.Fatalf("threats %v with error %v", v.Threats, err)
			}
			return
		}
		reply, perr := parseSearchReply(b)
		if perr != nil {
			t.Fatalf("Lookup accepted a reply the parser rejects: %v", perr)
		}
		for _, th := range v.Threats {
			i := -1
			for j, e := range exprs {
				if e == th.Expression {
					i = j
				}
			}
			if i < 0 || !th.Type.Valid() {
				t.Fatalf("threat %+v", th)
			}
			found := false
			for _, fh := range reply.hashes {
				found = found || fh.hash == hashOf(exprs[i])
			}
			if !found {
				t.Fatalf("threat %+v not in the reply", th)
			}
		}
	})
}
