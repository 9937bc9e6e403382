// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
	"google.golang.org/protobuf/encoding/protowire"
)

// This file holds the tests' helpers: requests, and a reader of the
// search and ListHashLists replies written from the schema with
// protowire, independent of the server's writer.

// reply is what a request got.
type reply struct {
	status int
	ctype  string
	body   []byte
}

// get sends GET s.URL+pathQuery with the server's client.
func get(t testing.TB, s *sbtest.Server, pathQuery string) reply {
	t.Helper()
	res, err := s.Client().Get(s.URL + pathQuery)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{res.StatusCode, res.Header.Get("Content-Type"), b}
}

// query returns "?key=K&alt=proto" followed by the pairs kv.
func query(s *sbtest.Server, kv ...string) string {
	q := "?key=" + url.QueryEscape(s.APIKey) + "&alt=proto"
	for i := 0; i+1 < len(kv); i += 2 {
		q += "&" + url.QueryEscape(kv[i]) + "=" + url.QueryEscape(kv[i+1])
	}
	return q
}

// hash returns the SHA-256 hash of an expression.
func hash(expr string) [32]byte { return sha256.Sum256([]byte(expr)) }

// fullHash is a FullHash of a search reply.
type fullHash struct {
	hash    [32]byte
	details []detail
}

// detail is a FullHashDetail.
type detail struct {
	threat int32
	attrs  []int32
}

func (d detail) String() string { return fmt.Sprint(d.threat, d.attrs) }

// searchReply is a SearchHashesResponse.
type searchReply struct {
	hashes   []fullHash
	cache    time.Duration
	hasCache bool
}

var errWire = errors.New("bad wire")

// fields calls f for each field of the message b.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// decodeDuration reads a google.protobuf.Duration.
func decodeDuration(b []byte) (time.Duration, error) {
	var d time.Duration
	err := fields(b, func(num protowire.Number, typ protowire.Type, _ []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			d += time.Duration(int64(x)) * time.Second
		case num == 2 && typ == protowire.VarintType:
			d += time.Duration(int32(x))
		default:
			return errWire
		}
		return nil
	})
	return d, err
}

// decodeSearch reads a SearchHashesResponse.
func decodeSearch(b []byte) (searchReply, error) {
	var r searchReply
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			var fh fullHash
			err := fields(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
				switch {
				case num == 1 && typ == protowire.BytesType && len(v) == 32:
					fh.hash = [32]byte(v)
				case num == 2 && typ == protowire.BytesType:
					var d detail
					err := fields(v, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
						switch {
						case num == 1 && typ == protowire.VarintType:
							d.threat = int32(x)
						case num == 2 && typ == protowire.BytesType: // packed
							for len(v) > 0 {
								a, n := protowire.ConsumeVarint(v)
								if n < 0 {
									return errWire
								}
								d.attrs = append(d.attrs, int32(a))
								v = v[n:]
							}
						default:
							return errWire
						}
						return nil
					})
					fh.details = append(fh.details, d)
					return err
				default:
					return errWire
				}
				return nil
			})
			r.hashes = append(r.hashes, fh)
			return err
		case num == 2 && typ == protowire.BytesType:
			d, err := decodeDuration(v)
			r.cache, r.hasCache = d, true
			return err
		}
		return errWire
	})
	return r, err
}

// listInfo is a HashList of a ListHashLists reply: its name and metadata.
type listInfo struct {
	name        string
	threats     []uint64
	likelySafe  []uint64
	description string
	hashLength  uint64
}

// decodeListHashLists reads a ListHashListsResponse.
func decodeListHashLists(b []byte) (lists []listInfo, next string, err error) {
	packed := func(v []byte) (out []uint64) {
		for len(v) > 0 {
			x, n := protowire.ConsumeVarint(v)
			if n < 0 {
				return nil
			}
			out = append(out, x)
			v = v[n:]
		}
		return out
	}
	err = fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			var li listInfo
			err := fields(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
				switch {
				case num == 1 && typ == protowire.BytesType:
					li.name = string(v)
				case num == 8 && typ == protowire.BytesType:
					return fields(v, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
						switch {
						case num == 1 && typ == protowire.BytesType:
							li.threats = packed(v)
						case num == 2 && typ == protowire.BytesType:
							li.likelySafe = packed(v)
						case num == 4 && typ == protowire.BytesType:
							li.description = string(v)
						case num == 6 && typ == protowire.VarintType:
							li.hashLength = x
						default:
							return errWire
						}
						return nil
					})
				default:
					return errWire // metadata only
				}
				return nil
			})
			lists = append(lists, li)
			return err
		case num == 2 && typ == protowire.BytesType:
			next = string(v)
			return nil
		}
		return errWire
	})
	return lists, next, err
}

// googleError is the JSON error body of Google's APIs.
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Details []struct {
			Type     string            `json:"@type"`
			Reason   string            `json:"reason"`
			Domain   string            `json:"domain"`
			Metadata map[string]string `json:"metadata"`
		} `json:"details"`
	} `json:"error"`
}

// errorReason returns the reason of the one google.rpc.ErrorInfo in a JSON
// error body's details, "" when it has no details, or a description of
// what is wrong with them: Google's clients read the reason from the
// ErrorInfo of the googleapis.com domain, which names the service.
func errorReason(r reply) string { return serviceReason(r, "safebrowsing.googleapis.com") }

// serviceReason is errorReason for the API of service, whose name the
// ErrorInfo's metadata must give.
func serviceReason(r reply, service string) string {
	var e googleError
	if json.Unmarshal(r.body, &e) != nil {
		return "not a Google error: " + string(r.body)
	}
	switch d := e.Error.Details; {
	case len(d) == 0:
		return ""
	case len(d) > 1 || d[0].Type != "type.googleapis.com/google.rpc.ErrorInfo" || d[0].Domain != "googleapis.com" ||
		len(d[0].Metadata) != 1 || d[0].Metadata["service"] != service:
		return "unexpected details: " + string(r.body)
	default:
		return d[0].Reason
	}
}

// errorMessage returns error.message of a JSON error body, or the body
// when it is not one.
func errorMessage(r reply) string {
	var e googleError
	if json.Unmarshal(r.body, &e) != nil || e.Error.Code != r.status {
		return "not a Google error: " + string(r.body)
	}
	return e.Error.Message
}

// isMessage reports whether b is a protobuf message, of any schema.
func isMessage(b []byte) bool {
	for len(b) > 0 {
		_, _, n := protowire.ConsumeField(b)
		if n < 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// isOK reports a 200 with a protobuf body.
func isOK(r reply) bool {
	return r.status == http.StatusOK && r.ctype == "application/x-protobuf"
}
