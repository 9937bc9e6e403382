// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp_test

import (
	"crypto/ecdh"
	"crypto/hpke"
	"encoding/hex"
	"errors"
	"fmt"
	"log"

	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// The key configuration and gateway key of RFC 9458 Appendix A.
const (
	exampleKeyConfig = "01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e79815500080001000100010003"
	exampleSecretKey = "3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a"
	exampleRequest   = "010020000100014b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b4726374e469135906992e1268c594d2a10c695d858c40a026e7965e7d86b83dd440b2c0185204b4d63525"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// exampleGateway returns a gateway with RFC 9458's key, ID 1.
func exampleGateway() *ohttp.Gateway {
	sk, err := hpke.DHKEM(ecdh.X25519()).NewPrivateKey(mustHex(exampleSecretKey))
	if err != nil {
		log.Fatal(err)
	}
	g, err := ohttp.NewGateway(ohttp.GatewayKey{KeyID: 1, PrivateKey: sk})
	if err != nil {
		log.Fatal(err)
	}
	return g
}

func ExampleParseKeyConfigs() {
	// The body of a key endpoint: RFC 9458's configuration as
	// application/ohttp-keys, its length first.
	body := append([]byte{0x00, 0x2d}, mustHex(exampleKeyConfig)...)
	configs, err := ohttp.ParseKeyConfigs(body)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range configs {
		fmt.Printf("key %d, KEM %#04x, %d-byte public key, %v\n", c.KeyID, c.KEM, len(c.PublicKey), c.Symmetric)
	}
	_, err = ohttp.ParseKeyConfigs([]byte{0x01, 0x00})
	fmt.Println(err)
	// Output:
	// key 1, KEM 0x0020, 32-byte public key, [{1 1} {1 3}]
	// ohttp: malformed key configuration in "\x01\x00": truncated key configuration
}

func ExampleParseKeyConfig() {
	c, err := ohttp.ParseKeyConfig(mustHex(exampleKeyConfig))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("key %d, KEM %#04x, %v\n", c.KeyID, c.KEM, c.Symmetric)
	// Output: key 1, KEM 0x0020, [{1 1} {1 3}]
}

func ExampleAppendKeyConfig() {
	c, err := ohttp.ParseKeyConfig(mustHex(exampleKeyConfig))
	if err != nil {
		log.Fatal(err)
	}
	b, err := ohttp.AppendKeyConfig(nil, c)
	fmt.Println(hex.EncodeToString(b) == exampleKeyConfig, err)
	// Output: true <nil>
}

func ExampleAppendKeyConfigs() {
	// A gateway publishes its keys as application/ohttp-keys.
	g := exampleGateway()
	body, err := ohttp.AppendKeyConfigs(nil, g.KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%x\n", body)
	// Output: 002901002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e798155000400010001
}

func ExampleNewClient() {
	configs, err := ohttp.ParseKeyConfigs(mustHex(exampleKeyConfig))
	if err != nil {
		log.Fatal(err)
	}
	c, err := ohttp.NewClient(configs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Suite())

	// A gateway that offers ChaCha20-Poly1305 alone is not supported.
	configs[0].Symmetric = configs[0].Symmetric[1:]
	_, err = ohttp.NewClient(configs)
	fmt.Println(errors.Is(err, ohttp.ErrUnsupported))
	// Output:
	// key 1, KEM 0x0020, KDF 0x0001, AEAD 0x0001
	// true
}

// Example_roundTrip is one exchange: the client's request through the
// gateway and the gateway's reply back, as a relay would carry them.
func Example_roundTrip() {
	g := exampleGateway()
	c, err := ohttp.NewClient(g.KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}

	// Client: encode and seal the inner request.
	req, err := ohttp.AppendRequest(nil, &ohttp.Request{
		Method: "GET", Scheme: "https", Authority: "safebrowsing.googleapis.com",
		Path: "/v5/hashes:search?hashPrefixes=4OtkzA&key=API_KEY",
	})
	if err != nil {
		log.Fatal(err)
	}
	encReq, sender, err := c.Seal(req)
	if err != nil {
		log.Fatal(err)
	}

	// Gateway: open, answer, seal.
	inner, recipient, err := g.Open(encReq)
	if err != nil {
		log.Fatal(err)
	}
	r, err := ohttp.ParseRequest(inner)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("gateway:", r.Method, r.Authority, r.Path)
	resp, err := ohttp.AppendResponse(nil, &ohttp.Response{Status: 200, Content: []byte("{}")})
	if err != nil {
		log.Fatal(err)
	}
	encResp, err := recipient.Seal(resp)
	if err != nil {
		log.Fatal(err)
	}

	// Client: open and decode the reply.
	plain, err := sender.Open(encResp)
	if err != nil {
		log.Fatal(err)
	}
	reply, err := ohttp.ParseResponse(plain)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("client:", reply.Status, string(reply.Content))
	// Output:
	// gateway: GET safebrowsing.googleapis.com /v5/hashes:search?hashPrefixes=4OtkzA&key=API_KEY
	// client: 200 {}
}

func ExampleClient_Seal() {
	g := exampleGateway()
	c, err := ohttp.NewClient(g.KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}
	req, err := ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Scheme: "https", Authority: "example.com", Path: "/"})
	if err != nil {
		log.Fatal(err)
	}
	encReq, _, err := c.Seal(req)
	if err != nil {
		log.Fatal(err)
	}
	// The 7-byte header, the 32-byte X25519 encapsulated key, the request
	// and the 16-byte tag.
	fmt.Printf("header %x, %d bytes for a %d-byte request\n", encReq[:7], len(encReq), len(req))
	// Output: header 01002000010001, 83 bytes for a 28-byte request
}

func ExampleClient_Overhead() {
	g := exampleGateway()
	c, err := ohttp.NewClient(g.KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}
	req, err := ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Scheme: "https", Authority: "example.com", Path: "/"})
	if err != nil {
		log.Fatal(err)
	}
	// Zero bytes after the message (RFC 9292 section 3.8) make the
	// encapsulated request 512 bytes long, whatever the request holds.
	req = append(req, make([]byte, 512-c.Overhead()-len(req))...)
	encReq, _, err := c.Seal(req)
	if err != nil {
		log.Fatal(err)
	}
	inner, _, err := g.Open(encReq)
	if err != nil {
		log.Fatal(err)
	}
	r, err := ohttp.ParseRequest(inner)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Overhead(), len(encReq), r.Method, r.Authority, r.Path)
	// Output: 55 512 GET example.com /
}

func ExampleSender_Open() {
	g := exampleGateway()
	c, err := ohttp.NewClient(g.KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}
	encReq, sender, err := c.Seal([]byte{0, 3, 'G', 'E', 'T', 0, 0, 0})
	if err != nil {
		log.Fatal(err)
	}
	_, recipient, err := g.Open(encReq)
	if err != nil {
		log.Fatal(err)
	}
	encResp, err := recipient.Seal([]byte{0x01, 0x40, 0xc8})
	if err != nil {
		log.Fatal(err)
	}
	plain, err := sender.Open(encResp)
	fmt.Printf("%x %v\n", plain, err)

	// A reply altered on the way does not open.
	encResp[len(encResp)-1] ^= 1
	_, err = sender.Open(encResp)
	fmt.Println(err)
	// Output:
	// 0140c8 <nil>
	// ohttp: encapsulated response: cipher: message authentication failed
}

func ExampleNewGateway() {
	sk, err := hpke.MLKEM768X25519().GenerateKey()
	if err != nil {
		log.Fatal(err)
	}
	g, err := ohttp.NewGateway(ohttp.GatewayKey{
		KeyID:      7,
		PrivateKey: sk,
		Symmetric:  []ohttp.SymmetricAlgorithm{{KDF: 0x0001, AEAD: 0x0002}}, // HKDF-SHA256, AES-256-GCM
	})
	if err != nil {
		log.Fatal(err)
	}
	c := g.KeyConfigs()[0]
	fmt.Printf("key %d, KEM %#04x (X-Wing), %d-byte public key\n", c.KeyID, c.KEM, len(c.PublicKey))

	_, err = ohttp.NewGateway(ohttp.GatewayKey{KeyID: 7, PrivateKey: sk, Symmetric: []ohttp.SymmetricAlgorithm{{KDF: 0x0001, AEAD: 0x0003}}})
	fmt.Println(err)
	// Output:
	// key 7, KEM 0x647a (X-Wing), 1216-byte public key
	// ohttp: GatewayKey[0].Symmetric[0]: KDF 0x0001 with AEAD 0x0003 is not supported
}

func ExampleGateway_Open() {
	// RFC 9458 Appendix A's request, opened with its key.
	g := exampleGateway()
	inner, r, err := g.Open(mustHex(exampleRequest))
	if err != nil {
		log.Fatal(err)
	}
	req, err := ohttp.ParseRequest(inner)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Suite())
	fmt.Println(req.Method, req.Scheme, req.Authority, req.Path)

	// A request for a key the gateway no longer holds.
	stale := mustHex(exampleRequest)
	stale[0] = 2
	_, _, err = g.Open(stale)
	fmt.Println(errors.Is(err, ohttp.ErrUnknownKey), err)
	// Output:
	// key 1, KEM 0x0020, KDF 0x0001, AEAD 0x0001
	// GET https example.com /
	// true ohttp: encapsulated request: no key ID 2
}

func ExampleRecipient_Seal() {
	g := exampleGateway()
	_, r, err := g.Open(mustHex(exampleRequest))
	if err != nil {
		log.Fatal(err)
	}
	encResp, err := r.Seal([]byte{0x01, 0x40, 0xc8}) // 200, nothing else
	if err != nil {
		log.Fatal(err)
	}
	// A 16-byte response nonce, the response and the 16-byte tag.
	fmt.Println(len(encResp))
	// Output: 35
}

func ExampleAppendRequest() {
	b, err := ohttp.AppendRequest(nil, &ohttp.Request{
		Method: "GET", Scheme: "https", Authority: "example.com", Path: "/",
		Header: []ohttp.Field{{Name: "User-Agent", Value: "urlspec"}},
	})
	fmt.Printf("%x %v\n", b, err)

	_, err = ohttp.AppendRequest(nil, &ohttp.Request{Method: "GET", Path: "/a b"})
	fmt.Println(err)
	// Output:
	// 00034745540568747470730b6578616d706c652e636f6d012f130a757365722d6167656e740775726c737065630000 <nil>
	// ohttp: Binary HTTP request: byte 0x20 in the path
}

func ExampleParseRequest() {
	// RFC 9292 Figure 9: an indeterminate-length request with padding.
	r, err := ohttp.ParseRequest(mustHex("0203474554056874747073000a2f68656c6c6f2e7478740a757365722d6167656e74346375726c2f372e31362e33206c69626375726c2f372e31362e33204f70656e53534c2f302e392e376c207a6c69622f312e322e3304686f73740f7777772e6578616d706c652e636f6d0f6163636570742d6c616e677561676506656e2c206d6900000000000000000000000000"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Method, r.Scheme, r.Path)
	for _, f := range r.Header {
		fmt.Printf("%s: %s\n", f.Name, f.Value)
	}
	// Output:
	// GET https /hello.txt
	// user-agent: curl/7.16.3 libcurl/7.16.3 OpenSSL/0.9.7l zlib/1.2.3
	// host: www.example.com
	// accept-language: en, mi
}

func ExampleAppendResponse() {
	b, err := ohttp.AppendResponse(nil, &ohttp.Response{Status: 200})
	fmt.Printf("%x %v\n", b, err)
	// Output: 0140c8000000 <nil>
}

func ExampleParseResponse() {
	// RFC 9292 Figure 13: a known-length response with a trailer.
	r, err := ohttp.ParseResponse(mustHex("0140c8001d5468697320636f6e74656e7420636f6e7461696e732043524c462e0d0a0d07747261696c65720474657874"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d %q %v\n", r.Status, r.Content, r.Trailer)

	// A final status out of range.
	_, err = ohttp.ParseResponse([]byte{0x01, 0x42, 0x58})
	fmt.Println(err)
	// Output:
	// 200 "This content contains CRLF.\r\n" [{trailer text}]
	// ohttp: Binary HTTP response: status 600 out of 100 to 599 at byte 1
}

func ExampleGateway_KeyConfigs() {
	// The configurations a gateway serves at its key endpoint, one per
	// key, each offering the key's KDF and AEAD pairs.
	g := exampleGateway()
	for _, c := range g.KeyConfigs() {
		fmt.Printf("key %d, KEM %#04x, %v\n", c.KeyID, c.KEM, c.Symmetric)
	}
	// Output: key 1, KEM 0x0020, [{1 1}]
}

func ExampleClient_Suite() {
	// The client seals for the first suite that the gateway offers and
	// this package supports: the key ID and KEM of the configuration,
	// with its first supported KDF and AEAD.
	c, err := ohttp.NewClient(exampleGateway().KeyConfigs())
	if err != nil {
		log.Fatal(err)
	}
	s := c.Suite()
	fmt.Println(s.KeyID, s.KEM, s.KDF, s.AEAD)
	// Output: 1 32 1 1
}

func ExampleRecipient_Suite() {
	// The gateway learns the suite from the request's header.
	_, r, err := exampleGateway().Open(mustHex(exampleRequest))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("key %d, AEAD %#04x\n", r.Suite().KeyID, r.Suite().AEAD)
	// Output: key 1, AEAD 0x0001
}

func ExampleSuite_String() {
	s := ohttp.Suite{KeyID: 1, KEM: 0x0020, KDF: 0x0001, AEAD: 0x0003}
	fmt.Println(s)
	// Output: key 1, KEM 0x0020, KDF 0x0001, AEAD 0x0003
}
