// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cachetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// response is an origin response the cache has read whole.
type response struct {
	url    *url.URL // the resolved URL, after redirects
	header http.Header
	body   []byte
}

// get fetches pub from the origin as the spec's "Redirects" says: it
// follows the origin's redirects (301, 302, 303, 307 and 308 with a
// Location) up to the cache's bound, and returns the resolved response if
// its status is 200 OK. Every other outcome is an error: a status other
// than 200 (spec: "Not Found", "Server Errors"), a redirect loop or chain
// over the bound, a Location that is missing or not http or https, a body
// over the size bound, a fetch over the time bound.
//
// Each fetch is a GET with only the cache's own headers: the request of the
// cache's client (cookies, authorization, its Origin) never reaches the
// origin.
// fetchError is the error of a fetch of u that failed with err, which it
// keeps as its cause (so that errors.Is(err, context.Canceled) holds), and
// says when the fetch ran out of time.
func (c *Cache) fetchError(u *url.URL, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %v: %w", c.timeout, err)
	}
	return inputerr.Wrap(ErrOriginFetch, u.String(), err)
}

func (c *Cache) get(r *http.Request, pub *url.URL) (*response, error) {
	ctx, cancel := context.WithTimeout(r.Context(), c.timeout)
	defer cancel()
	u := pub
	for redirects := 0; ; redirects++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, inputerr.Wrap(ErrOriginFetch, u.String(), err)
		}
		req.Header.Set("User-Agent", userAgent)
		req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
		res, err := c.fetch.RoundTrip(req)
		if err != nil {
			return nil, c.fetchError(u, err)
		}
		switch res.StatusCode {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
			http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			res.Body.Close()
			loc := res.Header.Get("Location")
			if redirects >= c.maxRedirects {
				return nil, newError(ErrTooManyRedirects, pub.String(), "stopped after "+strconv.Itoa(c.maxRedirects)+" at "+u.String())
			}
			next, err := u.Parse(loc)
			if loc == "" || err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
				return nil, newError(ErrInvalidRedirect, loc, "from "+u.String())
			}
			next.Fragment, next.RawFragment = "", ""
			u = next
			continue
		case http.StatusOK:
		default:
			res.Body.Close()
			return nil, newError(ErrOriginStatus, u.String(), res.Status)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(io.LimitReader(res.Body, c.maxBody+1))
		if err != nil {
			return nil, c.fetchError(u, err)
		}
		if int64(len(body)) > c.maxBody {
			return nil, newError(ErrBodyTooLarge, u.String(), "over "+strconv.FormatInt(c.maxBody, 10)+" bytes")
		}
		return &response{url: u, header: res.Header, body: body}, nil
	}
}
