// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/lookup"
	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestFaultStorm: clients of every mode share a Dir and keep their lists
// fresh while sbtest injects every kind of fault into every endpoint, new
// clients start from the Dir the others are writing, and each client is
// closed in the middle of its lookups. Whatever happens, a listed URL is
// never SAFE with a nil error, and an unlisted one never gets a threat; and
// the Dir they leave answers a new client.
// Run it under -race.
func TestFaultStorm(t *testing.T) {
	const (
		evil = "http://evil.example/login"
		good = "http://good.example/"
	)
	// Short waits, so that lists are fetched and searches sent all along:
	// an answer is cached for 20 ms, then asked again.
	s := sbtest.NewServer(sbtest.WithMinimumWait(time.Millisecond), sbtest.WithCacheDuration(20*time.Millisecond))
	defer s.Close()
	if err := s.Add("se-4b", "evil.example/"); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("mw-4b", "evil.example/login"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// The first client loads the lists into Dir before the storm, so that
	// there are verdicts to check; the others start from it, or not.
	first, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Update(ctx); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// The storm: a random fault, for a few requests, every millisecond.
	endpoints := []string{"", "hashes:search", "hashList", "hashLists:batchGet"}
	faults := []sbtest.Fault{
		{Status: 503}, {Status: 500}, {Status: 429}, {Status: 400}, {Status: 404}, {Status: 414},
		{Garbage: true}, {BadChecksum: true}, {Latency: 5 * time.Millisecond}, {Latency: 50 * time.Millisecond, Status: 503},
	}
	var storm sync.WaitGroup
	storm.Add(1)
	go func() {
		defer storm.Done()
		r := rand.New(rand.NewPCG(1, 2))
		for ctx.Err() == nil {
			f := faults[r.IntN(len(faults))]
			f.Endpoint = endpoints[r.IntN(len(endpoints))]
			f.Times = 1 + r.IntN(3)
			s.Inject(f)
			if r.IntN(20) == 0 {
				s.ClearFaults()
			}
			time.Sleep(time.Millisecond)
		}
	}()

	var checked, listed, failed atomic.Int64
	check := func(t *testing.T, url string, v lookup.Verdict, err error) {
		checked.Add(1)
		switch {
		case url == good && len(v.Threats) > 0:
			t.Errorf("%s got threats %v (err %v): made up", url, v.Threats, err)
		case url == evil && err == nil && !v.Unsafe():
			t.Errorf("%s is SAFE with a nil error", url)
		case url == evil && err == nil:
			listed.Add(1)
		case err != nil:
			failed.Add(1)
		}
	}
	modes := []lookup.Mode{lookup.LocalList, lookup.RealTime, lookup.NoStorage, lookup.LocalList, lookup.RealTime}
	var clients sync.WaitGroup
	for i, mode := range modes {
		clients.Add(1)
		go func() {
			defer clients.Done()
			// Later clients start from what the earlier ones saved.
			time.Sleep(time.Duration(i) * 50 * time.Millisecond)
			cfg := lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Mode: mode}
			if mode != lookup.NoStorage {
				cfg.Dir = dir
			}
			c, err := lookup.New(cfg)
			if err != nil {
				t.Error(err)
				return
			}
			runDone := make(chan error, 1)
			go func() { runDone <- c.Run(ctx) }()
			var lookups sync.WaitGroup
			for j := range 3 {
				lookups.Add(1)
				go func() {
					defer lookups.Done()
					for {
						var err error
						if j == 0 {
							var vs []lookup.Verdict
							vs, err = c.LookupAll(ctx, []string{evil, good, evil})
							var be *lookup.BatchError
							for k, u := range []string{evil, good, evil} {
								var e error
								if errors.As(err, &be) {
									e = be.Errs[k]
								} else if err != nil {
									e = err
								}
								check(t, u, vs[k], e)
							}
						} else {
							u := evil
							if j == 2 {
								u = good
							}
							var v lookup.Verdict
							v, err = c.Lookup(ctx, u)
							check(t, u, v, err)
						}
						if errors.Is(err, lookup.ErrClosed) {
							return
						}
					}
				}()
			}
			// Close in the middle of the lookups and of Run's updates.
			time.Sleep(time.Duration(200+100*i) * time.Millisecond)
			c.Close()
			lookups.Wait()
			if err := <-runDone; !errors.Is(err, lookup.ErrClosed) {
				t.Errorf("Run after Close = %v, want ErrClosed", err)
			}
			if _, err := c.Lookup(ctx, evil); !errors.Is(err, lookup.ErrClosed) {
				t.Errorf("Lookup after Close = %v, want ErrClosed", err)
			}
		}()
	}
	clients.Wait()
	cancel()
	storm.Wait()
	t.Logf("%d verdicts checked: %d listed with no error, %d with an error", checked.Load(), listed.Load(), failed.Load())
	if checked.Load() == 0 {
		t.Fatal("no verdict was checked: the storm left nothing to check")
	}

	// After the storm, the Dir the clients wrote during it is whole: a new
	// client loads from it, with no fetch, and finds the listed URL. (How
	// many lookups found it during the storm depends on the machine's
	// speed: once three searches in a row fail, searches back off for
	// minutes, so a slow machine may see only errors there.)
	s.ClearFaults()
	after, err := lookup.New(lookup.Config{APIKey: s.APIKey, BaseURL: s.URL, Dir: dir, Frozen: true})
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if err := after.Ready(context.Background()); err != nil {
		t.Fatalf("a client from the Dir the storm left: %v", err)
	}
	vs, err := after.LookupAll(context.Background(), []string{evil, good})
	if err != nil || !vs[0].Unsafe() || len(vs[1].Threats) != 0 {
		t.Errorf("after the storm: %v, %v; want %s unsafe and %s safe", vs, err, evil, good)
	}
}
