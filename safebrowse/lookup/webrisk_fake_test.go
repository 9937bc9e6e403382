// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file is the tests' own Web Risk server, for the rules of the
// client's Web Risk path and the faults it must survive: computeDiff from
// lists kept version by version, hashes:search from the full hashes
// listed, in binary with alt=proto and in JSON otherwise, as Google's
// APIs answer, written by v4wire and hashlist's encoders.

// wrServer answers /v1/threatLists:computeDiff and /v1/hashes:search.
type wrServer struct {
	*httptest.Server
	mu sync.Mutex
	// lists holds each list's entries at each version: version "N" is
	// lists[name][N-1], sorted.
	lists map[string][][][]byte
	// full maps each full hash listed to its threat types.
	full map[[32]byte][]v4wire.WebRiskThreatType
	// The times of the replies, from now: 0 leaves the field out.
	expire, negative, next time.Duration
	now                    func() time.Time
	rice                   bool // Rice-code additions and removals
	json                   bool // answer JSON, whatever alt says
	faults                 []wrFault
	handle                 http.HandlerFunc // answers instead, when set
	requests               map[string]int
	searched               [][]byte
	queries                []url.Values
}

// A wrFault is a fault for the next Times requests of one method ("" for
// any; "computeDiff" or "search"): a status, a body that is no JSON
// message, a wrong checksum, or a latency first.
type wrFault struct {
	Method      string
	Status      int
	Garbage     bool
	BadChecksum bool
	Latency     time.Duration
	Times       int
}

func newWRServer(t testing.TB) *wrServer {
	s := &wrServer{
		lists:    map[string][][][]byte{},
		full:     map[[32]byte][]v4wire.WebRiskThreatType{},
		expire:   10 * time.Minute,
		negative: 5 * time.Minute,
		now:      time.Now,
		rice:     true,
		requests: map[string]int{},
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// add lists expr's full hash under the threat type list (and also),
// and puts its first n bytes in the list, as a new version.
func (s *wrServer) add(list, expr string, n int, also ...v4wire.WebRiskThreatType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := sha256.Sum256([]byte(expr))
	types := append([]v4wire.WebRiskThreatType{webRiskType(list)}, also...)
	for _, t := range types {
		if !slices.Contains(s.full[h], t) {
			s.full[h] = append(s.full[h], t)
		}
	}
	s.setLocked(list, append(s.currentLocked(list), h[:n]))
}

// set makes entries the list's next version.
func (s *wrServer) set(list string, entries ...[]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setLocked(list, entries)
}

func (s *wrServer) setLocked(list string, entries [][]byte) {
	e := slices.Clone(entries)
	slices.SortFunc(e, bytes.Compare)
	e = slices.CompactFunc(e, bytes.Equal)
	s.lists[list] = append(s.lists[list], e)
}

func (s *wrServer) currentLocked(list string) [][]byte {
	v := s.lists[list]
	if len(v) == 0 {
		return nil
	}
	return slices.Clone(v[len(v)-1])
}

// listFull lists a full hash with no entry in any list, as NoStorage
// clients search them.
func (s *wrServer) listFull(expr string, types ...v4wire.WebRiskThreatType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.full[sha256.Sum256([]byte(expr))] = types
}

func (s *wrServer) inject(f wrFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

func (s *wrServer) clearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

func (s *wrServer) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[method]
}

func (s *wrServer) lastQuery() url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queries) == 0 {
		return nil
	}
	return s.queries[len(s.queries)-1]
}

func (s *wrServer) prefixes() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.searched)
}

// fault returns the fault for a request of method, using it up.
func (s *wrServer) fault(method string) (wrFault, bool) {
	for i := range s.faults {
		f := &s.faults[i]
		if f.Times > 0 && (f.Method == "" || f.Method == method) {
			f.Times--
			return *f, true
		}
	}
	return wrFault{}, false
}

func (s *wrServer) serve(w http.ResponseWriter, r *http.Request) {
	method := ""
	switch r.URL.Path {
	case "/v1/threatLists:computeDiff":
		method = "computeDiff"
	case "/v1/hashes:search":
		method = "search"
	}
	s.mu.Lock()
	q := r.URL.Query()
	s.queries = append(s.queries, q)
	s.requests[method]++
	f, faulty := s.fault(method)
	handle := s.handle
	s.mu.Unlock()
	if faulty && f.Latency > 0 {
		select {
		case <-time.After(f.Latency):
		case <-r.Context().Done():
			return
		}
	}
	if handle != nil {
		handle(w, r)
		return
	}
	switch {
	case faulty && f.Status != 0:
		wrError(w, f.Status, "injected")
		return
	case faulty && f.Garbage:
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"threats": [{"hash": 12`))
		return
	case q.Get("key") != testKey:
		wrError(w, http.StatusBadRequest, "API key not valid: "+q.Get("key"))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var body []byte
	binary := q.Get("alt") == "proto" && !s.json
	switch method {
	case "computeDiff":
		req, err := v4wire.ParseComputeThreatListDiffRequestQuery(q)
		if err != nil || !req.ThreatType.Valid() {
			wrError(w, http.StatusBadRequest, fmt.Sprintf("bad request: %v", err))
			return
		}
		m := s.diffLocked(req, now, faulty && f.BadChecksum)
		if binary {
			body = v4wire.AppendComputeThreatListDiffResponse(nil, &m)
		} else {
			body = v4wire.AppendComputeThreatListDiffResponseJSON(nil, &m)
		}
	case "search":
		req, err := v4wire.ParseSearchHashesRequestQuery(q)
		if err != nil || len(req.ThreatTypes) == 0 || len(req.HashPrefix) < 4 || len(req.HashPrefix) > 32 {
			wrError(w, http.StatusBadRequest, fmt.Sprintf("bad request: %v", err))
			return
		}
		s.searched = append(s.searched, req.HashPrefix)
		m := s.searchLocked(req, now)
		if binary {
			body = v4wire.AppendSearchHashesResponse(nil, &m)
		} else {
			body = v4wire.AppendSearchHashesResponseJSON(nil, &m)
		}
	default:
		wrError(w, http.StatusNotFound, "no such method")
		return
	}
	if binary {
		w.Header().Set("Content-Type", "application/x-protobuf")
	} else {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	}
	w.Write(body)
}

// diffLocked answers a computeDiff: a DIFF from the version the client
// holds, if the server knows it, else a RESET.
func (s *wrServer) diffLocked(req v4wire.ComputeThreatListDiffRequest, now time.Time, badSum bool) v4wire.ComputeThreatListDiffResponse {
	name := req.ThreatType.String()
	versions := s.lists[name]
	cur := s.currentLocked(name)
	var old [][]byte
	reset := true
	if n, err := strconv.Atoi(string(req.VersionToken)); err == nil && n >= 1 && n <= len(versions) {
		old, reset = versions[n-1], false
	}
	var adds [][]byte
	var removes []uint32
	for i, e := range old {
		if _, ok := slices.BinarySearchFunc(cur, e, bytes.Compare); !ok {
			removes = append(removes, uint32(i))
		}
	}
	for _, e := range cur {
		if _, ok := slices.BinarySearchFunc(old, e, bytes.Compare); !ok {
			adds = append(adds, e)
		}
	}
	d, err := hashlist.NewDiff(adds, removes, s.rice)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(bytes.Join(cur, nil))
	if badSum {
		sum[0] ^= 1
	}
	m := v4wire.ComputeThreatListDiffResponse{
		ResponseType:    v4wire.PartialUpdate,
		NewVersionToken: []byte(strconv.Itoa(max(len(versions), 1))),
		Checksum:        sum[:],
	}
	if reset {
		m.ResponseType = v4wire.FullUpdate
	}
	if s.next != 0 {
		m.RecommendedNextDiff = now.Add(s.next)
	}
	if len(d.Raw) > 0 || d.Rice != nil {
		m.Additions = &v4wire.ThreatEntryAdditions{}
		for _, g := range d.Raw {
			m.Additions.RawHashes = append(m.Additions.RawHashes, v4wire.RawHashes(g))
		}
		if d.Rice != nil {
			r := v4wire.Rice(*d.Rice)
			m.Additions.RiceHashes = &r
		}
	}
	if len(d.RawRemovals) > 0 || d.RiceRemovals != nil {
		m.Removals = &v4wire.ThreatEntryRemovals{}
		if len(d.RawRemovals) > 0 {
			m.Removals.RawIndices = &v4wire.RawIndices{Indices: d.RawRemovals}
		}
		if d.RiceRemovals != nil {
			r := v4wire.Rice(*d.RiceRemovals)
			m.Removals.RiceIndices = &r
		}
	}
	return m
}

// searchLocked answers a hashes:search: every full hash listed that
// starts with the prefix, with the threat types asked.
func (s *wrServer) searchLocked(req v4wire.SearchHashesRequest, now time.Time) v4wire.SearchHashesResponse {
	var m v4wire.SearchHashesResponse
	for h, types := range s.full {
		if !bytes.HasPrefix(h[:], req.HashPrefix) {
			continue
		}
		th := v4wire.ThreatHash{Hash: h}
		for _, t := range types {
			if slices.Contains(req.ThreatTypes, t) {
				th.ThreatTypes = append(th.ThreatTypes, t)
			}
		}
		if len(th.ThreatTypes) == 0 {
			continue
		}
		if s.expire != 0 {
			th.ExpireTime = now.Add(s.expire)
		}
		m.Threats = append(m.Threats, th)
	}
	if s.negative != 0 {
		m.NegativeExpireTime = now.Add(s.negative)
	}
	return m
}

// wrError writes Google's JSON error.
func wrError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"code":%d,"message":%q,"status":%q}}`, status, msg, strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_")))
}

// newWRClient returns a Web Risk client of cfg for s, with a fake clock
// that s shares, and rand = 0.5.
func newWRClient(t testing.TB, s *wrServer, cfg Config) (*Client, *fakeClock) {
	t.Helper()
	cfg.API, cfg.BaseURL = WebRisk, s.URL
	c, clk := newTestClient(t, cfg)
	s.mu.Lock()
	s.now = clk.now
	s.mu.Unlock()
	return c, clk
}
