// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// setList makes s serve the list name as msg.
func setList(s *testServer, name string, msg []byte) {
	s.set(func(s *testServer) { s.lists[name] = func(string) []byte { return msg } })
}

// lastQuery returns the query of the last request.
func lastQuery(s *testServer) map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries[len(s.queries)-1]
}

// TestMinimumWait: each list keeps its own minimum wait; one due list is
// fetched with hashList and its version, several with one batchGet.
func TestMinimumWait(t *testing.T) {
	s := newTestServer(t)
	for _, n := range DefaultLists {
		setList(s, n, listOf(t, n, "v1", time.Hour))
	}
	setList(s, "se-4b", listOf(t, "se-4b", "v1", 10*time.Minute))
	c, clk := newTestClient(t, Config{BaseURL: s.URL})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if n := s.count("hashLists:batchGet"); n != 1 {
		t.Fatalf("%d batchGet requests, want 1", n)
	}
	if q := lastQuery(s); len(q["names"]) != 5 || len(q["version"]) != 0 {
		t.Errorf("first fetch query %v: want five names, no version", q)
	}
	clk.advance(9 * time.Minute)
	if err := c.Update(bg); err != nil || len(s.queries) != 1 {
		t.Errorf("Update before any minimum wait passed: %v, %d requests", err, len(s.queries))
	}
	clk.advance(time.Minute)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if n := s.count("hashList"); n != 1 {
		t.Errorf("%d hashList requests, want 1 for the one due list", n)
	}
	if q := lastQuery(s); q["version"] == nil || q["version"][0] != "djE=" {
		t.Errorf("query %v: want version djE= (base64 of v1)", q)
	}
	clk.advance(50 * time.Minute)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if q := lastQuery(s); len(q["names"]) != 5 || len(q["version"]) != 5 {
		t.Errorf("query %v: want five names and versions", q)
	}
}

// TestNoMinimumWait: a reply without a minimum wait makes the list due
// again at once.
func TestNoMinimumWait(t *testing.T) {
	s := newTestServer(t)
	setList(s, "se-4b", listOf(t, "se-4b", "v1", 0))
	c, _ := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
	for range 3 {
		if err := c.Update(bg); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.count("hashList"); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// TestUpdateBackoff: a failed update backs off, and Update refuses, with no
// request, until the wait has passed: for 503, 429 and corrupt bodies.
func TestUpdateBackoff(t *testing.T) {
	tests := []struct {
		name   string
		handle http.HandlerFunc
	}{
		// Service unavailable.
		{"503", unavailable},
		// Too many requests.
		{"429", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "x", http.StatusTooManyRequests) }},
		// A body that is not a message.
		{"corrupt body", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte{0x0a, 0x30}) }},
		// A list that is not the one asked for.
		{"wrong list", func(w http.ResponseWriter, r *http.Request) { w.Write(listOf(t, "mw-4b", "v", 0)) }},
		// A list message that is not valid: additions of the wrong width.
		{"corrupt list", func(w http.ResponseWriter, r *http.Request) {
			m := hashlist.Message{Name: "se-4b", Width: 8, Additions: make([]byte, 8), Checksum: make([]byte, 32)}
			b, _ := m.MarshalBinary()
			w.Write(b)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			setList(s, "se-4b", listOf(t, "se-4b", "v1", 0))
			s.handle = tt.handle
			c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
			if err := c.Update(bg); err == nil {
				t.Fatal("no error")
			}
			s.set(func(s *testServer) { s.handle = nil })
			for _, d := range []time.Duration{0, 22*time.Minute + 29*time.Second} {
				clk.advance(d)
				if err := c.Update(bg); !errors.Is(err, ErrBackoff) {
					t.Fatalf("after %v: err = %v, want ErrBackoff", d, err)
				}
			}
			if n := s.count("hashList"); n != 1 {
				t.Errorf("%d requests while backing off, want 1", n)
			}
			clk.advance(time.Second)
			if err := c.Update(bg); err != nil || !c.IsReady() {
				t.Errorf("after the back-off: %v, ready %v", err, c.IsReady())
			}
		})
	}
}

// failingClient returns a server whose se-4b list answers 503 until its
// handle is cleared, and a client of that list on a fake clock, with no
// jitter, so that the back-off waits are exact.
func failingClient(t *testing.T) (*testServer, *Client, *fakeClock) {
	t.Helper()
	s := newTestServer(t)
	setList(s, "se-4b", listOf(t, "se-4b", "v1", 0))
	s.handle = unavailable
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
	c.rand = func() float64 { return 0 }
	return s, c, clk
}

// TestBackoffGrows: consecutive failures double the wait; a success resets.
func TestBackoffGrows(t *testing.T) {
	s, c, clk := failingClient(t)
	for n, want := range []time.Duration{15 * time.Minute, 30 * time.Minute, time.Hour} {
		start := clk.now()
		c.Update(bg)
		_, until := c.updates.state()
		if got := until.Sub(start); got != want {
			t.Errorf("failure %d: wait %v, want %v", n+1, got, want)
		}
		clk.advance(want)
	}
	s.set(func(s *testServer) { s.handle = nil })
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.updates.state(); n != 0 {
		t.Errorf("%d failures after a success, want 0", n)
	}
}

// TestChecksumMismatch: the old contents keep answering, the version is
// dropped, and after the minimum wait the list is fetched whole; no
// back-off.
func TestChecksumMismatch(t *testing.T) {
	s := newTestServer(t)
	s.add("evil.example/", detailMsg(Malware))
	setList(s, "se-4b", listOf(t, "se-4b", "v1", time.Minute, "evil.example/"))
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Lists: []string{"se-4b"}})
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	other := hashOf("other.example/")
	bad := hashlist.Message{Name: "se-4b", Version: []byte("v2"), Additions: other[:4],
		MinimumWait: 10 * time.Minute, Checksum: make([]byte, 32)}
	b, _ := bad.MarshalBinary()
	setList(s, "se-4b", b)
	clk.advance(time.Minute)
	if err := c.Update(bg); !errors.Is(err, hashlist.ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	if n, _ := c.updates.state(); n != 0 {
		t.Errorf("a checksum mismatch counted as a failure")
	}
	if v, err := c.Lookup(bg, "http://evil.example/"); err != nil || !v.Unsafe() {
		t.Errorf("the old list stopped answering: %v, %v", short(v), err)
	}
	if st := c.Lists()[0]; string(st.Version) != "v1" || st.Entries != 1 {
		t.Errorf("list state %+v", st)
	}
	setList(s, "se-4b", listOf(t, "se-4b", "v3", time.Hour, "evil.example/", "other.example/"))
	clk.advance(9 * time.Minute)
	if err := c.Update(bg); err != nil || s.count("hashList") != 2 {
		t.Fatalf("fetched before the minimum wait: %v", err)
	}
	clk.advance(time.Minute)
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if q := lastQuery(s); q["version"] != nil {
		t.Errorf("query %v: a list fetched whole sends no version", q)
	}
	if st := c.Lists()[0]; string(st.Version) != "v3" || st.Entries != 2 {
		t.Errorf("list state %+v", st)
	}
}

// TestBatchMatching: a batch reply is matched by name, whatever its order;
// a list missing is a corrupt reply.
func TestBatchMatching(t *testing.T) {
	a, b := listOf(t, "se-4b", "a", 0), listOf(t, "mw-4b", "b", 0)
	due := []*listState{{name: "se-4b"}, {name: "mw-4b"}}
	got, err := matchLists(due, [][]byte{b, a}, testKey)
	if err != nil || string(got[0]) != string(a) || string(got[1]) != string(b) {
		t.Errorf("reordered: %v", err)
	}
	if _, err := matchLists(due, [][]byte{a}, testKey); !errors.Is(err, ErrCorruptReply) {
		t.Errorf("missing list: err = %v", err)
	}
	if _, err := matchLists(due, [][]byte{a, a}, testKey); !errors.Is(err, ErrCorruptReply) {
		t.Errorf("list twice: err = %v", err)
	}
}

// runWaits runs c until its nth sleep, each sleep before it passing at once
// on clk, and returns the waits Run asked for and the error it returned.
func runWaits(c *Client, clk *fakeClock, n int) ([]time.Duration, error) {
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		if len(waits) == n {
			cancel()
			return ctx.Err()
		}
		clk.advance(d)
		return nil
	}
	err := c.Run(ctx)
	return waits, err
}

// TestRunLogs: Run updates, logs each update with the list, its counts and
// its wait, and sleeps until the next list is due.
func TestRunLogs(t *testing.T) {
	s := newTestServer(t)
	for _, n := range DefaultLists {
		setList(s, n, listOf(t, n, "v1", 30*time.Minute, "x.example/"))
	}
	var logs syncBuffer
	c, clk := newTestClient(t, Config{BaseURL: s.URL, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	waits, err := runWaits(c, clk, 3)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	for i, w := range waits {
		if w != 30*time.Minute {
			t.Errorf("wait %d = %v, want 30m", i, w)
		}
	}
	if n := s.count("hashLists:batchGet"); n != 3 {
		t.Errorf("%d updates, want 3", n)
	}
	for _, want := range []string{"list=se-4b", "list=pha-4b", "entries=1", "before=0", "wait=30m0s"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("logs lack %q:\n%s", want, logs.String())
		}
	}
}

// TestRunBacksOff: Run obeys the back-off as Update does: it sleeps until
// the back-off ends, never hammering a failing server.
func TestRunBacksOff(t *testing.T) {
	s, c, clk := failingClient(t)
	waits, _ := runWaits(c, clk, 3)
	want := []time.Duration{15 * time.Minute, 30 * time.Minute, time.Hour}
	if len(waits) != 3 || waits[0] != want[0] || waits[1] != want[1] || waits[2] != want[2] {
		t.Errorf("waits %v, want %v", waits, want)
	}
	if n := s.count("hashList"); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// TestRunStopsOnClose: Close ends Run.
func TestRunStopsOnClose(t *testing.T) {
	s := newTestServer(t)
	serveLists(t, s, DefaultLists, nil)
	c, err := New(Config{APIKey: testKey, BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- c.Run(bg) }()
	if err := c.Ready(bg); err != nil {
		t.Fatal(err)
	}
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("Run = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop on Close")
	}
}

// TestBackoffStatus: Backoff reports each back-off's end and failures
// while it lasts, and zero after; ListStatus.Next of a list that was never
// loaded is the end of the updates' back-off, not "at once".
func TestBackoffStatus(t *testing.T) {
	s, c, clk := failingClient(t)
	start := clk.now()
	if got := c.Backoff(); got != (BackoffStatus{}) {
		t.Errorf("before any request: %+v, want the zero BackoffStatus", got)
	}
	c.Update(bg)
	until := start.Add(BackoffBase)
	if got, want := c.Backoff(), (BackoffStatus{UpdateUntil: until, UpdateFailures: 1}); got != want {
		t.Errorf("after a failed update: %+v, want %+v", got, want)
	}
	if l := c.Lists()[0]; !l.Next.Equal(until) {
		t.Errorf("ListStatus.Next = %v, want the back-off's end %v", l.Next, until)
	}
	for range searchFailures {
		c.searches.fail(clk.now(), 0, errors.New("x"))
	}
	if got := c.Backoff(); !got.SearchUntil.Equal(start.Add(searchBackoffMin)) || got.SearchFailures != searchFailures {
		t.Errorf("after %d failed searches: %+v", searchFailures, got)
	}
	clk.advance(BackoffBase)
	if got := c.Backoff(); !got.UpdateUntil.IsZero() || !got.SearchUntil.IsZero() {
		t.Errorf("after the back-offs end: %+v, want no Until", got)
	}
	s.set(func(s *testServer) { s.handle = nil })
	if err := c.Update(bg); err != nil {
		t.Fatal(err)
	}
	if got := c.Backoff(); got.UpdateFailures != 0 {
		t.Errorf("after a success: %+v, want no update failures", got)
	}
}

// TestListReplyLimit: a list reply's limit follows from the
// maxDatabaseEntries sent, per list and its width, capped at
// MaxListReply.
func TestListReplyLimit(t *testing.T) {
	tests := []struct {
		name  string
		lists []string
		n     int
		want  int64
	}{
		// One 4-byte list: n additions of 5 bytes, n removals of 5.
		{"one 4-byte list", []string{"se-4b"}, 1024, 1024*10 + listFraming},
		// gc-32b: additions of 33 bytes.
		{"gc-32b", []string{"gc-32b"}, 1024, 1024*38 + listFraming},
		// A batch is the sum of its lists.
		{"batch", []string{"se-4b", "mw-4b", "gc-32b"}, 1 << 20, (1<<20)*(10+10+38) + 3*listFraming},
		// The default n: one 4-byte list is under the cap.
		{"default, one list", []string{"se-4b"}, DefaultMaxDatabaseEntries, DefaultMaxDatabaseEntries*10 + listFraming},
		// The default n: the default lists together pass the cap.
		{"default, all lists", slices.Concat(DefaultLists, []string{GlobalCache}), DefaultMaxDatabaseEntries, MaxListReply},
		// The largest n Config takes does not overflow.
		{"2^31-1", []string{"gc-32b", "se-4b"}, math.MaxInt32, MaxListReply},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var due []*listState
			for _, name := range tt.lists {
				l, err := hashlist.New(name)
				if err != nil {
					t.Fatal(err)
				}
				due = append(due, &listState{name: name, list: l})
			}
			if got := listReplyLimit(due, tt.n); got != tt.want {
				t.Errorf("listReplyLimit(%v, %d) = %d, want %d", tt.lists, tt.n, got, tt.want)
			}
		})
	}
}

// countingBody counts the bytes the client reads of a reply body.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// countingTransport counts, in n, the bytes of reply bodies read.
type countingTransport struct{ n *atomic.Int64 }

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = countingBody{resp.Body, t.n}
	}
	return resp, err
}

// padTo returns msg with an unknown field appended, so that it is size
// bytes long; the reader skips the field.
func padTo(t *testing.T, msg []byte, size int) []byte {
	t.Helper()
	for pad := size - len(msg) - 4; pad >= 0; pad-- {
		b := protowire.AppendTag(slices.Clip(msg), 999, protowire.BytesType)
		b = protowire.AppendBytes(b, make([]byte, pad))
		if len(b) == size {
			return b
		}
	}
	t.Fatalf("cannot pad %d bytes to %d", len(msg), size)
	return nil
}

// TestListReplyOverLimit: a list reply one byte over its limit is
// refused, one at the limit is taken; a reply that declares its length
// is refused before a byte of it is read, and one that does not is read
// no further than one byte past the limit.
func TestListReplyOverLimit(t *testing.T) {
	const n = 1024
	limit := int(n*10 + listFraming) // se-4b alone, at MaxDatabaseEntries n
	msg := listOf(t, "se-4b", "v1", time.Hour, "evil.example/")
	tests := []struct {
		name     string
		cfg      Config
		size     int  // of the body sent
		declared int  // Content-Length sent; 0: none (chunked)
		wantErr  bool // ErrCorruptReply
		maxRead  int  // the most body bytes the client may read
	}{
		// At the limit, chunked: taken.
		{"at the limit", Config{MaxDatabaseEntries: n}, limit, 0, false, limit},
		// At the limit, with its length: taken.
		{"at the limit, declared", Config{MaxDatabaseEntries: n}, limit, limit, false, limit},
		// One byte over, chunked: refused once that byte is read.
		{"one over", Config{MaxDatabaseEntries: n}, limit + 1, 0, true, limit + 1},
		// One byte over, declared: refused unread.
		{"one over, declared", Config{MaxDatabaseEntries: n}, limit + 1, limit + 1, true, 0},
		// Far over, chunked: read no further than one byte past the limit.
		{"far over", Config{MaxDatabaseEntries: n}, 4 * limit, 0, true, limit + 1},
		// The default lists at the default n, one byte over MaxListReply,
		// declared: refused unread, with no 256 MiB sent.
		{"MaxListReply", Config{}, 0, MaxListReply + 1, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.handle = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/x-protobuf")
				if tt.declared > 0 {
					w.Header().Set("Content-Length", strconv.Itoa(tt.declared))
				}
				w.WriteHeader(http.StatusOK)
				if tt.declared == 0 {
					w.(http.Flusher).Flush() // no Content-Length
				}
				if tt.size > 0 {
					w.Write(padTo(t, msg, tt.size))
				}
			}
			var read atomic.Int64
			cfg := tt.cfg
			cfg.BaseURL, cfg.HTTPClient = s.URL, &http.Client{Transport: countingTransport{&read}}
			if cfg.MaxDatabaseEntries != 0 {
				cfg.Lists = []string{"se-4b"}
			}
			c, _ := newTestClient(t, cfg)
			err := c.Update(bg)
			if got := errors.Is(err, ErrCorruptReply); got != tt.wantErr {
				t.Errorf("Update: %v; want ErrCorruptReply %v", err, tt.wantErr)
			}
			if err == nil && !c.IsReady() {
				t.Error("a reply at the limit did not load")
			}
			if r := read.Load(); r > int64(tt.maxRead) {
				t.Errorf("read %d bytes of the body, want at most %d", r, tt.maxRead)
			}
		})
	}
}
