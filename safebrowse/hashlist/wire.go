// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package hashlist

import (
	"fmt"
	"time"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// wireList is a HashList message as read from the wire, its Rice streams
// not yet decoded. Its byte slices alias the message.
type wireList struct {
	name     string
	version  []byte
	partial  bool
	addWidth int // the width of the additions field present; 0: none
	add      riceStream
	hasRem   bool
	rem      riceStream
	wait     time.Duration
	checksum []byte // nil: absent (an empty field is absent in proto3)
}

// parseList reads a binary HashList message with v5wire, under its
// strictness policy, and checks the header of each Rice stream
// ([riceStream.check]) before anything is decoded. The name is returned
// even with an error, for the message.
func parseList(b []byte) (wireList, error) {
	hl, err := v5wire.ParseHashList(b)
	m := wireList{name: hl.Name}
	if err != nil {
		return m, err
	}
	m.version, m.partial, m.wait, m.checksum = hl.Version, hl.Partial, hl.MinimumWait, hl.Checksum
	if hl.HasRemovals {
		m.hasRem, m.rem = true, streamOf(&hl.Removals)
		if err := m.rem.check(4); err != nil {
			return m, fmt.Errorf("compressed_removals: %w", err)
		}
	}
	if hl.AddWidth != 0 {
		m.addWidth, m.add = hl.AddWidth, streamOf(&hl.Additions)
		if err := m.add.check(m.addWidth); err != nil {
			return m, fmt.Errorf("additions: %w", err)
		}
	}
	return m, nil
}

// streamOf returns the Rice stream of a v5wire message.
func streamOf(r *v5wire.Rice) riceStream {
	return riceStream{first: u256(r.First), k: int64(r.K), count: int64(r.Count), data: r.Data}
}

// wireRice returns the v5wire message of a stream.
func wireRice(s *riceStream) v5wire.Rice {
	return v5wire.Rice{First: s.first, K: int32(s.k), Count: int32(s.count), Data: s.data}
}
