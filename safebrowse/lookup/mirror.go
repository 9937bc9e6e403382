// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// This file is what a mirror (package safebrowse/mirror) needs of a
// Client: a client that keeps every list, a copy of a list's contents, a
// search by raw prefixes, and the metadata of ListHashLists. The updates,
// the back-off and the cache stay the Client's own.

// NewMirrorSource returns a Client, as [New] does, that keeps every list
// of cfg.Lists whatever cfg.Mode, gc-32b included, as a mirror must to
// serve them on: nil Lists means DefaultLists and GlobalCache. Lookups
// follow cfg.Mode as with New; a LocalList client keeps gc-32b without
// using it. NoStorage keeps no lists and is an error.
//
// Under WebRisk, nil Lists means all four of Web Risk's lists,
// SOCIAL_ENGINEERING_EXTENDED_COVERAGE included, since
// github.com/google/webrisk asks for it by default; the Mode is LocalList,
// as from New.
func NewMirrorSource(cfg Config) (*Client, error) {
	mode := cfg.Mode
	switch {
	case mode == NoStorage:
		return nil, errors.New("lookup: NewMirrorSource: NoStorage mode keeps no lists to mirror")
	case mode < LocalList || mode > NoStorage:
		return nil, fmt.Errorf("lookup: Config.Mode: unknown mode %d", int(mode))
	}
	if cfg.API == WebRisk {
		if cfg.Lists == nil {
			cfg.Lists = listname.WebRiskLists
		}
		return New(cfg)
	}
	// RealTime keeps gc-32b beside the lists named; the Mode of lookups
	// is set back once the lists are made.
	cfg.Mode = RealTime
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	c.mode = mode
	return c, nil
}

// A ListSnapshot is the contents of one list a Client keeps, copied at one
// moment, as [Client.ListSnapshot] returns it.
//
// A v5 list's hashes are all Width bytes long. A Web Risk list's entries
// are 4 to 32 bytes long, mixed: Width is 0, Hashes holds them in byte
// order, concatenated, and Lengths gives the length of each, in the same
// order. That is the order of Web Risk's checksum and of its removal
// indices: entry i of [ListSnapshot.Entries] is the entry a removal index
// i removes, and Checksum is the list's checksum. A caller that needs the
// entries of one length (the 4-byte ones to Rice-code, a longer group to
// send raw) takes them in one pass over Entries.
type ListSnapshot struct {
	Name string
	// Width is the bytes of every hash of a v5 list: 4, 8, 16 or 32; 0
	// for a Web Risk list, whose entries' lengths are in Lengths.
	Width int
	// Version is the version the server gave, as [ListStatus] has it.
	Version []byte
	// Hashes holds the list's hashes, sorted ascending (bytewise) and
	// concatenated: the caller's own copy.
	Hashes []byte
	// Lengths holds, for a Web Risk list, the length in bytes of each
	// entry of Hashes, in order, 4 to 32 each (most are 4); nil for a v5
	// list. It is the caller's own copy.
	Lengths []uint8
	// Checksum is the SHA-256 of Hashes: the list's sha256_checksum, or
	// under Web Risk its checksum.sha256.
	Checksum [32]byte
	// Loaded tells whether the list has loaded once, from Dir or the
	// server; Next and Updated are as in [ListStatus].
	Loaded        bool
	Next, Updated time.Time
}

// Len returns the number of hashes, or entries, of s.
func (s ListSnapshot) Len() int {
	if s.Lengths != nil || s.Width == 0 {
		return len(s.Lengths)
	}
	return len(s.Hashes) / s.Width
}

// Entries returns an iterator over the hashes of s in order, each Width
// bytes long, or for a Web Risk list Lengths[i] bytes long. Each yielded
// slice is a part of Hashes.
func (s ListSnapshot) Entries() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		h := s.Hashes
		for i := range s.Len() {
			n := s.Width
			if s.Lengths != nil {
				n = int(s.Lengths[i])
			}
			if n <= 0 || n > len(h) {
				return
			}
			if !yield(h[:n:n]) {
				return
			}
			h = h[n:]
		}
	}
}

// ListSnapshot returns a copy of the list name as the client holds it now,
// its version and its hashes from one state, never half an update; ok is
// false when the client keeps no such list. It copies the whole list
// (4 bytes a prefix, and under Web Risk 1 byte an entry more for its
// length) and hashes it: call it when [Client.Lists] shows a new version,
// not for every request.
func (c *Client) ListSnapshot(name string) (snap ListSnapshot, ok bool) {
	name = listname.Trim(name)
	i := slices.IndexFunc(c.lists, func(s *listState) bool { return s.name == name })
	if i < 0 {
		return ListSnapshot{}, false
	}
	s := c.lists[i]
	if s.set != nil {
		return c.setSnapshot(s), true
	}
	for range 8 {
		// An update may land between the reads: the version read before
		// and after the copy must agree.
		v := s.list.Version()
		hashes := make([]byte, 0, s.list.Len()*s.list.Width())
		for h := range s.list.All() {
			hashes = append(hashes, h...)
		}
		snap = ListSnapshot{Version: v, Hashes: hashes}
		if bytes.Equal(v, s.list.Version()) {
			break
		}
	}
	snap.Checksum = sha256.Sum256(snap.Hashes)
	c.statusMu.Lock()
	snap.Name, snap.Width = name, s.list.Width()
	snap.Loaded, snap.Next, snap.Updated = s.loaded.Load(), s.next, s.updated
	c.statusMu.Unlock()
	return snap, true
}

// setSnapshot is ListSnapshot of the Web Risk list s.
func (c *Client) setSnapshot(s *listState) ListSnapshot {
	var snap ListSnapshot
	for range 8 {
		// An update may land between the reads: the version read before
		// and after the copy must agree.
		v := s.set.Version()
		n := s.set.Len()
		hashes, lengths := make([]byte, 0, 4*n), make([]uint8, 0, n)
		for e := range s.set.All() {
			hashes = append(hashes, e...)
			lengths = append(lengths, uint8(len(e)))
		}
		snap = ListSnapshot{Version: v, Hashes: hashes, Lengths: lengths}
		if bytes.Equal(v, s.set.Version()) {
			break
		}
	}
	snap.Checksum = sha256.Sum256(snap.Hashes)
	c.statusMu.Lock()
	snap.Name = s.name
	snap.Loaded, snap.Next, snap.Updated = s.loaded.Load(), s.next, s.updated
	c.statusMu.Unlock()
	return snap
}

// A PrefixResult is what hashes:search said of one prefix, as
// [Client.SearchHashPrefixes] and [Client.SearchPrefixes] return it.
type PrefixResult struct {
	// Prefix is the first 4 bytes of the prefix asked, which is all of it
	// under v5.
	Prefix [4]byte
	// HashPrefix is the prefix asked, whole: 4 bytes, or under Web Risk 4
	// to 32. It is the caller's own.
	HashPrefix []byte
	// FullHashes are the full hashes the server lists that begin with
	// HashPrefix, each with the details this package knows (others are
	// dropped, as the spec asks; under Web Risk, each threat type the
	// client's lists name, with no attributes); none means none is
	// listed.
	FullHashes []FullHash
	// Expires is until when the answer may be cached: the time of the
	// reply plus its cache_duration, at most [MaxCacheDuration]; the time
	// of the reply itself when it gave no cache_duration. Under Web Risk,
	// the earliest of the reply's negativeExpireTime and its full hashes'
	// expireTime, within the same bounds: the answer holds whole until
	// then, for the full hashes listed and for the others alike.
	Expires time.Time
	// Origin tells where the answer came from: the client's cache, a
	// search in flight that the call joined, or a request of its own.
	Origin Origin
}

// A FullHash is one full hash of a hashes:search reply.
type FullHash struct {
	Hash    safebrowse.Hash
	Details []FullHashDetail
}

// A FullHashDetail is one threat type of a full hash, with its attributes.
type FullHashDetail struct {
	Type       ThreatType
	Attributes []ThreatAttribute
}

// SearchHashPrefixes answers what hashes:search says of prefixes, as a
// lookup that needs the server finds it, and returns one result per
// prefix, in order. It is the client's one search of raw prefixes, which
// a mirror, a Web Risk or v4 front, or any server that answers searches
// for others, calls for every prefix it does not hold fresh:
//
//   - a prefix the cache holds fresh is answered from it, with no
//     request (counted in [Stats].CacheHits);
//   - a prefix that a search in flight asks already, whoever made it
//     (a lookup, LookupAll, another call), waits for that search's
//     answer (counted in [Stats].Coalesced);
//   - the others go in requests of its own, as a lookup's do (under v5,
//     split in requests of many prefixes; under Web Risk, one a prefix,
//     asking the threat types of the client's lists), within
//     Config.MaxSearchesInFlight requests in flight and
//     Config.MaxSearchesPerMinute requests a minute; their replies are
//     cached and counted as a lookup's are, and a full hash that does
//     not begin with the prefix asked is dropped.
//
// Each prefix is 4 bytes under v5, whose hashes:search takes no other,
// and 4 to 32 bytes under Web Risk: an entry of a Web Risk list is
// searched whole, and its answer cached under the exact prefix sent. A
// prefix of another length is an error, as is more than
// [MaxSearchPrefixes] prefixes at once.
//
// [PrefixResult].Origin tells which answered. Searches share the
// lookups' back-off, so that while it lasts SearchHashPrefixes returns a
// [*BackoffError] with no request; past Config.MaxSearchesPerMinute, an
// error wrapping [ErrSearchBudget]. The first failure of any prefix is
// the call's error. When ctx ends first, the call returns its error and
// leaves the searches it waited on, which go on for the other callers
// waiting on them; a search that no caller waits on any longer is
// dropped. The results are the caller's own.
func (c *Client) SearchHashPrefixes(ctx context.Context, prefixes [][]byte) ([]PrefixResult, error) {
	if c.closing.Err() != nil {
		return nil, ErrClosed
	}
	if len(prefixes) > MaxSearchPrefixes {
		return nil, fmt.Errorf("lookup: SearchHashPrefixes: %d prefixes, more than %d", len(prefixes), MaxSearchPrefixes)
	}
	keys := make([]key, len(prefixes))
	for i, p := range prefixes {
		switch {
		case c.api == WebRisk && (len(p) < 4 || len(p) > 32):
			return nil, fmt.Errorf("lookup: SearchHashPrefixes: prefix %d is %d bytes, want 4 to 32", i, len(p))
		case c.api != WebRisk && len(p) != 4:
			return nil, fmt.Errorf("lookup: SearchHashPrefixes: prefix %d is %d bytes, want 4", i, len(p))
		}
		keys[i] = keyOf(p)
	}
	return c.searchKeys(ctx, keys)
}

// SearchPrefixes is [Client.SearchHashPrefixes] for 4-byte prefixes,
// under either API: the form a v5 mirror uses.
func (c *Client) SearchPrefixes(ctx context.Context, prefixes [][4]byte) ([]PrefixResult, error) {
	if c.closing.Err() != nil {
		return nil, ErrClosed
	}
	if len(prefixes) > MaxSearchPrefixes {
		return nil, fmt.Errorf("lookup: SearchPrefixes: %d prefixes, more than %d", len(prefixes), MaxSearchPrefixes)
	}
	keys := make([]key, len(prefixes))
	for i, p := range prefixes {
		keys[i] = key{p: binary.BigEndian.Uint32(p[:])}
	}
	return c.searchKeys(ctx, keys)
}

// searchKeys answers the prefixes keys, in order, each distinct one
// searched once.
func (c *Client) searchKeys(ctx context.Context, keys []key) ([]PrefixResult, error) {
	distinct := make([]key, 0, len(keys))
	index := make(map[key]int, len(keys))
	size := 0
	for _, k := range keys {
		size += max(len(k.long), 4)
		if _, ok := index[k]; !ok {
			index[k] = len(distinct)
			distinct = append(distinct, k)
		}
	}
	out := make([]PrefixResult, len(keys))
	if len(distinct) == 0 {
		return out, nil
	}
	res := c.searchAll(ctx, distinct)
	for i := range res {
		if res[i].err != nil {
			return nil, res[i].err
		}
	}
	buf := make([]byte, 0, size)
	for i, k := range keys {
		r := &res[index[k]]
		n := len(buf)
		buf = k.appendTo(buf)
		out[i] = resultOf(buf[n:len(buf):len(buf)], r.e, r.origin)
	}
	return out, nil
}

// resultOf returns the PrefixResult of the prefix p, which it keeps, from
// e, in storage of its own: one array of full hashes, one of details and
// one of attributes.
func resultOf(p []byte, e *entry, origin Origin) PrefixResult {
	r := PrefixResult{Prefix: [4]byte(p), HashPrefix: p, Expires: e.expires, Origin: origin}
	if len(e.hashes) == 0 {
		return r
	}
	nd, na := 0, 0
	for i := range e.hashes {
		nd += len(e.hashes[i].details)
		for _, d := range e.hashes[i].details {
			na += len(d.attrs)
		}
	}
	r.FullHashes = make([]FullHash, len(e.hashes))
	details := make([]FullHashDetail, 0, nd)
	attrs := make([]ThreatAttribute, 0, na)
	for i := range e.hashes {
		h := &r.FullHashes[i]
		h.Hash = e.hashes[i].hash
		start := len(details)
		for _, d := range e.hashes[i].details {
			fd := FullHashDetail{Type: d.typ}
			if len(d.attrs) > 0 {
				a := len(attrs)
				attrs = append(attrs, d.attrs...)
				fd.Attributes = attrs[a:len(attrs):len(attrs)]
			}
			details = append(details, fd)
		}
		if len(details) > start {
			h.Details = details[start:len(details):len(details)]
		}
	}
	return r
}

// LikelySafeType is the kind of a list of likely safe expressions, as
// ListHashLists gives it ("LikelySafeType" in the reference).
type LikelySafeType = v5wire.LikelySafeType

// The likely safe types of Safe Browsing v5.
const (
	GeneralBrowsing = v5wire.GeneralBrowsing // GENERAL_BROWSING: the Global Cache
	CSD             = v5wire.CSD             // CSD
	Download        = v5wire.Download        // DOWNLOAD
)

// ListInfo is one list that ListHashLists names, with its metadata.
type ListInfo struct {
	// Name is without the "hashLists/" prefix: a name Config.Lists
	// accepts, as [Client.HashLists] keeps only those.
	Name string
	// Description is the server's, the API key masked.
	Description     string
	HashLength      int // bytes a hash: 4, 8, 16 or 32; 0 when not given
	ThreatTypes     []ThreatType
	LikelySafeTypes []LikelySafeType
}

// maxListPages bounds the pages of one HashLists call.
const maxListPages = 100

// methodHashLists is ListHashLists, as errors name it.
const methodHashLists = "hashLists"

// maxSkipsLogged bounds the log lines of one HashLists call about the
// lists it skips; one more line counts the rest.
const maxSkipsLogged = 16

// HashLists asks the server's ListHashLists for every list it serves, with
// its metadata, following next_page_token for at most 100 pages. It is
// no update: it neither counts in [Stats] nor backs off.
//
// It returns the lists this package keeps, in the server's order, so that
// each Name may go into Config.Lists: a name is trimmed of "hashLists/"
// once, then skipped when it shows the API key (in any case), when it is
// not 1 to 64 bytes of a-z, 0-9 and '-' ending in -4b, -8b, -16b or -32b
// (the rule of Config.Lists), or when an earlier list had it
// ("hashLists/se-4b" after "se-4b"). Each skip is logged at Warn (at
// most 16 lines, then one that counts the rest), the name with the key
// masked and clipped to 100 bytes. A description has the key masked.
//
// Web Risk has no such method, its lists being its threat types: under
// WebRisk, HashLists returns an error with no request.
func (c *Client) HashLists(ctx context.Context) ([]ListInfo, error) {
	if c.closing.Err() != nil {
		return nil, ErrClosed
	}
	if c.api == WebRisk {
		return nil, errors.New("lookup: hashLists: Web Risk has no method that lists its lists, which are its threat types")
	}
	var out []ListInfo
	seen := map[string]bool{}
	skipped := 0
	token := ""
	for range maxListPages {
		q := url.Values{}
		if token != "" {
			q.Set("pageToken", token)
		}
		body, err := c.get(ctx, methodHashLists, methodHashLists, q, MaxSearchReply)
		if err != nil {
			return nil, err
		}
		m, err := v5wire.ParseListHashListsResponse(body)
		if err != nil {
			return nil, fmt.Errorf("lookup: %s: %w", methodHashLists, corrupt("%v", err))
		}
		for _, l := range m.HashLists {
			name := listname.Trim(l.Name)
			if why := c.skipList(name, seen); why != "" {
				if skipped < maxSkipsLogged {
					c.log.Warn("lookup: hashLists: skipping a list", "list", inputerr.Clip(mask(l.Name, c.key)), "reason", why)
				}
				skipped++
				continue
			}
			seen[name] = true
			info := ListInfo{Name: name}
			if md := l.Metadata; md != nil {
				info.Description, info.ThreatTypes, info.LikelySafeTypes = mask(md.Description, c.key), md.ThreatTypes, md.LikelySafeTypes
				switch md.HashLength {
				case v5wire.FourBytes:
					info.HashLength = 4
				case v5wire.EightBytes:
					info.HashLength = 8
				case v5wire.SixteenBytes:
					info.HashLength = 16
				case v5wire.ThirtyTwoBytes:
					info.HashLength = 32
				}
			}
			out = append(out, info)
		}
		if m.NextPageToken == "" {
			if skipped > maxSkipsLogged {
				c.log.Warn("lookup: hashLists: skipped more lists", "skipped", skipped-maxSkipsLogged)
			}
			return out, nil
		}
		token = m.NextPageToken
	}
	return nil, fmt.Errorf("lookup: %s: %w: more than %d pages", methodHashLists, ErrCorruptReply, maxListPages)
}

// skipList returns why HashLists skips the list named name (trimmed of
// "hashLists/"), or "" when it keeps it; seen holds the names kept.
func (c *Client) skipList(name string, seen map[string]bool) string {
	switch {
	case shows(name, c.key):
		return "its name shows the API key"
	case !listname.Valid(name):
		return "its name is not 1 to 64 bytes of a-z, 0-9 and '-' ending in -4b, -8b, -16b or -32b"
	case seen[name]:
		return "named twice"
	}
	return ""
}
