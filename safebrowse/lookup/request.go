// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// DefaultBaseURL is the server of the v5 API, used when Config.BaseURL is "".
const DefaultBaseURL = "https://safebrowsing.googleapis.com"

// The limits on reply bodies. A longer body is an error ([ErrCorruptReply]):
// refused before a byte is read when its Content-Length says so, else read
// no further than one byte past the limit.
const (
	// MaxSearchReply bounds a hashes:search reply: 1000 prefixes, each with
	// a few full hashes of 32 bytes, take a few hundred kilobytes.
	MaxSearchReply = 4 << 20
	// MaxListReply caps a hashList or hashLists:batchGet reply, whatever
	// the lists asked for. A reply is bounded first by what the client
	// asks: with sizeConstraints.maxDatabaseEntries N, a list of w-byte
	// hashes gets at most N additions and N removals, and Rice-coded with
	// a parameter in the API's range that fits the data (as Google's
	// server and package hashlist choose it), an addition costs at most
	// w+1 bytes and a removal (a 4-byte index) at most 5. With 4 KiB for
	// the list's name, version (at most [MaxVersion]), checksum and
	// tags, a request may take N×(w+6) + 4 KiB for each list it names,
	// and never more than MaxListReply. The body is held whole while it
	// is read, up to twice its size, so the cap is what one update may
	// cost beyond the lists: at the default N of 2^24 it decides (the
	// sum is 160 MiB for each 4-byte list and 608 MiB for gc-32b).
	// 256 MiB holds the five threat lists of 2^24 prefixes each, coded
	// with the Rice parameter that fits them (package hashlist's encoder
	// gives about 1.4 bytes a prefix, 22 MiB a list), and 5 million
	// gc-32b hashes beside them (about 29.5 bytes each). A smaller
	// Config.MaxDatabaseEntries lowers the limit with it.
	MaxListReply = 256 << 20
	// maxErrorBody bounds the body of an error reply, of which at most
	// maxMessage bytes go into a StatusError.
	maxErrorBody = 64 << 10
	maxMessage   = inputerr.MaxQuoted
)

// The names of the APIs' methods, as errors and logs give them.
// hashes:search is named alike in both.
const (
	methodSearch = "hashes:search"
	methodList   = "hashList"
	methodBatch  = "hashLists:batchGet"
	methodDiff   = "threatLists:computeDiff" // Web Risk's
)

// newHTTPClient returns the client the requests go through: hc, or a client
// with timeouts when hc is nil, never following a redirect, which would hand
// the API key to another host.
func newHTTPClient(hc *http.Client) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.TLSHandshakeTimeout = 10 * time.Second
		t.ResponseHeaderTimeout = 30 * time.Second
		c.Transport = t
		c.Timeout = 2 * time.Minute
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// get sends GET {BaseURL}/v5/{path}?key=K&alt=proto&{query} (under Web
// Risk, /v1/) and returns the body of a 200 reply, read up to limit
// bytes. Every error it returns has the key masked.
func (c *Client) get(ctx context.Context, method, path string, query url.Values, limit int64) ([]byte, error) {
	return c.getRaw(ctx, method, path, query.Encode(), limit)
}

// getRaw is get with the query already encoded.
func (c *Client) getRaw(ctx context.Context, method, path, rawQuery string, limit int64) ([]byte, error) {
	if c.ohttp != nil && method == methodSearch {
		body, err := c.getOHTTP(ctx, method, path, rawQuery, limit) // ohttp.go
		return body, c.scrub(err)
	}
	return c.get1(ctx, method, path, rawQuery, limit)
}

// requestURL returns the URL of a request:
// {BaseURL}/v5/{path}?key=K&alt=proto&{rawQuery}, or under Web Risk
// {BaseURL}/v1/{path}?key=K&alt=proto&{rawQuery}.
func (c *Client) requestURL(path, rawQuery string) string {
	version := "/v5/"
	if c.api == WebRisk {
		version = "/v1/"
	}
	u := c.base + version + path + "?key=" + url.QueryEscape(c.key) + "&alt=proto"
	if rawQuery != "" {
		u += "&" + rawQuery
	}
	return u
}

// get1 is getRaw, sent directly.
func (c *Client) get1(ctx context.Context, method, path string, rawQuery string, limit int64) ([]byte, error) {
	b, _, err := c.getForm(ctx, method, path, rawQuery, limit)
	return b, err
}

// getForm is get1, and reports whether the reply is JSON, which a Web
// Risk server may send whatever alt says: a reply whose Content-Type is
// application/json is JSON, one in protobuf (or with no Content-Type)
// binary, and any other is corrupt. Under v5 the reply is binary.
func (c *Client) getForm(ctx context.Context, method, path string, rawQuery string, limit int64) (body []byte, isJSON bool, err error) {
	// Close cancels every request in flight.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.closing, cancel)()

	u := c.requestURL(path, rawQuery)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, fmt.Errorf("lookup: %s: %w", method, c.scrub(err))
	}
	if c.api == WebRisk {
		req.Header.Set("Accept", "application/x-protobuf, application/json;q=0.5")
	} else {
		req.Header.Set("Accept", "application/x-protobuf")
	}
	req.Header.Set("User-Agent", c.ua)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("lookup: %s: %w", method, c.scrub(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, false, &StatusError{
			Method:     method,
			StatusCode: resp.StatusCode,
			Message:    message(serverMessage(resp.Header.Get("Content-Type"), b), c.key),
		}
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		switch {
		case mt == "application/x-protobuf" || mt == "application/octet-stream" || mt == "application/protobuf":
		case c.api == WebRisk && mt == "application/json":
			isJSON = true
		case c.api == WebRisk:
			return nil, false, fmt.Errorf("lookup: %s: %w: Content-Type %s, want application/x-protobuf or application/json", method, ErrCorruptReply, inputerr.Quote(mask(ct, c.key)))
		default:
			return nil, false, fmt.Errorf("lookup: %s: %w: Content-Type %s, want application/x-protobuf", method, ErrCorruptReply, inputerr.Quote(mask(ct, c.key)))
		}
	}
	if resp.ContentLength > limit {
		// Refused before a byte is read (a gzip reply has no length,
		// and is counted as it is read, after inflating).
		return nil, false, fmt.Errorf("lookup: %s: %w: body of %d bytes, over %d", method, ErrCorruptReply, resp.ContentLength, limit)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("lookup: %s: reading the reply: %w", method, c.scrub(err))
	}
	if int64(len(b)) > limit {
		return nil, false, fmt.Errorf("lookup: %s: %w: body over %d bytes", method, ErrCorruptReply, limit)
	}
	return b, isJSON, nil
}

// serverMessage returns the message of an error reply: the message of a
// google.rpc.Status in protobuf or JSON, or else the body as text, whole:
// the key is masked in it before it is clipped.
func serverMessage(contentType string, body []byte) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	msg := ""
	switch {
	case strings.Contains(mt, "json"):
		var v struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
			Message string `json:"message"`
		}
		if json.Unmarshal(body, &v) == nil {
			msg = v.Error.Message
			if msg == "" {
				msg = v.Message
			}
		}
	case strings.Contains(mt, "protobuf"):
		msg = v5wire.ParseStatusMessage(body)
	}
	if msg == "" {
		msg = string(body)
	}
	return strings.TrimSpace(msg)
}

// message returns a server's message as [StatusError.Message] holds it:
// the API key masked, then cut to maxMessage bytes by [inputerr.Clip], its
// invalid UTF-8 and control characters replaced, so that a log line stays
// one line. Masking before the cut is what keeps a key echoed across it
// from showing in part; every text a server chose is masked so before it
// is clipped or quoted (by [inputerr.Quote]).
func message(s, key string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, inputerr.Clip(mask(s, key)))
}
