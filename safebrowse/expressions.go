// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"iter"
	"strconv"

	"github.com/urlspec/urlspec/internal/psl"
)

// Bounds on the host-suffix/path-prefix expressions of one URL, from
// "Host-suffix / path-prefix expressions" in the Safe Browsing spec.
const (
	maxHosts = 5 // the exact host and up to four suffixes
	maxPaths = 6 // the path with and without its query, and up to four prefixes

	// MaxExpressions is the most expressions, and so hashes, one URL has:
	// five hosts times six paths. A dst of this capacity never grows in
	// [AppendHashes].
	MaxExpressions = maxHosts * maxPaths
)

// HostRule chooses the host suffixes of the expressions of a URL. Its zero
// value is [HostsV5], the rule of the Safe Browsing v5 spec.
//
// The two rules differ only on hosts under a public suffix of more than one
// label, where v4 also looks up the public suffix itself. For
// "http://example.co.uk/1", HostsV5 gives
//
//	example.co.uk/1
//	example.co.uk/
//
// and HostsV4 adds "co.uk/1" and "co.uk/".
//
// A HostRule other than HostsV5 and HostsV4 behaves as HostsV5.
type HostRule uint8

const (
	// HostsV5 takes the exact host, then up to four hosts formed by
	// starting at the eTLD+1 and adding leading labels one at a time
	// (v5 spec, "Host-suffix / path-prefix expressions"). The eTLD+1 comes
	// from the whole Public Suffix List, its private section included, so
	// "a.b.github.io" stops at "b.github.io". A host that is itself a public
	// suffix ("co.uk", "com", "localhost" by the list's default rule "*")
	// has only its exact form.
	HostsV5 HostRule = iota

	// HostsV4 takes the exact host, then up to four hosts formed from its
	// last five labels by removing leading labels one at a time, never the
	// last label alone: the rule of Safe Browsing v4, which Chromium still
	// applies to its v5 lookups (GenerateHostVariantsToCheck in
	// components/safe_browsing/core/common/proto/v4_protocol_manager_util.cc).
	// Use it to get the browser's verdicts.
	HostsV4
)

// String returns "HostsV5" or "HostsV4".
func (r HostRule) String() string {
	switch r {
	case HostsV5:
		return "HostsV5"
	case HostsV4:
		return "HostsV4"
	}
	return "HostRule(" + strconv.Itoa(int(r)) + ")"
}

// Expressions canonicalises rawURL, as [Canonicalize] does, and returns its
// host-suffix/path-prefix expressions under the v5 host rule, [HostsV5].
//
// The order is fixed: hosts from the exact host down to the eTLD+1, and for
// each host the exact path with its query, the exact path without it, then
// the path prefixes from "/" downwards. No expression appears twice: for
// "http://a.com/" the exact path is the prefix "/". There are at most
// [MaxExpressions].
func Expressions(rawURL string) ([]string, error) {
	return HostsV5.Expressions(rawURL)
}

// Expressions is [Expressions] under the host rule r.
func (r HostRule) Expressions(rawURL string) ([]string, error) {
	var a [canonicalBuf]byte
	buf, p, err := appendCanonical(a[:0], rawURL)
	if err != nil {
		return nil, err
	}
	e := expand(r, buf, p)
	// Every expression is a substring of the canonical URL: one string
	// holds them all.
	base := e.hosts[0] // the exact host starts first
	s := string(buf[base:])
	out := make([]string, 0, e.nh*e.np)
	for _, h := range e.hosts[:e.nh] {
		for _, end := range e.paths[:e.np] {
			out = append(out, s[h-base:end-base])
		}
	}
	return out, nil
}

// Expressions returns an iterator over the expressions of u under the host
// rule r, in the order of [Expressions]. Each is a substring of u.String():
// the iteration allocates nothing. The zero URL has no expressions.
func (u URL) Expressions(r HostRule) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !u.IsValid() {
			return
		}
		e := expand(r, u.s, u.p)
		for _, h := range e.hosts[:e.nh] {
			for _, end := range e.paths[:e.np] {
				if !yield(u.s[h:end]) {
					return
				}
			}
		}
	}
}

// expansion locates the expressions of a canonical URL buf. Host suffixes
// end where the path begins, and every path variant begins there, so
// expression (i, j) is the contiguous buf[hosts[i]:paths[j]]. Building it
// costs no copy.
type expansion struct {
	hosts [maxHosts]int // start of each host suffix, exact host first
	paths [maxPaths]int // end of each path variant
	nh    int
	np    int
}

// expand finds the expressions of the canonical URL buf, whose parts are p,
// under the host rule r.
func expand[T ~string | ~[]byte](r HostRule, buf T, p parts) (e expansion) {
	e.hosts[0] = p.hostStart
	e.nh = 1
	if !p.ip {
		e.nh += hostSuffixes(e.hosts[1:], buf[p.hostStart:p.hostEnd], p.hostStart, r)
	}

	// Paths, at most six: the exact path with its query, without it, then
	// the four prefixes from the root, each ending in '/', that are not the
	// exact path itself.
	if p.hasQuery {
		e.paths[0] = p.end
		e.np = 1
	}
	e.paths[e.np] = p.pathEnd
	e.np++
	path := buf[:p.pathEnd]
	prefixes := 0
	for i := p.hostEnd; i < len(path); i++ {
		if path[i] == '/' {
			if i+1 < len(path) {
				e.paths[e.np] = i + 1
				e.np++
			}
			if prefixes++; prefixes == maxPaths-2 {
				break
			}
		}
	}
	return e
}

// hostSuffixes writes to starts, longest first, the start offsets of the
// suffixes of host under rule r, plus off, and returns how many there are.
// A host with an empty label (which canonicalisation never produces) has
// none.
func hostSuffixes[T ~string | ~[]byte](starts []int, host T, off int, r HostRule) int {
	// dots[k] is the offset of the k-th dot from the right, for the last
	// len(dots) dots; nd counts them all. The dots before the four longest
	// suffixes after the deepest public suffix are among them.
	var dots [psl.MaxLabels + maxHosts]int
	nd := 0
	prev := len(host)
	colon := false
	for i := len(host) - 1; i >= 0; i-- {
		if host[i] == '.' {
			if i+1 == prev {
				return 0 // empty label, or a trailing dot
			}
			if nd < len(dots) {
				dots[nd] = i
			}
			nd++
			prev = i
		} else if host[i] == ':' {
			colon = true
		}
	}
	if prev == 0 {
		return 0 // leading dot
	}
	// least is the index in dots of the dot before the shortest suffix:
	// the eTLD+1 (v5), or the last two labels (v4).
	least := 1
	if r != HostsV4 {
		// Only a host with a ':' or ending in a digit can be an address
		// that netip.ParseAddr accepts, which psl.Len treats as its own
		// public suffix. Canonicalisation parses every such address, so
		// this host is one only when expand is given a host outside
		// that contract (as FuzzExpand does); the others, which are
		// names, skip psl.Len's test for an address.
		var ps int
		if colon || isDigit(host[len(host)-1]) {
			ps = psl.Len(host)
		} else {
			ps = psl.NameLen(host)
		}
		i := len(host) - ps - 1 // the dot before the public suffix
		if i <= 0 {
			return 0 // the host is a public suffix
		}
		least = 0
		for least < nd && least < len(dots) && dots[least] > i {
			least++
		}
		if least == nd || least == len(dots) || dots[least] != i {
			return 0 // x/net's "invalid public suffix"; cannot happen
		}
		least++
	}
	// Up to four suffixes, from the shortest up; listed longest first.
	n := min(nd, len(dots), least+len(starts)) - least
	if n <= 0 {
		return 0
	}
	for k := range n {
		starts[n-1-k] = off + dots[least+k] + 1
	}
	return n
}
