// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/internal/rpcstatus"
)

// The refusals of checkBrowser and checkKey.
var (
	errCrossSite = errors.New("sbserver: cross-site request refused")
	errHost      = errors.New("sbserver: Host is not this server's (DNS rebinding?)")
	errNoKey     = errors.New("sbserver: a client key is required: key=, X-Goog-Api-Key or Authorization: Bearer")
	errWrongKey  = errors.New("sbserver: client key not accepted")
)

// checkBrowser refuses what a web page may make a browser send, so that no
// page the user visits can spend the upstream key's quota, push the shared
// client into back-off, or read verdicts:
//   - a request the browser marks as from another site (Sec-Fetch-Site
//     cross-site or same-site), or whose Origin is not the server's own;
//   - on a loopback address, a Host that is neither a loopback name nor the
//     listen address: a page on a name rebound to 127.0.0.1 sends its own.
//
// POST bodies must also be application/json (see server.serve), which a
// page cannot send cross-origin without a CORS preflight, and sbserver
// answers no preflight.
func (s *server) checkBrowser(r *http.Request) error {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return errCrossSite
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		scheme := "http://"
		if r.TLS != nil {
			scheme = "https://"
		}
		if !strings.EqualFold(origin, scheme+r.Host) {
			return fmt.Errorf("%w: Origin %s", errCrossSite, inputerr.Quote(origin))
		}
	}
	if s.loopback && !loopbackHost(r.Host, s.o.Addr) {
		return fmt.Errorf("%w: %s", errHost, inputerr.Quote(r.Host))
	}
	return nil
}

// loopbackHost reports whether the Host header host names a loopback
// address ("localhost", a name under .localhost, an IP loopback address) or
// is addr itself.
func loopbackHost(host, addr string) bool {
	if host == addr && addr != "" {
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.IsLoopback()
}

// A keySet holds the SHA-256 of each client key, so that comparing a key
// takes the same time whatever its length and whichever key it matches.
type keySet [][sha256.Size]byte

func newKeySet(keys []string) keySet {
	var ks keySet
	for _, k := range keys {
		ks = append(ks, sha256.Sum256([]byte(k)))
	}
	return ks
}

// has reports, in constant time, whether key is in ks.
func (ks keySet) has(key string) bool {
	h := sha256.Sum256([]byte(key))
	found := 0
	for i := range ks {
		found |= subtle.ConstantTimeCompare(h[:], ks[i][:])
	}
	return found == 1
}

// checkKey returns a 401 for a request without a client key and a 403 for
// one with a key that is not a client key, when -client-keys names some.
// The key is taken as Google's clients send theirs: the key parameter, the
// X-Goog-Api-Key header or an Authorization: Bearer token. The upstream key
// is never a client key (run refuses a -client-keys file holding it).
func (s *server) checkKey(r *http.Request) (int, error) {
	if s.keys == nil {
		return 0, nil
	}
	key := queryGet(r.URL.RawQuery, "key")
	if key == "" {
		key = r.Header.Get("X-Goog-Api-Key")
	}
	if key == "" {
		key = bearerToken(r.Header.Get("Authorization"))
	}
	switch {
	case key == "":
		return http.StatusUnauthorized, errNoKey
	case !s.keys.has(key):
		return http.StatusForbidden, errWrongKey
	}
	return 0, nil
}

// keyErrorInfo returns the google.rpc.ErrorInfo that Google's APIs give
// a refusal of the key err reports, as google/api/error_reason.proto
// defines the reasons: API_KEY_INVALID for a key that is not a client key,
// CREDENTIALS_MISSING for a request with none; the zero ErrorInfo (no
// details) for any other error. Its service is the API of the endpoint's
// error shape: Web Risk's on Web Risk's endpoints, else Safe Browsing's.
// The statuses stay sbserver's own, 403 and 401, where Google answers 400
// and 403: a client reads the reason.
func keyErrorInfo(err error, shape errorShape) rpcstatus.ErrorInfo {
	service := rpcstatus.SafeBrowsing
	if shape == webRiskErrors {
		service = rpcstatus.WebRisk
	}
	switch {
	case errors.Is(err, errWrongKey):
		return rpcstatus.ErrorInfo{Reason: rpcstatus.ReasonAPIKeyInvalid, Service: service}
	case errors.Is(err, errNoKey):
		return rpcstatus.ErrorInfo{Reason: rpcstatus.ReasonCredentialsMissing, Service: service}
	}
	return rpcstatus.ErrorInfo{}
}

// bearerToken returns the token of an Authorization header of the Bearer
// scheme, or "". The scheme is case-insensitive (RFC 9110 section 11.1),
// and one or more spaces follow it (RFC 6750 section 2.1).
func bearerToken(auth string) string {
	scheme, token, ok := strings.Cut(auth, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// checkLoopback reports an error unless addr's host is a loopback address
// or "localhost".
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q is not a loopback address (127.0.0.1, ::1 or localhost)", host)
}
