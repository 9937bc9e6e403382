// Package ampcache implements the AMP Cache URL format: how an AMP Cache
// rewrites a publisher's URLs, and how a publisher reads a cache's CORS
// Origin back. See https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/
// (shared/spec/amp-cache-url-format.md), except where the decisions below
// depart from it or fill a silence.
package ampcache
