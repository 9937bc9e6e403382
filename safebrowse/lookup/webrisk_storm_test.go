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
)

// TestWebRiskFaultStorm is TestFaultStorm under Web Risk: clients of both
// modes share a Dir and keep their lists fresh while the server fails in
// every way on both methods, new clients start from the Dir the others
// are writing, and each client is closed in the middle of its lookups.
// Whatever happens, a listed URL is never SAFE with a nil error, and an
// unlisted one never gets a threat; and the Dir they leave answers a new
// client. Run it under -race.
func TestWebRiskFaultStorm(t *testing.T) {
	const (
		evil  = "http://evil.example/login"     // a 4-byte entry of MALWARE
		phish = "http://phish.example/a/b.html" // an 8-byte entry of SOCIAL_ENGINEERING
		good  = "http://good.example/"
	)
	s := newWRServer(t)
	// Short times, so that searches are sent all along: an answer is
	// cached for 20 ms, then asked again.
	s.expire, s.negative = 20*time.Millisecond, 20*time.Millisecond
	s.add("MALWARE", "evil.example/login", 4)
	s.add("SOCIAL_ENGINEERING", "phish.example/a/", 8)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// The first client loads the lists into Dir before the storm.
	first, err := New(Config{APIKey: testKey, API: WebRisk, BaseURL: s.URL, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Update(ctx); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// The storm: a random fault, for a few requests, every millisecond.
	methods := []string{"", "computeDiff", "search"}
	faults := []wrFault{
		{Status: 503}, {Status: 500}, {Status: 429}, {Status: 400}, {Status: 404}, {Status: 403},
		{Garbage: true}, {BadChecksum: true}, {Latency: 5 * time.Millisecond}, {Latency: 50 * time.Millisecond, Status: 503},
	}
	var storm sync.WaitGroup
	storm.Add(1)
	go func() {
		defer storm.Done()
		r := rand.New(rand.NewPCG(3, 4))
		for ctx.Err() == nil {
			f := faults[r.IntN(len(faults))]
			f.Method = methods[r.IntN(len(methods))]
			f.Times = 1 + r.IntN(3)
			s.inject(f)
			if r.IntN(20) == 0 {
				s.clearFaults()
			}
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
			cfg := Config{APIKey: testKey, API: WebRisk, BaseURL: s.URL, Mode: mode, MaxSearchesPerMinute: 20_000 * (i % 2)}
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
	s.clearFaults()
	after, err := New(Config{APIKey: testKey, API: WebRisk, BaseURL: s.URL, Dir: dir, Frozen: true})
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
