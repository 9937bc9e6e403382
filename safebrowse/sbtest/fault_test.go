// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/sbtest"
)

// Each fault, and how long it lasts.
func TestFaults(t *testing.T) {
	search := func(s *sbtest.Server) string {
		return "/v5/hashes:search" + searchQuery(s, b64([]byte{1, 2, 3, 4}))
	}
	list := func(s *sbtest.Server) string { return "/v5/hashList/se-4b" + query(s) }
	tests := []struct {
		name   string
		faults []sbtest.Fault
		in     func(*sbtest.Server) string
		want   []int // statuses of successive requests; 0 is garbage (a 200 that does not decode)
	}{
		// A 503 on every request until ClearFaults.
		{name: "status", faults: []sbtest.Fault{{Status: 503}}, in: search, want: []int{503, 503, 503}},
		// A 429 twice, then served.
		{name: "times", faults: []sbtest.Fault{{Status: 429, Times: 2}}, in: search, want: []int{429, 429, 200}},
		// A fault on hashList does not hit hashes:search.
		{name: "other endpoint", faults: []sbtest.Fault{{Endpoint: "hashList", Status: 500}}, in: search, want: []int{200, 200}},
		// A fault on hashes:search hits it.
		{name: "its endpoint", faults: []sbtest.Fault{{Endpoint: "hashes:search", Status: 500, Times: 1}}, in: search, want: []int{500, 200}},
		// A garbage body: a 200 that is no message.
		{name: "garbage", faults: []sbtest.Fault{{Garbage: true, Times: 1}}, in: search, want: []int{0, 200}},
		// Garbage on a list reply.
		{name: "garbage list", faults: []sbtest.Fault{{Garbage: true, Times: 1}}, in: list, want: []int{0, 200}},
		// Faults are taken in the order injected, each until its hits are spent.
		{name: "in order", faults: []sbtest.Fault{{Status: 503, Times: 1}, {Status: 429, Times: 1}, {Garbage: true, Times: 1}}, in: search, want: []int{503, 429, 0, 200}},
		// Status wins over Garbage in one fault.
		{name: "status and garbage", faults: []sbtest.Fault{{Status: 502, Garbage: true, Times: 1}}, in: search, want: []int{502, 200}},
		// A fault on a check the server would fail anyway: the fault comes first.
		{name: "before checks", faults: []sbtest.Fault{{Status: 503, Times: 1}}, in: func(*sbtest.Server) string { return "/v5/hashes:search?key=wrong" }, want: []int{503, 400}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sbtest.NewServer()
			defer s.Close()
			for _, f := range tt.faults {
				s.Inject(f)
			}
			for i, want := range tt.want {
				r := get(t, s, tt.in(s))
				got := r.status
				if got == 200 && !isMessage(r.body) {
					got = 0
				}
				if got != want {
					t.Errorf("request %d: %d, want %d (%s)", i, got, want, r.body)
				}
				if want >= 400 && (!strings.HasPrefix(errorMessage(r), "sbtest: ") || r.ctype != "application/json; charset=UTF-8") {
					t.Errorf("request %d: error %q (%s)", i, errorMessage(r), r.ctype)
				}
				// An injected 429 is a used-up quota, as Google's APIs
				// say it; the 5xx faults carry no reason.
				wantReason := ""
				if want == 429 {
					wantReason = "RATE_LIMIT_EXCEEDED"
				}
				if reason := errorReason(r); (want == 429 || want >= 500) && reason != wantReason {
					t.Errorf("request %d: reason %q, want %q (%s)", i, reason, wantReason, r.body)
				}
			}
			s.ClearFaults()
			if r := get(t, s, search(s)); r.status != 200 {
				t.Errorf("after ClearFaults: %d", r.status)
			}
		})
	}
}

// Latency delays the reply, and ends when the client gives up.
func TestFaultLatency(t *testing.T) {
	s := sbtest.NewServer()
	defer s.Close()
	q := "/v5/hashes:search" + searchQuery(s, b64([]byte{1, 2, 3, 4}))

	// A short latency: the reply comes after it.
	s.Inject(sbtest.Fault{Latency: 50 * time.Millisecond, Times: 1})
	start := time.Now()
	if r := get(t, s, q); r.status != 200 {
		t.Errorf("status %d", r.status)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("reply after %v, want ≥ 50ms", d)
	}

	// A long latency with a status: the client's deadline ends the wait,
	// and the server goes on serving at once.
	s.Inject(sbtest.Fault{Latency: time.Hour, Status: 503, Times: 1})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+q, nil)
	start = time.Now()
	_, err := s.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("gave up after %v", d)
	}
	if r := get(t, s, q); r.status != 200 {
		t.Errorf("next request: %d", r.status)
	}

	// Close ends a wait at once, with a 503.
	s.Inject(sbtest.Fault{Latency: time.Hour})
	done := make(chan int)
	go func() {
		res, err := s.Client().Get(s.URL + q)
		if err != nil {
			t.Log(err)
			done <- -1
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}()
	for s.Requests("hashes:search") < 4 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	if got := <-done; got != 503 {
		t.Errorf("request held at Close: %d, want 503", got)
	}
}

// Inject panics on a fault that cannot be: a mistake in the test.
func TestInjectInvalid(t *testing.T) {
	tests := []struct {
		name string
		in   sbtest.Fault
		want string
	}{
		// An endpoint that Requests does not name.
		{name: "endpoint", in: sbtest.Fault{Endpoint: "hashes.search"}, want: `unknown endpoint "hashes.search"`},
		// A status net/http cannot send.
		{name: "status", in: sbtest.Fault{Status: 42}, want: "status 42"},
		// A 1xx is not a reply.
		{name: "1xx", in: sbtest.Fault{Status: 100}, want: "status 100"},
		// A negative latency.
		{name: "latency", in: sbtest.Fault{Latency: -time.Second}, want: "negative latency"},
		// A negative count.
		{name: "times", in: sbtest.Fault{Times: -1}, want: "negative Times"},
	}
	s := sbtest.NewServer()
	defer s.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				err, _ := recover().(error)
				if err == nil || !strings.HasPrefix(err.Error(), "sbtest: ") || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("panic %v, want an sbtest error holding %q", err, tt.want)
				}
			}()
			s.Inject(tt.in)
		})
	}
}
