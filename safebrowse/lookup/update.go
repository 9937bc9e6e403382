// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
)

// The limits on what a list reply may set.
const (
	// MaxVersion bounds a list's version: a reply with a longer one is
	// corrupt ([ErrCorruptReply]), so that no version too long for a
	// request URL is ever stored or sent back. Google's are a few bytes.
	MaxVersion = 1 << 10
	// MaxMinimumWait caps minimum_wait_duration, as the due time saved in
	// Dir is capped: a list is fetched again within a day, whatever the
	// reply said.
	MaxMinimumWait = 24 * time.Hour
	// listFraming bounds what one list of a reply holds besides its
	// Rice data: its name, version, checksum, minimum wait and metadata,
	// the Rice headers, the fields' tags and lengths, and its place in a
	// batch ([MaxListReply]).
	listFraming = 4 << 10
)

// listReplyLimit returns the most bytes a reply to a fetch of the lists
// due may have, when each may hold at most n hashes: n×(w+6) +
// listFraming for each list of w-byte hashes, at most MaxListReply, as
// MaxListReply's doc derives it.
func listReplyLimit(due []*listState, n int) int64 {
	var sum int64
	for _, s := range due {
		sum += int64(n)*int64(s.list.Width()+6) + listFraming
		if sum >= MaxListReply {
			return MaxListReply
		}
	}
	return sum
}

// Update fetches, once, every list that is due: whose minimum wait has
// passed (a list never fetched, or whose last reply gave no minimum wait, is
// due at once), while updates are not backing off. Two or more due lists go
// in one hashLists:batchGet request, one in a hashList request; each sends
// its stored version, unless it must be fetched whole.
//
// A failed request (a network error, a status other than 200, 429 and 503
// included, or a corrupt body) makes updates back off: BackoffBase ×
// 2^(n−1) × (1 + rand), at most MaxBackoff, n being the count of
// consecutive failures. While they back off, Update returns a
// [*BackoffError] at once with no request, so no caller can hammer the
// server. A list whose checksum does not match after the update keeps its
// old contents, which go on answering; its version is dropped, and once its
// minimum wait has passed it is fetched whole. That is not a failed request,
// but Update returns it as an error wrapping [hashlist.ErrChecksum].
//
// Each list updated goes to Dir. Update returns nil when no list is due,
// and [ErrFrozen] with no request when Config.Frozen is set.
//
// With Config.OHTTP, Update also fetches the gateway's key when the client
// holds none, frozen or not, unless Run is keeping it, and returns its
// failure with the lists'.
func (c *Client) Update(ctx context.Context) (result error) {
	if c.closing.Err() != nil {
		return ErrClosed
	}
	defer c.updateOHTTPKey(ctx, &result) // ohttpkey.go
	if c.frozen {
		return ErrFrozen
	}
	if c.mode == NoStorage {
		return nil
	}
	c.updateMu.Lock()
	defer c.updateMu.Unlock()
	if c.closing.Err() != nil {
		return ErrClosed
	}
	err := c.update(ctx)
	c.noteUpdate(ctx, err)
	return err
}

// update fetches the due lists, then saves to Dir every list not saved
// since it was updated: the save's failure is returned, and is no failed
// request.
func (c *Client) update(ctx context.Context) error {
	// After every change, so that a caller who read the generation
	// before Lists sees it move past anything Lists may have missed.
	defer c.listsGen.Add(1)
	err := c.fetchDue(ctx)
	return errors.Join(err, c.saveUnsaved())
}

// fetchDue fetches the due lists and applies the replies.
func (c *Client) fetchDue(ctx context.Context) error {
	now := c.now()
	if err := c.updates.check(now); err != nil {
		return err
	}
	var due []*listState
	for _, s := range c.lists {
		if !now.Before(s.next) {
			due = append(due, s)
		}
	}
	if len(due) == 0 {
		return nil
	}
	if c.api == WebRisk {
		return c.fetchDueWebRisk(ctx, due) // webrisk.go
	}
	c.stats.updates.Add(1)
	msgs, err := c.fetch(ctx, due)
	now = c.now()
	if err != nil {
		c.stats.updateErrors.Add(1)
		c.failed(ctx, &c.updates, now, err)
		if ctx.Err() == nil && c.closing.Err() == nil {
			drop := refusesRequest(err)
			c.statusMu.Lock()
			for _, s := range due {
				s.err = err
				s.whole = s.whole || drop
			}
			c.statusMu.Unlock()
		}
		return err
	}
	var errs []error
	failed := false
	for i, s := range due {
		err := c.apply(now, s, msgs[i])
		s.unsaved = s.unsaved || (err == nil && c.dir != "")
		c.statusMu.Lock()
		s.err = err
		c.statusMu.Unlock()
		switch {
		case err == nil:
		case errors.Is(err, hashlist.ErrChecksum):
			errs = append(errs, err)
		default:
			failed = true
			errs = append(errs, err)
		}
	}
	if failed {
		c.stats.updateErrors.Add(1)
		c.failed(ctx, &c.updates, now, errors.Join(errs...))
	} else {
		c.updates.reset()
	}
	c.refreshActive()
	c.markReady()
	return errors.Join(errs...)
}

// apply applies the HashList message msg to the list s and sets when it is
// due next; update saves it to Dir.
func (c *Client) apply(now time.Time, s *listState, msg []byte) error {
	h, err := parseListHeader(msg)
	if err != nil {
		s.whole = true
		return fmt.Errorf("lookup: list %s: %w", s.name, err)
	}
	if h.name != "" && h.name != s.name {
		// Said here, with the key masked before the name is clipped:
		// hashlist would clip it first.
		s.whole = true
		return fmt.Errorf("lookup: list %s: %w: message is for list %s", s.name, hashlist.ErrName, inputerr.Quote(mask(h.name, c.key)))
	}
	before := s.list.Len()
	// Config.MaxDatabaseEntries, checked before anything is decoded: the
	// additions' count, less the removals' (hashlist checks that the
	// data holds them all).
	n := h.adds
	if h.partial {
		n += int64(before) - h.removes
	}
	if n > int64(c.maxEntries) {
		s.whole = true
		return fmt.Errorf("lookup: list %s: %w: %d hashes, over Config.MaxDatabaseEntries (%d)", s.name, ErrCorruptReply, n, c.maxEntries)
	}
	if err := c.scrub(s.list.Apply(msg)); err != nil {
		// The old contents go on answering. Drop the version, so that the
		// next fetch is whole: after a checksum mismatch as the spec asks,
		// and after a corrupt message too, since the list we hold may be
		// what the server's update does not fit.
		s.whole = true
		if errors.Is(err, hashlist.ErrChecksum) {
			c.statusMu.Lock()
			s.next = now.Add(h.minWait)
			c.statusMu.Unlock()
			c.log.Warn("lookup: list checksum mismatch; keeping the old list, to be fetched whole",
				"list", s.name, "entries", before, "wait", h.minWait)
		}
		return fmt.Errorf("lookup: list %s: %w", s.name, err)
	}
	s.whole = false
	c.statusMu.Lock()
	s.next, s.updated = now.Add(h.minWait), now
	c.statusMu.Unlock()
	s.loaded.Store(true)
	c.log.Info("lookup: list updated", "list", s.name, "partial", h.partial,
		"entries", s.list.Len(), "before", before, "wait", h.minWait)
	return nil
}

// saveUnsaved saves to Dir each list updated since its last save. A
// failed save is not a failed request: the list serves from memory, the
// failure shows in the log and in ListStatus.Err, and the save is tried
// again at the next update, due or not, backing off or not. It returns
// the failures.
func (c *Client) saveUnsaved() error {
	var errs []error
	for _, s := range c.lists {
		if !s.unsaved {
			continue
		}
		err := writeFileFunc(c.dir, s.name, func(w io.Writer) error {
			return encodeFileTo(w, s.name, s.next, s.updated, func(w io.Writer) error {
				if s.set != nil {
					_, err := s.set.WriteTo(w)
					return err
				}
				_, err := s.list.WriteTo(w)
				return err
			})
		})
		if err != nil {
			c.log.Error("lookup: saving list; it serves from memory, and the save is tried again at the next update",
				"list", s.name, "err", err)
			errs = append(errs, err)
		}
		s.unsaved = err != nil
		c.statusMu.Lock()
		s.saveErr = err
		c.statusMu.Unlock()
	}
	return errors.Join(errs...)
}

// refusesRequest reports whether err is a 4xx reply that refuses the
// request itself: then the versions it sent are dropped, so that the next
// fetch is whole, and a version the server no longer takes (or a URL grown
// too long: 414) does not stop the updates for good. 408 and 429 refuse
// the timing, not the request.
func refusesRequest(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.StatusCode >= 400 && se.StatusCode < 500 &&
		se.StatusCode != http.StatusRequestTimeout && se.StatusCode != http.StatusTooManyRequests
}

// fetch requests the due lists and returns their HashList messages, in the
// order of due.
func (c *Client) fetch(ctx context.Context, due []*listState) ([][]byte, error) {
	maxDB, limit := strconv.Itoa(c.maxEntries), listReplyLimit(due, c.maxEntries)
	if len(due) == 1 {
		s := due[0]
		q := url.Values{"sizeConstraints.maxDatabaseEntries": {maxDB}}
		if v := s.list.Version(); !s.whole && len(v) > 0 {
			q.Set("version", base64.StdEncoding.EncodeToString(v))
		}
		body, err := c.get(ctx, methodList, "hashList/"+url.PathEscape(s.name), q, limit)
		if err != nil {
			return nil, err
		}
		return [][]byte{body}, nil
	}
	q := url.Values{"sizeConstraints.maxDatabaseEntries": {maxDB}}
	for _, s := range due {
		q.Add("names", s.name)
		if v := s.list.Version(); !s.whole && len(v) > 0 {
			q.Add("version", base64.StdEncoding.EncodeToString(v))
		}
	}
	body, err := c.get(ctx, methodBatch, "hashLists:batchGet", q, limit)
	if err != nil {
		return nil, err
	}
	lists, err := parseBatch(body)
	if err != nil {
		return nil, fmt.Errorf("lookup: %s: %w", methodBatch, err)
	}
	return matchLists(due, lists, c.key)
}

// matchLists puts the lists of a batch reply in the order of due: by name
// when the message has one, else by position, as the reply keeps the
// request's order. A list missing, repeated or not asked for makes the
// reply corrupt. A name is quoted with the API key masked.
func matchLists(due []*listState, lists [][]byte, key string) ([][]byte, error) {
	out := make([][]byte, len(due))
	for j, m := range lists {
		h, err := parseListHeader(m)
		if err != nil {
			return nil, fmt.Errorf("lookup: %s: %w", methodBatch, err)
		}
		i := -1
		switch {
		case h.name == "" && j < len(due):
			i = j
		case h.name != "":
			for k, s := range due {
				if s.name == h.name {
					i = k
				}
			}
		}
		if i < 0 || out[i] != nil {
			return nil, fmt.Errorf("lookup: %s: %w: list %s not asked for, or twice", methodBatch, ErrCorruptReply, inputerr.Quote(mask(h.name, key)))
		}
		out[i] = m
	}
	for i, m := range out {
		if m == nil {
			return nil, fmt.Errorf("lookup: %s: %w: no list %s", methodBatch, ErrCorruptReply, due[i].name)
		}
	}
	return out, nil
}

// Run keeps the lists fresh until ctx ends or the client is closed: it
// calls Update, then sleeps until the next list is due or the back-off
// ends, and again. It logs each list update with the list, its entry counts
// and its wait, and each failure. It returns ctx's error, or [ErrClosed];
// with Config.Frozen set, [ErrFrozen] at once. In NoStorage mode it only
// waits. With Config.OHTTP, Run also fetches the gateway's key at once and
// again when it is a day old, a frozen client's too (which then returns
// only when ctx ends).
func (c *Client) Run(ctx context.Context) error {
	if c.frozen && c.closing.Err() == nil {
		return c.runFrozen(ctx) // ErrFrozen, unless the OHTTP key needs fetching
	}
	defer c.goOHTTPKey(ctx)() // ohttpkey.go
	for {
		if c.closing.Err() != nil {
			return ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.mode != NoStorage {
			if err := c.Update(ctx); err != nil && !errors.Is(err, ErrBackoff) {
				c.log.Warn("lookup: update", "err", err)
			}
		}
		wait := c.nextWake().Sub(c.now())
		if c.mode == NoStorage {
			wait = time.Duration(1<<63 - 1)
		}
		c.log.Debug("lookup: next update", "wait", max(wait, 0))
		if err := c.sleep(ctx, wait); err != nil {
			if c.closing.Err() != nil {
				return ErrClosed
			}
			return err
		}
	}
}

// nextWake returns when the next list is due, or the updates' back-off
// ends if that is later.
func (c *Client) nextWake() time.Time {
	c.updateMu.Lock()
	defer c.updateMu.Unlock()
	var t time.Time
	for i, s := range c.lists {
		if i == 0 || s.next.Before(t) {
			t = s.next
		}
	}
	if n, until := c.updates.state(); n > 0 && until.After(t) {
		t = until
	}
	return t
}
