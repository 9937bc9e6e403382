// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package psl finds the public suffix of a domain without allocating.
//
// It gives exactly the answers of [golang.org/x/net/publicsuffix.PublicSuffix],
// over the same tables: gen.go copies them from the x/net version that go.mod
// requires, and the tests check the two against each other. It exists
// because x/net's PublicSuffix first calls [netip.ParseAddr], whose error for
// every ordinary domain name costs a 48-byte allocation, and because it
// takes only a string, where the callers here hold the domain in a []byte.
package psl

//go:generate go run gen.go

import (
	"net/netip"
	"sync"
)

// tlds maps each top-level label of the list to its node: one map lookup
// replaces the eleven steps of a binary search over the numTLD nodes. It
// is built on first use, in about 50µs, and takes about 60 kB.
var tlds = sync.OnceValue(func() map[string]uint32 {
	m := make(map[string]uint32, numTLD)
	for i := range uint32(numTLD) {
		m[nodeLabel(i)] = i
	}
	return m
})

// MaxLabels bounds the number of labels of a public suffix: the depth of
// the deepest node of the list, plus one for a wildcard under it.
const MaxLabels = 7

// Len returns the length of the public suffix of domain: the domain
// publicsuffix.PublicSuffix(domain) returns is domain[len(domain)-Len(domain):].
// It uses the whole list, its private section included, and the list's
// default rule "*" for a top-level domain the list does not know. An IP
// address is its own public suffix, as in x/net.
//
// Like x/net, Len does not validate domain: callers pass a lower-case name
// without leading, trailing or repeated dots.
func Len[T ~string | ~[]byte](domain T) int {
	if mayBeIP(domain) {
		if _, err := netip.ParseAddr(string(domain)); err == nil {
			return len(domain)
		}
	}

	lo, hi := uint32(0), uint32(numTLD)
	s, suffix, wildcard := domain, len(domain), false
loop:
	for {
		dot := lastDot(s)
		if wildcard {
			suffix = 1 + dot
		}
		if lo == hi {
			break
		}
		var f uint32
		if lo == 0 && hi == numTLD {
			var ok bool
			if f, ok = tlds()[string(s[1+dot:])]; !ok {
				f = notFound
			}
		} else {
			f = find(s[1+dot:], lo, hi)
		}
		if f == notFound {
			break
		}

		u := uint32(nodes.get(f) >> (nodesBitsTextOffset + nodesBitsTextLength))
		u >>= nodesBitsICANN
		u = children.get(u & (1<<nodesBitsChildren - 1))
		lo = u & (1<<childrenBitsLo - 1)
		u >>= childrenBitsLo
		hi = u & (1<<childrenBitsHi - 1)
		u >>= childrenBitsHi
		switch u & (1<<childrenBitsNodeType - 1) {
		case nodeTypeNormal:
			suffix = 1 + dot
		case nodeTypeException:
			suffix = 1 + len(s)
			break loop
		}
		u >>= childrenBitsNodeType
		wildcard = u&(1<<childrenBitsWildcard-1) != 0

		if dot == -1 {
			break
		}
		s = s[:dot]
	}
	if suffix == len(domain) {
		// If no rules match, the prevailing rule is "*".
		return len(domain) - (1 + lastDot(domain))
	}
	return len(domain) - suffix
}

// mayBeIP reports whether netip.ParseAddr could accept s: an IPv6 address
// has a colon (and may have a zone of any bytes), an IPv4 address only
// digits and dots.
func mayBeIP[T ~string | ~[]byte](s T) bool {
	v4 := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			return true
		}
		if c != '.' && (c < '0' || c > '9') {
			v4 = false
		}
	}
	return v4
}

func lastDot[T ~string | ~[]byte](s T) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

const notFound uint32 = 1<<32 - 1

// find returns the index of the node in the range [lo, hi) whose label equals
// label, or notFound if there is no such node. The range is assumed to be in
// strictly increasing node label order.
func find[T ~string | ~[]byte](label T, lo, hi uint32) uint32 {
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch c := compare(nodeLabel(mid), label); {
		case c < 0:
			lo = mid + 1
		case c == 0:
			return mid
		default:
			hi = mid
		}
	}
	return notFound
}

// compare compares a and b bytewise, as strings.Compare does.
func compare[T ~string | ~[]byte](a string, b T) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return +1
		}
	}
	return len(a) - len(b)
}

// nodeLabel returns the label for the i'th node.
func nodeLabel(i uint32) string {
	x := nodes.get(i)
	length := x & (1<<nodesBitsTextLength - 1)
	x >>= nodesBitsTextLength
	offset := x & (1<<nodesBitsTextOffset - 1)
	return text[offset : offset+length]
}

type uint32String string

func (u uint32String) get(i uint32) uint32 {
	off := i * 4
	u = u[off:] // help the compiler reduce bounds checks
	return uint32(u[3]) |
		uint32(u[2])<<8 |
		uint32(u[1])<<16 |
		uint32(u[0])<<24
}

type uint40String string

func (u uint40String) get(i uint32) uint64 {
	off := uint64(i * (nodesBits / 8))
	u = u[off:] // help the compiler reduce bounds checks
	return uint64(u[4]) |
		uint64(u[3])<<8 |
		uint64(u[2])<<16 |
		uint64(u[1])<<24 |
		uint64(u[0])<<32
}
