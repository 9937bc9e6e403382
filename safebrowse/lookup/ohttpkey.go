// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/safebrowse/ohttp"
)

// The life of the OHTTP key. Google asks clients to fetch the key once a
// day; a refetch that the gateway asks for waits a random delay of up to
// KeyRefetchJitter, 60 s by default as in Chromium's ohttp_key_service.
// Failed fetches back off by Chromium's BackoffOperator with the
// parameters its OhttpKeyService gives it
// (https://source.chromium.org/chromium/chromium/src/+/main:components/safe_browsing/core/browser/hashprefix_realtime/ohttp_key_service.cc,
// kNumFailuresToEnforceBackoff, kMinBackOffResetDurationInSeconds and
// kMaxBackOffResetDurationInSeconds): ohttpKeyFailures consecutive
// failures start a back-off of ohttpKeyBackoffMin, and the next with no
// success since lasts twice the last, up to ohttpKeyBackoffMax; when one
// ends, failures are counted afresh. Outside a back-off, Run retries a
// failed fetch after ohttpKeyRetry, as Chromium's async fetch does after
// kAsyncFetchCheckMinInterval.
const (
	ohttpKeyRefresh         = 24 * time.Hour
	defaultKeyRefetchJitter = 60 * time.Second
	ohttpKeyFailures        = 3
	ohttpKeyBackoffMin      = 5 * time.Minute
	ohttpKeyBackoffMax      = 24 * time.Hour
	ohttpKeyRetry           = time.Minute
)

var ohttpKeyOperator = operator{ohttpKeyFailures, ohttpKeyBackoffMin, ohttpKeyBackoffMax}

// methodKey names a key fetch in errors and logs.
const methodKey = "ohttp/hpkekeyconfig"

// ohttpState is a Client's Oblivious HTTP key and configuration.
type ohttpState struct {
	relay   string
	keyURL  string // without key=
	pinned  bool
	jitter  time.Duration // < 0: no wait
	padding bool          // OHTTPConfig.Padding
	http    *http.Client  // the client's, without its Jar

	running atomic.Int32 // Run's key loops; while one runs, Update leaves the key to it
	fetchMu sync.Mutex   // serialises key fetches

	fetches backoff // of key fetches

	mu      sync.Mutex
	key     *ohttp.Client // nil: none
	fetched time.Time     // when key was fetched; zero if pinned or none
	err     error         // the last key error
	held    bool          // a key has been held once
	changed chan struct{} // closed, then replaced, when a fetch ends
	timer   *time.Timer   // the refetch the gateway asked for, pending

	sleep func(ctx context.Context, d time.Duration) error // injected by tests
}

// current returns the key searches are sealed for, or the error of a
// search with no key: an ErrOHTTP key event wrapping the last key error.
func (k *ohttpState) current() (*ohttp.Client, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	if k.err != nil {
		return nil, &ohttpError{what: "key", err: &noKeyError{k.err}, keyEvent: true, unsent: true}
	}
	return nil, &ohttpError{what: "key", err: errors.New("no key yet: Run or Update fetches it"), keyEvent: true, unsent: true}
}

// noKeyError is the cause of a search with no key: the last key error,
// its "lookup: OHTTP key: " said once, by the ohttpError around it.
type noKeyError struct{ err error }

func (e *noKeyError) Error() string {
	s := strings.TrimPrefix(e.err.Error(), "lookup: ")
	return "no key: " + strings.TrimPrefix(s, "OHTTP key: ")
}

func (e *noKeyError) Unwrap() error { return e.err }

// due reports whether the key should be fetched at now: there is none, or
// it is a day old.
func (k *ohttpState) due(now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.key == nil || !now.Before(k.fetched.Add(ohttpKeyRefresh))
}

// notify wakes Ready. k.mu must be held.
func (k *ohttpState) notify() {
	close(k.changed)
	k.changed = make(chan struct{})
}

// fetchOHTTPKey fetches the key from KeyURL when it is due, or always when
// force is set, unless key fetches are backing off.
func (c *Client) fetchOHTTPKey(ctx context.Context, force bool) error {
	k := c.ohttp
	k.fetchMu.Lock()
	defer k.fetchMu.Unlock()
	if c.closing.Err() != nil {
		return ErrClosed
	}
	now := c.now()
	if !force && !k.due(now) {
		return nil
	}
	if err := k.fetches.check(now); err != nil {
		return err
	}

	c.stats.ohttpKeyFetches.Add(1)
	key, err := c.getOHTTPKey(ctx)
	now = c.now()
	if err != nil {
		c.stats.ohttpKeyErrors.Add(1)
		if ctx.Err() != nil || c.closing.Err() != nil {
			return err // no sign of a server in trouble
		}
		k.fetches.fail(now, 0, err)
		n, until := k.fetches.state()
		k.mu.Lock()
		k.err = err
		k.notify()
		k.mu.Unlock()
		c.log.Warn("lookup: OHTTP key fetch failed", "failures", n, "until", until, "err", err)
		return err
	}
	k.fetches.reset()
	k.mu.Lock()
	k.key, k.fetched, k.err, k.held = key, now, nil, true
	k.notify()
	k.mu.Unlock()
	c.log.Info("lookup: OHTTP key fetched", "key_id", key.Suite().KeyID, "suite", key.Suite().String())
	return nil
}

// getOHTTPKey sends GET KeyURL?key=K, directly as Chromium does, and
// returns the client for the key configuration it serves. The body is
// read up to ohttp.MaxKeyConfigsSize bytes. Every error is an ErrOHTTP,
// with the key masked.
func (c *Client) getOHTTPKey(ctx context.Context) (*ohttp.Client, error) {
	key, err := c.getOHTTPKey1(ctx)
	if err != nil {
		return nil, c.scrub(&ohttpError{what: "key", err: err})
	}
	return key, nil
}

func (c *Client) getOHTTPKey1(ctx context.Context) (*ohttp.Client, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.closing, cancel)()

	k := c.ohttp
	u := k.keyURL
	if strings.Contains(u, "?") {
		u += "&key=" + url.QueryEscape(c.key)
	} else {
		u += "?key=" + url.QueryEscape(c.key)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", methodKey, err)
	}
	req.Header.Set("Accept", "application/ohttp-keys")
	req.Header.Set("User-Agent", c.ua)
	resp, err := k.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", methodKey, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, &StatusError{Method: methodKey, StatusCode: resp.StatusCode,
			Message: message(serverMessage(resp.Header.Get("Content-Type"), b), c.key)}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, ohttp.MaxKeyConfigsSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the reply: %w", methodKey, err)
	}
	if len(b) > ohttp.MaxKeyConfigsSize {
		return nil, fmt.Errorf("%s: %w: reply over %d bytes", methodKey, ohttp.ErrTooLarge, ohttp.MaxKeyConfigsSize)
	}
	if shows(string(b), c.key) {
		// ohttp's error would quote the reply's first 100 bytes, which
		// may hold a part of the key too short for mask to find.
		return nil, fmt.Errorf("%s: %w: the reply shows the API key; not quoted", methodKey, ohttp.ErrKeyConfig)
	}
	key, err := parseOHTTPKey(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", methodKey, err)
	}
	return key, nil
}

// keyRefused handles a search whose key the gateway could not use (a 422
// or the ohttp-key problem): the key is dropped, unless pinned or already
// replaced, and a refetch is scheduled.
func (c *Client) keyRefused(used *ohttp.Client, err error) {
	k := c.ohttp
	c.stats.ohttpKeyErrors.Add(1)
	if k.pinned {
		c.log.Warn("lookup: the OHTTP gateway refused the pinned key; it is kept, as Config.OHTTP.KeyConfig asks",
			"key_id", used.Suite().KeyID, "err", err)
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != used {
		return // the key has changed since the search was sealed
	}
	k.key, k.fetched, k.err = nil, time.Time{}, err
	d := c.scheduleKeyFetch()
	c.log.Warn("lookup: the OHTTP gateway refused the key; dropped, to be fetched again",
		"key_id", used.Suite().KeyID, "in", d, "err", err)
}

// keyRotated handles a reply saying that the gateway's key is about to be
// retired: the key is kept, and a refetch is scheduled.
func (c *Client) keyRotated(used *ohttp.Client) {
	k := c.ohttp
	if k.pinned {
		c.log.Debug("lookup: the OHTTP gateway is rotating its key; the pinned key is kept", "key_id", used.Suite().KeyID)
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != used {
		return
	}
	d := c.scheduleKeyFetch()
	c.log.Info("lookup: the OHTTP gateway is rotating its key; fetching it again", "key_id", used.Suite().KeyID, "in", d)
}

// scheduleKeyFetch starts a timer that fetches the key after a random delay
// of up to KeyRefetchJitter, unless one is pending, and returns the delay.
// k.mu must be held.
func (c *Client) scheduleKeyFetch() time.Duration {
	k := c.ohttp
	if k.timer != nil || c.closing.Err() != nil {
		return 0
	}
	d := time.Duration(0)
	if k.jitter > 0 {
		d = time.Duration(c.rand() * float64(k.jitter))
	}
	k.timer = time.AfterFunc(d, func() {
		k.mu.Lock()
		k.timer = nil
		k.mu.Unlock()
		c.fetchOHTTPKey(c.closing, true) // a failure is logged and recorded
	})
	return d
}

// runOHTTPKey keeps the key fresh until ctx ends or the client is closed:
// it fetches the key when it has none or it is a day old, then sleeps
// until then, or until the back-off ends, or ohttpKeyRetry after a
// failure.
func (c *Client) runOHTTPKey(ctx context.Context) error {
	k := c.ohttp
	k.running.Add(1)
	defer k.running.Add(-1)
	for {
		if c.closing.Err() != nil {
			return ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		c.fetchOHTTPKey(ctx, false) // a failure is logged and recorded
		now := c.now()
		_, until := k.fetches.state()
		k.mu.Lock()
		wait := ohttpKeyRetry // after a failure, outside a back-off
		switch {
		case until.After(now):
			wait = until.Sub(now)
		case k.key != nil && now.Before(k.fetched.Add(ohttpKeyRefresh)):
			wait = k.fetched.Add(ohttpKeyRefresh).Sub(now)
		}
		k.mu.Unlock()
		if err := k.sleep(ctx, wait); err != nil {
			if c.closing.Err() != nil {
				return ErrClosed
			}
			return err
		}
	}
}

// goOHTTPKey starts runOHTTPKey beside Run, and returns the function that
// stops it and waits for it.
func (c *Client) goOHTTPKey(ctx context.Context) (stop func()) {
	if c.ohttp == nil || c.ohttp.pinned {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.runOHTTPKey(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// runFrozen is Run for a frozen client: [ErrFrozen] at once, or, with
// Config.OHTTP and no pinned key, the key kept fresh until ctx ends.
func (c *Client) runFrozen(ctx context.Context) error {
	if c.ohttp == nil || c.ohttp.pinned {
		return ErrFrozen
	}
	return c.runOHTTPKey(ctx)
}

// updateOHTTPKey is Update's part for the key: it fetches the key when
// the client has none, unless Run is keeping it, and joins its error to
// *errp.
func (c *Client) updateOHTTPKey(ctx context.Context, errp *error) {
	k := c.ohttp
	if k == nil || k.pinned || k.running.Load() > 0 || c.closing.Err() != nil {
		return
	}
	k.mu.Lock()
	has := k.key != nil
	k.mu.Unlock()
	if has {
		return
	}
	if err := c.fetchOHTTPKey(ctx, false); err != nil {
		if *errp == nil {
			*errp = err
		} else {
			*errp = errors.Join(*errp, err)
		}
	}
}

// readyOHTTP is Ready's part for the key: it waits until the client has
// held a key once, and returns early with the failure of a fetch while it
// has none.
func (c *Client) readyOHTTP(ctx context.Context) error {
	k := c.ohttp
	if k == nil {
		return nil
	}
	for {
		k.mu.Lock()
		held, err, changed := k.held, k.err, k.changed
		k.mu.Unlock()
		switch {
		case held:
			return nil
		case c.closing.Err() != nil:
			return ErrClosed
		case err != nil:
			return &notReadyError{err}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closing.Done():
			return ErrClosed
		}
	}
}

// ohttpHeld reports whether the client has no OHTTP, or has held a key
// once.
func (c *Client) ohttpHeld() bool {
	k := c.ohttp
	if k == nil {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.held
}

// stopOHTTP stops a pending refetch; Close calls it.
func (c *Client) stopOHTTP() {
	k := c.ohttp
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.timer != nil {
		k.timer.Stop()
		k.timer = nil
	}
}
