// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// TestWebRiskFaultStorm is TestFaultStorm under Web Risk: clients of both
// modes share a Dir and keep their lists fresh while the server fails in
// every way on both methods, new clients start from the Dir the others
// are writing, and each client is closed in the middle of its lookups.
// Whatever happens, a listed URL is never SAFE with a nil error, and an
// unlisted one never gets a threat; and the Dir they leave answers a new
// client. It runs against sbtest and against the tests' own fake (which
// answers JSON), each storm a second. Run it under -race.
func TestWebRiskFaultStorm(t *testing.T) {
	t.Run("sbtest", func(t *testing.T) {
		s := sbtest.NewServer(sbtest.WithCacheDuration(20*time.Millisecond), sbtest.WithRecommendedNextDiff(time.Millisecond))
		defer s.Close()
		for _, err := range []error{
			s.Add("mw-4b", "evil.example/login"),
			s.AddPrefix("se-4b", "phish.example/a/", 8),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		endpoints := []string{"", "v1/threatLists:computeDiff", "v1/hashes:search"}
		faults := []sbtest.Fault{
			{Status: 503}, {Status: 500}, {Status: 429}, {Status: 400}, {Status: 404}, {Status: 403},
			{Garbage: true}, {BadChecksum: true}, {Latency: 5 * time.Millisecond}, {Latency: 50 * time.Millisecond, Status: 503},
		}
		webRiskStorm(t, s.URL, s.APIKey, func(r *rand.Rand) {
			f := faults[r.IntN(len(faults))]
			f.Endpoint = endpoints[r.IntN(len(endpoints))]
			f.Times = 1 + r.IntN(3)
			s.Inject(f)
			if r.IntN(20) == 0 {
				s.ClearFaults()
			}
		}, s.ClearFaults)
	})
	t.Run("fake", func(t *testing.T) {
		s := newWRServer(t)
		s.json = true
		s.expire, s.negative = 20*time.Millisecond, 20*time.Millisecond
		s.add("MALWARE", "evil.example/login", 4)
		s.add("SOCIAL_ENGINEERING", "phish.example/a/", 8)
		methods := []string{"", "computeDiff", "search"}
		faults := []wrFault{
			{Status: 503}, {Status: 500}, {Status: 429}, {Status: 400}, {Status: 404}, {Status: 403},
			{Garbage: true}, {BadChecksum: true}, {Latency: 5 * time.Millisecond}, {Latency: 50 * time.Millisecond, Status: 503},
		}
		webRiskStorm(t, s.URL, testKey, func(r *rand.Rand) {
			f := faults[r.IntN(len(faults))]
			f.Method = methods[r.IntN(len(methods))]
			f.Times = 1 + r.IntN(3)
			s.inject(f)
			if r.IntN(20) == 0 {
				s.clearFaults()
			}
		}, s.clearFaults)
	})
}

// webRiskStorm runs the storm against the Web Risk server at base, which
// lists evil.example/login on MALWARE with a 4-byte entry and
// phish.example/a/ on SOCIAL_ENGINEERING with an 8-byte one: fault
// injects a random fault, clear ends them.
func webRiskStorm(t *testing.T, base, key string, fault func(*rand.Rand), clear func()) {
	const (
		evil  = "http://evil.example/login"
		phish = "http://phish.example/a/b.html"
		good  = "http://good.example/"
	)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// The first client loads the lists into Dir before the storm.
	first, err := New(Config{APIKey: key, API: WebRisk, BaseURL: base, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Update(ctx); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// The storm: a random fault, for a few requests, every millisecond.
	var storm sync.WaitGroup
	storm.Add(1)
	go func() {
		defer storm.Done()
		r := rand.New(rand.NewPCG(3, 4))
		for ctx.Err() == nil {
			fault(r)
			time.Sleep(time.Millisecond)
		}
	}()

	var checked, listed, failed atomic.Int64
	check := func(url string, v Verdict, err error) {
		checked.Add(1)
		switch {
		case url == good && len(v.Threats) > 0:
			t.Errorf("%s got threats %v (err %v): made up", url, v.Threats, err)
		case url != good && err == nil && !v.Unsafe():
			t.Errorf("%s is SAFE with a nil error", url)
		case url != good && err == nil:
			listed.Add(1)
		case err != nil:
			failed.Add(1)
		}
	}
	urls := []string{evil, good, phish}
	modes := []Mode{LocalList, NoStorage, LocalList, NoStorage, LocalList}
	var clients sync.WaitGroup
	for i, mode := range modes {
		clients.Add(1)
		go func() {
			defer clients.Done()
			// Later clients start from what the earlier ones saved.
			time.Sleep(time.Duration(i) * 50 * time.Millisecond)
			cfg := Config{APIKey: key, API: WebRisk, BaseURL: base, Mode: mode, MaxSearchesPerMinute: 20_000 * (i % 2)}
			if mode != NoStorage {
				cfg.Dir = dir
			}
			c, err := New(cfg)
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
							var vs []Verdict
							vs, err = c.LookupAll(ctx, urls)
							var be *BatchError
							for k, u := range urls {
								var e error
								if errors.As(err, &be) {
									e = be.Errs[k]
								} else if err != nil {
									e = err
								}
								check(u, vs[k], e)
							}
						} else {
							u := urls[(j+i)%len(urls)]
							var v Verdict
							v, err = c.Lookup(ctx, u)
							check(u, v, err)
						}
						if errors.Is(err, ErrClosed) {
							return
						}
					}
				}()
			}
			// Close in the middle of the lookups and of Run's updates.
			time.Sleep(time.Duration(200+100*i) * time.Millisecond)
			c.Close()
			lookups.Wait()
			if err := <-runDone; !errors.Is(err, ErrClosed) {
				t.Errorf("Run after Close = %v, want ErrClosed", err)
			}
		}()
	}
	clients.Wait()
	cancel()
	storm.Wait()
	t.Logf("%d verdicts checked: %d listed with no error, %d with an error", checked.Load(), listed.Load(), failed.Load())
	if checked.Load() == 0 {
		t.Fatal("no verdict was checked")
	}

	// After the storm, the Dir the clients wrote during it is whole.
	clear()
	after, err := New(Config{APIKey: key, API: WebRisk, BaseURL: base, Dir: dir, Frozen: true})
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if err := after.Ready(context.Background()); err != nil {
		t.Fatalf("a client from the Dir the storm left: %v", err)
	}
	vs, err := after.LookupAll(context.Background(), urls)
	if err != nil || !vs[0].Unsafe() || len(vs[1].Threats) != 0 || !vs[2].Unsafe() {
		t.Errorf("after the storm: %v, %v; want %s and %s unsafe, %s safe", vs, err, evil, phish, good)
	}
	if len(vs[2].Threats) > 0 && vs[2].Threats[0].Type != SocialEngineering {
		t.Errorf("%s: %v", phish, vs[2].Threats)
	}
}
