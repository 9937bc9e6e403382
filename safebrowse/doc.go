// Package safebrowse implements the URL rules of the Google Safe Browsing v5
// API: canonicalisation, host-suffix/path-prefix expressions, and their
// SHA-256 hashes. See https://developers.google.com/safe-browsing/reference/URLs.and.Hashing
// (shared/spec/safe-browsing-urls-and-hashing.tr.txt), except where the
// decisions below depart from it or fill a silence.
package safebrowse
