// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ohttp

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"runtime"
	"testing"
	"time"
)

// BenchmarkRoundTrip measures one Oblivious HTTP exchange in process, the
// package's whole work for one Safe Browsing search: the client encodes
// its Binary HTTP request and seals it, the gateway opens and decodes it,
// encodes and seals a 1 KiB reply, and the client opens and decodes that.
// Its floor, timed in the same loop, is what HPKE alone costs for the
// same request bytes: crypto/hpke's NewSender, Seal and Export, then
// NewRecipient, Open and Export. It reports both (ns/op is the exchange),
// their ratio (goal: at most 1.15), and the allocations of each. On Linux
// the times are the thread's CPU time.
func BenchmarkRoundTrip(b *testing.B) {
	sk, err := hpke.DHKEM(ecdh.X25519()).GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	g, err := NewGateway(GatewayKey{KeyID: 1, PrivateKey: sk})
	if err != nil {
		b.Fatal(err)
	}
	c, err := NewClient(g.KeyConfigs())
	if err != nil {
		b.Fatal(err)
	}
	req := &Request{
		Method: "GET", Scheme: "https", Authority: "safebrowsing.googleapis.com",
		Path:   "/v5/hashes:search?hashPrefixes=AAAAAA&hashPrefixes=BBBBBB&key=AIzaSyA-0123456789abcdefghijklmnopqrstu",
		Header: []Field{{"user-agent", "urlspec/1"}},
	}
	resp := &Response{Status: 200, Header: []Field{{"content-type", "application/x-protobuf"}}, Content: bytes.Repeat([]byte{0x5a}, 1024)}
	var reqBuf, respBuf []byte
	exchange := func() {
		reqBuf, _ = AppendRequest(reqBuf[:0], req)
		encReq, s, err := c.Seal(reqBuf)
		if err != nil {
			b.Fatal(err)
		}
		got, r, err := g.Open(encReq)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ParseRequest(got); err != nil {
			b.Fatal(err)
		}
		respBuf, _ = AppendResponse(respBuf[:0], resp)
		encResp, err := r.Seal(respBuf)
		if err != nil {
			b.Fatal(err)
		}
		pt, err := s.Open(encResp)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ParseResponse(pt); err != nil {
			b.Fatal(err)
		}
	}
	pk := sk.PublicKey()
	kdf, aead := hpke.HKDFSHA256(), hpke.AES128GCM()
	info := c.suite.info()
	plain, _ := AppendRequest(nil, req)
	floor := func() {
		enc, s, err := hpke.NewSender(pk, kdf, aead, info)
		if err != nil {
			b.Fatal(err)
		}
		ct, err := s.Seal(nil, plain)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Export(responseLabel, 16); err != nil {
			b.Fatal(err)
		}
		r, err := hpke.NewRecipient(enc, sk, kdf, aead, info)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Open(nil, ct); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Export(responseLabel, 16); err != nil {
			b.Fatal(err)
		}
	}
	exchange() // warm the buffers
	// Each iteration times both, one after the other, so that a busy
	// machine slows them alike; on Linux the time is the thread's CPU
	// time, which other processes do not inflate.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock := func() time.Duration {
		if d, ok := threadCPU(); ok {
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	var tx, tf time.Duration
	for b.Loop() {
		t0 := clock()
		exchange()
		t1 := clock()
		floor()
		t2 := clock()
		tx += t1 - t0
		tf += t2 - t1
	}
	n := float64(b.N)
	b.ReportMetric(float64(tx.Nanoseconds())/n, "ns/op")
	b.ReportMetric(float64(tf.Nanoseconds())/n, "hpke-ns/op")
	b.ReportMetric(float64(tx)/float64(tf), "ratio")
	b.ReportMetric(testing.AllocsPerRun(100, exchange), "ohttp-allocs/op")
	b.ReportMetric(testing.AllocsPerRun(100, floor), "hpke-allocs/op")
}
