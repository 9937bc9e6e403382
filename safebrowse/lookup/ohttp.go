// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// This file sends hashes:search through an Oblivious HTTP relay (RFC 9458)
// to Google's Safe Browsing Oblivious HTTP Gateway; ohttpkey.go keeps the
// gateway's key.

// DefaultOHTTPKeyURL is the key endpoint of Google's Safe Browsing
// Oblivious HTTP Gateway, used when OHTTPConfig.KeyURL is "".
const DefaultOHTTPKeyURL = "https://safebrowsingohttpgateway.googleapis.com/v1/ohttp/hpkekeyconfig"

// OHTTPConfig configures the Oblivious HTTP path of a Client's searches
// (see the package doc, "Oblivious HTTP"). Its zero values mean the
// defaults; only RelayURL is required.
type OHTTPConfig struct {
	// RelayURL is the relay that encapsulated requests are POSTed to, as
	// message/ohttp-req; it forwards them to the gateway. Required: an
	// http or https URL with a host and no user info. For the privacy to
	// hold, the relay must be run by someone other than the gateway's
	// owner and the client's operator.
	RelayURL string

	// KeyURL is where the gateway's key configuration is fetched, with
	// key= added; "" means DefaultOHTTPKeyURL. It must be empty when
	// KeyConfig is set.
	KeyURL string

	// KeyConfig, when non-nil, is the gateway's key configuration, pinned:
	// as the key endpoint serves it (application/ohttp-keys) or bare. A
	// pinned key is never fetched, dropped or refetched.
	KeyConfig []byte

	// KeyRefetchJitter bounds the random delay before a refetch of the key
	// that the gateway asked for (a 422, an ohttp-key problem or
	// X-OhttpPublickey-Rotated), so that the gateway cannot tie the fetch
	// to the search. 0 means 60 s, as Chromium waits; a negative value
	// refetches at once.
	KeyRefetchJitter time.Duration

	// Padding, when true, pads each search's Binary HTTP request with
	// zero bytes (RFC 9292 section 3.8) so that the encapsulated request,
	// the body the relay sees, is 512 bytes, 1, 2, 4 or 8 KiB long: the
	// smallest that holds it, or the next multiple of 8 KiB for a longer
	// one. Unpadded, its length tells the relay how many prefixes a search
	// holds, about 22 bytes each (205, 227, 403 and 2,383 bytes for 1, 2,
	// 10 and 100 prefixes with sbtest's key); padded, only a size class:
	// 512 bytes for up to about a dozen prefixes, 4 KiB for 100. A search
	// split for the 8 KiB URL limit (over about 360 prefixes, which only
	// LookupAll of many URLs and SearchPrefixes send) is just over 8 KiB
	// a request, and pads to 16 KiB. The reply is not padded: its length,
	// which grows with the full hashes the server sends back, still shows
	// the relay roughly how many of the prefixes are listed. Off by
	// default: RFC 9292 requires a gateway to accept padding, but Google's
	// cannot be tried here and Chromium is not known to pad.
	Padding bool
}

// paddedSizes are the lengths OHTTPConfig.Padding pads an encapsulated
// request to; a longer one is padded to a multiple of the last.
var paddedSizes = [...]int{512, 1 << 10, 2 << 10, 4 << 10, 8 << 10}

// paddedSize returns the length OHTTPConfig.Padding pads an encapsulated
// request of n bytes to: the smallest of paddedSizes that holds it, or the
// next multiple of 8 KiB, at most ohttp.MaxMessageSize (a multiple of
// 8 KiB). A request over that is not padded: Seal refuses it.
func paddedSize(n int) int {
	for _, size := range paddedSizes {
		if n <= size {
			return size
		}
	}
	last := paddedSizes[len(paddedSizes)-1]
	if n > ohttp.MaxMessageSize {
		return n
	}
	return (n + last - 1) / last * last
}

// ErrOHTTP is wrapped by every error of a search that failed on the
// Oblivious HTTP path, beside its cause: no key, the relay's or the
// gateway's error (also a [*StatusError] with the outer status), a reply
// that is not message/ohttp-res, one that does not decrypt, or Binary HTTP
// that does not parse; and by the errors of key fetches. A search that
// crossed the relay and got an inner status other than 200 is a plain
// [*StatusError], as a direct search's is.
var ErrOHTTP = errors.New("lookup: Oblivious HTTP")

// problemOHTTPKey is the problem type of RFC 9458 section 5.3: the gateway
// cannot use the request's key.
const problemOHTTPKey = "https://iana.org/assignments/http-problem-types#ohttp-key"

// headerRotated is the header with which Google's gateway says that its
// key is about to be retired, as Chromium's ohttp_key_service reads it.
const headerRotated = "X-OhttpPublickey-Rotated"

// ohttpError is an [ErrOHTTP] with its cause. keyEvent marks the failures
// that are the key's, not the server's: no key, and a key the gateway
// refused. They do not count towards the searches' back-off.
type ohttpError struct {
	what     string // "relay", "key"
	err      error
	keyEvent bool
	unsent   bool // a search with no key to seal it for: nothing was sent
}

func (e *ohttpError) Error() string {
	return "lookup: OHTTP " + e.what + ": " + strings.TrimPrefix(e.err.Error(), "lookup: ")
}

// Is makes errors.Is(err, ErrOHTTP) true.
func (e *ohttpError) Is(target error) bool { return target == ErrOHTTP }

// Unwrap returns the cause.
func (e *ohttpError) Unwrap() error { return e.err }

// unsent reports whether err is a search's failure before anything was
// sent: with Config.OHTTP, no key to seal it for.
func unsent(err error) bool {
	var e *ohttpError
	return errors.As(err, &e) && e.unsent
}

// isKeyEvent reports whether err is a search's failure for its OHTTP key:
// no key, or a key the gateway refused.
func isKeyEvent(err error) bool {
	var e *ohttpError
	return errors.As(err, &e) && e.keyEvent
}

// newOHTTP checks cfg and returns the client's OHTTP state; nil for a nil
// cfg.
func newOHTTP(cfg *OHTTPConfig, c *Client) (*ohttpState, error) {
	if cfg == nil {
		return nil, nil
	}
	if cfg.RelayURL == "" {
		return nil, errors.New("lookup: Config.OHTTP.RelayURL is empty")
	}
	if err := checkOHTTPURL("RelayURL", cfg.RelayURL); err != nil {
		return nil, err
	}
	k := &ohttpState{
		relay:   cfg.RelayURL,
		keyURL:  cfg.KeyURL,
		jitter:  cfg.KeyRefetchJitter,
		padding: cfg.Padding,
		changed: make(chan struct{}),
		sleep:   c.sleepTimer,
	}
	k.fetches.method, k.fetches.op = methodKey, ohttpKeyOperator
	if k.jitter == 0 {
		k.jitter = defaultKeyRefetchJitter
	}
	hc := *c.http
	hc.Jar = nil // no cookie goes to the relay or the key URL
	k.http = &hc
	if cfg.KeyConfig != nil {
		if cfg.KeyURL != "" {
			return nil, errors.New("lookup: Config.OHTTP: KeyURL and KeyConfig are both set; a pinned key is never fetched")
		}
		key, err := parseOHTTPKey(cfg.KeyConfig)
		if err != nil {
			return nil, fmt.Errorf("lookup: Config.OHTTP.KeyConfig: %w", err)
		}
		k.pinned, k.key, k.held = true, key, true
		return k, nil
	}
	if k.keyURL == "" {
		k.keyURL = DefaultOHTTPKeyURL
	}
	if err := checkOHTTPURL("KeyURL", k.keyURL); err != nil {
		return nil, err
	}
	return k, nil
}

// checkOHTTPURL checks a URL of Config.OHTTP: http or https, a host, no
// user info (which errors would show) and no fragment.
func checkOHTTPURL(field, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("lookup: Config.OHTTP.%s %s: want an http or https URL with a host, no user info and no fragment", field, inputerr.Quote(s))
	}
	return nil
}

// parseOHTTPKey returns the OHTTP client for a gateway's key
// configuration, in either framing.
func parseOHTTPKey(b []byte) (*ohttp.Client, error) {
	configs, err := ohttp.ParseKeyConfigs(b)
	if err != nil {
		return nil, err
	}
	return ohttp.NewClient(configs)
}

// getOHTTP is get1 for hashes:search through the relay: it encapsulates
// the request the client would send directly, POSTs it to the relay and
// returns the body of the inner 200 reply, read up to limit bytes.
func (c *Client) getOHTTP(ctx context.Context, method, path, rawQuery string, limit int64) ([]byte, error) {
	k := c.ohttp
	key, err := k.current()
	if err != nil {
		return nil, err
	}
	// Close cancels every request in flight.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.closing, cancel)()

	fail := func(err error) error {
		return &ohttpError{what: "relay", err: fmt.Errorf("lookup: %s: %w", method, err)}
	}
	u, err := url.Parse(c.requestURL(path, rawQuery))
	if err != nil {
		return nil, fail(err)
	}
	msg, err := ohttp.AppendRequest(nil, &ohttp.Request{
		Method:    http.MethodGet,
		Scheme:    u.Scheme,
		Authority: u.Host,
		Path:      u.RequestURI(),
		Header: []ohttp.Field{
			{Name: "accept", Value: "application/x-protobuf"},
			{Name: "user-agent", Value: c.ua},
		},
	})
	if err != nil {
		return nil, fail(err)
	}
	if k.padding {
		n := key.Overhead() + len(msg)
		msg = append(msg, make([]byte, paddedSize(n)-n)...)
	}
	enc, sender, err := key.Seal(msg)
	if err != nil {
		return nil, fail(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, k.relay, bytes.NewReader(enc))
	if err != nil {
		return nil, fail(err)
	}
	req.Header.Set("Content-Type", "message/ohttp-req")
	req.Header.Set("User-Agent", "") // net/http sends none
	resp, err := k.http.Do(req)
	if err != nil {
		return nil, fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		ct := resp.Header.Get("Content-Type")
		se := &StatusError{Method: method, StatusCode: resp.StatusCode, Message: message(serverMessage(ct, b), c.key)}
		if keyProblem(resp.StatusCode, ct, b) {
			c.keyRefused(key, se)
			return nil, &ohttpError{what: "relay", err: se, keyEvent: true}
		}
		if len(resp.Header.Values(headerRotated)) > 0 {
			c.keyRotated(key)
		}
		return nil, &ohttpError{what: "relay", err: se}
	}
	if len(resp.Header.Values(headerRotated)) > 0 {
		c.keyRotated(key)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "message/ohttp-res" {
		return nil, fail(fmt.Errorf("reply Content-Type %s, want message/ohttp-res", inputerr.Quote(mask(resp.Header.Get("Content-Type"), c.key))))
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, ohttp.MaxMessageSize+1))
	if err != nil {
		return nil, fail(fmt.Errorf("reading the reply: %w", err))
	}
	if len(b) > ohttp.MaxMessageSize {
		return nil, fail(fmt.Errorf("%w: reply over %d bytes", ohttp.ErrTooLarge, ohttp.MaxMessageSize))
	}
	inner, err := sender.Open(b)
	if err != nil {
		return nil, fail(err)
	}
	r, err := ohttp.ParseResponse(inner)
	if err != nil {
		return nil, fail(err)
	}
	// The reply crossed the relay: from here on, it is the server's, read
	// as get1 reads a direct one.
	ct := ""
	for _, f := range r.Header {
		if f.Name == "content-type" {
			ct = f.Value
		}
	}
	if r.Status != http.StatusOK {
		return nil, &StatusError{Method: method, StatusCode: r.Status, Message: message(serverMessage(ct, r.Content), c.key)}
	}
	if ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt != "application/x-protobuf" && mt != "application/octet-stream" && mt != "application/protobuf" {
			return nil, fmt.Errorf("lookup: %s: %w: Content-Type %s, want application/x-protobuf", method, ErrCorruptReply, inputerr.Quote(mask(ct, c.key)))
		}
	}
	if int64(len(r.Content)) > limit {
		return nil, fmt.Errorf("lookup: %s: %w: body over %d bytes", method, ErrCorruptReply, limit)
	}
	return r.Content, nil
}

// keyProblem reports whether an outer reply says that the gateway could
// not use the request's key: a 422, as Chromium reads it, or a 400 with
// RFC 9458's ohttp-key problem (section 5.3).
func keyProblem(status int, contentType string, body []byte) bool {
	if status == http.StatusUnprocessableEntity {
		return true
	}
	if status != http.StatusBadRequest {
		return false
	}
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "application/problem+json" {
		return false
	}
	var p struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(body, &p) == nil && p.Type == problemOHTTPKey
}

// OHTTPStatus is the state of a Client's Oblivious HTTP key, as
// [Client.OHTTPStatus] reports it.
type OHTTPStatus struct {
	// KeyID is the ID of the gateway key that searches are sealed for;
	// meaningful while a key is held (Fetched is not zero, or the key is
	// pinned).
	KeyID uint8
	// Fetched is when the key in use was fetched; zero when there is none,
	// and for a pinned key.
	Fetched time.Time
	// Err is the last key error: a failed fetch, or the gateway refusing
	// the key; nil after a successful fetch.
	Err error
}

// OHTTPStatus reports the client's Oblivious HTTP key. It is the zero
// OHTTPStatus for a client without Config.OHTTP.
func (c *Client) OHTTPStatus() OHTTPStatus {
	k := c.ohttp
	if k == nil {
		return OHTTPStatus{}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	s := OHTTPStatus{Fetched: k.fetched, Err: k.err}
	if k.key != nil {
		s.KeyID = k.key.Suite().KeyID
	}
	return s
}
