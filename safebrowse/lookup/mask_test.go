// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/hpke"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// maskKey is the API key of the masking tests: any 8 bytes of it in a row,
// raw or escaped, are a leak.
const maskKey = "AIzaSyQ7+Zk/Wq=JX3vPmB9tLr2HcNd"

// keyWindows returns every run of 8 bytes of the key, raw, query-escaped
// and path-escaped.
func keyWindows() []string {
	var out []string
	for _, k := range []string{maskKey, url.QueryEscape(maskKey), url.PathEscape(maskKey)} {
		for i := 0; i+8 <= len(k); i++ {
			out = append(out, k[i:i+8])
		}
	}
	return out
}

// leak returns the part of the key that s shows, or "".
func leak(s string) string {
	for _, w := range keyWindows() {
		if strings.Contains(s, w) {
			return w
		}
	}
	return ""
}

// checkChain formats err and every error in its chain, at every Unwrap
// depth (single and []error), with %v, %+v, %#v, %s and %q, and fails
// the test if one shows a part of the key.
func checkChain(t *testing.T, where string, err error) {
	t.Helper()
	var visit func(e error, path string, depth int)
	visit = func(e error, path string, depth int) {
		if e == nil || depth > 64 {
			return
		}
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			if s := fmt.Sprintf(verb, e); leak(s) != "" {
				t.Errorf("%s: %s (%T) shows %q of the key in %s: %s", where, path, e, leak(s), verb, s)
			}
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			visit(u.Unwrap(), path+".Unwrap()", depth+1)
		case interface{ Unwrap() []error }:
			for i, c := range u.Unwrap() {
				visit(c, fmt.Sprintf("%s.Unwrap()[%d]", path, i), depth+1)
			}
		}
	}
	visit(err, "err", 0)
}

// valueError is an error value (not a pointer) with the URL in a field,
// as a proxy's RoundTripper might return: %#v prints its fields.
type valueError struct{ URL string }

func (e valueError) Error() string { return "proxy refused " + e.URL }

// leakyTransport fails every request with an error that holds the URL at
// every depth: in a wrapped message, and in a joined value error.
type leakyTransport struct{}

func (leakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("proxy: %w", errors.Join(fmt.Errorf("dial %s", r.URL), valueError{r.URL.String()}))
}

// TestKeyMaskedAtEveryDepth: the API key is masked where each error is
// made, so that no error in a chain shows any 8 bytes of it, at any Unwrap
// depth and in any format, nor does a log line, nor ListStatus.Err,
// whatever the server echoes or the transport returns.
func TestKeyMaskedAtEveryDepth(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	echo := func(r *http.Request) string {
		return "key " + r.URL.Query().Get("key") + " query " + r.URL.RawQuery + " path " + r.URL.String()
	}
	listNamed := func(name string) []byte {
		var b []byte
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, name)
		return b
	}
	tests := []struct {
		name   string
		mode   Mode
		lists  []string
		base   string                // "" for the test server
		hc     *http.Client          // nil for the default
		handle http.HandlerFunc      // nil for the test server's own
		check  func(*Client) []error // the calls whose errors are checked
	}{
		// The server echoes the key in a text body, raw and escaped.
		{name: "echoed in text", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, echo(r), http.StatusBadRequest)
		}},
		// The key begins past the old 200-byte clip: clipped before masking,
		// its first bytes showed.
		{name: "echoed at the clip", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, strings.Repeat("x", 185)+r.URL.Query().Get("key"), http.StatusBadRequest)
		}},
		{name: "echoed past 100 bytes", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, strings.Repeat("x", 90)+r.URL.Query().Get("key"), http.StatusBadRequest)
		}},
		// The server echoes it in a google.rpc.Status.
		{name: "echoed in a Status", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.WriteHeader(http.StatusForbidden)
			var b []byte
			b = protowire.AppendTag(b, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, 7)
			b = protowire.AppendTag(b, 2, protowire.BytesType)
			b = protowire.AppendString(b, echo(r))
			w.Write(b)
		}},
		// The server echoes it in JSON.
		{name: "echoed in JSON", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"code":400,"message":%q}}`, echo(r))
		}},
		// The server echoes it in a 200's Content-Type.
		{name: "echoed in Content-Type", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/"+r.URL.Query().Get("key"))
		}},
		// A refused connection: *url.Error holds the request URL.
		{name: "connection refused", mode: NoStorage, base: deadURL},
		// A transport error that holds the URL at every depth.
		{name: "transport", mode: NoStorage, hc: &http.Client{Transport: leakyTransport{}}},
		// A redirect, not followed.
		{name: "redirect", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://elsewhere.invalid/?"+r.URL.RawQuery, http.StatusFound)
		}},
		// Searches back off: the BackoffError holds the last failure.
		{name: "backoff", mode: NoStorage, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, echo(r), http.StatusServiceUnavailable)
		}, check: func(c *Client) []error {
			var errs []error
			for range 5 {
				_, err := c.Lookup(bg, "http://a.example/")
				errs = append(errs, err)
			}
			return errs
		}},
		// A batch: the BatchError holds each URL's error.
		{name: "LookupAll", mode: NoStorage, base: deadURL, check: func(c *Client) []error {
			_, err := c.LookupAll(bg, []string{"http://a.example/", "http://b.example/"})
			return []error{err}
		}},
		// A list update echoing the key as the list's name.
		{name: "list name echoed", mode: LocalList, lists: []string{"se-4b"}, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(listNamed("se-4b" + r.URL.Query().Get("key")))
		}},
		// A batch reply naming a list after the key.
		{name: "batch list name echoed", mode: LocalList, lists: []string{"se-4b", "mw-4b"}, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-protobuf")
			var b []byte
			for range 2 {
				b = protowire.AppendTag(b, 1, protowire.BytesType)
				b = protowire.AppendBytes(b, listNamed(r.URL.Query().Get("key")+"-4b"))
			}
			w.Write(b)
		}},
		// A failed update, seen through Ready and Lists.
		{name: "update refused", mode: LocalList, lists: []string{"se-4b", "mw-4b"}, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, echo(r), http.StatusForbidden)
		}},
		{name: "update transport", mode: LocalList, lists: []string{"se-4b"}, hc: &http.Client{Transport: leakyTransport{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.handle = tt.handle
			base := s.URL
			if tt.base != "" {
				base = tt.base
			}
			var logs syncBuffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, _ := newTestClient(t, Config{APIKey: maskKey, BaseURL: base, Mode: tt.mode, Lists: tt.lists,
				HTTPClient: tt.hc, Logger: log})
			var errs []error
			switch {
			case tt.check != nil:
				errs = tt.check(c)
			case tt.mode == NoStorage:
				_, err := c.Lookup(bg, "http://a.example/")
				errs = append(errs, err)
			default:
				errs = append(errs, c.Update(bg))
				ctx, cancel := context.WithTimeout(bg, time.Second)
				errs = append(errs, c.Ready(ctx))
				cancel()
				for _, st := range c.Lists() {
					errs = append(errs, st.Err)
				}
			}
			if errs[0] == nil {
				t.Fatal("no error")
			}
			for i, err := range errs {
				checkChain(t, fmt.Sprintf("error %d", i), err)
			}
			if w := leak(logs.String()); w != "" {
				t.Errorf("the log shows %q of the key:\n%s", w, logs.String())
			}
		})
	}
}

// TestScrubKeepsErrors: scrub masks the key and keeps what callers test:
// errors.Is finds the causes, errors.As the *url.Error, and an error that
// does not show the key is returned as it is.
func TestScrubKeepsErrors(t *testing.T) {
	u := "http://h.example/v5/x?key=" + url.QueryEscape(maskKey)
	tests := []struct {
		name string
		in   error
		is   []error // errors.Is holds for each
		same bool    // returned as it is
	}{
		// No key: the error itself.
		{"clean", fmt.Errorf("lookup: x: %w", context.Canceled), []error{context.Canceled}, true},
		// A *url.Error keeps its type, its URL masked.
		{"url.Error", &url.Error{Op: "Get", URL: u, Err: context.DeadlineExceeded}, []error{context.DeadlineExceeded}, true},
		// A message holding the key is replaced, its causes kept.
		{"wrapped", fmt.Errorf("get %s: %w", u, errors.Join(ErrCorruptReply, context.Canceled)), []error{ErrCorruptReply, context.Canceled}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scrub(tt.in, maskKey)
			checkChain(t, "scrub", got)
			for _, e := range tt.is {
				if !errors.Is(got, e) {
					t.Errorf("errors.Is(%v, %v) = false", got, e)
				}
			}
			if tt.same && got != tt.in {
				t.Errorf("scrub replaced %T by %T", tt.in, got)
			}
		})
	}
	var ue *url.Error
	if err := scrub(fmt.Errorf("x: %w", &url.Error{Op: "Get", URL: u, Err: context.Canceled}), maskKey); !errors.As(err, &ue) || leak(ue.URL) != "" {
		t.Errorf("errors.As(%v, *url.Error) lost it, or its URL shows the key", err)
	}
}

// TestOHTTPKeyMaskedAtTheClip: a key endpoint or relay that echoes the API
// key where an error would quote its reply, the key straddling the
// 100-byte clip, shows no part of it: not in Update's error, OHTTPStatus,
// Lookup's error, nor the log. Masking after clipping showed the key's
// first bytes.
func TestOHTTPKeyMaskedAtTheClip(t *testing.T) {
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
	straddle := func(k string) string { return strings.Repeat("x", 90) + k + "yyyy" }
	tests := []struct {
		name  string
		key   http.HandlerFunc // the key endpoint
		relay http.HandlerFunc // nil: no search
	}{
		// A 200 whose body is no key configuration, and shows the key
		// across byte 100: ohttp's error quotes the first 100 bytes.
		{name: "key reply raw", key: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, straddle(r.URL.Query().Get("key")))
		}},
		// The same, query-escaped.
		{name: "key reply escaped", key: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, straddle(url.QueryEscape(r.URL.Query().Get("key"))))
		}},
		// An error reply echoing the key at byte 90.
		{name: "key error reply", key: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, straddle(r.URL.Query().Get("key")), http.StatusForbidden)
		}},
		// The relay's reply names a Content-Type holding the key at
		// byte 90; the key is fine.
		{name: "relay Content-Type", key: func(w http.ResponseWriter, r *http.Request) {
			w.Write(keys)
		}, relay: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "message/"+strings.Repeat("x", 82)+maskKey)
		}},
		// The relay's error reply echoing the key at byte 90.
		{name: "relay error reply", key: func(w http.ResponseWriter, r *http.Request) {
			w.Write(keys)
		}, relay: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, straddle(maskKey), http.StatusBadGateway)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keySrv := httptest.NewServer(tt.key)
			defer keySrv.Close()
			relay := tt.relay
			if relay == nil {
				relay = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusBadGateway) }
			}
			relaySrv := httptest.NewServer(relay)
			defer relaySrv.Close()
			var logs syncBuffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, _ := newTestClient(t, Config{APIKey: maskKey, BaseURL: "http://sb.invalid", Mode: NoStorage, Logger: log,
				OHTTP: &OHTTPConfig{RelayURL: relaySrv.URL, KeyURL: keySrv.URL, KeyRefetchJitter: -1}})
			var errs []error
			errs = append(errs, c.Update(bg))
			errs = append(errs, c.OHTTPStatus().Err)
			_, err := c.Lookup(bg, "http://a.example/")
			errs = append(errs, err)
			if tt.relay == nil && errs[0] == nil {
				t.Fatal("Update: no error")
			}
			if tt.relay != nil && err == nil {
				t.Fatal("Lookup: no error")
			}
			for i, err := range errs {
				checkChain(t, fmt.Sprintf("error %d", i), err)
				var se *StatusError
				if errors.As(err, &se) && len(se.Message) > 100 {
					t.Errorf("error %d: StatusError.Message is %d bytes, over 100", i, len(se.Message))
				}
			}
			if w := leak(logs.String()); w != "" {
				t.Errorf("the log shows %q of the key:\n%s", w, logs.String())
			}
		})
	}
}
