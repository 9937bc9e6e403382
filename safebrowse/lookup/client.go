// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse"
	"github.com/urlspec/urlspec/safebrowse/hashlist"
	"github.com/urlspec/urlspec/safebrowse/internal/listname"
	"github.com/urlspec/urlspec/safebrowse/internal/v4wire"
)

// Mode chooses the procedure of the v5 reference that answers a lookup.
// Under Web Risk, LocalList and NoStorage are their Web Risk forms (see
// the package doc, "Web Risk"), and RealTime does not exist.
type Mode int

const (
	// LocalList is the Local List procedure, the zero Mode: a URL goes to
	// the server only when a local threat list holds one of its prefixes.
	LocalList Mode = iota
	// RealTime is the Real-Time procedure: every URL whose full hashes are
	// not in the Global Cache list gc-32b goes to the server.
	RealTime
	// NoStorage is the No-Storage Real-Time procedure: no lists; every URL
	// not answered by the cache goes to the server.
	NoStorage
)

// String returns the Mode's name, such as "LocalList".
func (m Mode) String() string {
	switch m {
	case LocalList:
		return "LocalList"
	case RealTime:
		return "RealTime"
	case NoStorage:
		return "NoStorage"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode returns the Mode named s: "LocalList", "RealTime" or
// "NoStorage", in any case, with or without a '-' or '_' between words
// ("local-list", "realtime", "no_storage").
func ParseMode(s string) (Mode, error) {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s)) {
	case "locallist", "local":
		return LocalList, nil
	case "realtime":
		return RealTime, nil
	case "nostorage":
		return NoStorage, nil
	}
	return 0, fmt.Errorf("lookup: unknown mode %s (want LocalList, RealTime or NoStorage)", inputerr.Quote(s))
}

// DefaultLists are the threat lists a Client keeps when Config.Lists is nil:
// social engineering, malware, unwanted software (desktop and Android) and
// potentially harmful applications. Do not modify it.
var DefaultLists = []string{"se-4b", "mw-4b", "uws-4b", "uwsa-4b", "pha-4b"}

// GlobalCache is the list of likely-safe full hashes used in RealTime mode.
const GlobalCache = "gc-32b"

// DefaultMaxDatabaseEntries is the most hashes a list may hold when
// Config.MaxDatabaseEntries is 0: 2^24, several times the largest list
// Google serves, and about 36 MiB of heap for a 4-byte list.
const DefaultMaxDatabaseEntries = 1 << 24

// Config configures a Client. Its zero values mean the defaults; only APIKey
// is required.
type Config struct {
	// APIKey is the key of the Google Cloud project. Required. It goes only
	// into request URLs: no error or log line ever shows it.
	APIKey string

	// API is the server's API: SafeBrowsing (v5, the zero value) or
	// WebRisk (see the package doc, "Web Risk"). Under WebRisk, Mode is
	// LocalList or NoStorage, and OHTTP must be nil.
	API API

	// BaseURL is the server, "scheme://host[:port]" with no path;
	// "" means DefaultBaseURL, or DefaultWebRiskBaseURL under WebRisk.
	// The client appends /v5/..., or /v1/... under WebRisk.
	BaseURL string

	// Mode is the lookup procedure; the zero value is LocalList.
	Mode Mode

	// Lists are the hash lists to keep. nil means DefaultLists; RealTime
	// mode adds GlobalCache unless it is named. NoStorage keeps no lists:
	// Lists must be nil then.
	//
	// Under WebRisk, Lists are threat types, which name Web Risk's lists
	// (MALWARE, SOCIAL_ENGINEERING, UNWANTED_SOFTWARE,
	// SOCIAL_ENGINEERING_EXTENDED_COVERAGE), and nil means
	// DefaultWebRiskLists. They are also the threatTypes that every
	// hashes:search asks, which Web Risk requires: in NoStorage mode too,
	// where no list is kept.
	Lists []string

	// Dir is the directory the lists persist in across restarts, created
	// if need be; "" keeps them in memory only. Clients may share a Dir.
	// NoStorage mode stores nothing: Dir must be "" then.
	Dir string

	// HTTPClient sends the requests. nil means a client with timeouts (10 s
	// for TLS, 30 s for the reply's headers, 2 min in all). Its redirects
	// are never followed, whatever its CheckRedirect says.
	HTTPClient *http.Client

	// Logger receives a line for each list update and each failure. nil
	// means silent.
	Logger *slog.Logger

	// UserAgent names the program that uses the client, such as
	// "myscanner/1.2 (+https://example.com/bot)": it goes before the
	// library's own product token, "urlspec/<module version or devel>", in
	// the User-Agent header of every request, as Google's migration guide
	// asks clients to identify themselves. "" sends the token alone.
	UserAgent string

	// MaxDatabaseEntries is the most hashes a list may hold: it is sent as
	// sizeConstraints.maxDatabaseEntries with every list fetch, and a reply
	// that would make a list hold more is corrupt ([ErrCorruptReply]),
	// refused before it is decoded; the old list answers. 0 means
	// DefaultMaxDatabaseEntries; it must not be negative or past int32.
	MaxDatabaseEntries int

	// Frozen makes the client answer from the lists saved in Dir and never
	// fetch lists: Update and Run make no list request and return
	// [ErrFrozen], and Ready returns at once. Searches still go out as the
	// Mode says. It needs Dir, and a Mode that keeps lists. false (the
	// default) updates the lists when Update or Run is called.
	Frozen bool

	// OHTTP, when non-nil, sends every hashes:search through an Oblivious
	// HTTP relay to Google's gateway, never directly (see the package doc,
	// "Oblivious HTTP"). nil sends searches directly to BaseURL.
	OHTTP *OHTTPConfig

	// CacheBytes caps the bytes of the cache of hashes:search replies,
	// full hashes and their details counted, as the package doc's "The
	// cache" estimates them; [CacheSize] caps the count of its prefixes
	// beside. 0 means [DefaultCacheBytes]; it must not be negative. A
	// reply for one prefix larger than the whole budget answers its
	// lookups and is not cached.
	CacheBytes int64

	// MaxSearchesInFlight bounds the hashes:search requests in flight at
	// once, whoever made them (Lookup, LookupAll, SearchPrefixes): a
	// search beyond it waits for a slot (counted in [Stats].SearchWaits).
	// 0 means [DefaultMaxSearchesInFlight]; it must not be negative.
	// Concurrent calls that need one prefix share one request whatever
	// the bound (counted in [Stats].Coalesced).
	MaxSearchesInFlight int

	// MaxSearchesPerMinute caps the hashes:search requests sent in any 60
	// seconds, whoever made them: a search that would pass it is not
	// sent, and its lookups fail with [ErrSearchBudget] (counted in
	// [Stats].SearchesOverBudget), never "safe". Under WebRisk each
	// request is billed, one a prefix, and a NoStorage lookup may send 30
	// (see the package doc, "Web Risk"). 0 sets no cap; it must not be
	// negative.
	MaxSearchesPerMinute int
}

// A Client answers whether URLs are unsafe, from the Safe Browsing v5 API
// (or the Web Risk API, with Config.API) with the procedure its Mode
// names. It is safe for concurrent use: lookups
// run concurrently with each other and with updates.
type Client struct {
	key    string
	base   string
	api    API
	hosts  safebrowse.HostRule // HostsV5, or HostsV4 under Web Risk
	mode   Mode
	dir    string
	frozen bool
	ua     string // the User-Agent header
	// maxEntries is Config.MaxDatabaseEntries, or its default; under Web
	// Risk, wrConstraint if less.
	maxEntries int
	// wrConstraint is the constraints.maxDatabaseEntries and
	// maxDiffEntries that Web Risk's computeDiff sends: 0 unless
	// Config.MaxDatabaseEntries is set (webrisk.go).
	wrConstraint int32
	http         *http.Client
	log          *slog.Logger
	lists        []*listState     // every list kept
	gc           *hashlist.List   // GlobalCache in RealTime mode, else nil
	local        []*hashlist.List // the threat lists
	// active holds the threat lists that hold a hash, so that a lookup
	// spends nothing on empty lists; it changes only after an update.
	active atomic.Pointer[[]*hashlist.List]
	// Under Web Risk: the threat lists (none in NoStorage mode), those of
	// them that hold an entry, and the threat types every search asks.
	sets       []*hashlist.PrefixSet
	activeSets atomic.Pointer[[]*hashlist.PrefixSet]
	wrTypes    []v4wire.WebRiskThreatType
	cache      *cache
	stats      counters
	ohttp      *ohttpState // nil without Config.OHTTP (ohttpkey.go)
	budget     *budget     // Config.MaxSearchesPerMinute; nil: no cap (budget.go)

	searches backoff // of hashes:search
	updates  backoff // of hashList and hashLists:batchGet, or computeDiff
	flights  flights // the searches in flight (flight.go)

	updateMu sync.Mutex // serialises updates
	// listsGen grows at the end of each update, once what Lists reports
	// has changed, if it has ([Client.ListsGeneration]).
	listsGen atomic.Uint64
	statusMu sync.Mutex // guards the status of each list: next, err, updated
	ready    chan struct{}
	isReady  atomic.Bool

	readyMu sync.Mutex
	failure error         // the last update attempt's failure, while some list has never loaded
	changed chan struct{} // closed, then replaced, when failure is set

	closing   context.Context // done once Close is called
	close     context.CancelFunc
	closeOnce sync.Once

	// Injected by tests.
	now   func() time.Time
	rand  func() float64
	sleep func(ctx context.Context, d time.Duration) error
}

// listState is one list and its update state.
type listState struct {
	name   string
	list   *hashlist.List      // a v5 list; nil under Web Risk
	set    *hashlist.PrefixSet // a Web Risk list; nil under v5
	loaded atomic.Bool         // loaded once, from Dir or the server

	// Guarded by Client.updateMu; next, err, updated and saveErr are also
	// written under Client.statusMu, so that Lists may read them during an
	// update.
	next    time.Time // due at this time; zero: at once
	whole   bool      // fetch whole: send no version
	err     error     // the last failure of the list's update
	updated time.Time // when the contents were last fetched; zero: never, or unknown
	unsaved bool      // updated since it was last saved to Dir
	saveErr error     // the last save's failure
}

// len returns the entries the list holds.
func (s *listState) len() int {
	if s.set != nil {
		return s.set.Len()
	}
	return s.list.Len()
}

// version returns the list's version, a copy.
func (s *listState) version() []byte {
	if s.set != nil {
		return s.set.Version()
	}
	return s.list.Version()
}

// New returns a Client for cfg. It loads the lists saved in cfg.Dir and
// makes no request: call [Client.Update] or [Client.Run] to fetch them, and
// [Client.Ready] to wait for them. A file in Dir that is corrupt, truncated
// or not a list file is discarded, never an error: its list is fetched
// whole. New fails only for a bad Config, naming the field, or a Dir it
// cannot create.
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("lookup: Config.APIKey is empty")
	}
	if cfg.API != SafeBrowsing && cfg.API != WebRisk {
		return nil, fmt.Errorf("lookup: Config.API: unknown API %d", int(cfg.API))
	}
	if cfg.Mode < LocalList || cfg.Mode > NoStorage {
		return nil, fmt.Errorf("lookup: Config.Mode: unknown mode %d", int(cfg.Mode))
	}
	if cfg.API == WebRisk && cfg.Mode == RealTime {
		return nil, errors.New("lookup: Config.Mode: Web Risk has no Global Cache list, so no RealTime mode: use LocalList or NoStorage")
	}
	if cfg.API == WebRisk && cfg.OHTTP != nil {
		return nil, errors.New("lookup: Config.OHTTP: Google runs no Oblivious HTTP gateway for Web Risk; it must be nil under WebRisk")
	}
	base, err := parseBaseURL(cfg.BaseURL, cfg.API)
	if err != nil {
		return nil, err
	}
	var names []string
	if cfg.API == WebRisk {
		names, err = webRiskListNames(cfg.Lists)
	} else {
		names, err = listNames(cfg.Mode, cfg.Lists)
	}
	if err != nil {
		return nil, err
	}
	ua, err := userAgent(cfg.UserAgent)
	if err != nil {
		return nil, err
	}
	if cfg.Frozen && cfg.Mode == NoStorage {
		return nil, errors.New("lookup: Config.Frozen: NoStorage mode keeps no lists to freeze")
	}
	if cfg.Frozen && cfg.Dir == "" {
		return nil, errors.New("lookup: Config.Frozen needs Config.Dir, which the frozen lists load from")
	}
	if cfg.MaxDatabaseEntries < 0 || cfg.MaxDatabaseEntries > math.MaxInt32 {
		return nil, fmt.Errorf("lookup: Config.MaxDatabaseEntries %d: want 0 (the default) to 2^31-1", cfg.MaxDatabaseEntries)
	}
	if cfg.CacheBytes < 0 {
		return nil, fmt.Errorf("lookup: Config.CacheBytes %d is negative", cfg.CacheBytes)
	}
	if cfg.MaxSearchesInFlight < 0 {
		return nil, fmt.Errorf("lookup: Config.MaxSearchesInFlight %d is negative", cfg.MaxSearchesInFlight)
	}
	if cfg.MaxSearchesPerMinute < 0 || cfg.MaxSearchesPerMinute > MaxSearchesPerMinute {
		return nil, fmt.Errorf("lookup: Config.MaxSearchesPerMinute %d: want 0 (no cap) to %d", cfg.MaxSearchesPerMinute, MaxSearchesPerMinute)
	}
	if cfg.Mode == NoStorage && cfg.Dir != "" {
		return nil, errors.New("lookup: Config.Dir must be empty in NoStorage mode, which stores nothing")
	}
	c := &Client{
		key:        cfg.APIKey,
		base:       base,
		api:        cfg.API,
		hosts:      safebrowse.HostsV5,
		mode:       cfg.Mode,
		frozen:     cfg.Frozen,
		maxEntries: cmp.Or(cfg.MaxDatabaseEntries, DefaultMaxDatabaseEntries),
		ua:         ua,
		dir:        cfg.Dir,
		http:       newHTTPClient(cfg.HTTPClient),
		log:        cfg.Logger,
		cache:      newCache(CacheSize, cmp.Or(cfg.CacheBytes, DefaultCacheBytes)),
		flights:    newFlights(cmp.Or(cfg.MaxSearchesInFlight, DefaultMaxSearchesInFlight)),
		budget:     newBudget(cfg.MaxSearchesPerMinute),
		ready:      make(chan struct{}),
		changed:    make(chan struct{}),
		now:        time.Now,
		rand:       rand.Float64,
	}
	c.sleep = c.sleepTimer
	c.searches.method, c.searches.op = methodSearch, searchOperator
	c.updates.method = "update"
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	c.closing, c.close = context.WithCancel(context.Background())
	if c.ohttp, err = newOHTTP(cfg.OHTTP, c); err != nil {
		return nil, err
	}
	if c.dir != "" {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			return nil, fmt.Errorf("lookup: Config.Dir: %w", err)
		}
	}
	if c.api == WebRisk {
		c.hosts = safebrowse.HostsV4
		if cfg.MaxDatabaseEntries > 0 {
			c.wrConstraint = webRiskConstraint(cfg.MaxDatabaseEntries)
			c.maxEntries = min(c.maxEntries, int(c.wrConstraint))
		}
		for _, name := range names {
			c.wrTypes = append(c.wrTypes, webRiskType(name))
		}
		if c.mode == NoStorage {
			names = nil // the threat types searched, no list kept
		}
	}
	for _, name := range names {
		s := &listState{name: name, whole: true}
		if c.api == WebRisk {
			if s.set, err = hashlist.NewPrefixSet(name); err != nil {
				return nil, fmt.Errorf("lookup: Config.Lists: %w", err)
			}
			c.sets = append(c.sets, s.set)
		} else {
			if s.list, err = hashlist.New(name); err != nil {
				return nil, fmt.Errorf("lookup: Config.Lists: %w", err)
			}
			if name == GlobalCache {
				c.gc = s.list
			} else {
				c.local = append(c.local, s.list)
			}
		}
		c.lists = append(c.lists, s)
		if c.dir != "" {
			c.load(s)
		}
	}
	c.refreshActive()
	c.markReady()
	return c, nil
}

// refreshActive stores the threat lists that hold a hash in c.active,
// and under Web Risk those that hold an entry in c.activeSets.
func (c *Client) refreshActive() {
	var a []*hashlist.List
	for _, l := range c.local {
		if l.Len() > 0 {
			a = append(a, l)
		}
	}
	c.active.Store(&a)
	var sets []*hashlist.PrefixSet
	for _, l := range c.sets {
		if l.Len() > 0 {
			sets = append(sets, l)
		}
	}
	c.activeSets.Store(&sets)
}

// load reads the list s from Dir, if it is there; a bad file is discarded.
func (c *Client) load(s *listState) {
	data, err := readFile(c.dir, s.name)
	if data == nil && err == nil {
		return
	}
	var next, updated time.Time
	if err == nil {
		var blob []byte
		next, updated, blob, err = decodeFile(s.name, data)
		if err == nil && s.set != nil {
			err = s.set.UnmarshalBinary(blob)
		} else if err == nil {
			err = s.list.UnmarshalBinary(blob)
		}
	}
	if err != nil {
		c.log.Warn("lookup: discarding saved list; it will be fetched whole", "list", s.name, "err", err)
		return
	}
	// A due time far ahead is a clock that jumped, or a file from elsewhere.
	if now := c.now(); next.After(now.Add(MaxBackoff)) {
		next = now
	}
	// A version too long to send (saved before MaxVersion) is dropped: the
	// list answers, and is fetched whole.
	s.next, s.whole, s.updated = next, len(s.version()) > MaxVersion, updated
	s.loaded.Store(true)
	c.log.Info("lookup: list loaded", "list", s.name, "entries", s.len(), "dir", c.dir)
}

// parseBaseURL checks Config.BaseURL and returns it without a trailing
// '/': "" is the default of api.
func parseBaseURL(s string, api API) (string, error) {
	if s == "" && api == WebRisk {
		return DefaultWebRiskBaseURL, nil
	}
	if s == "" {
		return DefaultBaseURL, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("lookup: Config.BaseURL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("lookup: Config.BaseURL %s: want scheme://host[:port]", inputerr.Quote(s))
	}
	return strings.TrimSuffix(s, "/"), nil
}

// listNames returns the lists to keep for mode, checking Config.Lists:
// each name is trimmed of "hashLists/" once, then must be
// [listname.Valid] and named once.
func listNames(mode Mode, lists []string) ([]string, error) {
	if mode == NoStorage {
		if len(lists) != 0 {
			return nil, errors.New("lookup: Config.Lists must be nil in NoStorage mode, which keeps no lists")
		}
		return nil, nil
	}
	if lists == nil {
		lists = DefaultLists
	}
	names := slices.Clone(lists)
	for i, n := range names {
		names[i] = listname.Trim(n) // decision 4
	}
	if mode == RealTime && !slices.Contains(names, GlobalCache) {
		names = append(names, GlobalCache)
	}
	if mode == LocalList && slices.Contains(names, GlobalCache) {
		return nil, errors.New("lookup: Config.Lists: gc-32b is used in RealTime mode only")
	}
	if len(names) == 0 {
		return nil, errors.New("lookup: Config.Lists is empty; nil means the default lists")
	}
	for i, n := range names {
		if !listname.Valid(n) {
			return nil, fmt.Errorf("lookup: Config.Lists: bad list name %s: want 1 to 64 bytes of a-z, 0-9 and '-', ending in -4b, -8b, -16b or -32b", inputerr.Quote(n))
		}
		if slices.Contains(names[:i], n) {
			return nil, fmt.Errorf("lookup: Config.Lists: %s named twice", inputerr.Quote(n))
		}
	}
	return names, nil
}

// webRiskListNames returns the Web Risk lists named by Config.Lists, each
// a threat type that [listname.ValidWebRisk] accepts, named once; nil
// means DefaultWebRiskLists.
func webRiskListNames(lists []string) ([]string, error) {
	if lists == nil {
		lists = DefaultWebRiskLists
	}
	if len(lists) == 0 {
		return nil, errors.New("lookup: Config.Lists is empty; nil means the default lists")
	}
	for i, n := range lists {
		if !listname.ValidWebRisk(n) {
			return nil, fmt.Errorf("lookup: Config.Lists: bad Web Risk list %s: want MALWARE, SOCIAL_ENGINEERING, UNWANTED_SOFTWARE or SOCIAL_ENGINEERING_EXTENDED_COVERAGE", inputerr.Quote(n))
		}
		if slices.Contains(lists[:i], n) {
			return nil, fmt.Errorf("lookup: Config.Lists: %s named twice", inputerr.Quote(n))
		}
	}
	return slices.Clone(lists), nil
}

// markReady closes c.ready once every list has been loaded once.
func (c *Client) markReady() {
	if c.isReady.Load() {
		return
	}
	for _, s := range c.lists {
		if !s.loaded.Load() {
			return
		}
	}
	c.readyMu.Lock()
	defer c.readyMu.Unlock()
	if !c.isReady.Load() {
		c.isReady.Store(true)
		close(c.ready)
	}
}

// Ready waits until every list has been loaded once, from Dir or the
// server, so that lookups no longer return [ErrNotReady], and, with
// Config.OHTTP, until the client has held the gateway's key once, in
// whichever order the two come; then it returns nil. It never returns nil
// before both, so that the first search after it has a key to seal for.
// Ready fetches nothing itself: [Client.Run] or [Client.Update] must be
// running. It returns early with an error:
//
//   - as soon as an update attempt has failed while some list has never
//     loaded: the error is an [ErrNotReady] that wraps the failure, so that
//     errors.As finds the [*StatusError] of a refused fetch, even when the
//     client is backing off by then;
//   - at once for a frozen client (Config.Frozen) that Dir did not give
//     every list: [ErrNotReady];
//   - with Config.OHTTP, as soon as a key fetch has failed while the
//     client has never held a key: an [ErrNotReady] wrapping the failure,
//     an [ErrOHTTP];
//   - ctx's error if ctx ends first, and [ErrClosed] if the client is
//     closed.
//
// In NoStorage mode, which keeps no list, the lists are ready at once.
func (c *Client) Ready(ctx context.Context) error {
	for {
		if c.isReady.Load() {
			return c.readyOHTTP(ctx)
		}
		c.readyMu.Lock()
		failure, changed := c.failure, c.changed
		c.readyMu.Unlock()
		if c.closing.Err() != nil {
			return ErrClosed
		}
		if failure != nil {
			return &notReadyError{failure}
		}
		if c.frozen {
			return ErrNotReady // no update will load the missing lists
		}
		select {
		case <-c.ready:
			// Loaded: round again, to wait for the key too.
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closing.Done():
			return ErrClosed
		}
	}
}

// noteUpdate records the outcome of an update attempt for Ready: its
// failure while some list has never loaded, or nil after a success. An
// attempt cut short by the caller's context or by Close says nothing of the
// server, and one refused by the back-off made no request: neither changes
// what Ready reports.
func (c *Client) noteUpdate(ctx context.Context, err error) {
	if ctx.Err() != nil || c.closing.Err() != nil || errors.Is(err, ErrBackoff) {
		return
	}
	c.readyMu.Lock()
	defer c.readyMu.Unlock()
	if err != nil && c.isReady.Load() {
		err = nil
	}
	if err == nil && c.failure == nil {
		return
	}
	c.failure = err
	if err != nil {
		close(c.changed)
		c.changed = make(chan struct{})
	}
}

// notReady returns the error of a lookup before the lists have loaded:
// [ErrNotReady], wrapping the last update's failure if there is one.
func (c *Client) notReady() error {
	c.readyMu.Lock()
	defer c.readyMu.Unlock()
	if c.failure != nil {
		return &notReadyError{c.failure}
	}
	return ErrNotReady
}

// API returns the API the client speaks, as Config.API chose it.
func (c *Client) API() API { return c.api }

// IsReady reports whether every list has been loaded once and, with
// Config.OHTTP, the client has held the gateway's key once.
func (c *Client) IsReady() bool { return c.isReady.Load() && c.ohttpHeld() }

// Close stops [Client.Run], cancels the requests in flight, waits for an
// update in progress to end (so that nothing writes to Dir after Close
// returns) and makes every later call return [ErrClosed]. The lists in Dir
// stay. Close may be called more than once; it always returns nil.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.close()
		c.stopOHTTP()
		c.updateMu.Lock()
		//lint:ignore SA2001 an empty critical section waits for the update in progress
		c.updateMu.Unlock()
	})
	return nil
}

// usable returns the error a lookup gets now, if any.
func (c *Client) usable() error {
	if c.closing.Err() != nil {
		return ErrClosed
	}
	if !c.isReady.Load() {
		return c.notReady()
	}
	return nil
}

// ListStatus describes one list a Client keeps, as [Client.Lists] reports it.
type ListStatus struct {
	Name    string
	Entries int    // hashes held
	Version []byte // the version the server gave, as stored
	Loaded  bool   // loaded once, from Dir or the server
	// Next is when the list is due for an update, or when the updates'
	// back-off ends if that is later ([Client.Backoff]); zero: at once.
	Next time.Time
	// Err is the last failure of the list's update (a failed fetch, a
	// corrupt list, a checksum mismatch) or of its save to Dir; nil after
	// a success.
	Err error
	// Updated is when the list's contents were last fetched from the
	// server, kept in Dir across restarts, so that time.Since(Updated) is
	// the age of the lists a client answers from; zero if never.
	Updated time.Time
}

// Lists reports the state of each list the client keeps, in the order of
// Config.Lists. It does not wait for an update in progress.
func (c *Client) Lists() []ListStatus {
	until := c.Backoff().UpdateUntil
	c.statusMu.Lock()
	defer c.statusMu.Unlock()
	out := make([]ListStatus, len(c.lists))
	for i, s := range c.lists {
		err := s.err
		if err == nil {
			err = s.saveErr
		}
		next := s.next
		if until.After(next) {
			next = until
		}
		out[i] = ListStatus{Name: s.name, Entries: s.len(), Version: s.version(), Loaded: s.loaded.Load(),
			Next: next, Err: err, Updated: s.updated}
	}
	return out
}

// ListsGeneration returns a number that grows at the end of every
// update, once the lists, their status and the updates' back-off have
// changed. Read before [Client.Lists], it names what Lists returned:
// while it has not moved, Lists would report the same, but for Next,
// which Lists moves to the end of the updates' back-off only while that
// lasts (where the two differ, both are in the past). A caller that
// reads Lists per request, as a mirror does, keeps what Lists returned
// until the number moves, and so copies nothing per request. It does
// not allocate.
func (c *Client) ListsGeneration() uint64 { return c.listsGen.Load() }

// sleepTimer waits d, or until ctx ends or the client is closed.
func (c *Client) sleepTimer(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.closing.Done():
		return ErrClosed
	}
}
