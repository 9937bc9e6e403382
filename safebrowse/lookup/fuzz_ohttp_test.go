// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/ohttp"
	"google.golang.org/protobuf/encoding/protowire"
)

// roundTrip is an http.RoundTripper made of a function: the fuzz targets
// answer in process, with no network.
type roundTrip func(*http.Request) *http.Response

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return f(r), nil
}

func response(status int, contentType string, body []byte) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
}

// fuzzGateway returns a gateway with a fixed X25519 key, ID 1, and its
// key configuration as application/ohttp-keys.
func fuzzGateway(t testing.TB) (*ohttp.Gateway, []byte) {
	sk, err := hpke.DHKEM(ecdh.X25519()).NewPrivateKey(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	g, err := ohttp.NewGateway(ohttp.GatewayKey{KeyID: 1, PrivateKey: sk})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := ohttp.AppendKeyConfigs(nil, g.KeyConfigs())
	if err != nil {
		t.Fatal(err)
	}
	return g, keys
}

// FuzzOHTTPKeyReply feeds the key endpoint's reply, status and body, to
// Update: it never panics, a success holds a key, and a failure is an
// ErrOHTTP without the API key.
func FuzzOHTTPKeyReply(f *testing.F) {
	_, keys := fuzzGateway(f)
	// The gateway's list, and its one configuration bare.
	f.Add(200, keys)
	f.Add(200, keys[2:])
	// RFC 9458's configuration, offering AES-128-GCM and ChaCha20-Poly1305.
	f.Add(200, []byte("\x01\x00\x20"+strings.Repeat("\x31", 32)+"\x00\x08\x00\x01\x00\x01\x00\x01\x00\x03"))
	// A list whose one configuration has an unknown KEM, and nothing.
	f.Add(200, []byte("\x00\x08\x05\x12\x34\x00\x00\x00\x00\x00"))
	f.Add(200, []byte{})
	// An error echoing the key.
	f.Add(403, []byte(`{"error":{"message":"key `+secretKey+` refused"}}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			status = 200
		}
		hc := &http.Client{Transport: roundTrip(func(*http.Request) *http.Response { return response(status, "application/ohttp-keys", body) })}
		c, err := lookup.New(lookup.Config{APIKey: secretKey, Mode: lookup.NoStorage, HTTPClient: hc,
			OHTTP: &lookup.OHTTPConfig{RelayURL: "https://relay.example/"}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		err = c.Update(context.Background())
		st := c.OHTTPStatus()
		if err == nil {
			if st.Fetched.IsZero() || st.Err != nil || !c.IsReady() {
				t.Fatalf("a success with %+v", st)
			}
			return
		}
		if !errors.Is(err, lookup.ErrOHTTP) || strings.Contains(err.Error(), secretKey) || !st.Fetched.IsZero() {
			t.Fatalf("%v; %+v", err, st)
		}
	})
}

// FuzzOHTTPReply feeds the relay's reply to a search: as it is (status,
// Content-Type and body), or, with sealed set, the body as the inner
// Binary HTTP response, encapsulated by a real gateway. Each input is
// tried by a client without OHTTPConfig.Padding and by one with it, whose
// request the gateway must see as 512 bytes. Lookup never panics; an
// outer reply that is not sealed by the gateway is always an ErrOHTTP; a
// verdict holds only known threats.
func FuzzOHTTPReply(f *testing.F) {
	g, keys := fuzzGateway(f)
	evil := sha256.Sum256([]byte("evil.example/"))
	var fh, search []byte
	fh = protowire.AppendTag(fh, 1, protowire.BytesType)
	fh = protowire.AppendBytes(fh, evil[:])
	fh = protowire.AppendTag(fh, 2, protowire.BytesType)
	fh = protowire.AppendBytes(fh, []byte{0x08, 0x02})
	search = protowire.AppendTag(search, 1, protowire.BytesType)
	search = protowire.AppendBytes(search, fh)
	inner := func(status int, ct string, body []byte) []byte {
		r := &ohttp.Response{Status: status, Content: body}
		if ct != "" {
			r.Header = []ohttp.Field{{Name: "content-type", Value: ct}}
		}
		b, err := ohttp.AppendResponse(nil, r)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	// Sealed: a search reply naming evil.example/, an inner 503, RFC
	// 9292's shortest response, and a body that is no message.
	f.Add(200, "message/ohttp-res", inner(200, "application/x-protobuf", search), true)
	f.Add(200, "message/ohttp-res", inner(503, "application/json", []byte(`{"error":{"message":"down"}}`)), true)
	f.Add(200, "message/ohttp-res", []byte{0x01, 0x40, 0xc8}, true)
	f.Add(200, "message/ohttp-res", []byte{0x01, 0x40, 0xc8, 0x00, 0x05, 0xff}, true)
	// Sealed and padded: the search reply with zero bytes after it, and
	// with a non-zero byte after those.
	f.Add(200, "message/ohttp-res", append(inner(200, "application/x-protobuf", search), make([]byte, 300)...), true)
	f.Add(200, "message/ohttp-res", append(append(inner(200, "application/x-protobuf", search), make([]byte, 300)...), 1), true)
	// Not sealed: garbage, an empty 200, the 422 and ohttp-key problem.
	f.Add(200, "message/ohttp-res", bytes.Repeat([]byte{0x5a}, 64), false)
	f.Add(200, "message/ohttp-res", []byte{}, false)
	f.Add(422, "", []byte{}, false)
	f.Add(400, "application/problem+json", []byte(`{"type":"https://iana.org/assignments/http-problem-types#ohttp-key"}`), false)
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte, sealed bool) {
		if status < 100 || status > 999 {
			status = 200
		}
		for _, padding := range []bool{false, true} {
			lookupReply(t, g, keys, padding, status, ct, body, sealed)
		}
	})
}

// lookupReply is one FuzzOHTTPReply case, with OHTTPConfig.Padding or
// without.
func lookupReply(t *testing.T, g *ohttp.Gateway, keys []byte, padding bool, status int, ct string, body []byte, sealed bool) {
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) *http.Response {
		if !sealed {
			return response(status, ct, body)
		}
		req, _ := io.ReadAll(r.Body)
		if padding && len(req) != 512 {
			t.Fatalf("a padded request of %d bytes, want 512", len(req))
		}
		inner, rcpt, err := g.Open(req)
		if err != nil {
			t.Fatalf("the gateway: %v", err)
		}
		if _, err := ohttp.ParseRequest(inner); err != nil {
			t.Fatalf("the gateway reads the request: %v", err)
		}
		enc, err := rcpt.Seal(body)
		if err != nil {
			return response(http.StatusInternalServerError, "text/plain", []byte(err.Error()))
		}
		return response(200, "message/ohttp-res", enc)
	})}
	c, err := lookup.New(lookup.Config{APIKey: secretKey, Mode: lookup.NoStorage, HTTPClient: hc,
		OHTTP: &lookup.OHTTPConfig{RelayURL: "https://relay.example/", KeyConfig: keys, KeyRefetchJitter: -1, Padding: padding}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v, err := c.Lookup(context.Background(), "http://evil.example/")
	if err != nil {
		if len(v.Threats) != 0 {
			t.Fatalf("threats with an error: %v", v)
		}
		if !sealed && !errors.Is(err, lookup.ErrOHTTP) {
			t.Fatalf("an unsealed reply: %v", err)
		}
		if strings.Contains(err.Error(), secretKey) {
			t.Fatalf("the key in %q", err)
		}
		return
	}
	if !sealed {
		t.Fatalf("a verdict from an unsealed reply: %v", v)
	}
	for _, th := range v.Threats {
		if strings.HasPrefix(th.Type.String(), "ThreatType(") || th.Expression != "evil.example/" {
			t.Fatalf("threat %+v", th)
		}
	}
}
