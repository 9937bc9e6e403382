// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4update

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// This file is a v4 client's database, as the v4 reference
// (developers.google.com/safe-browsing/v4/local-databases and
// compressed-data) and github.com/google/safebrowsing's database.go
// apply an update, with a Rice decoder of its own: the server's coding is
// checked against the text it implements, not against package hashlist.

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// riceDecode decodes a RiceDeltaEncoding as the v4 reference's
// "Compressed data" page describes it, one bit at a time: first_value,
// then num_entries deltas, each q<<k + r, with the quotient q in unary (q
// one bits, then a zero bit) and the remainder r in k bits, least
// significant bit first; the bits are taken from each byte of
// encoded_data least significant first. Each value is the one before it
// plus its delta. Fewer than 8 bits may be left over, as
// google/safebrowsing requires.
func riceDecode(r *v4wire.Rice) ([]uint32, error) {
	if r.First < 0 || r.First > 1<<32-1 {
		return nil, errorf("first_value %d outside 32 bits", r.First)
	}
	values := []uint32{uint32(r.First)}
	pos := 0
	bit := func() (uint64, error) {
		if pos >= 8*len(r.Data) {
			return 0, errors.New("encoded_data ends early")
		}
		b := uint64(r.Data[pos/8]>>(pos%8)) & 1
		pos++
		return b, nil
	}
	v := uint64(r.First)
	for range r.Count {
		var q uint64
		for {
			b, err := bit()
			if err != nil {
				return nil, err
			}
			if b == 0 {
				break
			}
			q++
		}
		var rem uint64
		for i := range r.K {
			b, err := bit()
			if err != nil {
				return nil, err
			}
			rem |= b << i
		}
		v += q<<r.K | rem
		if v > 1<<32-1 {
			return nil, errors.New("a value past 32 bits")
		}
		values = append(values, uint32(v))
	}
	if 8*len(r.Data)-pos >= 8 {
		return nil, errors.New("unconsumed encoded_data")
	}
	return values, nil
}

// A clientList is one list of a v4 client: its entries in byte order, as
// strings, and the state of its last update.
type clientList struct {
	entries []string
	state   []byte
}

// apply applies lr as google/safebrowsing's threatsForUpdate.update does:
// a full update empties the list and may hold no removals; a partial
// update needs a list; the removal indices point into the list in byte
// order; the additions are decoded by their compressionType, the
// Rice-coded hashes written back little-endian; the list is sorted, must
// hold no entry twice nor one that is a prefix of another, and its
// SHA-256 must be checksum.sha256.
func (c *clientList) apply(lr *v4wire.ListUpdateResponse) error {
	var entries []string
	switch lr.ResponseType {
	case v4wire.FullUpdate:
		if len(lr.Removals) > 0 {
			return errors.New("removals in a full update")
		}
	case v4wire.PartialUpdate:
		if c.state == nil {
			return errors.New("a partial update of a list never fetched")
		}
		entries = slices.Clone(c.entries)
	default:
		return errorf("response type %v", lr.ResponseType)
	}
	gone := make(map[int]bool)
	for _, set := range lr.Removals {
		var idx []int
		switch set.Compression {
		case v4wire.CompressionRaw:
			if set.RawIndices == nil {
				return errors.New("RAW removals without rawIndices")
			}
			for _, i := range set.RawIndices.Indices {
				idx = append(idx, int(i))
			}
		case v4wire.CompressionRice:
			vs, err := riceDecode(set.RiceIndices)
			if err != nil {
				return err
			}
			for _, v := range vs {
				idx = append(idx, int(v))
			}
		default:
			return errorf("removals of compression %v", set.Compression)
		}
		for _, i := range idx {
			if i < 0 || i >= len(entries) {
				return errorf("removal index %d of %d entries", i, len(entries))
			}
			gone[i] = true
		}
	}
	kept := entries[:0]
	for i, e := range entries {
		if !gone[i] {
			kept = append(kept, e)
		}
	}
	entries = kept
	for _, set := range lr.Additions {
		switch set.Compression {
		case v4wire.CompressionRaw:
			r := set.RawHashes
			if r == nil || r.PrefixSize < 4 || r.PrefixSize > 32 || len(r.Hashes)%int(r.PrefixSize) != 0 {
				return errorf("bad raw hashes %+v", r)
			}
			for i := 0; i < len(r.Hashes); i += int(r.PrefixSize) {
				entries = append(entries, string(r.Hashes[i:i+int(r.PrefixSize)]))
			}
		case v4wire.CompressionRice:
			vs, err := riceDecode(set.RiceHashes)
			if err != nil {
				return err
			}
			for _, v := range vs {
				entries = append(entries, string(binary.LittleEndian.AppendUint32(nil, v)))
			}
		default:
			return errorf("additions of compression %v", set.Compression)
		}
	}
	slices.Sort(entries)
	for i := 1; i < len(entries); i++ {
		if strings.HasPrefix(entries[i], entries[i-1]) {
			return errorf("entry %x twice, or a prefix of %x", entries[i-1], entries[i])
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	if !bytes.Equal(lr.Checksum, sum[:]) {
		return errorf("checksum %x, want %x", lr.Checksum, sum)
	}
	c.entries, c.state = entries, bytes.Clone(lr.NewClientState)
	return nil
}

// A client is a v4 client's database: its lists by their three types.
type client map[v4wire.ThreatListDescriptor]*clientList

// request returns the fetch request of the lists ds from c's states,
// with the compressions given.
func (c client) request(ds []v4wire.ThreatListDescriptor, cons v4wire.Constraints) *v4wire.FetchThreatListUpdatesRequest {
	m := &v4wire.FetchThreatListUpdatesRequest{Client: v4wire.ClientInfo{ClientID: "v4update-test", ClientVersion: "1"}}
	for _, d := range ds {
		lr := v4wire.ListUpdateRequest{ThreatType: d.ThreatType, PlatformType: d.PlatformType, ThreatEntryType: d.ThreatEntryType, Constraints: cons}
		if l := c[d]; l != nil {
			lr.State = l.state
		}
		m.ListUpdateRequests = append(m.ListUpdateRequests, lr)
	}
	return m
}

// apply applies a reply to the request of ds, checking that it answers
// each list in order, echoing its types.
func (c client) apply(ds []v4wire.ThreatListDescriptor, r *v4wire.FetchThreatListUpdatesResponse) error {
	if len(r.ListUpdateResponses) != len(ds) {
		return errorf("%d list updates for %d lists", len(r.ListUpdateResponses), len(ds))
	}
	for i, d := range ds {
		lr := &r.ListUpdateResponses[i]
		if got := (v4wire.ThreatListDescriptor{ThreatType: lr.ThreatType, PlatformType: lr.PlatformType, ThreatEntryType: lr.ThreatEntryType}); got != d {
			return errorf("list update %d is of %v, want %v", i, got, d)
		}
		l := c[d]
		if l == nil {
			l = new(clientList)
		}
		if err := l.apply(lr); err != nil {
			return errorf("%v: %v", d, err)
		}
		c[d] = l
	}
	return nil
}

// parseBody reads an update's body in binary.
func parseBody(body []byte) (v4wire.ListUpdateResponse, error) {
	msg := v4wire.AppendListUpdateResponseHead(nil, v4wire.ThreatListDescriptor{}, len(body))
	m, err := v4wire.ParseFetchThreatListUpdatesResponse(append(msg, body...))
	if err != nil {
		return v4wire.ListUpdateResponse{}, err
	}
	return m.ListUpdateResponses[0], nil
}
