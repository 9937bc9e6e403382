// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urlspec/urlspec/internal/host"
)

// The update-cache request (developers.google.com/amp/cache/update-cache).
const (
	// updateCachePath starts the path of an update-cache request, before
	// the cache path of the document.
	updateCachePath = "/update-cache"
	// maxSkew is how far amp_ts may be from the cache's clock, in seconds:
	// "within 1 minute before or after the current time".
	maxSkew = 60
	// minKeyBits is the smallest RSA modulus accepted on either side.
	minKeyBits = 2048
	// The parameters the request adds to the publisher's query, in order.
	actionParam    = "amp_action=flush"
	tsParam        = "amp_ts="
	signatureParam = "amp_url_signature="
)

// UpdateCacheURL returns the signed update-cache URL that flushes
// publisherURL from the cache c, as Google's "Update AMP Content" page
// (https://developers.google.com/amp/cache/update-cache) describes it:
//
//	"https://" + DomainPrefix(host) + "." + c.UpdateCacheAPIDomainSuffix
//	+ "/update-cache/c" + "/s" (if publisherURL is https)
//	+ "/" + host + the path of publisherURL
//	+ "?" + the query of publisherURL + "&" (if it has one)
//	+ "amp_action=flush&amp_ts=" + ts in Unix seconds
//	+ "&amp_url_signature=" + the signature
//
// The signature is RSA PKCS #1 v1.5 with SHA-256, made by key, over the
// path and query from "/update-cache/" up to and including amp_ts: the
// cache host is not signed, so the same signature serves every cache. It
// is written in URL-safe base64 without padding. key.Public() must be an
// *rsa.PublicKey of at least 2048 bits (error [ErrInvalidKey]); any
// crypto.Signer, such as a KMS or HSM key, works. UpdateCacheURL checks
// the signature key made with its public key, and returns an error
// wrapping [ErrSignature] if the signer failed or signed otherwise.
//
// The host and path follow [CacheURL] with the serving type [Content]; the
// publisher's query is kept byte for byte, as CacheURL keeps it, and its
// fragment is dropped (no client sends one). A query that already has an
// amp_action, amp_ts or amp_url_signature parameter is an error wrapping
// [ErrInvalidURL]. c must have an updateCacheApiDomainSuffix (error
// [ErrNoUpdateCacheAPI]) that is a host name, in any case. ts must not be
// before 1970 ([ErrTimestamp]); the cache accepts the URL for 60 seconds
// either side of ts. See "Update-cache" in the package documentation.
func UpdateCacheURL(c Cache, publisherURL string, ts time.Time, key crypto.Signer) (string, error) {
	suffix, err := updateSuffix(c)
	if err != nil {
		return "", err
	}
	prefix, path, err := signUpdateCache(suffix, publisherURL, ts, key)
	if err != nil {
		return "", err
	}
	return "https://" + prefix + "." + suffix + path, nil
}

// UpdateCacheURLs returns the signed update-cache URLs of publisherURL, as
// [UpdateCacheURL] builds them, one for each cache of [Caches] that has an
// updateCacheApiDomainSuffix, in the order of Caches. The URLs differ only
// in their host: key signs once.
func UpdateCacheURLs(publisherURL string, ts time.Time, key crypto.Signer) ([]string, error) {
	var out []string
	var prefix, path string
	for _, c := range builtinCaches {
		if c.UpdateCacheAPIDomainSuffix == "" {
			continue
		}
		if path == "" {
			var err error
			prefix, path, err = signUpdateCache(c.UpdateCacheAPIDomainSuffix, publisherURL, ts, key)
			if err != nil {
				return nil, err
			}
		}
		out = append(out, "https://"+prefix+"."+c.UpdateCacheAPIDomainSuffix+path)
	}
	return out, nil
}

// updateSuffix returns c's updateCacheApiDomainSuffix, lowercased, or an
// error if it has none or it is not a host name.
func updateSuffix(c Cache) (string, error) {
	s := c.UpdateCacheAPIDomainSuffix
	if s == "" {
		return "", newError(ErrNoUpdateCacheAPI, c.ID, "the cache has no updateCacheApiDomainSuffix")
	}
	if !isHostName(s, true) {
		return "", newError(ErrInvalidHost, s, "updateCacheApiDomainSuffix is not a host name")
	}
	return string(appendLower(nil, s)), nil
}

// signUpdateCache returns the domain prefix of publisherURL's host and the
// signed path and query of its update-cache request, with suffix as the
// cache domain to check the URL against.
func signUpdateCache(suffix, publisherURL string, ts time.Time, key crypto.Signer) (prefix, path string, err error) {
	if key == nil {
		return "", "", newError(ErrInvalidKey, "<nil>", "no key")
	}
	pub, err := checkPublic(key.Public())
	if err != nil {
		return "", "", err
	}
	t := ts.Unix()
	if t < 0 {
		return "", "", newError(ErrTimestamp, ts.UTC().Format(time.RFC3339), "before 1970")
	}
	b, err := AppendCacheURL(make([]byte, 0, 512), suffix, publisherURL, Content)
	if err != nil {
		return "", "", err
	}
	// b is "https://" + prefix + "." + suffix + "/c/...".
	cacheURL := string(b)
	h := cacheURL[len("https://"):]
	h = h[:strings.IndexByte(h, '/')]
	prefix = h[:strings.IndexByte(h, '.')]
	rest := cacheURL[len("https://")+len(h):]
	rest, _, _ = strings.Cut(rest, "#")
	p, query, _ := strings.Cut(rest, "?")
	if hasUpdateParam(query) {
		return "", "", newError(ErrInvalidURL, publisherURL, "the query has an amp_action, amp_ts or amp_url_signature parameter")
	}
	var sb strings.Builder
	sb.Grow(len(updateCachePath) + len(rest) + 64 + base64.RawURLEncoding.EncodedLen(pub.Size()))
	sb.WriteString(updateCachePath)
	sb.WriteString(p)
	sb.WriteByte('?')
	if query != "" {
		sb.WriteString(query)
		sb.WriteByte('&')
	}
	sb.WriteString(actionParam + "&" + tsParam)
	sb.WriteString(strconv.FormatInt(t, 10))
	signed := sb.String()
	digest := sha256.Sum256([]byte(signed))
	sig, err := key.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		return "", "", wrapError(ErrSignature, publisherURL, fmt.Errorf("signing: %w", err))
	}
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig); err != nil {
		return "", "", newError(ErrSignature, publisherURL, "the key's signature does not verify with its public key: want RSA PKCS #1 v1.5 with SHA-256")
	}
	sb.WriteString("&" + signatureParam)
	sb.WriteString(base64.RawURLEncoding.EncodeToString(sig))
	return prefix, sb.String(), nil
}

// checkPublic returns k as an RSA public key, or an error wrapping
// ErrInvalidKey if it is not one of at least minKeyBits bits.
func checkPublic(k crypto.PublicKey) (*rsa.PublicKey, error) {
	pub, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, newError(ErrInvalidKey, fmt.Sprintf("%T", k), "want an RSA key")
	}
	return pub, checkRSA(pub)
}

// checkRSA returns an error wrapping ErrInvalidKey unless pub is an RSA
// key of at least minKeyBits bits.
func checkRSA(pub *rsa.PublicKey) error {
	if pub == nil || pub.N == nil {
		return newError(ErrInvalidKey, "<nil>", "no key")
	}
	if n := pub.N.BitLen(); n < minKeyBits {
		return newError(ErrInvalidKey, "RSA-"+strconv.Itoa(n), "want at least 2048 bits")
	}
	return nil
}

// hasUpdateParam reports whether query, parameters joined by "&", has a
// parameter named amp_action, amp_ts or amp_url_signature, its name read
// as net/url reads it ("amp%5Fts" is amp_ts).
func hasUpdateParam(query string) bool {
	if query == "" {
		return false
	}
	for p := range strings.SplitSeq(query, "&") {
		name, _, _ := strings.Cut(p, "=")
		var buf [len("amp_url_signature") + 1]byte
		if strings.IndexByte(name, '%') >= 0 || strings.IndexByte(name, '+') >= 0 {
			name = unescapeName(buf[:0], name)
		}
		switch name {
		case "amp_action", "amp_ts", "amp_url_signature":
			return true
		}
	}
	return false
}

// updateRegistry reads the path of an update-cache request, after
// "/update-cache", as a cache URL on a domain of its own: SourceURL's rules
// apply, whatever the cache's host.
var updateRegistry = &Registry{caches: []Cache{{ID: "update-cache", CacheDomain: "update-cache.invalid"}}}

// VerifyUpdateCache checks an update-cache request as an AMP Cache does,
// and returns the publisher URL it flushes. rawURL is the request's URL,
// as [UpdateCacheURL] builds it: an https URL whose host is a domain
// prefix and a cache domain, and whose path and query are
//
//	"/update-cache/c" + "/s" (for an https document) + "/" + host + path
//	+ "?" + the publisher's query + "&" (if it has one)
//	+ "amp_action=flush&amp_ts=" + Unix seconds
//	+ "&amp_url_signature=" + signature
//
// The three parameters must come last, in this order, once each: the
// publisher's query may hold none of them. VerifyUpdateCache checks, in
// order:
//
//   - the form above (errors wrap [ErrInvalidURL], or [ErrTimestamp] for a
//     missing or malformed amp_ts, [ErrSignature] for a missing
//     amp_url_signature);
//   - amp_ts is at most 60 seconds from now, either way ([ErrTimestamp]);
//   - the path names a publisher URL, read as [SourceURL] reads a cache
//     URL, and the host's first label is [DomainPrefix] of its host, in
//     any case ([ErrInvalidURL]);
//   - the signature, in URL-safe base64 with or without padding ("=" or
//     "%3D"), is an RSA PKCS #1 v1.5 SHA-256 signature by pub over the
//     bytes of rawURL from "/update-cache/" up to and including the
//     value of amp_ts ([ErrSignature]).
//
// pub must be an RSA key of at least 2048 bits ([ErrInvalidKey]). The
// cache domain is not checked against the registry: a cache knows its own
// host, and the signature leaves it out so that one request serves every
// cache. The publisher URL has no fragment and none of the cache-only
// query parameters SourceURL removes. rawURL may be up to 2 MiB
// ([ErrTooLong]).
func VerifyUpdateCache(rawURL string, pub *rsa.PublicKey, now time.Time) (publisherURL string, err error) {
	if err := checkRSA(pub); err != nil {
		return "", err
	}
	u, err := splitURL(rawURL)
	if err != nil {
		return "", err
	}
	if !u.https || u.hasPort && u.port != 443 {
		return "", newError(ErrInvalidURL, rawURL, "want an https URL on the default port")
	}
	label, cacheDomain, ok := strings.Cut(u.host, ".")
	if !ok || label == "" || !isHostName(cacheDomain, true) {
		return "", newError(ErrInvalidURL, rawURL, "want a domain prefix and a cache domain as the host")
	}
	rest := u.rest
	if strings.IndexByte(rest, '#') >= 0 {
		return "", newError(ErrInvalidURL, rawURL, "a request has no fragment")
	}
	if !strings.HasPrefix(rest, updateCachePath+"/") {
		return "", newError(ErrInvalidURL, rawURL, `the path does not start with "/update-cache/"`)
	}
	path, query, ok := strings.Cut(rest, "?")
	i := strings.LastIndexByte(query, '&')
	if !ok || i < 0 || !strings.HasPrefix(query[i+1:], signatureParam) {
		return "", newError(ErrSignature, rawURL, "no amp_url_signature parameter at the end")
	}
	signed := rest[:len(path)+1+i]
	sigText := query[i+1+len(signatureParam):]
	query = query[:i]
	i = strings.LastIndexByte(query, '&')
	if i < 0 || !strings.HasPrefix(query[i+1:], tsParam) {
		return "", newError(ErrTimestamp, rawURL, "no amp_ts parameter before amp_url_signature")
	}
	tsText := query[i+1+len(tsParam):]
	query = query[:i]
	pubQuery, action := "", query
	if i = strings.LastIndexByte(query, '&'); i >= 0 {
		pubQuery, action = query[:i], query[i+1:]
	}
	if action != actionParam {
		return "", newError(ErrInvalidURL, rawURL, "no amp_action=flush parameter before amp_ts")
	}
	if hasUpdateParam(pubQuery) {
		return "", newError(ErrInvalidURL, rawURL, "a repeated amp_action, amp_ts or amp_url_signature parameter")
	}
	if tsText == "" || len(tsText) > 19 || !isDigits(tsText) {
		return "", newError(ErrTimestamp, rawURL, "amp_ts is not Unix seconds")
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return "", newError(ErrTimestamp, rawURL, "amp_ts is not Unix seconds")
	}
	if !withinSkew(ts, now.Unix()) {
		return "", newError(ErrTimestamp, rawURL, "amp_ts is more than 60 seconds from now, "+strconv.FormatInt(now.Unix(), 10))
	}
	cacheURL := "https://update-cache.invalid" + path[len(updateCachePath):]
	if pubQuery != "" {
		cacheURL += "?" + pubQuery
	}
	src, s, err := updateRegistry.ParseCacheURL(cacheURL)
	if err != nil {
		return "", newError(ErrInvalidURL, rawURL, "the path names no publisher URL")
	}
	if s != Content {
		return "", newError(ErrInvalidURL, rawURL, `want the serving type "c"`)
	}
	pu, err := splitURL(src)
	if err != nil {
		return "", newError(ErrInvalidURL, rawURL, "the path names no publisher URL")
	}
	var buf [maxLabel]byte
	want, err := AppendDomainPrefix(buf[:0], pu.host)
	if err != nil || !host.EqualFold(label, string(want)) {
		return "", newError(ErrInvalidURL, rawURL, "the host's domain prefix is not the publisher host's")
	}
	sig, err := decodeSignature(sigText, pub.Size())
	if err != nil {
		return "", newError(ErrSignature, rawURL, err.Error())
	}
	digest := sha256.Sum256([]byte(signed))
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig); err != nil {
		return "", newError(ErrSignature, rawURL, "the signature does not verify")
	}
	return src, nil
}

// withinSkew reports whether ts is at most maxSkew seconds from now,
// without overflow.
func withinSkew(ts, now int64) bool {
	if ts >= now {
		return uint64(ts)-uint64(now) <= maxSkew
	}
	return uint64(now)-uint64(ts) <= maxSkew
}

// decodeSignature decodes an amp_url_signature value: URL-safe base64,
// without padding or with it written as "=" or "%3D", of size bytes.
func decodeSignature(s string, size int) ([]byte, error) {
	for range 2 {
		if t, ok := strings.CutSuffix(s, "="); ok {
			s = t
		} else if len(s) >= 3 && s[len(s)-3:len(s)-1] == "%3" && (s[len(s)-1] == 'D' || s[len(s)-1] == 'd') {
			s = s[:len(s)-3]
		}
	}
	if base64.RawURLEncoding.DecodedLen(len(s)) != size {
		return nil, fmt.Errorf("the signature is not %d bytes of URL-safe base64", size)
	}
	sig, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil || len(sig) != size {
		return nil, fmt.Errorf("the signature is not %d bytes of URL-safe base64", size)
	}
	return sig, nil
}
