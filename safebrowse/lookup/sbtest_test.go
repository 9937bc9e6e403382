// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// These tests run the client end to end against sbtest, the fake v5 server.

func newClient(t *testing.T, s *sbtest.Server, cfg lookup.Config) *lookup.Client {
	t.Helper()
	cfg.APIKey, cfg.BaseURL = s.APIKey, s.URL
	c, err := lookup.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// evilClient starts sbtest with evil.example/ in se-4b, and returns it
// with a client that has fetched its lists once. Both close when the test
// ends.
func evilClient(t *testing.T, opts ...sbtest.Option) (*sbtest.Server, *lookup.Client) {
	t.Helper()
	s := sbtest.NewServer(opts...)
	t.Cleanup(s.Close)
	s.Add("se-4b", "evil.example/")
	c := newClient(t, s, lookup.Config{})
	if err := c.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, c
}

func threats(v lookup.Verdict) []string {
	var out []string
	for _, t := range v.Threats {
		out = append(out, t.Type.String()+" "+t.Expression)
	}
	return out
}

// TestEndToEnd: each mode, against sbtest, gives the verdicts of the
// lists, and sends only 4-byte prefixes; LocalList sends none for a URL the
// lists rule out.
func TestEndToEnd(t *testing.T) {
	tests := []struct {
		mode     lookup.Mode
		in       string
		want     []string
		searched int // prefixes sent
	}{
		// LocalList: a listed URL.
		{lookup.LocalList, "http://evil.example/login", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
		// LocalList: a URL the lists rule out sends nothing.
		{lookup.LocalList, "http://good.example/", nil, 0},
		// LocalList: two lists, expression order.
		{lookup.LocalList, "http://a.malware.example/x/y", []string{"MALWARE a.malware.example/x/", "UNWANTED_SOFTWARE malware.example/"}, 2},
		// RealTime: a URL in the Global Cache, ruled out locally.
		{lookup.RealTime, "http://popular.example/", nil, 0},
		// RealTime: a URL not in the Global Cache is searched, all prefixes.
		{lookup.RealTime, "http://good.example/a", nil, 2},
		// RealTime: and found.
		{lookup.RealTime, "http://evil.example/", []string{"SOCIAL_ENGINEERING evil.example/"}, 1},
		// NoStorage: every prefix searched.
		{lookup.NoStorage, "http://evil.example/login", []string{"SOCIAL_ENGINEERING evil.example/"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String()+" "+tt.in, func(t *testing.T) {
			s := sbtest.NewServer()
			defer s.Close()
			s.Add("se-4b", "evil.example/")
			s.Add("mw-4b", "a.malware.example/x/")
			s.Add("uws-4b", "malware.example/")
			s.Add("gc-32b", "popular.example/")
			c := newClient(t, s, lookup.Config{Mode: tt.mode})
			if err := c.Update(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := c.Ready(context.Background()); err != nil {
				t.Fatal(err)
			}
			v, err := c.Lookup(context.Background(), tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := threats(v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("threats %q, want %q", got, tt.want)
			}
			got := s.SearchedPrefixes()
			if len(got) != tt.searched {
				t.Errorf("%d prefixes searched, want %d", len(got), tt.searched)
			}
			for _, p := range got {
				if len(p) != 4 {
					t.Errorf("a prefix of %d bytes was sent", len(p))
				}
			}
		})
	}
}

// TestPartialUpdates: removals and additions reach the client through
// partial updates, with versions.
func TestPartialUpdates(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithMinimumWait(0), sbtest.WithCacheDuration(0))
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	s.Add("se-4b", "bad.example/")
	c := newClient(t, s, lookup.Config{})
	ctx := context.Background()
	if err := c.Update(ctx); err != nil {
		t.Fatal(err)
	}
	s.Remove("se-4b", "evil.example/")
	s.Add("se-4b", "worse.example/")
	if err := c.Update(ctx); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{"http://evil.example/": false, "http://bad.example/": true, "http://worse.example/": true} {
		v, err := c.Lookup(ctx, in)
		if err != nil || v.Unsafe() != want {
			t.Errorf("%s: %q, %v; want unsafe %v", in, threats(v), err, want)
		}
	}
	for _, st := range c.Lists() {
		if st.Name == "se-4b" && (st.Entries != 2 || !strings.HasPrefix(string(st.Version), "se-4b:")) {
			t.Errorf("se-4b state %+v", st)
		}
	}
}

// TestFaults: sbtest's faults are errors, never verdicts; a bad checksum
// leaves the old list answering.
func TestFaults(t *testing.T) {
	ctx := context.Background()
	t.Run("503 on search", func(t *testing.T) {
		s, c := evilClient(t)
		s.Inject(sbtest.Fault{Endpoint: "hashes:search", Status: 503})
		v, err := c.Lookup(ctx, "http://evil.example/")
		var se *lookup.StatusError
		if !errors.As(err, &se) || se.StatusCode != 503 || len(v.Threats) != 0 {
			t.Errorf("got %q, %v", threats(v), err)
		}
		if !strings.Contains(se.Message, "sbtest: injected fault") {
			t.Errorf("server message %q lost", se.Message)
		}
	})
	t.Run("garbage search reply", func(t *testing.T) {
		s, c := evilClient(t)
		s.Inject(sbtest.Fault{Endpoint: "hashes:search", Garbage: true})
		if _, err := c.Lookup(ctx, "http://evil.example/"); !errors.Is(err, lookup.ErrCorruptReply) {
			t.Errorf("err = %v, want ErrCorruptReply", err)
		}
	})
	t.Run("latency and a timeout", func(t *testing.T) {
		s, c := evilClient(t)
		s.Inject(sbtest.Fault{Endpoint: "hashes:search", Latency: time.Minute})
		tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := c.Lookup(tctx, "http://evil.example/"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want DeadlineExceeded", err)
		}
	})
	t.Run("bad checksum", func(t *testing.T) {
		s, c := evilClient(t, sbtest.WithMinimumWait(0))
		s.Add("se-4b", "new.example/")
		s.Inject(sbtest.Fault{BadChecksum: true, Times: 1})
		if err := c.Update(ctx); !errors.Is(err, hashlist.ErrChecksum) {
			t.Fatalf("err = %v, want ErrChecksum", err)
		}
		if v, err := c.Lookup(ctx, "http://evil.example/"); err != nil || !v.Unsafe() {
			t.Errorf("old list stopped answering: %q, %v", threats(v), err)
		}
		if err := c.Update(ctx); err != nil {
			t.Fatal(err)
		}
		if v, err := c.Lookup(ctx, "http://new.example/"); err != nil || !v.Unsafe() {
			t.Errorf("after the whole fetch: %q, %v", threats(v), err)
		}
	})
	t.Run("wrong key", func(t *testing.T) {
		s := sbtest.NewServer(sbtest.WithAPIKey("the-right-key"))
		defer s.Close()
		c, err := lookup.New(lookup.Config{APIKey: "my-secret-key-123", BaseURL: s.URL})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		err = c.Update(ctx)
		var se *lookup.StatusError
		if !errors.As(err, &se) || se.StatusCode != 400 {
			t.Fatalf("err = %v, want a 400", err)
		}
		if strings.Contains(err.Error(), "my-secret-key-123") {
			t.Errorf("the key is in the error: %v", err)
		}
	})
}

// TestEndToEndConcurrent: lookups run while Run keeps the lists fresh.
func TestEndToEndConcurrent(t *testing.T) {
	s := sbtest.NewServer(sbtest.WithMinimumWait(time.Millisecond), sbtest.WithCacheDuration(time.Millisecond))
	defer s.Close()
	s.Add("se-4b", "evil.example/")
	c := newClient(t, s, lookup.Config{Dir: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				vs, err := c.LookupAll(ctx, []string{"http://evil.example/", "http://good.example/"})
				if err != nil {
					t.Error(err)
					return
				}
				if !vs[0].Unsafe() || vs[1].Unsafe() {
					t.Errorf("verdicts %v", vs)
				}
			}
		}()
	}
	wg.Wait()
}

// TestReady403: against a server that refuses every list fetch, Ready
// returns within a second an error that errors.As reads as a StatusError
// 403, while Run keeps going.
func TestReady403(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	s.Inject(sbtest.Fault{Status: http.StatusForbidden})
	c := newClient(t, s, lookup.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	start := time.Now()
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	err := c.Ready(rctx)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Ready took %v", d)
	}
	var se *lookup.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusForbidden || !errors.Is(err, lookup.ErrNotReady) {
		t.Fatalf("Ready = %v, want ErrNotReady wrapping a StatusError 403", err)
	}
	for _, st := range c.Lists() {
		if !errors.As(st.Err, &se) || se.StatusCode != http.StatusForbidden || st.Loaded {
			t.Errorf("list %s: %+v", st.Name, st)
		}
	}
}
