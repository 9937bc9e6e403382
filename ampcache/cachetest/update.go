// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/internal/host"
	"github.com/urlspec/urlspec/internal/inputerr"
)

// MaxKeySize bounds the publisher's apikey.pub, in bytes; a longer file is
// no key. A PEM RSA key of 16384 bits takes under 3 KiB.
const MaxKeySize = 64 << 10

// apiKeyPath is where a publisher serves its update-cache public key, on
// its own host.
const apiKeyPath = "/.well-known/amphtml/apikey.pub"

// updateCachePrefix starts the path of an update-cache request.
const updateCachePrefix = "/update-cache/"

// updateCache returns the cache of the registry whose
// updateCacheApiDomainSuffix is one label below the host name h, in any
// case, with an optional final dot.
func (c *Cache) updateCache(h string) (ampcache.Cache, bool) {
	h = strings.TrimSuffix(h, ".")
	for _, k := range c.registry.Caches() {
		s := k.UpdateCacheAPIDomainSuffix
		n := len(h) - len(s) - 1
		if s != "" && n > 0 && h[n] == '.' && host.EqualFold(h[n+1:], s) && strings.IndexByte(h[:n], '.') < 0 {
			return k, true
		}
	}
	return ampcache.Cache{}, false
}

// serveUpdate answers an update-cache request for the host name h as
// Google's AMP Cache does (developers.google.com/amp/cache/update-cache):
// it fetches the publisher's key from https://<publisher host>/.well-known/amphtml/apikey.pub
// through the origin, checks the request with [ampcache.VerifyUpdateCache]
// on the cache's clock, and answers 204 if it holds and 403 if not.
func (c *Cache) serveUpdate(w http.ResponseWriter, r *http.Request, h, uri string) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		c.fail(w, http.StatusMethodNotAllowed, newError(ErrMethod, r.Method, "update-cache takes GET"))
		return
	}
	k, ok := c.updateCache(h)
	if !ok {
		c.fail(w, http.StatusNotFound, newError(ErrNotCacheHost, r.Host, "no cache takes update-cache requests here"))
		return
	}
	rawURL := "https://" + h + uri
	// The publisher host names the key; VerifyUpdateCache checks the rest.
	path, _, _ := strings.Cut(uri[len(updateCachePrefix)-1:], "?")
	src, err := c.registry.SourceURL("https://" + k.CacheDomain + path)
	if err != nil {
		c.fail(w, http.StatusForbidden, inputerr.Wrap(ErrUpdateRefused, rawURL, err))
		return
	}
	pu, err := url.Parse(src)
	if err != nil || pu.Host == "" {
		c.fail(w, http.StatusForbidden, newError(ErrUpdateRefused, rawURL, "no publisher host in the path"))
		return
	}
	key, err := c.apiKey(r.Context(), pu.Host)
	if err != nil {
		c.fail(w, http.StatusForbidden, err)
		return
	}
	pub, err := ampcache.VerifyUpdateCache(rawURL, key, c.now())
	if err != nil {
		c.fail(w, http.StatusForbidden, inputerr.Wrap(ErrUpdateRefused, rawURL, err))
		return
	}
	c.mu.Lock()
	c.flushed = append(c.flushed, pub)
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// apiKey fetches the update-cache key of the publisher host h from the
// origin: a GET of https://h/.well-known/amphtml/apikey.pub, not
// redirected, answered 200 with Content-Type text/plain and an RSA public
// key in PEM ("PUBLIC KEY", as openssl rsa -pubout writes it, or "RSA
// PUBLIC KEY") of at most MaxKeySize bytes. Anything else is an error
// wrapping ErrNoKey.
func (c *Cache) apiKey(ctx context.Context, h string) (*rsa.PublicKey, error) {
	keyURL := "https://" + h + apiKeyPath
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, keyURL, nil)
	if err != nil {
		return nil, inputerr.Wrap(ErrNoKey, keyURL, err)
	}
	req.Header.Set("User-Agent", userAgent)
	res, err := c.fetch.RoundTrip(req)
	if err != nil {
		return nil, inputerr.Wrap(ErrNoKey, keyURL, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, newError(ErrNoKey, keyURL, res.Status)
	}
	if mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type")); err != nil || mt != "text/plain" {
		return nil, newError(ErrNoKey, keyURL, "Content-Type "+strconv.Quote(res.Header.Get("Content-Type"))+", want text/plain")
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxKeySize+1))
	if err != nil {
		return nil, inputerr.Wrap(ErrNoKey, keyURL, err)
	}
	if len(body) > MaxKeySize {
		return nil, newError(ErrNoKey, keyURL, "over "+strconv.Itoa(MaxKeySize)+" bytes")
	}
	key, err := parseAPIKey(body)
	if err != nil {
		return nil, inputerr.Wrap(ErrNoKey, keyURL, err)
	}
	return key, nil
}

// parseAPIKey reads the first PEM block of b as an RSA public key.
func parseAPIKey(b []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, err
		}
		pub, ok := k.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("a %T, want an RSA key", k)
		}
		return pub, nil
	case "RSA PUBLIC KEY":
		return x509.ParsePKCS1PublicKey(block.Bytes)
	}
	return nil, fmt.Errorf("PEM block %q, want PUBLIC KEY", block.Type)
}

// Flushed returns the publisher URLs of the update-cache requests the
// cache accepted, in order, as [ampcache.VerifyUpdateCache] returns them.
// A Cache stores no documents, so a flush changes nothing else.
func (c *Cache) Flushed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.flushed...)
}
