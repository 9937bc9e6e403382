// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/ohttp"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"google.golang.org/protobuf/encoding/protowire"
)

// keyClient fetches the server's key configuration and returns an OHTTP
// client for it.
func keyClient(t *testing.T, s *sbtest.Server) *ohttp.Client {
	t.Helper()
	res, err := http.Get(s.OHTTPKeyURL())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/ohttp-keys" {
		t.Fatalf("key config: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	configs, err := ohttp.ParseKeyConfigs(b)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ohttp.NewClient(configs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// outer is the reply to an encapsulated request: the outer status and
// body, and the inner response when the outer status is 200.
type outer struct {
	status int
	ct     string
	body   []byte
	inner  *ohttp.Response
}

// postOHTTP encapsulates GET pathQuery for c, POSTs it to url and opens
// the reply.
func postOHTTP(t *testing.T, c *ohttp.Client, url, pathQuery string) outer {
	t.Helper()
	req, err := ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Scheme: "https", Authority: "safebrowsing.googleapis.com", Path: pathQuery})
	if err != nil {
		t.Fatal(err)
	}
	enc, sender, err := c.Seal(req)
	if err != nil {
		t.Fatal(err)
	}
	return postRaw(t, sender, url, "message/ohttp-req", enc)
}

func postRaw(t *testing.T, sender *ohttp.Sender, url, ct string, body []byte) outer {
	t.Helper()
	res, err := http.Post(url, ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	o := outer{status: res.StatusCode, ct: res.Header.Get("Content-Type"), body: b}
	if res.StatusCode == 200 && sender != nil {
		msg, err := sender.Open(b)
		if err != nil {
			t.Fatalf("opening the reply: %v", err)
		}
		if o.inner, err = ohttp.ParseResponse(msg); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// reqParam returns Chromium's $req for prefixes: a SearchHashesRequest in
// base64url with padding, built by hand.
func reqParam(prefixes ...[]byte) string {
	var m []byte
	for _, p := range prefixes {
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendBytes(m, p)
	}
	return base64.URLEncoding.EncodeToString(m)
}

// TestGateway: a search through the gateway, in the REST form and in
// Chromium's, gets the reply a direct search gets, encapsulated; it counts
// as an ohttp request, not a hashes:search, and its prefixes are recorded.
func TestGateway(t *testing.T) {
	for _, via := range []string{"gateway", "relay"} {
		t.Run(via, func(t *testing.T) {
			s := seeded(t)
			c := keyClient(t, s)
			url := s.OHTTPGatewayURL()
			if via == "relay" {
				r := sbtest.NewRelay(url)
				defer r.Close()
				url = r.URL
			}
			evil := prefixOf("evil.example/")
			direct := get(t, s, "/v5/hashes:search"+searchQuery(s, b64(evil)))
			for _, pq := range []string{
				"/v5/hashes:search" + searchQuery(s, b64(evil)),
				"/v5/hashes:search?$req=" + reqParam(evil) + "&$ct=application/x-protobuf&key=" + s.APIKey,
			} {
				o := postOHTTP(t, c, url, pq)
				if o.status != 200 || o.ct != "message/ohttp-res" {
					t.Fatalf("%s: outer %d %q: %s", pq, o.status, o.ct, o.body)
				}
				if o.inner.Status != 200 || !bytes.Equal(o.inner.Content, direct.body) {
					t.Errorf("%s: inner %d %x, want 200 %x", pq, o.inner.Status, o.inner.Content, direct.body)
				}
				if len(o.inner.Header) != 1 || o.inner.Header[0] != (ohttp.Field{Name: "content-type", Value: "application/x-protobuf"}) {
					t.Errorf("inner header %v", o.inner.Header)
				}
			}
			if n := s.Requests("hashes:search"); n != 1 {
				t.Errorf("Requests(hashes:search) = %d, want 1 (the direct one)", n)
			}
			if n := s.Requests("ohttp"); n != 2 {
				t.Errorf("Requests(ohttp) = %d, want 2", n)
			}
			if n := s.Requests(""); n != 4 { // the key, one direct, two encapsulated
				t.Errorf("Requests(\"\") = %d, want 4", n)
			}
			if p := s.SearchedPrefixes(); len(p) != 3 {
				t.Errorf("SearchedPrefixes = %x, want 3", p)
			}
		})
	}
}

// TestChromiumForm: hashes:search in Chromium's $req form, directly.
func TestChromiumForm(t *testing.T) {
	s := seeded(t)
	evil := prefixOf("evil.example/")
	want := get(t, s, "/v5/hashes:search"+searchQuery(s, b64(evil)))
	tests := []struct {
		name   string
		in     string // the query after ?key=K
		status int
	}{
		// Chromium's form: the reply is binary, as alt=proto's.
		{"chromium", "&$req=" + reqParam(evil) + "&$ct=application/x-protobuf", 200},
		// Unpadded base64url is accepted too, as for every bytes parameter;
		// an unknown field (2, varint 1) is skipped.
		{"unpadded", "&$req=" + base64.RawURLEncoding.EncodeToString(append([]byte{0x0a, 4}, append(evil, 0x10, 1)...)) + "&$ct=application/x-protobuf", 200},
		// $req without $ct.
		{"no ct", "&$req=" + reqParam(evil), 400},
		// $ct other than x-protobuf.
		{"json ct", "&$req=" + reqParam(evil) + "&$ct=application/json", 400},
		// $req and hashPrefixes together.
		{"both", "&$req=" + reqParam(evil) + "&$ct=application/x-protobuf&hashPrefixes=" + b64(evil), 400},
		// $req that is not base64.
		{"not base64", "&$req=%25%25&$ct=application/x-protobuf", 400},
		// $req that is not a message.
		{"not proto", "&$req=" + base64.URLEncoding.EncodeToString([]byte{0x0a, 0x09}) + "&$ct=application/x-protobuf", 400},
		// $req over 16 KiB is refused before it is decoded.
		{"too long", "&$req=" + strings.Repeat("A", 16<<10+4) + "&$ct=application/x-protobuf", 400},
		// A prefix in $req that is not 4 bytes: as for hashPrefixes.
		{"short prefix", "&$req=" + reqParam(evil[:3]) + "&$ct=application/x-protobuf", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, "/v5/hashes:search?key="+s.APIKey+tt.in)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status == 200 && (!bytes.Equal(r.body, want.body) || r.ctype != "application/x-protobuf") {
				t.Errorf("got %q %x, want %x", r.ctype, r.body, want.body)
			}
		})
	}
	// $req is served for hashes:search only.
	if r := get(t, s, "/v5/hashList/se-4b?key="+s.APIKey+"&$req=&$ct=application/x-protobuf"); r.status != 400 {
		t.Errorf("hashList with $req: %d", r.status)
	}
}

// TestRotateOHTTPKey: after a rotation, a request under the old key gets a
// 422 with RFC 9458's ohttp-key problem, and the key configuration serves
// the new key, which works.
func TestRotateOHTTPKey(t *testing.T) {
	s := seeded(t)
	old := keyClient(t, s)
	if id := old.Suite().KeyID; id != 1 {
		t.Errorf("first key ID %d, want 1", id)
	}
	if id := s.RotateOHTTPKey(); id != 2 {
		t.Errorf("RotateOHTTPKey = %d, want 2", id)
	}
	pq := "/v5/hashes:search" + searchQuery(s, b64(prefixOf("evil.example/")))
	o := postOHTTP(t, old, s.OHTTPGatewayURL(), pq)
	var problem struct{ Type string }
	if o.status != 422 || o.ct != "application/problem+json" || json.Unmarshal(o.body, &problem) != nil ||
		problem.Type != "https://iana.org/assignments/http-problem-types#ohttp-key" {
		t.Errorf("old key: %d %q %s", o.status, o.ct, o.body)
	}
	c := keyClient(t, s)
	if id := c.Suite().KeyID; id != 2 {
		t.Errorf("key ID %d after rotation, want 2", id)
	}
	if o := postOHTTP(t, c, s.OHTTPGatewayURL(), pq); o.status != 200 || o.inner.Status != 200 {
		t.Errorf("new key: %d", o.status)
	}
}

// TestGatewayErrors: what the gateway refuses, and how.
func TestGatewayErrors(t *testing.T) {
	s := seeded(t)
	c := keyClient(t, s)
	gw := s.OHTTPGatewayURL()
	seal := func(r *ohttp.Request) ([]byte, *ohttp.Sender) {
		b, err := ohttp.AppendRequest(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		enc, sender, err := c.Seal(b)
		if err != nil {
			t.Fatal(err)
		}
		return enc, sender
	}
	good, _ := seal(&ohttp.Request{Method: "GET", Path: "/v5/hashes:search" + searchQuery(s, b64(prefixOf("evil.example/")))})

	// Plain errors, before decapsulation.
	for _, tt := range []struct {
		name   string
		ct     string
		body   []byte
		status int
	}{
		// Another media type.
		{"media type", "application/octet-stream", good, 415},
		// Too short for the header and key.
		{"short", "message/ohttp-req", good[:20], 400},
		// Altered: does not decrypt.
		{"altered", "message/ohttp-req", append(bytes.Clone(good[:len(good)-1]), good[len(good)-1]^1), 400},
		// Over the size limit.
		{"too large", "message/ohttp-req", make([]byte, ohttp.MaxMessageSize+1), 413},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if o := postRaw(t, nil, gw, tt.ct, tt.body); o.status != tt.status {
				t.Errorf("status %d, want %d: %s", o.status, tt.status, o.body)
			}
		})
	}
	// A GET of the gateway is a 405.
	if r, err := http.Get(gw); err != nil || r.StatusCode != 405 {
		t.Errorf("GET gateway: %v %v", r.StatusCode, err)
	}

	// Encapsulated errors, from the v5 server behind.
	for _, tt := range []struct {
		name   string
		req    *ohttp.Request
		status int
	}{
		// A wrong API key, inside.
		{"key", &ohttp.Request{Method: "GET", Path: "/v5/hashes:search?key=wrong&hashPrefixes=AAAAAA=="}, 400},
		// Another path.
		{"path", &ohttp.Request{Method: "GET", Path: "/v5/nowhere"}, 404},
		// The gateway's own path, inside, is no v5 endpoint.
		{"nested", &ohttp.Request{Method: "POST", Path: "/v1/ohttp:handleOhttpEncapsulatedRequest"}, 404},
		// A path that is not absolute.
		{"relative", &ohttp.Request{Method: "GET", Path: "v5/hashes:search"}, 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			enc, sender := seal(tt.req)
			o := postRaw(t, sender, gw, "message/ohttp-req", enc)
			if o.status != 200 || o.inner.Status != tt.status {
				t.Errorf("outer %d, inner %v, want 200, %d", o.status, o.inner, tt.status)
			}
		})
	}

	// A fault on the gateway: a plain 503, or garbage in a 200.
	s.Inject(sbtest.Fault{Endpoint: "ohttp", Status: 503, Times: 1})
	if o := postRaw(t, nil, gw, "message/ohttp-req", good); o.status != 503 {
		t.Errorf("fault: %d", o.status)
	}
	s.Inject(sbtest.Fault{Endpoint: "ohttp", Garbage: true, Times: 1})
	if o := postRaw(t, nil, gw, "message/ohttp-req", good); o.status != 200 || o.ct != "message/ohttp-res" {
		t.Errorf("garbage: %d %q", o.status, o.ct)
	} else if _, err := ohttp.ParseResponse(o.body); err == nil {
		t.Error("garbage parsed")
	}
}

// TestGatewayPadding: the gateway reads a Binary HTTP request padded with
// zero bytes (RFC 9292 section 3.8), truncated or not, as the same request
// unpadded, whatever the encapsulated length; anything after the message
// that is not zero is an encapsulated 400, as an invalid message is.
func TestGatewayPadding(t *testing.T) {
	s := seeded(t)
	c := keyClient(t, s)
	gw := s.OHTTPGatewayURL()
	msg, err := ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Scheme: "https", Authority: "safebrowsing.googleapis.com",
		Path: "/v5/hashes:search" + searchQuery(s, b64(prefixOf("evil.example/")))})
	if err != nil {
		t.Fatal(err)
	}
	send := func(b []byte) outer {
		t.Helper()
		enc, sender, err := c.Seal(b)
		if err != nil {
			t.Fatal(err)
		}
		return postRaw(t, sender, gw, "message/ohttp-req", enc)
	}
	want := send(msg)
	if want.status != 200 || want.inner.Status != 200 || len(want.inner.Content) == 0 {
		t.Fatalf("unpadded: outer %d, inner %+v", want.status, want.inner)
	}
	pad := func(b []byte, size int) []byte { // to an encapsulated length
		return append(bytes.Clone(b), make([]byte, size-c.Overhead()-len(b))...)
	}
	truncated := msg[:len(msg)-2] // no empty content, no empty trailers
	for _, tt := range []struct {
		name      string
		in        []byte
		status    int    // inner
		msgSubstr string // in the inner error
	}{
		// Padded to each of lookup's sizes.
		{"512", pad(msg, 512), 200, ""},
		{"1KiB", pad(msg, 1<<10), 200, ""},
		{"8KiB", pad(msg, 8<<10), 200, ""},
		// Truncated, then padded: the zeros are the empty parts, then padding.
		{"truncated", pad(truncated, 512), 200, ""},
		// A non-zero byte at the end of the padding.
		{"nonzero-last", append(pad(msg, 511), 1), 400, "non-zero padding at byte " + strconv.Itoa(511-c.Overhead())},
		// A non-zero byte just after the message.
		{"nonzero-first", append(append(bytes.Clone(msg), 0x80), make([]byte, 100)...), 400, "non-zero padding at byte " + strconv.Itoa(len(msg))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := send(tt.in)
			if o.status != 200 || o.inner.Status != tt.status {
				t.Fatalf("outer %d, inner %d, want 200, %d: %s", o.status, o.inner.Status, tt.status, o.inner.Content)
			}
			if tt.status == 200 && !bytes.Equal(o.inner.Content, want.inner.Content) {
				t.Errorf("inner %x, want %x", o.inner.Content, want.inner.Content)
			}
			if !strings.Contains(string(o.inner.Content), tt.msgSubstr) {
				t.Errorf("inner %s, want %q", o.inner.Content, tt.msgSubstr)
			}
		})
	}
	if n := s.Requests("hashes:search"); n != 0 {
		t.Errorf("%d direct searches", n)
	}
}

// TestRelay: the relay forwards the body and its type, and nothing that
// names the client; it passes back the status, body and the headers a
// client reads.
func TestRelay(t *testing.T) {
	var mu sync.Mutex
	var got http.Header
	var gotBody []byte
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Clone()
		gotBody, _ = io.ReadAll(r.Body)
		mu.Unlock()
		w.Header().Set("Content-Type", "message/ohttp-res")
		w.Header().Set("X-OhttpPublickey-Rotated", "1")
		w.Header().Set("Set-Cookie", "track=me")
		w.WriteHeader(201)
		w.Write([]byte("reply"))
	}))
	defer gw.Close()
	r := sbtest.NewRelay(gw.URL + "/gateway")
	defer r.Close()

	req, _ := http.NewRequest("POST", r.URL, strings.NewReader("sealed"))
	req.Header.Set("Content-Type", "message/ohttp-req")
	req.Header.Set("User-Agent", "who-am-i")
	req.Header.Set("Cookie", "id=42")
	req.Header.Set("X-Forwarded-For", "10.1.2.3")
	res, err := r.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 || string(b) != "reply" || res.Header.Get("X-OhttpPublickey-Rotated") != "1" ||
		res.Header.Get("Content-Type") != "message/ohttp-res" || res.Header.Get("Set-Cookie") != "" {
		t.Errorf("reply %d %q %v", res.StatusCode, b, res.Header)
	}
	mu.Lock()
	defer mu.Unlock()
	if string(gotBody) != "sealed" || got.Get("Content-Type") != "message/ohttp-req" {
		t.Errorf("forwarded %q %v", gotBody, got)
	}
	for _, h := range []string{"User-Agent", "Cookie", "X-Forwarded-For"} {
		if v := got.Values(h); len(v) > 0 {
			t.Errorf("forwarded %s: %q", h, v)
		}
	}

	// What the relay refuses.
	for _, tt := range []struct {
		name, method, ct string
		status           int
	}{
		// Not a POST.
		{"get", "GET", "message/ohttp-req", 405},
		// Not an encapsulated request.
		{"type", "POST", "text/plain", 415},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, r.URL, strings.NewReader("x"))
			req.Header.Set("Content-Type", tt.ct)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.status {
				t.Errorf("status %d, want %d", res.StatusCode, tt.status)
			}
		})
	}

	// A gateway that is gone is a 502.
	gw.Close()
	res, err = http.Post(r.URL, "message/ohttp-req", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 502 {
		t.Errorf("gateway gone: %d", res.StatusCode)
	}
}

// TestNewRelayPanics: a gateway URL that is not absolute is a mistake in
// the test.
func TestNewRelayPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	sbtest.NewRelay("/v1/ohttp:handleOhttpEncapsulatedRequest")
}
