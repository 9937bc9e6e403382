// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/ampcache"
)

// ts is the time the test requests are made at: amp_ts=1700000000.
var ts = time.Unix(1700000000, 0)

var google = ampcache.Caches()[0]

// splitSigned returns the string an update-cache URL signs, as Google's
// page documents it (the path and query from "/update-cache/" up to and
// including amp_ts, without the cache host), and its signature, decoded.
func splitSigned(t testing.TB, u string) (signed string, sig []byte) {
	t.Helper()
	start := strings.Index(u, "/update-cache/")
	end := strings.LastIndex(u, "&amp_url_signature=")
	if start < 0 || end < start {
		t.Fatalf("not an update-cache URL: %q", u)
	}
	sig, err := base64.RawURLEncoding.DecodeString(u[end+len("&amp_url_signature="):])
	if err != nil {
		t.Fatalf("signature of %q: %v", u, err)
	}
	return u[start:end], sig
}

// sign signs s with k as update-cache does: RSA PKCS #1 v1.5, SHA-256, in
// unpadded URL-safe base64.
func sign(t testing.TB, k *rsa.PrivateKey, s string) string {
	t.Helper()
	d := sha256.Sum256([]byte(s))
	sig, err := rsa.SignPKCS1v15(nil, k, crypto.SHA256, d[:])
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(sig)
}

func TestUpdateCacheURL(t *testing.T) {
	bing := ampcache.Caches()[1]
	tests := []struct {
		name  string
		cache ampcache.Cache
		in    string
		want  string // the URL without its signature
	}{
		// Google's example: an https article, "/s" infix.
		{"google", google, "https://example.com/article",
			"https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/article?amp_action=flush&amp_ts=1700000000"},
		// Bing's updateCacheApiDomainSuffix.
		{"bing", bing, "https://example.com/article",
			"https://example-com.www.bing-amp.com/update-cache/c/s/example.com/article?amp_action=flush&amp_ts=1700000000"},
		// An http publisher URL has no "/s".
		{"http", google, "http://www.example.com/a.html",
			"https://www-example-com.cdn.ampproject.org/update-cache/c/www.example.com/a.html?amp_action=flush&amp_ts=1700000000"},
		// The publisher's query comes first, byte for byte.
		{"query kept", google, "https://example.com/a?b=1&c=%7e+x&&",
			"https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/a?b=1&c=%7e+x&&&amp_action=flush&amp_ts=1700000000"},
		// An empty query is dropped: the flush parameters start it.
		{"empty query", google, "https://example.com/a?",
			"https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/a?amp_action=flush&amp_ts=1700000000"},
		// The fragment is dropped: no client sends it.
		{"fragment", google, "https://example.com/a?q#frag",
			"https://example-com.cdn.ampproject.org/update-cache/c/s/example.com/a?q&amp_action=flush&amp_ts=1700000000"},
		// The host and port as CacheURL writes them.
		{"unicode host and port", google, "https://點看.com:8443/",
			"https://xn---com-k47jg78q.cdn.ampproject.org/update-cache/c/s/xn--c1yn36f.com%3A8443/?amp_action=flush&amp_ts=1700000000"},
		// A domain without a human-readable prefix gets the fallback.
		{"fallback", google, "https://" + strings.Repeat("a", 60) + ".com/",
			"https://" + ampcache.FallbackPrefix(strings.Repeat("a", 60)+".com") + ".cdn.ampproject.org/update-cache/c/s/" + strings.Repeat("a", 60) + ".com/?amp_action=flush&amp_ts=1700000000"},
		// The suffix may be in any case.
		{"suffix case", ampcache.Cache{ID: "x", UpdateCacheAPIDomainSuffix: "Update.Example"}, "https://example.com/",
			"https://example-com.update.example/update-cache/c/s/example.com/?amp_action=flush&amp_ts=1700000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ampcache.UpdateCacheURL(tt.cache, tt.in, ts, publisherKey())
			if err != nil {
				t.Fatal(err)
			}
			head, sigText, ok := strings.Cut(got, "&amp_url_signature=")
			if !ok || head != tt.want {
				t.Fatalf("UpdateCacheURL(%q) =\n%s\nwant\n%s&amp_url_signature=...", tt.in, got, tt.want)
			}
			if len(sigText) != 342 || strings.ContainsAny(sigText, "+/=") {
				t.Errorf("signature %q: want 342 characters of unpadded URL-safe base64", sigText)
			}
			signed, sig := splitSigned(t, got)
			d := sha256.Sum256([]byte(signed))
			if err := rsa.VerifyPKCS1v15(&publisherKey().PublicKey, crypto.SHA256, d[:], sig); err != nil {
				t.Errorf("signature over %q does not verify: %v", signed, err)
			}
		})
	}
}

// failingSigner fails, or signs with another scheme than update-cache's.
type failingSigner struct {
	*rsa.PrivateKey
	pss bool
}

var errHSM = errors.New("hsm offline")

func (s failingSigner) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	if s.pss {
		return rsa.SignPSS(rand.Reader, s.PrivateKey, crypto.SHA256, d, nil)
	}
	return nil, errHSM
}

// opaqueSigner hides its *rsa.PrivateKey, as a KMS or HSM key does.
type opaqueSigner struct{ k *rsa.PrivateKey }

func (s opaqueSigner) Public() crypto.PublicKey { return &s.k.PublicKey }
func (s opaqueSigner) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	return s.k.Sign(r, d, o)
}

func TestUpdateCacheURLErrors(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name    string
		cache   ampcache.Cache
		in      string
		ts      time.Time
		key     crypto.Signer
		wantErr error
	}{
		// An ECDSA key is not RSA.
		{"ecdsa key", google, "https://example.com/", ts, ec, ampcache.ErrInvalidKey},
		// Nor is Ed25519.
		{"ed25519 key", google, "https://example.com/", ts, ed, ampcache.ErrInvalidKey},
		// RSA under 2048 bits is refused.
		{"1024-bit key", google, "https://example.com/", ts, weakKey(), ampcache.ErrInvalidKey},
		// No key.
		{"nil key", google, "https://example.com/", ts, nil, ampcache.ErrInvalidKey},
		// A cache without an updateCacheApiDomainSuffix takes no request.
		{"no suffix", ampcache.Cache{ID: "x", CacheDomain: "x.example"}, "https://example.com/", ts, publisherKey(), ampcache.ErrNoUpdateCacheAPI},
		// A suffix that is not a host name.
		{"bad suffix", ampcache.Cache{ID: "x", UpdateCacheAPIDomainSuffix: "a/b"}, "https://example.com/", ts, publisherKey(), ampcache.ErrInvalidHost},
		// The publisher's query may not hold the request's parameters.
		{"amp_ts in query", google, "https://example.com/?amp_ts=1", ts, publisherKey(), ampcache.ErrInvalidURL},
		// Nor escaped, as net/url reads the name.
		{"escaped amp_action in query", google, "https://example.com/?amp%5Faction=flush", ts, publisherKey(), ampcache.ErrInvalidURL},
		// Nor a signature.
		{"signature in query", google, "https://example.com/?a=1&amp_url_signature", ts, publisherKey(), ampcache.ErrInvalidURL},
		// A publisher URL that CacheURL refuses.
		{"bad publisher URL", google, "ftp://example.com/", ts, publisherKey(), ampcache.ErrInvalidURL},
		// A time before 1970, such as the zero time.
		{"zero time", google, "https://example.com/", time.Time{}, publisherKey(), ampcache.ErrTimestamp},
		// A signer that fails: its error is kept.
		{"signer fails", google, "https://example.com/", ts, failingSigner{PrivateKey: publisherKey()}, errHSM},
		// A signer that signs with PSS, not PKCS #1 v1.5.
		{"pss signer", google, "https://example.com/", ts, failingSigner{PrivateKey: publisherKey(), pss: true}, ampcache.ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ampcache.UpdateCacheURL(tt.cache, tt.in, tt.ts, tt.key)
			if !errors.Is(err, tt.wantErr) || got != "" {
				t.Fatalf("UpdateCacheURL = %q, %v; want error %v", got, err, tt.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "ampcache: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

// Any crypto.Signer with an RSA key of 2048 bits or more works, and signs
// as an *rsa.PrivateKey does (PKCS #1 v1.5 is deterministic).
func TestUpdateCacheURLOpaqueSigner(t *testing.T) {
	want, err := ampcache.UpdateCacheURL(google, "https://example.com/a", ts, publisherKey())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ampcache.UpdateCacheURL(google, "https://example.com/a", ts, opaqueSigner{publisherKey()})
	if err != nil || got != want {
		t.Errorf("opaque signer: %q, %v; want %q", got, err, want)
	}
}

func TestUpdateCacheURLs(t *testing.T) {
	got, err := ampcache.UpdateCacheURLs("https://example.com/a?x=1", ts, publisherKey())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range ampcache.Caches() {
		if c.UpdateCacheAPIDomainSuffix == "" {
			continue
		}
		u, err := ampcache.UpdateCacheURL(c, "https://example.com/a?x=1", ts, publisherKey())
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, u)
	}
	if len(got) != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("UpdateCacheURLs =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One signature serves every cache: only the host differs.
	p0, _ := splitSigned(t, got[0])
	p1, _ := splitSigned(t, got[1])
	if p0 != p1 || got[0][strings.Index(got[0], "/update-cache/"):] != got[1][strings.Index(got[1], "/update-cache/"):] {
		t.Errorf("the URLs differ beyond their host:\n%s\n%s", got[0], got[1])
	}
	if _, err := ampcache.UpdateCacheURLs("https://example.com/", ts, weakKey()); !errors.Is(err, ampcache.ErrInvalidKey) {
		t.Errorf("weak key: %v, want ErrInvalidKey", err)
	}
}

// The built-in caches are those of caches.json with their
// updateCacheApiDomainSuffix, as the update-cache page tells publishers
// to use.
func TestCachesUpdateCacheSuffix(t *testing.T) {
	want := map[string]string{"google": "cdn.ampproject.org", "bing": "www.bing-amp.com"}
	for _, c := range ampcache.Caches() {
		if c.UpdateCacheAPIDomainSuffix != want[c.ID] {
			t.Errorf("cache %q: updateCacheApiDomainSuffix %q, want %q", c.ID, c.UpdateCacheAPIDomainSuffix, want[c.ID])
		}
	}
}

// replace returns s with the first old replaced by new, and fails the test
// if s has no old.
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q has no %q", s, old)
	}
	return strings.Replace(s, old, new, 1)
}

func TestVerifyUpdateCache(t *testing.T) {
	const pubURL = "https://www.example.com/news/article.html?id=7"
	good, err := ampcache.UpdateCacheURL(google, pubURL, ts, publisherKey())
	if err != nil {
		t.Fatal(err)
	}
	signed, sig := splitSigned(t, good)
	host := good[:strings.Index(good, "/update-cache/")]
	sigText := base64.RawURLEncoding.EncodeToString(sig)
	withSig := func(s string) string { return host + signed + "&amp_url_signature=" + s }
	// resign signs path and query with the publisher's key, after the
	// host, so that only what the test changes is wrong.
	resign := func(pathQuery string) string {
		return host + pathQuery + "&amp_url_signature=" + sign(t, publisherKey(), pathQuery)
	}
	flipped := append([]byte(nil), sig...)
	flipped[100] ^= 0x08
	pub := &publisherKey().PublicKey

	tests := []struct {
		name    string
		in      string
		key     *rsa.PublicKey
		now     time.Time
		want    string
		wantErr error
	}{
		// The URL UpdateCacheURL made.
		{"valid", good, pub, ts, pubURL, nil},
		// 60 seconds either way is within the window.
		{"60s late", good, pub, ts.Add(60 * time.Second), pubURL, nil},
		{"60s early", good, pub, ts.Add(-60 * time.Second), pubURL, nil},
		// 61 seconds either way is not.
		{"61s late", good, pub, ts.Add(61 * time.Second), "", ampcache.ErrTimestamp},
		{"61s early", good, pub, ts.Add(-61 * time.Second), "", ampcache.ErrTimestamp},
		// Padding is accepted, as "=" or "%3D".
		{"padded", withSig(base64.URLEncoding.EncodeToString(sig)), pub, ts, pubURL, nil},
		{"padded %3D", withSig(sigText + "%3D%3d"), pub, ts, pubURL, nil},
		// The cache host is not signed: another cache, and any case.
		{"bing host", replace(t, good, "cdn.ampproject.org", "www.bing-amp.com"), pub, ts, pubURL, nil},
		{"upper-case host", replace(t, good, "https://www-example-com.cdn", "HTTPS://WWW-EXAMPLE-COM.CDN"), pub, ts, pubURL, nil},
		// One bit of the signature flipped.
		{"flipped bit", withSig(base64.RawURLEncoding.EncodeToString(flipped)), pub, ts, "", ampcache.ErrSignature},
		// A changed path, query or timestamp, with the signature kept.
		{"changed path", replace(t, good, "article.html", "articlf.html"), pub, ts, "", ampcache.ErrSignature},
		{"changed query", replace(t, good, "id=7", "id=8"), pub, ts, "", ampcache.ErrSignature},
		{"query added", replace(t, good, "id=7", "id=7&x"), pub, ts, "", ampcache.ErrSignature},
		{"changed amp_ts", replace(t, good, "amp_ts=1700000000", "amp_ts=1700000001"), pub, ts, "", ampcache.ErrSignature},
		{"http document", replace(t, good, "/c/s/", "/c/"), pub, ts, "", ampcache.ErrSignature},
		// Another publisher's key.
		{"other key", good, &otherKey().PublicKey, ts, "", ampcache.ErrSignature},
		// A signature over the URL with the cache host.
		{"host signed", withSig(sign(t, publisherKey(), host+signed)), pub, ts, "", ampcache.ErrSignature},
		// A signature over the whole URL with the path only.
		{"path only signed", withSig(sign(t, publisherKey(), signed[:strings.IndexByte(signed, '?')])), pub, ts, "", ampcache.ErrSignature},
		// Standard base64 is not the URL-safe alphabet.
		{"standard base64", withSig(strings.NewReplacer("-", "+", "_", "/").Replace(sigText) + "+/"), pub, ts, "", ampcache.ErrSignature},
		// A truncated signature.
		{"short signature", withSig(sigText[:340]), pub, ts, "", ampcache.ErrSignature},
		// No signature, an empty one, or one that is not last.
		{"no signature", host + signed, pub, ts, "", ampcache.ErrSignature},
		{"empty signature", withSig(""), pub, ts, "", ampcache.ErrSignature},
		{"signature not last", withSig(sigText) + "&x=1", pub, ts, "", ampcache.ErrSignature},
		// No or a malformed amp_ts.
		{"no amp_ts", resign("/update-cache/c/s/www.example.com/a?amp_action=flush"), pub, ts, "", ampcache.ErrTimestamp},
		{"signed amp_ts", resign("/update-cache/c/s/www.example.com/a?amp_action=flush&amp_ts=-1700000000"), pub, ts, "", ampcache.ErrTimestamp},
		{"huge amp_ts", resign("/update-cache/c/s/www.example.com/a?amp_action=flush&amp_ts=99999999999999999999"), pub, ts, "", ampcache.ErrTimestamp},
		{"empty amp_ts", resign("/update-cache/c/s/www.example.com/a?amp_action=flush&amp_ts="), pub, ts, "", ampcache.ErrTimestamp},
		// amp_action must be flush, and come before amp_ts.
		{"other action", resign("/update-cache/c/s/www.example.com/a?amp_action=purge&amp_ts=1700000000"), pub, ts, "", ampcache.ErrInvalidURL},
		{"no action", resign("/update-cache/c/s/www.example.com/a?x=1&amp_ts=1700000000"), pub, ts, "", ampcache.ErrInvalidURL},
		{"action after ts", resign("/update-cache/c/s/www.example.com/a?amp_ts=1700000000&amp_action=flush"), pub, ts, "", ampcache.ErrTimestamp},
		// The request's parameters appear once.
		{"repeated amp_ts", resign("/update-cache/c/s/www.example.com/a?amp_ts=1&amp_action=flush&amp_ts=1700000000"), pub, ts, "", ampcache.ErrInvalidURL},
		// The host's domain prefix must be the publisher host's.
		{"other prefix", replace(t, good, "www-example-com", "evil-com"), pub, ts, "", ampcache.ErrInvalidURL},
		{"cache domain only", replace(t, good, "www-example-com.", ""), pub, ts, "", ampcache.ErrInvalidURL},
		// Documents use the serving type c.
		{"viewer", resign("/update-cache/v/s/www.example.com/a?amp_action=flush&amp_ts=1700000000"), pub, ts, "", ampcache.ErrInvalidURL},
		// The path must start with /update-cache/ and name a publisher URL.
		{"not update-cache", replace(t, good, "/update-cache/", "/c/update-cache/"), pub, ts, "", ampcache.ErrInvalidURL},
		{"no publisher host", resign("/update-cache/c/s/?amp_action=flush&amp_ts=1700000000"), pub, ts, "", ampcache.ErrInvalidURL},
		// An https URL on the default port, without a fragment.
		{"http", replace(t, good, "https:", "http:"), pub, ts, "", ampcache.ErrInvalidURL},
		{"port", replace(t, good, ".org/", ".org:8443/"), pub, ts, "", ampcache.ErrInvalidURL},
		{"port 443", replace(t, good, ".org/", ".org:443/"), pub, ts, pubURL, nil},
		{"fragment", good + "#x", pub, ts, "", ampcache.ErrInvalidURL},
		{"userinfo", replace(t, good, "https://", "https://u@"), pub, ts, "", ampcache.ErrInvalidURL},
		// Keys under 2048 bits are refused.
		{"weak key", good, &weakKey().PublicKey, ts, "", ampcache.ErrInvalidKey},
		{"nil key", good, nil, ts, "", ampcache.ErrInvalidKey},
		// Empty and over-long input.
		{"empty", "", pub, ts, "", ampcache.ErrEmpty},
		{"too long", good + strings.Repeat("a", 2<<20), pub, ts, "", ampcache.ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ampcache.VerifyUpdateCache(tt.in, tt.key, tt.now)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("VerifyUpdateCache(%.80q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && (!strings.HasPrefix(err.Error(), "ampcache: ") || len(err.Error()) > 512) {
				t.Errorf("error %q: want the package prefix and at most 512 bytes", err)
			}
		})
	}
}

// VerifyUpdateCache returns the publisher URL as SourceURL reads the cache
// URL: without the fragment and the cache-only parameters.
func TestUpdateCacheRoundTrip(t *testing.T) {
	for _, in := range []string{
		"https://example.com",
		"https://example.com/",
		"http://www.example.com/a/b.html?x=1&y=2",
		"https://點看.com/文?q=%E6#frag",
		"https://example.com:8443/a?usqp=mq331AQ&amp_js_v=0.1&keep=1",
		"https://en-us.example.com/a?&",
		"https://" + strings.Repeat("a", 60) + ".com/",
	} {
		t.Run(in, func(t *testing.T) {
			checkRoundTrip(t, in)
		})
	}
}

// checkRoundTrip checks that VerifyUpdateCache accepts UpdateCacheURL of
// in, on every cache, and returns SourceURL of its cache URL without the
// fragment; and that it refuses it 61 seconds later.
func checkRoundTrip(t *testing.T, in string) {
	t.Helper()
	urls, err := ampcache.UpdateCacheURLs(in, ts, publisherKey())
	if err != nil {
		t.Fatalf("UpdateCacheURLs(%q): %v", in, err)
	}
	cu, err := ampcache.CacheURL(google.CacheDomain, in, ampcache.Content)
	if err != nil {
		t.Fatalf("CacheURL(%q): %v", in, err)
	}
	// The request drops the fragment, and an empty query.
	cu, _, _ = strings.Cut(cu, "#")
	if strings.IndexByte(cu, '?') == len(cu)-1 {
		cu = cu[:len(cu)-1]
	}
	want, err := ampcache.SourceURL(cu)
	if err != nil {
		t.Fatalf("SourceURL(%q): %v", cu, err)
	}
	for _, u := range urls {
		got, err := ampcache.VerifyUpdateCache(u, &publisherKey().PublicKey, ts)
		if err != nil || got != want {
			t.Errorf("VerifyUpdateCache(%q) = %q, %v; want %q", u, got, err, want)
		}
		if _, err := ampcache.VerifyUpdateCache(u, &publisherKey().PublicKey, ts.Add(61*time.Second)); !errors.Is(err, ampcache.ErrTimestamp) {
			t.Errorf("61s later: %v, want ErrTimestamp", err)
		}
	}
}

// The timestamp window holds at the ends of int64, without overflow.
func TestVerifyUpdateCacheClockExtremes(t *testing.T) {
	u, err := ampcache.UpdateCacheURL(google, "https://example.com/", ts, publisherKey())
	if err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{time.Unix(-1<<63, 0), time.Unix(1<<63-1, 0), time.Unix(0, 0)} {
		if _, err := ampcache.VerifyUpdateCache(u, &publisherKey().PublicKey, now); !errors.Is(err, ampcache.ErrTimestamp) {
			t.Errorf("now %d: %v, want ErrTimestamp", now.Unix(), err)
		}
	}
	big := replace(t, u, "amp_ts=1700000000", "amp_ts="+strconv.FormatInt(1<<63-1, 10))
	if _, err := ampcache.VerifyUpdateCache(big, &publisherKey().PublicKey, time.Unix(-1<<63, 0)); !errors.Is(err, ampcache.ErrTimestamp) {
		t.Errorf("amp_ts max, now min: %v, want ErrTimestamp", err)
	}
}

// BenchmarkVerifyUpdateCache measures VerifyUpdateCache against its floor,
// the RSA verification of the same signed bytes alone, in the same run:
// x-floor is their ratio.
func BenchmarkVerifyUpdateCache(b *testing.B) {
	u, err := ampcache.UpdateCacheURL(google, "https://www.example.com/news/article.html?id=7", ts, publisherKey())
	if err != nil {
		b.Fatal(err)
	}
	pub := &publisherKey().PublicKey
	signed, sig := splitSigned(b, u)
	var floor, verify time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t := time.Now()
		d := sha256.Sum256([]byte(signed))
		if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, d[:], sig); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := ampcache.VerifyUpdateCache(u, pub, ts); err != nil {
			b.Fatal(err)
		}
		floor += t1.Sub(t)
		verify += time.Since(t1)
	}
	b.ReportMetric(float64(verify)/float64(floor), "x-floor")
}

func BenchmarkUpdateCacheURLs(b *testing.B) {
	key := publisherKey()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ampcache.UpdateCacheURLs("https://www.example.com/news/article.html?id=7", ts, key); err != nil {
			b.Fatal(err)
		}
	}
}
