// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package psl finds the public suffix of a domain without allocating.
//
// It gives exactly the answers of [golang.org/x/net/publicsuffix.PublicSuffix],
// over the same tables: gen.go copies them from the x/net version that go.mod
// requires, and the tests check the two against each other. It exists
// because x/net's PublicSuffix first calls [netip.ParseAddr], whose error for
// every ordinary domain name costs a 48-byte allocation, because it takes
// only a string, where the callers here hold the domain in a []byte, and
// because its binary searches cost more than the SHA-256 of a short
// expression: a hash table of the tree's edges finds each label in about
// one probe.
package psl

//go:generate go run gen.go

import (
	"net/netip"
	"sync"
)

// edges is a hash table of the edges of the list's tree: slot
// hashEdge(parent, label) & edgeMask, or one of the slots after it, holds
// 1 + the index of the node with that label under that parent. One probe,
// checked against the children range of the parent, replaces a binary
// search over up to 1450 top-level domains, or the hundreds of labels under
// "com". It is built on first use, in about a tenth of a millisecond, and
// takes 64 kB.
var edges = sync.OnceValue(func() []uint16 {
	t := make([]uint16, edgeMask+1)
	n := 0
	var walk func(parent, lo, hi uint32)
	walk = func(parent, lo, hi uint32) {
		for f := lo; f < hi; f++ {
			i := hashEdge(parent, nodeLabel(f)) & edgeMask
			for t[i] != 0 {
				i = (i + 1) & edgeMask
			}
			t[i] = uint16(f + 1)
			if n++; n > edgeMask/2 {
				panic("psl: edge table over half full; grow edgeMask")
			}
			clo, chi, _, _ := childInfo(f)
			walk(f, clo, chi)
		}
	}
	walk(root, 0, numTLD)
	return t
})

const (
	edgeMask = 1<<15 - 1 // the list has about 10,500 edges
	root     = 1<<16 - 1 // the parent of the top-level domains
)

// hashEdge hashes the edge from node parent to its child labelled label,
// FNV-1a over the label, seeded with the parent.
func hashEdge[T ~string | ~[]byte](parent uint32, label T) uint32 {
	h := uint32(2166136261) ^ parent*0x9e3779b1
	for i := 0; i < len(label); i++ {
		h ^= uint32(label[i])
		h *= 16777619
	}
	return h
}

// lookup returns the index of the child of node parent, whose children
// are the nodes [lo, hi), labelled label, or notFound.
func lookup[T ~string | ~[]byte](t []uint16, parent uint32, label T, lo, hi uint32) uint32 {
	for i := hashEdge(parent, label) & edgeMask; t[i] != 0; i = (i + 1) & edgeMask {
		if f := uint32(t[i]) - 1; lo <= f && f < hi && compare(nodeLabel(f), label) == 0 {
			return f
		}
	}
	return notFound
}

// childInfo decodes the children entry of node f, as x/net lays it out:
// its children are the nodes [lo, hi); nodeType is nodeTypeNormal for a
// rule, nodeTypeException for an exception rule ("!"), else neither; and
// wildcard reports a wildcard rule ("*") under f.
func childInfo(f uint32) (lo, hi, nodeType uint32, wildcard bool) {
	u := uint32(nodes.get(f) >> (nodesBitsTextOffset + nodesBitsTextLength))
	u >>= nodesBitsICANN
	u = children.get(u & (1<<nodesBitsChildren - 1))
	lo = u & (1<<childrenBitsLo - 1)
	u >>= childrenBitsLo
	hi = u & (1<<childrenBitsHi - 1)
	u >>= childrenBitsHi
	nodeType = u & (1<<childrenBitsNodeType - 1)
	u >>= childrenBitsNodeType
	wildcard = u&(1<<childrenBitsWildcard-1) != 0
	return lo, hi, nodeType, wildcard
}

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
	return NameLen(domain)
}

// NameLen is [Len] for a domain that [netip.ParseAddr] does not accept, such
// as a host name that a URL parser has already told from an IP address: it
// skips the test for one. On an address that ParseAddr accepts, it returns
// what Len would for a name (for "1.2.3.4", the length of "4").
func NameLen[T ~string | ~[]byte](domain T) int {
	t := edges()
	lo, hi, parent := uint32(0), uint32(numTLD), uint32(root)
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
		f := lookup(t, parent, s[1+dot:], lo, hi)
		if f == notFound {
			break
		}
		parent = f

		var nodeType uint32
		lo, hi, nodeType, wildcard = childInfo(f)
		switch nodeType {
		case nodeTypeNormal:
			suffix = 1 + dot
		case nodeTypeException:
			suffix = 1 + len(s)
			break loop
		}

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
